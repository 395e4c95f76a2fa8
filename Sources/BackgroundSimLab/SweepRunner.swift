import BackgroundSim
import Foundation

/// Runs a sweep's cells (or one shard of them), writing one JSON line per cell.
///
/// The output file is rewritten atomically after every cell with all finished cells sorted by
/// index, so an interrupted sweep leaves a valid file, a rerun skips the cells already in it,
/// and ``merge(_:)`` of the shards' files gives the same bytes as an unsharded run.
package enum SweepRunner {
    /// A cell's result line.
    package struct CellResult: Sendable {
        package var index: Int
        package var line: String
    }

    /// The cells of the shard still to run: those whose index ≡ shard (mod shards), not in the file.
    package static func pendingCells(_ definition: SweepDefinition, shard: Int, of shards: Int, outputPath: String) throws -> Int {
        let done = Set(try read(outputPath).map(\.index))
        return cells(of: definition, shard: shard, of: shards).filter { !done.contains($0) }.count
    }

    /// The cells of shard `shard` of `shards`: those whose index ≡ shard (mod shards).
    package static func cells(of definition: SweepDefinition, shard: Int, of shards: Int) -> [Int] {
        Array(stride(from: shard, to: definition.cellCount, by: shards))
    }

    /// Runs the shard's cells not yet in `outputPath`, updating it after each.
    ///
    /// - Parameters:
    ///   - maximumCells: Stop after running this many cells (for resumption tests).
    ///   - progress: Called after each run of a seed (from any thread).
    /// - Returns: Every finished cell of the file, sorted by index.
    package static func run(
        _ definition: SweepDefinition, source: String, shard: Int = 0, of shards: Int = 1, jobs: Int,
        outputPath: String, maximumCells: Int? = nil, progress: (@Sendable () -> Void)? = nil
    ) throws -> [CellResult] {
        var results = try read(outputPath)
        let done = Set(results.map(\.index))
        let todo = cells(of: definition, shard: shard, of: shards).filter { !done.contains($0) }
        var ran = 0
        for index in todo {
            if let maximumCells, ran >= maximumCells { break }
            let scenario = try definition.scenario(ofCell: index, source: source)
            let runs = try Replications.run(scenario, seeds: definition.seeds, days: definition.days, jobs: jobs, progress: progress)
            results.append(CellResult(index: index, line: line(definition, index: index, runs: runs)))
            results.sort { $0.index < $1.index }
            try write(results, to: outputPath)
            ran += 1
        }
        return results
    }

    /// A cell's JSON line: its index, axis values, seeds, days, and every standard metric's
    /// summary across seeds.
    static func line(_ definition: SweepDefinition, index: Int, runs: [RunResult]) -> String {
        let values = zip(definition.axes, definition.values(ofCell: index)).map { ($0.path, $1) }
        let metrics = ComparedMetric.standard.map { metric -> (String, JSONValue) in
            let summary = SampleSummary(runs.compactMap(metric.value))
            return (metric.key, .object([
                ("mean", .number(summary.mean)),
                ("ci95", .array([.number(summary.mean - summary.halfWidth95), .number(summary.mean + summary.halfWidth95)])),
                ("count", .number(Double(summary.count))),
            ]))
        }
        return JSONWriter.compact(.object([
            ("cell", .number(Double(index))),
            ("values", .object(values)),
            ("seeds", .number(Double(definition.seeds.count))),
            ("days", .number(Double(definition.days))),
            ("digest", .string(String(runs.reduce(UInt64(0)) { $0 &* 31 &+ $1.digest.value }, radix: 16))),
            ("metrics", .object(metrics)),
        ]))
    }

    /// The cells in a results file (none if it does not exist).
    package static func read(_ path: String) throws -> [CellResult] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let value = try JSONParser.parse(String(line))
            guard case .number(let index)? = value["cell"] else {
                throw SweepFileError(message: "\(path): a line without a \"cell\" index")
            }
            return CellResult(index: Int(index), line: String(line))
        }
    }

    static func write(_ results: [CellResult], to path: String) throws {
        let text = results.map(\.line).joined(separator: "\n") + (results.isEmpty ? "" : "\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Merges results files (shards) into one, sorted by cell; a cell in several files must have
    /// the same line in each.
    package static func merge(_ paths: [String], into output: String) throws -> [CellResult] {
        var byIndex: [Int: String] = [:]
        for path in paths {
            for result in try read(path) {
                if let existing = byIndex[result.index], existing != result.line {
                    throw SweepFileError(message: "\(path): cell \(result.index) differs from another file's")
                }
                byIndex[result.index] = result.line
            }
        }
        let merged = byIndex.keys.sorted().map { CellResult(index: $0, line: byIndex[$0]!) }
        try write(merged, to: output)
        return merged
    }
}

/// A results file that cannot be used.
package struct SweepFileError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
