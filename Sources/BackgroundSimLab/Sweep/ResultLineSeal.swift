/// The digest a result line carries of its own content, so that a line edited by hand or
/// damaged on the way is refused rather than trusted.
///
/// A sealed line is the compact JSON object of the results, with one last member added:
/// `"content":"<16 hex digits>"`, the 64-bit FNV-1a hash of the object's text before the member
/// was added (``SweepFingerprint``'s hash). Opening a line checks the hash against the text
/// before that member, byte for byte. It detects accidents and edits, not forgery: anyone can
/// recompute the hash, so it is not a signature.
package enum ResultLineSeal {
    /// The member a sealed line ends with, up to its digest.
    static let marker = ",\"content\":\""

    /// `object`, a compact JSON object's text (ending in `}`), with its content digest added as
    /// its last member.
    package static func sealed(_ object: String) -> String {
        precondition(object.hasPrefix("{") && object.hasSuffix("}") && object.count > 2, "ResultLineSeal: not a non-empty JSON object")
        return String(object.dropLast()) + marker + SweepFingerprint.hash([object]) + "\"}"
    }

    /// What opening a line found.
    package enum Opened: Equatable {
        /// The digest matches: the object's text without the seal.
        case intact(String)
        /// The line has no content digest (not a sealed line, or written by an older version).
        case unsealed
        /// The digest does not match the content: the line was edited or damaged.
        case altered
    }

    /// Checks `line`'s content digest.
    package static func open(_ line: String) -> Opened {
        // `,"content":"` + 16 hex digits + `"}` ends the line.
        guard line.hasSuffix("\"}"), let range = line.range(of: marker, options: .backwards) else { return .unsealed }
        let digest = line[range.upperBound...].dropLast(2)
        guard digest.count == 16, digest.allSatisfy({ $0.isHexDigit }) else { return .unsealed }
        let object = String(line[..<range.lowerBound]) + "}"
        return SweepFingerprint.hash([object]) == digest ? .intact(object) : .altered
    }
}
