import Foundation

/// The rules every text input follows, whichever reader reads it (scenarios and fragments,
/// field logs in JSON lines or CSV, MetricKit payloads), stated once:
///
/// - A UTF-8 byte order mark at the start (Excel's "CSV UTF-8" writes one) is skipped.
/// - A line ends at a line feed, a carriage return and a line feed, or a carriage return alone.
/// - A file is named once: a second name for it (another path, a symbolic or a hard link) is
///   refused, since its records would count twice.
/// - A message shows a name with invisible characters (a byte order mark, a zero-width space,
///   a control character) with those characters escaped, `\u{FEFF}`, so that the reader sees
///   why a name that looks right is not.
package enum TextInput {
    /// The UTF-8 encoding of U+FEFF, the byte order mark.
    package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// How many bytes at the start of `prefix` are a byte order mark: 3 or 0.
    package static func byteOrderMarkLength(_ prefix: some Collection<UInt8>) -> Int {
        prefix.starts(with: byteOrderMark) ? byteOrderMark.count : 0
    }

    /// `text` without a byte order mark at its start.
    package static func withoutByteOrderMark(_ text: String) -> String {
        text.hasPrefix("\u{FEFF}") ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// The lines of `text`, each without its line end (line feed, carriage return and line
    /// feed, or carriage return alone), the empty line after a final line end left out.
    package static func lines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            // "\r\n" is one Character in Swift, so each line end is one character here.
            if text[index] == "\n" || text[index] == "\r" || text[index] == "\r\n" {
                lines.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        if start < text.endIndex { lines.append(text[start...]) }
        return lines
    }

    /// `name` as a message shows it: as it is if every character is visible, else with each
    /// invisible one written `\u{XXXX}`.
    package static func visible(_ name: some StringProtocol) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            if isInvisible(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` shows nothing: a control or format character, a line or paragraph
    /// separator, or a space other than the ASCII space.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate: true
        case .spaceSeparator: scalar != " "
        default: false
        }
    }

    /// Throws if two of `paths` name the same file by any path: the same path twice, another
    /// path to it, a symbolic link or a hard link (the same device and inode). `-` (standard
    /// input) and paths that cannot be read are left to the reader.
    ///
    /// - Parameter counted: What would be counted twice, for the message: `"records"`.
    package static func requireDistinct(_ paths: [String], counted: String) throws(ScenarioError) {
        var seen: [String: String] = [:]
        for path in paths where path != "-" {
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
            let attributes = try? FileManager.default.attributesOfItem(atPath: resolved)
            let identity = (attributes?[.systemNumber] as? NSNumber).flatMap { device in
                (attributes?[.systemFileNumber] as? NSNumber).map { "\(device.uint64Value):\($0.uint64Value)" }
            } ?? resolved
            if let earlier = seen[identity] {
                throw ScenarioError(source: path, issues: [ScenarioIssue(
                    path: "", message: "this file is already given (as \(earlier)); its \(counted) would count twice")])
            }
            seen[identity] = path
        }
    }
}
