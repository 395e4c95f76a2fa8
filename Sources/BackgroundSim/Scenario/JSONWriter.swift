/// Writes ``JSONValue`` trees as text with a stable layout.
///
/// Numbers that are whole and within ±2⁵³ print without a fraction (`42`); others print with
/// Swift's shortest round-tripping representation (`0.1`), which is the same on every platform.
package enum JSONWriter {
    /// The value as compact JSON on one line.
    package static func compact(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output, indent: nil, level: 0)
        return output
    }

    /// The value as indented JSON, two spaces a level.
    package static func pretty(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output, indent: "  ", level: 0)
        return output
    }

    /// A number as JSON text.
    package static func format(_ number: Double) -> String {
        if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {
            return String(Int64(number))
        }
        return "\(number)"
    }

    /// A string as a quoted JSON string literal.
    package static func quote(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    private static func write(_ value: JSONValue, to output: inout String, indent: String?, level: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += format(number)
        case .string(let text): output += quote(text)
        case .array(let elements):
            writeContainer(open: "[", close: "]", count: elements.count, to: &output, indent: indent, level: level) { i, output in
                write(elements[i], to: &output, indent: indent, level: level + 1)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, to: &output, indent: indent, level: level) { i, output in
                output += quote(members[i].key) + (indent == nil ? ":" : ": ")
                write(members[i].value, to: &output, indent: indent, level: level + 1)
            }
        }
    }

    private static func writeContainer(
        open: String, close: String, count: Int, to output: inout String, indent: String?, level: Int,
        element: (Int, inout String) -> Void
    ) {
        output += open
        guard count > 0 else { return output += close }
        for i in 0..<count {
            if i > 0 { output += "," }
            if let indent { output += "\n" + String(repeating: indent, count: level + 1) }
            element(i, &output)
        }
        if let indent { output += "\n" + String(repeating: indent, count: level) }
        output += close
    }
}
