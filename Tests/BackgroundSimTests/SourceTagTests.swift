import Foundation
import Testing

/// A number's source tag — [A] Apple, [A-DTS] an Apple engineer, [A-via] Apple as others report
/// it, [O] observed in the field, [C] an app's public code, [Inf] our inference — is written
/// twice: in the doc comment of the property that holds it, and where docs/MODEL.md gives its
/// default. The two must agree, or a reader of one is told something the other contradicts (a
/// processing spacing [O] in the docs and [Inf] in the code, found in December 2026).
@Suite("Source tags")
struct SourceTagTests {
    /// The tags, longest first so that `[A-DTS]` is not read as `[A]`.
    static let tags = ["A-DTS", "A-via", "Inf", "A", "O", "C"]

    static var root: URL {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root
    }

    /// The tags in `text`: `[TAG]`, or `[TAG` followed by `:`, `;`, `,`, `/` or a space and more.
    static func tags(in text: Substring) -> Set<String> {
        var found: Set<String> = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "[") {
            let after = rest[rest.index(after: open)...]
            if let tag = tags.first(where: { tag in
                after.hasPrefix(tag) && after.dropFirst(tag.count).first.map { "]:;,/ ".contains($0) } == true
            }) {
                found.insert(tag)
            }
            rest = after
        }
        return found
    }

    /// Every property's doc comment in `Sources/`, by the property's name (a name declared in
    /// several places keeps each).
    static func codeTags() throws -> [String: [(file: String, tags: Set<String>)]] {
        var result: [String: [(file: String, tags: Set<String>)]] = [:]
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        for case let url as URL in files where url.pathExtension == "swift" {
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.contains("var ") {
                guard let match = line.firstMatch(of: /^\s*(?:public |package )?var (\w+)\s*[:=]/) else { continue }
                var doc: [Substring] = []
                var above = index - 1
                while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                    doc.insert(lines[above], at: 0)
                    above -= 1
                }
                guard !doc.isEmpty else { continue }
                result[String(match.1), default: []].append((url.lastPathComponent, tags(in: doc.joined(separator: " ")[...])))
            }
        }
        return result
    }

    /// Where docs/MODEL.md gives a number as "`name` (its default [TAG] …)" or
    /// "`section.name` (…)", the tags inside the parentheses, by the name's last component.
    static func documentedTags() throws -> [String: Set<String>] {
        let model = try String(contentsOf: root.appendingPathComponent("docs/MODEL.md"), encoding: .utf8)
        var result: [String: Set<String>] = [:]
        for match in model.matches(of: /`([a-zA-Z][a-zA-Z0-9.]*)` \(([^()]*)\)/) {
            let found = tags(in: match.2)
            guard !found.isEmpty, let key = match.1.split(separator: ".").last else { continue }
            result[String(key), default: []].formUnion(found)
        }
        return result
    }

    @Test("the tag parser reads [Inf], [O: a report], [A-DTS] and [A-via] as themselves, and no tag in [Apple] or [1]")
    func parser() {
        #expect(Self.tags(in: "60 s [Inf]; [O: thread 128813], [A-DTS] and [A-via]") == ["Inf", "O", "A-DTS", "A-via"])
        #expect(Self.tags(in: "[Apple] [1] [Infinite]").isEmpty)
    }

    @Test("every number docs/MODEL.md gives with a tag carries that tag in its property's doc comment")
    func docsAgreeWithCode() throws {
        let code = try Self.codeTags()
        let documented = try Self.documentedTags()
        // Enough numbers are tagged in the docs for the check to mean something.
        #expect(documented.count >= 30, "\(documented.count) tagged numbers found in docs/MODEL.md")
        var checked = 0
        for (key, tags) in documented.sorted(by: { $0.key < $1.key }) {
            guard let properties = code[key] else { continue }    // a word in backticks, not a property
            for property in properties {
                checked += 1
                #expect(tags.isSubset(of: property.tags),
                        "\(key): docs/MODEL.md tags it \(tags.sorted()), its doc comment in \(property.file) \(property.tags.sorted())")
            }
        }
        #expect(checked >= 30)
    }
}
