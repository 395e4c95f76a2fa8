import BackgroundSimTesting
import Testing

/// The README's example policy, as written there.
private final class MyUploadPolicy: BackgroundPolicy {
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
        try? app.taskScheduler.submit(request)
    }
}

@Suite("The README's example")
struct ReadmeExampleTests {
    static var checker: PolicyChecker {
        var scenario = Presets.scenario(named: "proton-upload")!   // a user, a phone, photo uploads
        scenario.app.permittedIdentifiers = ["com.example.upload"]
        var checker = PolicyChecker(scenario: scenario, days: 7, policy: { MyUploadPolicy() })
        checker.swarm = Swarm()   // each seed: its own habits, network, launch model and faults
        return checker
    }

    @Test("a team's own upload policy keeps the library's invariants over swarm weeks")
    func uploadsKeepTheirPromises() throws {
        try Self.checker.expectNoViolations(seeds: Array(1...200))
    }

    @Test("asking for liveness (every upload within 48 h) finds the weeks where processing tasks alone are not enough")
    func liveness() throws {
        var checker = Self.checker
        checker.invariants += [WorkCompletesWithin(hours: 48)]
        try withKnownIssue {
            try checker.expectNoViolations(seeds: Array(1...100))
        } matching: { issue in
            issue.description.contains("workCompletesWithin(48 h) broken")
        }
    }
}
