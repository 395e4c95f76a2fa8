@testable import BackgroundSim
import SimKernel
import Testing

/// Every transition of Proton Drive's "Computational availability" design, on the quiet harness.
@Suite("Computational availability")
struct ComputationalAvailabilityTests {
    @Test("a terminated process's controllers are released: the extension controller and its modules do not keep each other")
    func controllersAreReleased() throws {
        final class Seen { weak var shared: ExtensionBackgroundOperationController?; weak var module: ComputationalAvailabilityController? }
        final class Owner: BackgroundPolicy {
            let seen: Seen
            var shared: ExtensionBackgroundOperationController?
            var module: ComputationalAvailabilityController?
            init(seen: Seen) { self.seen = seen }
            func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
                let shared = ExtensionBackgroundOperationController(app: app)
                let module = ComputationalAvailabilityController(
                    extension: shared, processing: BackgroundTaskStateController(identifier: "p0", app: app), app: app, hasWork: { false })
                (self.shared, self.module) = (shared, module)
                (seen.shared, seen.module) = (shared, module)
            }
        }
        let seen = Seen()
        let harness = try SystemHarness { Owner(seen: seen) }
        harness.useApp(at: .at(0), forceQuit: true)
        try harness.run(until: .at(30))
        #expect(seen.module != nil, "alive while the process runs")
        try harness.run(until: .at(120))
        #expect(seen.shared == nil)
        #expect(seen.module == nil)
    }

    /// Work a test controls, shared by every process launch of the policy.
    final class Work {
        var items: [String: Int] = [:]
        var transitions: [(module: String, from: ComputationalAvailability, to: ComputationalAvailability, at: SimInstant)] = []
        var controllers: [String: ComputationalAvailabilityController] = [:]
        var reschedule = true
        /// When each module's work finishes, as an app timer set at launch (so that the change
        /// happens inside the app, as real work does).
        var finishAt: [String: SimInstant] = [:]
    }

    /// Modules "uploads" and "photos", each with its processing identifier; on leaving
    /// `extensionTask` for `suspended` with work left, a module schedules its processing task
    /// 1 min out (the "Background Operations" design's flow).
    final class Policy: BackgroundPolicy {
        let work: Work
        var shared: ExtensionBackgroundOperationController?
        init(work: Work) { self.work = work }

        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            let shared = ExtensionBackgroundOperationController(app: app)
            self.shared = shared
            for (module, identifier) in [("uploads", "p0"), ("photos", "p1")] {
                let processing = BackgroundTaskStateController(identifier: identifier, app: app)
                let controller = ComputationalAvailabilityController(
                    extension: shared, processing: processing, app: app, hasWork: { [work] in (work.items[module] ?? 0) > 0 })
                controller.onChange = { [work] old, new in
                    work.transitions.append((module, old, new, app.date))
                    if old != .foreground && new == .suspended && (work.items[module] ?? 0) > 0 && work.reschedule {
                        processing.schedule(after: .minutes(1))
                    }
                }
                work.controllers[module] = controller
                if let finish = work.finishAt[module], finish > app.date {
                    app.schedule(after: app.date.duration(to: finish)) { [work] in
                        work.items[module] = 0
                        controller.workDidChange()
                    }
                }
            }
        }
        func didEnterBackground(_ app: AppContext) { shared?.appDidEnterBackground() }
        func willEnterForeground(_ app: AppContext) { shared?.appWillEnterForeground() }
    }

    func harness(_ work: Work) throws -> SystemHarness {
        try SystemHarness { Policy(work: work) }
    }

    func transitions(_ work: Work, _ module: String) -> [String] {
        work.transitions.filter { $0.module == module }.map { "\($0.from.rawValue)→\($0.to.rawValue)" }
    }

    @Test("leaving the foreground with work starts the extension; without work the app is suspended")
    func extensionOnlyWithWork() throws {
        let work = Work()
        work.items = ["uploads": 1]
        let harness = try harness(work)
        harness.useApp(at: .at(100))
        try harness.run(until: .at(161))
        #expect(transitions(work, "uploads") == ["foreground→extensionTask"])
        #expect(transitions(work, "photos") == ["foreground→extensionTask"], "the extension is app-wide")
        #expect(harness.system.metrics.assertionsBegun == 1)

        let idle = Work()
        let quiet = try self.harness(idle)
        quiet.useApp(at: .at(100))
        try quiet.run(until: .at(200))
        #expect(transitions(idle, "uploads") == ["foreground→suspended"])
        #expect(quiet.system.metrics.assertionsBegun == 0, "no extension without work")
    }

    @Test("extension expiring with work left → suspended, and a processing task is scheduled; no kill")
    func extensionExpires() throws {
        let work = Work()
        work.items = ["uploads": 1]
        let harness = try harness(work)
        harness.useApp(at: .at(100))
        try harness.run(until: .at(200))
        #expect(transitions(work, "uploads").prefix(2) == ["foreground→extensionTask", "extensionTask→suspended"])
        #expect(work.transitions.first { $0.module == "uploads" && $0.to == .suspended }?.at == .at(187))
        #expect(harness.system.pending.entries.map(\.request.identifier).contains("p0"))
        #expect(harness.entries(.kill).isEmpty)
    }

    @Test("the extension ends as soon as no module has work left")
    func extensionEndsWhenDone() throws {
        let work = Work()
        work.items = ["uploads": 1, "photos": 1]
        work.finishAt = ["uploads": .at(165), "photos": .at(170)]
        let harness = try harness(work)
        harness.useApp(at: .at(100))
        try harness.run(until: .at(166))
        #expect(harness.system.processState == .background, "photos still has work: the extension stays")
        try harness.run(until: .at(171))
        #expect(transitions(work, "photos") == ["foreground→extensionTask", "extensionTask→suspended"])
        #expect(harness.system.processState == .suspended)
        #expect(harness.system.pending.isEmpty, "all done: nothing scheduled")
    }

    @Test("returning to the foreground ends the extension")
    func extensionToForeground() throws {
        let work = Work()
        work.items = ["uploads": 1]
        let harness = try harness(work)
        harness.useApp(at: .at(100))
        harness.useApp(at: .at(170))
        try harness.run(until: .at(175))
        #expect(transitions(work, "uploads") == ["foreground→extensionTask", "extensionTask→foreground"])
    }

    @Test("a processing task wakes the module; expiry returns it to suspended and reschedules")
    func processingExpires() throws {
        let work = Work()
        work.items = ["uploads": 1]
        let harness = try harness(work)
        harness.useApp(at: .at(100))
        try harness.run(until: .at(850))
        // The extension expires at 187; processing requested for 247, runs 10 min to 847.
        #expect(transitions(work, "uploads").prefix(4) == [
            "foreground→extensionTask", "extensionTask→suspended", "suspended→processingTask", "processingTask→suspended",
        ])
        #expect(harness.system.metrics.tasksCompletedUnsuccessfully >= 1)
        #expect(harness.entries(.kill).isEmpty)
        #expect(harness.system.pending.entries.map(\.request.identifier).contains("p0"), "rescheduled after expiry")
    }

    @Test("all work done in a processing task completes it successfully and schedules nothing")
    func processingCompletes() throws {
        let work = Work()
        work.items = ["uploads": 1]
        work.finishAt = ["uploads": .at(400)]   // set by the process launched in the foreground at 100
        let harness = try harness(work)
        harness.useApp(at: .at(100))
        try harness.run(until: .at(260))  // the processing task started at 247 (187 + 60)
        #expect(work.controllers["uploads"]?.state == .processingTask)
        try harness.run(until: .at(450))
        #expect(transitions(work, "uploads").last == "processingTask→suspended")
        #expect(harness.system.metrics.tasksCompletedSuccessfully == 1)
        #expect(harness.system.pending.isEmpty)
    }

    @Test("opening the app during a processing task moves the module to the foreground")
    func processingToForeground() throws {
        let work = Work()
        work.items = ["uploads": 1]
        let harness = try harness(work)
        harness.useApp(at: .at(100))
        harness.inject(.appOpen, at: .at(300))
        try harness.run(until: .at(310))
        #expect(transitions(work, "uploads").last == "processingTask→foreground")
    }

    @Test("two modules' processing tasks are independent")
    func independentProcessing() throws {
        let work = Work()
        work.items = ["uploads": 1, "photos": 1]
        work.finishAt = ["uploads": .at(265)]
        let harness = try harness(work)
        harness.useApp(at: .at(100))
        try harness.run(until: .at(260))
        #expect(work.controllers["uploads"]?.state == .processingTask)
        #expect(work.controllers["photos"]?.state == .processingTask)
        try harness.run(until: .at(270))
        #expect(work.controllers["uploads"]?.state == .suspended)
        #expect(work.controllers["photos"]?.state == .processingTask, "photos keeps its own task")
    }
}
