import BackgroundSim
import BackgroundSimChecking
import Foundation
import SimKernel
import SimulatedBackgroundTasks
import Testing

@Suite("Uploads handed to a background URL session by the app's own code")
struct BackgroundURLSessionTests {
    /// A week of a user who opens the app and takes two 30 MB photos (videos, say) each time, on
    /// the default phone: the run, its log, and the uploader's journal.
    static func run(seed: UInt64 = 1, days: Int = 7) throws -> (result: RunResult, log: [SystemLogEvent], journal: [String]) {
        let journal = SharedJournal()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-photos-\(seed)-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try runAppCode("photos", scenario: #"{"work": {"arrivals": "none"}}"#, seed: seed, days: days) {
            PhotoAppDelegate(uploader: PhotoUploader(photoBytes: 30_000_000, directory: directory) { journal.lines.append($0) })
        }
        return (run.result, run.log, journal.lines)
    }

    @Test("every photo handed to the session ends once: uploaded (status 200) or cancelled by a force-quit, as the delegate hears, whatever the app's state; the bytes go as work")
    func everyUploadEndsOnce() throws {
        let (result, log, journal) = try Self.run()
        let taken = log.compactMap { if case .sessionTransfersCreated(_, let count, _, _) = $0 { Int(count) } else { nil } }.reduce(0, +)
        #expect(taken >= 10, "\(log.count) events")
        let endings = journal.filter { $0.hasPrefix("photo-") }
        let photos = endings.map { $0.split(separator: " ")[0] }
        #expect(Set(photos).count == photos.count, "a photo ended twice: \(endings)")
        let uploaded = endings.filter { $0.hasSuffix("uploaded, status 200") }.count
        let cancelled = endings.filter { $0.hasSuffix("cancelled by a force-quit") }.count
        #expect(uploaded + cancelled == endings.count, "\(endings)")
        #expect(uploaded >= 8)
        // None is lost on the way: the app has heard of every photo but those of its last visit,
        // whose news still waits at the end of the week.
        #expect(Set(photos) == Set((1...endings.count).map { "photo-\($0)"[...] }), "\(endings)")
        #expect(taken - endings.count <= 2, "\(endings.count) of \(taken)")
        #expect(result.work.completed >= uploaded && result.work.metrics.completedBytes >= Double(uploaded) * 30_000_000)
        #expect(result.work.metrics.completedBySession >= uploaded)
    }

    @Test("uploads that end while the app is away bring it back: handleEventsForBackgroundURLSession, the delegate's news, then urlSessionDidFinishEvents, and the app calls the handler in time")
    func eventsRelaunchTheApp() throws {
        let (_, log, journal) = try Self.run()
        let handed = log.filter { $0.kind == .handleSessionEvents }.count
        #expect(handed >= 1, "no session events in a week")
        #expect(log.filter { $0.kind == .sessionCompletionHandlerCalled }.count == handed)
        #expect(!log.contains { $0.kind == .sessionCompletionHandlerNotCalled })
        // Each hand-over: the app hears of the events, then of at least one photo, then that they are finished.
        for index in journal.indices where journal[index].hasPrefix("events for ") {
            let after = journal[(index + 1)...]
            let finished = try #require(after.firstIndex(of: "events finished"), "\(journal)")
            #expect(journal[(index + 1)..<finished].contains { $0.hasPrefix("photo-") }, "\(journal[index...finished])")
        }
    }

    @Test("the same code, scenario and seed give the same digest")
    func deterministic() throws {
        let first = try Self.run(seed: 3, days: 4).result.digest
        #expect(try Self.run(seed: 3, days: 4).result.digest == first)
    }
}

@Suite("One background-session task of the app's own code")
struct BackgroundURLSessionTaskTests {
    static func run(_ make: @escaping @Sendable (SharedJournal) -> TransferProbe) throws -> (result: RunResult, journal: [String]) {
        let journal = SharedJournal()
        // No force-quits, so that nothing but the app cancels the task.
        let run = try runAppCode("probe", server: SimulatedServer { _, _ in Data("the server's answer".utf8) },
                                 scenario: #"{"work": {"arrivals": "none"}, "user": {"app": {"forceQuitProbability": 0}}}"#, days: 2) {
            make(journal)
        }
        return (run.result, journal.lines)
    }

    @Test("a download hands the delegate a file with the server's answer, then completes with status 200")
    func downloadHandsOverTheFile() throws {
        let (_, journal) = try Self.run { TransferProbe(uploadBytes: nil, journal: $0) }
        #expect(journal == ["tasks 1", "downloaded the server's answer", "completed 200"])
    }

    @Test("an upload the app cancels part way ends cancelled (not by a force-quit), and counts as given up")
    func cancelledUploadEndsCancelled() throws {
        let (result, journal) = try Self.run { TransferProbe(uploadBytes: 100_000_000, cancelAfter: 5, journal: $0) }
        #expect(journal == ["tasks 1", "failed cancelled"])
        #expect(result.work.metrics.failedGivenUp == 1 && result.work.completed == 0)
    }

    @Test("an upload longer than the session's timeoutIntervalForResource fails timed out")
    func slowUploadTimesOut() throws {
        let (result, journal) = try Self.run { TransferProbe(uploadBytes: 100_000_000, timeout: 10, journal: $0) }
        #expect(journal == ["tasks 1", "failed timedOut"])
        #expect(result.work.metrics.failedDeadline == 1)
    }
}

@Suite("The model's invariants with the app's own background-session code")
struct BackgroundURLSessionInvariantTests {
    @Test("photo uploads in a background session keep every standard invariant over 40 swarm seeds × 7 days (sessions, wakes, energy, the phone off)")
    func uploadsKeepTheInvariants() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-photos-check-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var checker = PolicyChecker(scenario: try ScenarioLoader.decode(#"{"work": {"arrivals": "none"}}"#, source: "photos.json"), days: 7)
        checker.policy = {
            AppDelegatePolicy {
                PhotoAppDelegate(uploader: PhotoUploader(photoBytes: 30_000_000, directory: directory) { _ in })
            }
        }
        checker.swarm = Swarm()
        let report = try checker.check(seeds: Array(1...40), jobs: 2)
        #expect(report.seedsChecked == 40)
        #expect(report.firstFailure == nil, "\(report.firstFailure.map { "\($0.violations)" } ?? "")")
    }
}

extension BackgroundURLSessionTaskTests {
    @Test("an upload of an empty file completes at once, and one of a file that does not exist fails with fileDoesNotExist, neither carried by the daemon")
    func emptyAndMissingFiles() throws {
        let (empty, emptyJournal) = try Self.run { TransferProbe(uploadBytes: 0, journal: $0) }
        #expect(emptyJournal == ["completed 200", "tasks 0"])   // the delegate hears first: its news was queued at resume()
        #expect(empty.work.created == 0)
        let (missing, missingJournal) = try Self.run { TransferProbe(uploadBytes: -1, journal: $0) }
        #expect(missingJournal == ["failed \(URLError.Code.fileDoesNotExist.rawValue)", "tasks 0"])
        #expect(missing.work.created == 0)
    }
}
