import BackgroundSim
import Foundation

/// Runs a tuning file's stages through results files, as sweeps do: one JSON line per
/// configuration and stage, resumable, shardable.
///
/// Stage 1 (the first n₀ seeds of every configuration) writes `NAME.stage1.jsonl` (a shard:
/// `NAME.stage1.shard-I-of-N.jsonl`) beside the tuning file; stage j > 1, the seeds from look
/// j − 1 to look j of the configurations still in contention, `NAME.stageJ….jsonl`. Each run
/// reads every such file in the folder, so shards that share a folder see one another's lines:
/// run every shard, and again while a stage waits for the others, then run without `--shard`
/// to report. An unsharded run does all of it at once. The lines are the same whichever process
/// computed them, so the outcome is the same bytes however it was split.
package enum TuneRunner {
    /// Progress reporting for one stage: `advance` after each seed's run (from any thread),
    /// `finish` when the stage is done.
    package struct StageProgress {
        package var advance: @Sendable () -> Void
        package var finish: () -> Void

        package init(advance: @escaping @Sendable () -> Void, finish: @escaping () -> Void) {
            self.advance = advance
            self.finish = finish
        }
    }

    /// Where a run got to.
    package enum Progress: Sendable {
        /// A stage is not complete: other shards still have configurations to run.
        case waiting(stage: Int, missing: Int, of: Int)
        case done(Tuning)
    }

    /// The results file of `stage` for a shard, beside the tuning file at `source`.
    package static func resultsPath(_ definition: TuneDefinition, source: String, stage: Int, shard: Int, of shards: Int) -> String {
        let directory = URL(fileURLWithPath: source).deletingLastPathComponent()
        let suffix = shards == 1 ? "" : ".shard-\(shard)-of-\(shards)"
        return directory.appendingPathComponent("\(definition.name).stage\(stage)\(suffix).jsonl").path
    }

    /// Every valid line of `stage`'s files in the folder, by configuration.
    ///
    /// - Throws: `SweepFileError` if two files hold different lines for one configuration (as
    ///   `bgsim merge` refuses them): which one to believe is not ours to guess.
    static func collect(_ sweep: SweepDefinition, _ definition: TuneDefinition, source: String, stage: Int) throws -> [Int: String] {
        let directory = URL(fileURLWithPath: source).deletingLastPathComponent()
        let prefix = "\(definition.name).stage\(stage)"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0 == prefix + ".jsonl" || $0.hasPrefix(prefix + ".shard-") && $0.hasSuffix(".jsonl") }.sorted()
        let fingerprint = SweepFingerprint.sweep(sweep)
        var lines: [Int: (text: String, place: String)] = [:]
        var cellFingerprints: [Int: String] = [:]
        for name in names {
            let path = directory.appendingPathComponent(name).path
            for line in try SweepResultsFile.read(path).lines where line.sweep == fingerprint && line.cellCount == sweep.cellCount {
                if cellFingerprints[line.cell] == nil { cellFingerprints[line.cell] = try SweepFingerprint.cell(line.cell, of: sweep, source: source) }
                guard line.fingerprint == cellFingerprints[line.cell] else { continue }
                let place = "\(path):\(line.number)"
                if let existing = lines[line.cell] {
                    guard existing.text == line.text else {
                        throw SweepFileError(message: "\(place): configuration \(line.cell) differs from \(existing.place); delete the line you do not trust (or its file) and run again")
                    }
                    continue
                }
                lines[line.cell] = (line.text, place)
            }
        }
        return lines.mapValues(\.text)
    }

    /// Runs what this shard can and, once both stages are complete, selects.
    ///
    /// - Parameters:
    ///   - stages: Told each stage's work before it runs (the stage, configurations to run and
    ///     seeds each); returns how to report its progress.
    ///   - notice: Told about lines dropped from this shard's file (stale or cut short).
    package static func run(
        _ definition: TuneDefinition, source: String, shard: Int = 0, of shards: Int = 1, jobs: Int,
        stages: ((_ stage: Int, _ configurations: Int, _ seeds: Int) -> StageProgress)? = nil,
        notice: ((String) -> Void)? = nil
    ) throws -> Progress {
        let procedure = definition.procedure
        let count = definition.configurations.cellCount
        // Stage 1: every configuration, n₀ seeds.
        let first = definition.stage(1, seeds: 0..<procedure.firstStageSeeds)
        let stage1 = try runStage(first, definition, source: source, stage: 1, cells: Array(0..<count), shard: shard, of: shards,
                                  jobs: jobs, stages: stages, notice: notice)
        guard stage1.count == count else { return .waiting(stage: 1, missing: count - stage1.count, of: count) }
        var values = try (0..<count).map { try perSeed(stage1[$0]!, definition.procedure.objective, configuration: $0) }
        var state = procedure.screen(samples(values))
        // Each later look: those in contention, from the last look's seeds to this one's.
        var stage = 1
        while let next = procedure.nextLook(after: state) {
            stage += 1
            let sweep = definition.stage(stage, seeds: state.seeds..<next)
            let lines = try runStage(sweep, definition, source: source, stage: stage, cells: state.survivors, shard: shard, of: shards,
                                     jobs: jobs, stages: stages, notice: notice)
            let missing = state.survivors.filter { lines[$0] == nil }
            guard missing.isEmpty else { return .waiting(stage: stage, missing: missing.count, of: state.survivors.count) }
            for index in state.survivors {
                let more = try perSeed(lines[index]!, procedure.objective, configuration: index)
                values[index] = (values[index].objective + more.objective, zip(values[index].bounds, more.bounds).map { $0 + $1 })
            }
            state = procedure.look(samples(values), after: state, at: next)
        }
        let outcome = procedure.select(samples(values), screening: state)
        var tuning = Tuning(names: (0..<count).map(definition.settings(ofConfiguration:)), procedure: procedure, outcome: outcome,
                            days: definition.days, firstSeed: definition.firstSeed)
        tuning.modelUncertainty = definition.configurations.drawnUncertainty
        return .done(tuning)
    }

    /// Runs this shard's share of `cells` not yet in any file, then returns every line found.
    static func runStage(
        _ sweep: SweepDefinition, _ definition: TuneDefinition, source: String, stage: Int, cells: [Int], shard: Int, of shards: Int,
        jobs: Int, stages: ((Int, Int, Int) -> StageProgress)?, notice: ((String) -> Void)?
    ) throws -> [Int: String] {
        let found = try collect(sweep, definition, source: source, stage: stage)
        let mine = SweepRunner.cells(of: sweep, shard: shard, of: shards, only: cells).filter { found[$0] == nil }
        guard !mine.isEmpty else { return found }
        let path = resultsPath(definition, source: source, stage: stage, shard: shard, of: shards)
        let state = try SweepRunner.resumption(sweep, source: source, shard: 0, of: 1, outputPath: path, only: mine)
        let reporter = stages?(stage, state.todo.count, sweep.seeds.count)
        _ = try SweepRunner.run(sweep, source: source, jobs: jobs, outputPath: path, resuming: state, progress: reporter?.advance, notice: notice)
        reporter?.finish()
        return try collect(sweep, definition, source: source, stage: stage)
    }

    /// The objective's and bounds' per-seed values from a line.
    static func perSeed(_ line: String, _ objective: Objective, configuration: Int) throws -> (objective: [Double?], bounds: [[Double?]]) {
        let value = try JSONParser.parse(line)
        func read(_ key: String) throws -> [Double?] {
            guard case .array(let items)? = value["perSeed"]?[key] else {
                throw SweepFileError(message: "configuration \(configuration): a line without per-seed values of \(key) (written by an older bgsim); delete the results files and run again")
            }
            return items.map { if case .number(let number) = $0 { number } else { nil } }
        }
        return (try read(objective.metric.key), try objective.bounds.map { try read($0.metric.key) })
    }

    static func samples(_ values: [(objective: [Double?], bounds: [[Double?]])]) -> TuningProcedure.Samples {
        let boundCount = values.first?.bounds.count ?? 0
        return TuningProcedure.Samples(objective: values.map(\.objective),
                                       bounds: (0..<boundCount).map { bound in values.map { $0.bounds[bound] } })
    }
}
