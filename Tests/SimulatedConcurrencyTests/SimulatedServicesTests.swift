import BackgroundSim
import SimKernel
import SimulatedBackgroundTasks
import Testing

/// What one launch of the probing app saw.
struct ServiceReading: Sendable {
    var launchedAt: Date
    var sleptSeconds: TimeInterval
    var startOfDay: Date
    var pathAtStart: NWPath?
    var pathNow: NWPath
    var randomBytes: [UInt8]
    var uploaded: Bool?
    var uploadError: URLError.Code?
    var cancelledError: URLError.Code?
}

/// An app delegate that, at each launch, reads the clock, sleeps, reads it again, uploads
/// 50 kB, starts a second upload of a megabyte and cancels it 10 ms in, watches the network path and draws secure random
/// bytes — as apps do.
final class ServiceProbingDelegate: UIApplicationDelegate {
    let readings: ServiceReadings
    let monitor = NWPathMonitor()

    init(_ readings: ServiceReadings) {
        self.readings = readings
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let launchedAt = Date()
        var bytes = [UInt8](repeating: 0, count: 12)
        _ = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
        let readings = self.readings, monitor = self.monitor
        let firstPath = Box<NWPath>()
        monitor.pathUpdateHandler = { path in if firstPath.value == nil { firstPath.value = path } }
        monitor.start(queue: DispatchQueue(label: "path"))
        Task {
            try? await Task.sleep(for: .seconds(2))
            let slept = Date().timeIntervalSince(launchedAt)
            var request = URLRequest(url: URL(string: "https://example.org/upload")!)
            request.httpMethod = "POST"
            var uploaded: Bool?, uploadError: URLError.Code?
            do {
                let (_, response) = try await URLSession.shared.upload(for: request, from: Data(count: 50_000))
                uploaded = (response as? HTTPURLResponse)?.statusCode == 200
            } catch let error as URLError {
                uploadError = error.code
            }
            let cancelled = Task { try await URLSession.shared.upload(for: request, from: Data(count: 1_000_000)) }
            try? await Task.sleep(for: .milliseconds(10))   // part way through a megabyte
            cancelled.cancel()
            var cancelledError: URLError.Code?
            do { _ = try await cancelled.value } catch let error as URLError { cancelledError = error.code }
            readings.append(ServiceReading(
                launchedAt: launchedAt, sleptSeconds: slept, startOfDay: Calendar.current.startOfDay(for: launchedAt),
                pathAtStart: firstPath.value, pathNow: monitor.currentPath, randomBytes: bytes,
                uploaded: uploaded, uploadError: uploadError, cancelledError: cancelledError))
        }
        return true
    }
}

final class Box<Value>: @unchecked Sendable {
    var value: Value?
}

final class ServiceReadings: @unchecked Sendable {
    private(set) var all: [ServiceReading] = []
    func append(_ reading: ServiceReading) { all.append(reading) }
}

@Suite("Dates, requests, the network path and randomness as the app's own code sees them")
struct SimulatedServicesTests {
    static func run(seed: UInt64, days: Int) throws -> (readings: [ServiceReading], result: RunResult) {
        let readings = ServiceReadings()
        var policies = PolicyRegistry.builtIn
        try policies.register(.appDelegate(name: "probes-services", summary: "Probes the services at each launch.", taskIdentifiers: [],
                                           isolation: .sharedProcess) {
            ServiceProbingDelegate(readings)
        })
        // The default user on a calendar starting 2026-03-02 at 08:00 local time.
        let scenario = try ScenarioLoader.decode(#"{"app": {"policy": "probes-services"}, "calendar": {"startDate": "2026-03-02", "startTime": "08:00"}}"#,
                                                 source: "services.json", policies: policies)
        let result = try SimulationRunner.run(scenario: scenario, seed: seed, days: days, policies: policies)
        return (readings.all, result)
    }

    @Test("Date() is the simulated clock on the scenario's calendar: a 2 s sleep is 2 s to the grid, and Calendar.current's days are the simulated user's")
    func datesAreSimulated() throws {
        let (readings, _) = try Self.run(seed: 3, days: 10)
        #expect(readings.count >= 5)
        // 2026-03-02 08:00 GMT is 1,772,438,400 s since 1970; ten simulated days follow it.
        let start = Date(timeIntervalSince1970: 1_772_438_400)
        for reading in readings {
            #expect(reading.launchedAt >= start && reading.launchedAt < start.addingTimeInterval(10 * 86_400), "\(reading.launchedAt)")
            #expect(reading.sleptSeconds == 2, "\(reading.sleptSeconds)")
            #expect(reading.startOfDay.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) == 0)
            #expect(reading.launchedAt.timeIntervalSince(reading.startOfDay) < 86_400)
        }
    }

    @Test("an upload is sent over the simulated network and counted as an item; with no network it fails at once; one cancelled part way fails with .cancelled and is given up")
    func requestsUseTheNetwork() throws {
        let (readings, result) = try Self.run(seed: 3, days: 10)
        let sent = readings.filter { $0.uploaded == true }.count
        let offline = readings.filter { $0.uploadError == .notConnectedToInternet }
        #expect(sent >= 5)
        #expect(sent + offline.count == readings.count)
        #expect(offline.allSatisfy { $0.pathNow.status == .unsatisfied })
        #expect(readings.allSatisfy { $0.cancelledError == ($0.uploaded == true ? .cancelled : .notConnectedToInternet) })
        // Each sent upload is one completed item of 50 kB; the cancelled ones, given up part way
        // (online) or failed at once (offline), are not sent.
        #expect(result.work.completed == sent)
        #expect(result.work.metrics.failedGivenUp == sent)
        #expect(abs(result.work.metrics.completedBytes - Double(sent) * 50_000) < 1)
    }

    @Test("NWPathMonitor delivers the path at start, and its current path is the phone's; SecRandomCopyBytes is reproducible from the seed")
    func pathAndRandomness() throws {
        let (first, _) = try Self.run(seed: 3, days: 10)
        let (again, _) = try Self.run(seed: 3, days: 10)
        let (other, _) = try Self.run(seed: 4, days: 10)
        #expect(first.allSatisfy { $0.pathAtStart != nil })
        #expect(first.contains { $0.pathNow.usesInterfaceType(.wifi) } && first.contains { $0.pathNow.usesInterfaceType(.cellular) })
        #expect(first.map(\.randomBytes) == again.map(\.randomBytes))
        #expect(first.map(\.randomBytes) != other.map(\.randomBytes))
        #expect(Set(first.map(\.randomBytes)).count == first.count)
    }
}

/// An app delegate that hands the simulation the dates at the ends of `Date`'s range, as apps
/// use them for "never" — a request not before `.distantFuture`, and both ends stored in
/// `UserDefaults` — and sleeps longer than any simulated time.
final class ExtremeDatesDelegate: UIApplicationDelegate {
    let journal: SharedJournal

    init(_ journal: SharedJournal) {
        self.journal = journal
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
        request.earliestBeginDate = .distantFuture
        do { try BGTaskScheduler.shared.submit(request) } catch { journal.lines.append("submit failed") }
        UserDefaults.standard.set(Date.distantFuture, forKey: "never")
        UserDefaults.standard.set(Date.distantPast, forKey: "always")
        let never = UserDefaults.standard.object(forKey: "never") as? Date
        let always = UserDefaults.standard.object(forKey: "always") as? Date
        let now = Date()
        journal.lines.append("never \(never.map { $0.timeIntervalSince(now) > 199 * 365 * 86_400 } ?? false)")
        journal.lines.append("always \(always.map { now.timeIntervalSince($0) > 199 * 365 * 86_400 } ?? false)")
        // A sleep for a trillion seconds (beyond any simulated instant), and one for .max.
        Task { try? await Task.sleep(for: .seconds(1_000_000_000_000)) }
        Task { try? await Task.sleep(nanoseconds: .max) }
        return true
    }
}

@Suite("Dates at the ends of Date's range, from the app's own code")
struct ExtremeDatesTests {
    @Test("a request not before .distantFuture never launches, .distantFuture and .distantPast stored in UserDefaults read back at least 199 years away, and sleeps beyond any simulated instant never end, without a trap")
    func extremeDatesAreClamped() throws {
        let journal = SharedJournal()
        let (result, _) = try runAppCode("extreme-dates", taskIdentifiers: ["com.example.refresh"], days: 3) { ExtremeDatesDelegate(journal) }
        #expect(result.os.metrics.refreshLaunches == 0)
        #expect(!journal.lines.isEmpty && journal.lines.allSatisfy { $0.hasSuffix("true") }, "\(journal.lines)")
    }
}

@Suite("UserDefaults as the app's own code uses it")
struct UserDefaultsTests {
    @Test("dictionaries and arrays of property-list values survive the process, registered defaults fill keys not set, and a value that is not a property list crashes that launch (nonPropertyListDefault) and is not stored")
    func propertyListsAndCrashes() throws {
        let journal = SharedJournal()
        let (result, _) = try runAppCode("defaults", scenario: #"{"user": {"app": {"forceQuitProbability": 1}}}"#, days: 7) {
            DefaultsProbeDelegate(journal)
        }
        #expect(journal.lines == ["registered true", "settings eu 3 [0.5, 1.5] 1000.0", "numbers [1, 2, 3]",
                                  "stored the bad value", "bad absent"])
        #expect(result.os.metrics.crashes(.nonPropertyListDefault) == 1 && result.os.metrics.appCodeCrashes == 1)
    }
}
