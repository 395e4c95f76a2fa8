import BackgroundSim
import BackgroundSimLab
import CommandLineSupport
import Foundation

/// `bgsim sweep FILE` and `bgsim merge`.
enum SweepCommand {
    static let usage = """
        USAGE: bgsim sweep FILE [--shard I/N] [--out RESULTS.jsonl] [--jobs J]
               bgsim merge RESULTS.jsonl... --out MERGED.jsonl --sweep FILE

        Runs every cell of a sweep (a base scenario, axes of parameter values, seeds, days and two
        objectives; see docs/SWEEPS.md) and prints the cells, the Pareto front and the best cell
        for each objective.

        Results go to one JSON line per cell, rewritten atomically after every cell in cell order:
        a rerun skips the cells already there (an interrupted sweep resumes), and merging the
        files of shards gives the same bytes as an unsharded run.

        OPTIONS:
          --shard I/N        Run only cells whose index ≡ I (mod N), for I in 0..<N.
          --out FILE         The results file (default: NAME.jsonl beside the sweep file).
          --jobs J           Seeds run in parallel within a cell (default: all cores).
          --quiet            No progress on standard error (it is shown only when that is a terminal).
        """

    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        let flags = try Flags(arguments, known: ["shard", "out", "jobs"], switches: ["quiet"], allowsPositional: true)
        guard flags.positional.count == 1, let path = flags.positional.first else {
            throw UsageError("sweep needs one sweep file; see 'bgsim sweep --help'")
        }
        let definition = try load(path)
        var shard = 0, shards = 1
        if let text = flags.string("shard") {
            let parts = text.split(separator: "/")
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(i) else {
                throw UsageError("--shard expects I/N with 0 <= I < N, such as 0/4, got '\(text)'")
            }
            (shard, shards) = (i, n)
        }
        let jobs = try flags.integer("jobs", default: Replications.defaultJobs, in: 1...1_024)
        let out = flags.string("out") ?? defaultOutput(path, definition, shard: shard, of: shards)
        let cells = try SweepRunner.pendingCells(definition, shard: shard, of: shards, outputPath: out)
        let meter = ProgressMeter(total: cells * definition.seeds.count, deviceDaysPerItem: definition.days,
                                  quiet: flags.isSet("quiet"))
        let results = try SweepRunner.run(definition, source: path, shard: shard, of: shards, jobs: jobs, outputPath: out,
                                          progress: meter.advance)
        meter.finish()
        print(try SweepSummary(definition: definition, results: results).table)
        return 0
    }

    static func merge(_ arguments: ArraySlice<String>) throws -> Int32 {
        let flags = try Flags(arguments, known: ["out", "sweep"], allowsPositional: true)
        guard !flags.positional.isEmpty, let out = flags.string("out") else {
            throw UsageError("merge needs results files and --out FILE; see 'bgsim sweep --help'")
        }
        let results = try SweepRunner.merge(flags.positional, into: out)
        if let path = flags.string("sweep") {
            print(try SweepSummary(definition: try load(path), results: results).table)
        } else {
            print("merged \(results.count) cells into \(out)")
        }
        return 0
    }

    static func load(_ path: String) throws -> SweepDefinition {
        do {
            return try SweepDefinition.load(path: path)
        } catch {
            throw UsageError(error.description)
        }
    }

    static func defaultOutput(_ path: String, _ definition: SweepDefinition, shard: Int, of shards: Int) -> String {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let name = shards == 1 ? "\(definition.name).jsonl" : "\(definition.name).shard-\(shard)-of-\(shards).jsonl"
        return directory.appendingPathComponent(name).path
    }
}
