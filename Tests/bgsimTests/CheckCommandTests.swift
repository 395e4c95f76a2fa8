import Foundation
import Testing

@Suite("bgsim check")
struct CheckCommandTests {
    func directory() throws -> URL { try ToolRunner.temporaryDirectory("bgsim-check") }

    @Test("a policy that keeps every invariant passes: exit 0 and the invariants named")
    func passes() throws {
        let output = try ToolRunner.run("bgsim", ["check", "--preset", "coverdrop-designed", "--seeds", "20", "--days", "3", "--swarm"])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("every invariant held: 20 seeds × 3 days of coverdrop-designed (swarm varying sessions, appUsage, network, charging, launchModel, clock, faults, workload, pushes, doors)"))
        #expect(output.standardOutput.contains("taskCompletedExactlyOnce"))
        let pinned = try ToolRunner.run("bgsim", ["check", "--preset", "coverdrop-designed", "--seeds", "5", "--days", "2", "--swarm", "--pin", "network,faults"])
        #expect(pinned.standardOutput.contains("(swarm varying sessions, appUsage, charging, launchModel, clock, workload, pushes, doors)"), "\(pinned.standardOutput)")
    }

    @Test("TestBGScheduler as shipped: exit 1, naming both defects (no handler in a background launch, completion called twice)")
    func shippedTestBGScheduler() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Both defects show within the first 10 swarm seeds; experiments/designed-vs-shipped checks 2,000.
        let output = try ToolRunner.run("bgsim", ["check", "--preset", "bgscheduler-shipped", "--seeds", "20", "--swarm", "--out", dir.path])
        #expect(output.status == 1)
        let text = output.standardOutput
        #expect(text.contains("noCrashes") && text.contains("no launch handler was registered"), "\(text)")
        #expect(text.contains("setTaskCompleted called again"), "\(text)")
        #expect(text.contains("\nalso:  seed "), "each broken invariant's first failure is shown")
    }

    @Test("the planted bug: exit 1, a minimal scenario file, and replay lines that reproduce it")
    func findsPlantedBug() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try ToolRunner.run("bgsim", ["check", "--preset", "coverdrop-send-forgetful", "--seeds", "300", "--out", dir.path])
        #expect(output.status == 1)
        let text = output.standardOutput
        #expect(text.contains("taskCompletedExactlyOnce broken"))
        let replay = try #require(text.split(separator: "\n").first { $0.hasPrefix("replay: bgsim run --scenario ") })
        let check = try #require(text.split(separator: "\n").first { $0.hasPrefix("check:  bgsim check --scenario ") })
        // The file exists and is a valid scenario; the check line reproduces the violation.
        let words = check.split(separator: " ").map(String.init)
        let file = words[words.firstIndex(of: "--scenario")! + 1]
        #expect(FileManager.default.fileExists(atPath: file))
        let again = try ToolRunner.run("bgsim", Array(words.dropFirst(2)))
        #expect(again.status == 1, "\(again.standardOutput)\(again.standardError)")
        #expect(again.standardOutput.contains("taskCompletedExactlyOnce broken: 1 of 1 seeds failed"))
        let replayWords = replay.split(separator: " ").map(String.init).dropFirst(2)
        let traced = try ToolRunner.run("bgsim", Array(replayWords.map { $0 == "trace.jsonl" ? dir.appendingPathComponent("t.jsonl").path : $0 }))
        #expect(traced.status == 0)
        let trace = try String(contentsOf: dir.appendingPathComponent("t.jsonl"), encoding: .utf8)
        #expect(trace.contains("\"reason\":\"taskNotCompleted\""), "the kill is in the replay's trace")
    }

    @Test("bad check arguments exit 2", arguments: [
        (["check"], "check needs --preset NAME or --scenario FILE; try 'bgsim check --preset device-only'"),
        (["check", "--preset", "nope"], "unknown preset 'nope'"),
        (["check", "--preset", "coverdrop-designed", "--seeds", "0"], "--seeds expects a whole number from 1"),
        (["check", "--preset", "coverdrop-designed", "--seed", "3", "--seeds", "4"], "give --seed S (one seed) or --seeds N, not both"),
        (["check", "--preset", "coverdrop-designed", "--within-hours", "soon"], "--within-hours expects a number"),
        (["check", "--preset", "coverdrop-designed", "--swarm", "--pin", "nets"], "--pin expects dimensions from sessions, appUsage, network"),
        (["check", "--preset", "coverdrop-designed", "--pin", "network"], "--pin needs --swarm"),
    ])
    func badArguments(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("bgsim", arguments)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }
}
