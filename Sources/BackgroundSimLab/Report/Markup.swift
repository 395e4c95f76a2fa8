/// Builds well-formed XML text — the XHTML and inline SVG of reports — with every element
/// closed and every text and attribute value escaped.
///
/// Attributes are ordered pairs, so the same calls always give the same bytes.
package struct Markup {
    package private(set) var text = ""

    package init() {}

    /// Opens `name` with `attributes`; pair it with ``close(_:)``.
    package mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        text += "<" + name + Self.attributes(attributes) + ">"
    }

    /// Closes `name`, opened by ``open(_:_:)``.
    package mutating func close(_ name: String) {
        text += "</" + name + ">"
    }

    /// An element holding only `content`, escaped.
    package mutating func element(_ name: String, _ attributes: [(String, String)] = [], _ content: String) {
        text += "<" + name + Self.attributes(attributes) + ">" + Self.escape(content) + "</" + name + ">"
    }

    /// An element with no content: `<name …/>`.
    package mutating func empty(_ name: String, _ attributes: [(String, String)] = []) {
        text += "<" + name + Self.attributes(attributes) + "/>"
    }

    /// Markup built elsewhere, inserted as is.
    package mutating func append(_ other: Markup) {
        text += other.text
    }

    /// A line break between elements, for a readable source.
    package mutating func newline() {
        text += "\n"
    }

    package static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " " + $0.0 + "=\"" + escape($0.1) + "\"" }.joined()
    }

    /// `text` with the characters XML reserves replaced by entities every XML parser knows.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
