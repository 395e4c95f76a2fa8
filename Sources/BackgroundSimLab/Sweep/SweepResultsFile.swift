import BackgroundSim
import Foundation

/// A sweep's results file: one JSON line per finished cell, each ending in a newline.
///
/// Cells are appended one line at a time, with a single write of the line and its newline, so
/// finishing a cell costs the same however many came before; a kill can leave at most the last
/// line cut short, without its newline, and such a line is never taken as data.
package enum SweepResultsFile {
    /// One line of a results file.
    package struct Line: Sendable {
        /// The cell's index.
        package var cell: Int
        /// How many cells the sweep that wrote it has.
        package var cellCount: Int
        /// The fingerprints of the sweep and of the cell (``SweepFingerprint``).
        package var sweep: String
        package var fingerprint: String
        /// The line's text, without its newline.
        package var text: String
        /// Where it is: 1 for the first line.
        package var number: Int
    }

    /// What reading a file found.
    package struct Contents: Sendable {
        package var lines: [Line]
        /// Whether the file ends in a line cut short (no newline), which `lines` leaves out.
        package var endsCut: Bool
    }

    /// Reads the file at `path`; a missing file has no lines.
    ///
    /// - Throws: ``SweepFileError`` naming the file and line of a line that is not a cell's
    ///   result (not JSON, no whole `cell` index in range, no fingerprints). A last line without
    ///   its newline is reported in ``Contents/endsCut``, not thrown.
    package static func read(_ path: String) throws(SweepFileError) -> Contents {
        guard FileManager.default.fileExists(atPath: path) else { return Contents(lines: [], endsCut: false) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SweepFileError(message: "\(path): cannot be read (\(error.localizedDescription))")
        }
        let text = String(decoding: data, as: UTF8.self)
        var pieces = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The text after the last newline: empty for a complete file, a cut line otherwise.
        let tail = pieces.removeLast()
        var lines: [Line] = []
        for (offset, piece) in pieces.enumerated() {
            lines.append(try parse(String(piece), number: offset + 1, path: path))
        }
        return Contents(lines: lines, endsCut: !tail.isEmpty)
    }

    /// How to recover from a line that cannot be trusted.
    static let recovery = "delete this line (or the shard's file) and run the sweep or tuning again: only its cells are recomputed"

    static func parse(_ text: String, number: Int, path: String) throws(SweepFileError) -> Line {
        func fail(_ message: String) -> SweepFileError { SweepFileError(message: "\(path):\(number): \(message)") }
        let object: String
        switch ResultLineSeal.open(text) {
        case .intact(let content): object = content
        case .altered: throw fail("the line's content does not match its digest: it was edited or damaged; \(recovery)")
        case .unsealed: throw fail("a result line without its content digest (not valid, or written by an older bgsim); \(recovery)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(object)
        } catch {
            throw fail("not a result line (not valid JSON)")
        }
        func whole(_ key: String) -> Int? {
            guard case .number(let number)? = value[key], number == number.rounded(), abs(number) < 1e15 else { return nil }
            return Int(number)
        }
        guard let cellCount = whole("of"), cellCount >= 1, case .string(let sweep)? = value["sweep"],
              case .string(let fingerprint)? = value["fingerprint"] else {
            throw fail("a result line without \"of\", \"sweep\" and \"fingerprint\" (written by bgsim before 0.4? run the sweep again)")
        }
        guard let cell = whole("cell"), (0..<cellCount).contains(cell) else {
            throw fail("\"cell\" must be a whole number from 0 to \(cellCount - 1), the sweep's cells")
        }
        if let problem = summaryProblem(value) { throw fail("\(problem); \(recovery)") }
        return Line(cell: cell, cellCount: cellCount, sweep: sweep, fingerprint: fingerprint, text: text, number: number)
    }

    /// Where a line's summaries disagree with its per-seed values (each metric's `mean`, `ci95`
    /// and `count` are recomputed from `perSeed`, exactly as they were written), or `nil`.
    static func summaryProblem(_ value: JSONValue) -> String? {
        guard case .object(let metrics)? = value["metrics"], case .object(let perSeed)? = value["perSeed"] else {
            return "a result line without \"metrics\" and \"perSeed\""
        }
        for (key, summary) in metrics {
            guard case .array(let items)? = perSeed.first(where: { $0.key == key })?.value else {
                return "\"metrics\".\(key) has no per-seed values"
            }
            var values: [Double] = []
            for item in items {
                switch item {
                case .number(let number): values.append(number)
                case .null: continue
                default: return "\"perSeed\".\(key) holds \(item.kindDescription), expected numbers and nulls"
                }
            }
            guard summary == SweepRunner.summaryJSON(values) else {
                return "\"metrics\".\(key) does not agree with its per-seed values"
            }
        }
        return nil
    }

    /// Replaces the file with `lines` (each without its newline), atomically.
    package static func rewrite(_ lines: [String], to path: String) throws {
        let text = lines.map { $0 + "\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Appends one line and its newline to the file, in one write.
    package static func append(_ line: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }
}

/// A results file that cannot be used.
package struct SweepFileError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
