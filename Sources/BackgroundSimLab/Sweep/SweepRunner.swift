import BackgroundSim
import Foundation

/// Runs a sweep's cells (or one shard of them), appending one JSON line per cell to a results
/// file (``SweepResultsFile``).
///
/// A rerun keeps the lines whose fingerprints match the sweep as it is now and recomputes the
/// rest, so an interrupted sweep resumes and an edited one never mixes old and new results. At
/// the end the file is in cell order, so ``merge(_:into:definition:allowPartial:)`` of the shards'
/// files gives the same bytes as an unsharded run.
package enum SweepRunner {
    /// A cell's result line.
    package struct CellResult: Sendable {
        package var index: Int
        package var line: String
    }

    /// The cells of shard `shard` of `shards`: those whose index ≡ shard (mod shards); with
    /// `only`, every `shards`-th of those cells, in order, starting at the `shard`-th.
    package static func cells(of definition: SweepDefinition, shard: Int, of shards: Int, only: [Int]? = nil) -> [Int] {
        guard let only else { return Array(stride(from: shard, to: definition.cellCount, by: shards)) }
        return only.enumerated().filter { $0.offset % shards == shard }.map(\.element)
    }

    /// What a results file holds for a sweep: the lines still valid, by cell, and what else it
    /// had.
    package struct Resumption: Sendable {
        /// The lines to keep, by cell.
        package var kept: [Int: String]
        /// Cells whose lines were computed for another scenario, seeds, days or version.
        package var stale: [Int]
        /// Whether the file ended in a line cut short by a kill.
        package var endsCut: Bool
        /// The shard's cells still to run, in order.
        package var todo: [Int]
    }

    /// Reads `outputPath` against `definition`: which of the shard's cells are done.
    ///
    /// - Throws: ``SweepFileError`` naming the file and line of a line that is not a result, of
    ///   a cell beyond this sweep's, or of a cell already seen in the file.
    ///
    /// - Parameter only: Run only these cells (a tuning's survivors), shared among the shards.
    package static func resumption(
        _ definition: SweepDefinition, source: String, shard: Int, of shards: Int, outputPath: String, only: [Int]? = nil
    ) throws -> Resumption {
        let contents = try SweepResultsFile.read(outputPath)
        let sweep = SweepFingerprint.sweep(definition)
        var kept: [Int: String] = [:]
        var firstLine: [Int: Int] = [:]
        var stale: [Int] = []
        for line in contents.lines {
            guard line.cell < definition.cellCount else {
                throw SweepFileError(message: "\(outputPath):\(line.number): cell \(line.cell) is not a cell of this sweep (it has \(definition.cellCount)); delete the line or use another --out")
            }
            if let first = firstLine[line.cell] {
                throw SweepFileError(message: "\(outputPath):\(line.number): cell \(line.cell) again (first on line \(first)); delete one of them")
            }
            firstLine[line.cell] = line.number
            let matches = try line.sweep == sweep && line.cellCount == definition.cellCount
                && line.fingerprint == SweepFingerprint.cell(line.cell, of: definition, source: source)
            if matches { kept[line.cell] = line.text } else { stale.append(line.cell) }
        }
        let todo = cells(of: definition, shard: shard, of: shards, only: only).filter { kept[$0] == nil }
        return Resumption(kept: kept, stale: stale, endsCut: contents.endsCut, todo: todo)
    }

    /// Runs the shard's cells not yet in `outputPath`, appending each as it finishes.
    ///
    /// - Parameters:
    ///   - given: What ``resumption(_:source:shard:of:outputPath:)`` found, if the caller has
    ///     already read the file.
    ///   - maximumCells: Stop after running this many cells (for resumption tests).
    ///   - progress: Called after each run of a seed (from any thread).
    ///   - notice: Told, once, about lines dropped from the file (stale or cut short).
    /// - Returns: Every finished cell of the file, sorted by index.
    package static func run(
        _ definition: SweepDefinition, source: String, shard: Int = 0, of shards: Int = 1, jobs: Int,
        outputPath: String, resuming given: Resumption? = nil, maximumCells: Int? = nil,
        progress: (@Sendable () -> Void)? = nil, notice: ((String) -> Void)? = nil
    ) throws -> [CellResult] {
        let state = try given ?? resumption(definition, source: source, shard: shard, of: shards, outputPath: outputPath)
        var results = state.kept.map { CellResult(index: $0.key, line: $0.value) }.sorted { $0.index < $1.index }
        // Start from a file holding exactly the kept lines, in order (and create it, so that a
        // shard with no cells still leaves its file).
        let fileIsClean = FileManager.default.fileExists(atPath: outputPath) && state.stale.isEmpty && !state.endsCut
        if !fileIsClean {
            try SweepResultsFile.rewrite(results.map(\.line), to: outputPath)
        }
        if !state.stale.isEmpty {
            notice?("\(outputPath): recomputing \(state.stale.count) cell(s) computed for another scenario, seeds, days or bgsim version: \(listed(state.stale))")
        }
        if state.endsCut { notice?("\(outputPath): dropped a last line cut short (a killed run)") }
        var ran = 0
        var inOrder = true
        for index in state.todo {
            if let maximumCells, ran >= maximumCells { break }
            let scenario = try definition.scenario(ofCell: index, source: source)
            // A batch of seeds at a time, each run reduced to what the line keeps of it.
            var runs = CellRuns(metrics: definition.metrics)
            let batch = 256 * Swift.max(1, jobs)
            for start in stride(from: 0, to: definition.seeds.count, by: batch) {
                let part = Array(definition.seeds[start..<Swift.min(definition.seeds.count, start + batch)])
                for run in try Replications.run(scenario, seeds: part, days: definition.days, jobs: jobs,
                                                modelUncertainty: definition.drawnUncertainty, progress: progress) {
                    runs.add(run)
                }
            }
            let fingerprint = try SweepFingerprint.cell(index, of: definition, source: source)
            let result = CellResult(index: index, line: line(definition, index: index, fingerprint: fingerprint, runs: runs))
            if let last = results.last, last.index > index { inOrder = false }
            results.append(result)
            try SweepResultsFile.append(result.line, to: outputPath)
            ran += 1
        }
        results.sort { $0.index < $1.index }
        if !inOrder { try SweepResultsFile.rewrite(results.map(\.line), to: outputPath) }
        return results
    }

    /// "1, 4, 7" for up to ten cells, then "and N more".
    package static func listed(_ cells: [Int]) -> String {
        let shown = cells.prefix(10).map(String.init).joined(separator: ", ")
        return cells.count > 10 ? "\(shown) and \(cells.count - 10) more" : shown
    }

    /// A cell's JSON line: its index, axis values, seeds, days, every metric's summary (``SweepDefinition/metrics``)
    /// across seeds and its value on each seed (`perSeed`, null where it does not apply; for
    /// paired comparisons between cells), and its launch decisions per day (the mean across seeds), by task kind:
    /// launched, and not launched by each reason that happened.
    /// The line is sealed with the digest of its content (``ResultLineSeal``).
    static func line(_ definition: SweepDefinition, index: Int, fingerprint: String, runs: [RunResult]) -> String {
        var cell = CellRuns(metrics: definition.metrics)
        for run in runs { cell.add(run) }
        return line(definition, index: index, fingerprint: fingerprint, runs: cell)
    }

    /// The line of a cell whose runs were reduced as they came (``CellRuns``).
    static func line(_ definition: SweepDefinition, index: Int, fingerprint: String, runs: CellRuns) -> String {
        let values = zip(definition.axes, definition.values(ofCell: index)).map { ($0.path, $1) }
        let metrics = definition.metrics.indices.map { metric -> (String, JSONValue) in
            (definition.metrics[metric].key, summaryJSON(runs.perSeed[metric].compactMap { $0 }))
        }
        return ResultLineSeal.sealed(JSONWriter.compact(.object([
            ("cell", .number(Double(index))),
            ("of", .number(Double(definition.cellCount))),
            ("sweep", .string(SweepFingerprint.sweep(definition))),
            ("fingerprint", .string(fingerprint)),
            ("values", .object(values)),
            ("seeds", .number(Double(definition.seeds.count))),
            ("days", .number(Double(definition.days))),
            ("digest", .string(String(runs.digest, radix: 16))),
            ("metrics", .object(metrics)),
            ("perSeed", .object(definition.metrics.indices.map { metric in
                (definition.metrics[metric].key, .array(runs.perSeed[metric].map { $0.map(JSONValue.number) ?? .null }))
            })),
            ("launchDecisions", runs.decisionsJSON),
        ])))
    }

    /// A metric's summary across seeds, as a line holds it: `mean`, `ci95` (the 95 % interval of
    /// the mean) and `count`. Reading a line recomputes it from the line's per-seed values.
    static func summaryJSON(_ values: [Double]) -> JSONValue {
        let summary = SampleSummary(values)
        return .object([
            ("mean", .number(summary.mean)),
            ("ci95", .array([.number(summary.mean - summary.halfWidth95), .number(summary.mean + summary.halfWidth95)])),
            ("count", .number(Double(summary.count))),
        ])
    }

    /// A cell's runs as its line keeps them, added a seed at a time: each standard metric's
    /// value, the digests folded, and each kind's launch decisions per day — a few hundred bytes
    /// a seed, not the runs.
    struct CellRuns {
        /// The metrics kept: the sweep's ``SweepDefinition/metrics``.
        let metrics: [ComparedMetric]
        /// `perSeed[metric][seed]`, in the order of ``metrics``.
        private(set) var perSeed: [[Double?]]
        /// The runs' digests folded in seed order.
        private(set) var digest: UInt64 = 0
        /// For refresh and processing: launches, then each ``LaunchDenial``, per day, `[kind][outcome][seed]`.
        private var decisionsPerDay: [[[Double]]] = [0, 1].map { _ in (0...LaunchDenial.allCases.count).map { _ in [] } }

        init(metrics: [ComparedMetric]) {
            self.metrics = metrics
            perSeed = metrics.map { _ in [] }
        }

        /// Adds the next seed's run.
        mutating func add(_ run: RunResult) {
            for (index, metric) in metrics.enumerated() { perSeed[index].append(metric.value(run)) }
            digest = digest &* 31 &+ run.digest.value
            let days = Double(Swift.max(1, run.days))
            for (index, kind) in [TaskRequest.Kind.appRefresh, .processing].enumerated() {
                decisionsPerDay[index][0].append(Double(run.os.metrics.launchDecisions.launched(kind)) / days)
                for (denial, reason) in LaunchDenial.allCases.enumerated() {
                    decisionsPerDay[index][denial + 1].append(Double(run.os.metrics.launchDecisions.count(kind, reason)) / days)
                }
            }
        }

        /// `{"appRefresh": {"launched": …, "notLaunched": {"notChosen": …, …}}, "processing": …}`:
        /// per day, the mean across the runs; reasons that never happened are left out.
        var decisionsJSON: JSONValue {
            .object([TaskRequest.Kind.appRefresh, .processing].enumerated().map { index, kind in
                let waits = LaunchDenial.allCases.enumerated().compactMap { denial, reason -> (String, JSONValue)? in
                    let value = SampleSummary(decisionsPerDay[index][denial + 1]).mean
                    return value > 0 ? (reason.rawValue, .number(value)) : nil
                }
                return (kind.name, .object([("launched", .number(SampleSummary(decisionsPerDay[index][0]).mean)),
                                            ("notLaunched", .object(waits))]))
            })
        }
    }

    /// What merging found.
    package struct Merged: Sendable {
        /// Every cell found, in order.
        package var results: [CellResult]
        /// The sweep's cells no file had.
        package var missing: [Int]
        /// Lines of another sweep (`file:line: cell N`), left out.
        package var foreign: [String]
    }

    /// Merges shards' results files into `output`, in cell order.
    ///
    /// Every file must exist and end with a complete line, and hold each cell once; a cell in
    /// several files must have the same line in each. The lines must all come from one sweep: `definition`'s when given,
    /// otherwise the first line's. Unless `allowPartial`, a foreign line or a missing cell is an
    /// error naming them; with it, foreign lines are left out and the merge writes what there is.
    package static func merge(
        _ paths: [String], into output: String, definition: SweepDefinition? = nil, allowPartial: Bool = false
    ) throws -> Merged {
        var byIndex: [Int: (text: String, place: String)] = [:]
        var foreign: [String] = []
        var expected: (sweep: String, cellCount: Int)? = definition.map { (SweepFingerprint.sweep($0), $0.cellCount) }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw SweepFileError(message: "\(path): no such results file")
            }
            let contents = try SweepResultsFile.read(path)
            if contents.endsCut {
                throw SweepFileError(message: "\(path):\(contents.lines.count + 1): a line cut short (its shard was killed or is still running); run that shard again")
            }
            var firstLine: [Int: Int] = [:]
            for line in contents.lines {
                let place = "\(path):\(line.number)"
                if let first = firstLine[line.cell] {
                    throw SweepFileError(message: "\(place): cell \(line.cell) again (first on line \(first)); delete one of them")
                }
                firstLine[line.cell] = line.number
                if expected == nil { expected = (line.sweep, line.cellCount) }
                guard line.sweep == expected!.sweep, line.cellCount == expected!.cellCount else {
                    foreign.append("\(place): cell \(line.cell)")
                    continue
                }
                if let existing = byIndex[line.cell] {
                    guard existing.text == line.text else {
                        throw SweepFileError(message: "\(place): cell \(line.cell) differs from \(existing.place)")
                    }
                    continue
                }
                byIndex[line.cell] = (line.text, place)
            }
        }
        let cellCount = expected?.cellCount ?? 0
        let missing = (0..<cellCount).filter { byIndex[$0] == nil }
        if !allowPartial && !(foreign.isEmpty && missing.isEmpty) {
            var problems: [String] = []
            if !foreign.isEmpty {
                let what = definition == nil ? "a different sweep from the first line's" : "another sweep definition"
                problems.append("\(foreign.count) line(s) of \(what) (other axes, base scenario, seeds, days or bgsim version): "
                    + foreign.prefix(10).joined(separator: "; ") + (foreign.count > 10 ? "; and \(foreign.count - 10) more" : ""))
            }
            if !missing.isEmpty {
                problems.append("\(missing.count) of \(cellCount) cells missing: \(listed(missing))")
            }
            throw SweepFileError(message: problems.joined(separator: "\n") + "\n(add --allow-partial to merge what there is)")
        }
        let results = byIndex.keys.sorted().map { CellResult(index: $0, line: byIndex[$0]!.text) }
        try SweepResultsFile.rewrite(results.map(\.line), to: output)
        return Merged(results: results, missing: missing, foreign: foreign)
    }
}
