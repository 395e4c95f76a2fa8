// This target depends on BackgroundSimTesting alone: the README's example must compile with its
// one import (SimDuration included).
import BackgroundSimTesting
import Foundation
import Testing

// The README's example, line for line, down to `uploadsKeepTheirPromises` (a test below compares them).
final class MyUploadPolicy: BackgroundPolicy {
    /// Give the user a few minutes to come back before uploading in the background.
    let delay = SimDuration.minutes(5)

    func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: "com.example.upload") { task in
            task.expirationHandler = { app.work.stop(); task.setTaskCompleted(success: false) }
            app.work.onQueueEmpty = { task.setTaskCompleted(success: true) }
            app.work.start()
        }
    }
    func didEnterBackground(_ app: AppContext) {
        var request = TaskRequest.processing(identifier: "com.example.upload")
        request.requiresNetworkConnectivity = true
        request.earliestBeginDate = app.date + delay
        try? app.taskScheduler.submit(request)
    }
}

@Test func uploadsKeepTheirPromises() throws {
    var scenario = Presets.scenario(named: "proton-upload-designed")!   // a user, a phone, photo uploads
    scenario.app.permittedIdentifiers = ["com.example.upload"]
    var checker = PolicyChecker(scenario: scenario, days: 7, policy: { MyUploadPolicy() })
    checker.swarm = Swarm()   // each seed: its own habits, network, launch model and faults
    try checker.expectNoViolations(seeds: Array(1...200))
}

@Suite("The README's example")
struct ReadmeExampleTests {
    @Test("asking for liveness (every upload within 48 h) finds the weeks where processing tasks alone are not enough")
    func liveness() throws {
        var scenario = Presets.scenario(named: "proton-upload-designed")!
        scenario.app.permittedIdentifiers = ["com.example.upload"]
        var checker = PolicyChecker(scenario: scenario, days: 7, policy: { MyUploadPolicy() })
        checker.swarm = Swarm()
        checker.invariants += [WorkCompletesWithin(hours: 48)]
        let report = try checker.check(seeds: Array(1...100))
        #expect(!report.failures.isEmpty && report.failuresByInvariant.map(\.invariant) == ["workCompletesWithin(48 h)"])
        // The README says how many weeks fail.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("in \(report.failures.count) of 100 weeks an upload waits more than two days"), "\(report.failures.count) of 100")
        // And so does docs/CHECKING.md.
        let checking = try String(contentsOf: root.appendingPathComponent("docs/CHECKING.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        #expect(checking.contains("in \(report.failures.count) of 100 swarm weeks an upload waits more than 48 h"), "\(report.failures.count) of 100")
    }

    @Test("the README shows this file's policy and checker, line for line")
    func readmeIsThisCode() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let start = try #require(readme.range(of: "final class MyUploadPolicy"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let example = readme[start.lowerBound..<end.lowerBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let lines = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var cursor = lines.startIndex
        for line in example where !line.isEmpty {
            guard let found = lines[cursor...].firstIndex(of: line) else {
                Issue.record("README line not in the test, in order: \(line)")
                return
            }
            cursor = found + 1
        }
    }
}
