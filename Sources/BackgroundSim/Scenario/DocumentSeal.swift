import SimKernel

/// The digest a scenario document written by a command carries of its own content — a
/// calibration's fragment, a check's failing scenario — so that a copy changed since is not
/// taken for what the command wrote.
///
/// The seal is the document's last top-level member:
///
///     "sealedBy": { "tool": "bgsim calibrate", "content": "0ab782e1605c6746" }
///
/// `content` is the 64-bit FNV-1a hash (16 hex digits) of the document without that member,
/// written compact (``JSONWriter/compact(_:)``), so re-indenting the file keeps it valid and
/// changing any value does not. A file that fails its seal is refused (exit 2) with the way
/// out: delete `sealedBy` to use it as changed, or run the tool again. It catches accidents and
/// edits, not forgery: it is not a signature. A document without a seal is read as always.
package enum DocumentSeal {
    /// The member that holds the seal.
    package static let key = "sealedBy"

    /// `document` (an object) with its seal added as its last member, naming `tool`.
    package static func sealed(_ document: JSONValue, by tool: String) -> JSONValue {
        guard case .object(let members) = document else { return document }
        let content = digest(.object(members.filter { $0.key != key }))
        return .object(members.filter { $0.key != key } + [(key, .object([("tool", .string(tool)), ("content", .string(content))]))])
    }

    /// `document` without its seal, after checking it; unchanged if it has none.
    ///
    /// - Throws: ``ScenarioError`` naming `source` and the seal if the content changed, or the
    ///   seal is not one.
    package static func opened(_ document: JSONValue, source: String) throws(ScenarioError) -> JSONValue {
        guard case .object(let members) = document, let seal = document[key] else { return document }
        let rest = JSONValue.object(members.filter { $0.key != key })
        guard case .string(let content)? = seal["content"] else {
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: key, message: "expected {\"tool\": …, \"content\": \"<16 hex digits>\"}")])
        }
        let tool: String
        if case .string(let name)? = seal["tool"] { tool = name } else { tool = "the tool that wrote it" }
        guard content == digest(rest) else {
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: key, message:
                "the file was written by \(tool) and has changed since (its content does not match its digest); "
                + "to use it as changed, delete \"\(key)\"; for what \(tool) wrote, run it again")])
        }
        return rest
    }

    /// FNV-1a, 64 bits, of the document written compact, as 16 hex digits.
    static func digest(_ document: JSONValue) -> String {
        let digits = String(StreamLabel.fnv1a64(JSONWriter.compact(document).utf8), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
