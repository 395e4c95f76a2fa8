import BackgroundSim
import SimKernel
import SimulatedBackgroundTasks
import Testing

@Suite("An app's continued-processing export, written against Apple's API, under simulated iOS")
struct ContinuedProcessingCodeTests {
    /// One run of the export service, and what its log and journal hold.
    /// With `stallsEnd`, a stalled task is expired whatever the phone's resources
    /// (`stallEndsOnlyUnderPressure` false).
    static func run(steps: Int64 = 10, stepSeconds: Int = 20, reportsEachStep: Bool, cancelProbability: Double = 0,
                    stallsEnd: Bool = false, requiredResources: BGContinuedProcessingTaskRequest.Resources = .default, days: Int = 3)
        throws -> (result: RunResult, log: [SystemLogEvent], journal: [String]) {
        let journal = SharedJournal()
        let section = #""userCancelProbability": \#(cancelProbability), "stallEndsOnlyUnderPressure": \#(!stallsEnd)"#
        let run = try runAppCode("export", taskIdentifiers: [ExportService.wildcard],
                                 scenario: #"{"system": {"continuedProcessing": {\#(section)}}}"#,
                                 days: days) {
            ExportAppDelegate(service: ExportService(steps: steps, stepSeconds: stepSeconds, reportsEachStep: reportsEachStep,
                                                     requiredResources: requiredResources) { journal.lines.append($0) })
        }
        return (run.result, run.log, journal.lines)
    }

    static func expirations(_ log: [SystemLogEvent]) -> [ExpirationCause] {
        log.compactMap { if case .taskExpire(_, _, let cause) = $0 { cause } else { nil } }
    }

    @Test("an export that reports each step runs past the system's 60 s stall timeout to the end: launched as continued processing, never expired, completed unless the user force-quits the app")
    func reportedProgressKeepsTheTaskRunning() throws {
        let (_, log, journal) = try Self.run(reportsEachStep: true)
        let launches = log.filter { if case .taskLaunch(_, .continuedProcessing, _, _) = $0 { true } else { false } }.count
        #expect(launches >= 5, "\(log.count) events")
        #expect(Self.expirations(log).isEmpty)
        // Every export ends exported, unless the user force-quits the app first (once here).
        let completed = log.filter { if case .taskCompleted(_, _, true) = $0 { true } else { false } }.count
        let forceQuits = log.filter { $0 == .terminate(reason: .forceQuit) }.count
        #expect(journal.filter { $0 == "exported" }.count == completed, "\(journal)")
        #expect(completed >= launches - forceQuits && completed >= 5, "\(completed) of \(launches) completed")
        #expect(!journal.contains { $0.hasPrefix("submit failed") }, "\(journal)")
    }

    @Test("with stalls ending whatever the phone's resources, the same export reporting only its last step is expired for no progress after 60 s; its expiration handler stops it and it completes unsuccessfully")
    func unreportedProgressExpires() throws {
        let (_, log, journal) = try Self.run(reportsEachStep: false, stallsEnd: true)
        let expirations = Self.expirations(log)
        #expect(expirations.count >= 5 && expirations.allSatisfy { $0 == .noProgress }, "\(expirations)")
        #expect(!journal.contains("exported"), "\(journal)")
        #expect(journal.filter { $0 == "export stopped" }.count == expirations.count)
        #expect(!log.contains { $0.kind == .kill })
    }

    @Test("by default, on a phone whose resources are not constrained, the export reporting only its last step is not expired for its silence: most exports end exported")
    func unreportedProgressRunsOnUnconstrained() throws {
        let (_, log, journal) = try Self.run(reportsEachStep: false)
        let stalls = Self.expirations(log).filter { $0 == .noProgress }.count
        let exported = journal.filter { $0 == "exported" }.count
        #expect(exported >= 5 && exported > 2 * stalls, "\(exported) exported, \(stalls) expired for no progress")
    }

    @Test("the user's cancel from the Live Activity reaches the export's expiration handler as userCancelled")
    func userCancelReachesTheHandler() throws {
        let (_, log, journal) = try Self.run(steps: 100, reportsEachStep: true, cancelProbability: 1)
        let expirations = Self.expirations(log)
        #expect(expirations.count >= 5 && expirations.allSatisfy { $0 == .userCancelled }, "\(expirations)")
        #expect(journal.filter { $0 == "export stopped" }.count == expirations.count)
    }

    @Test("a request that requires the GPU is refused as unavailable: the simulated phone supports no resources beyond the default")
    func gpuIsRefused() throws {
        #expect(BGTaskScheduler.supportedResources == .default)
        let (_, log, journal) = try Self.run(reportsEachStep: true, requiredResources: .gpu, days: 1)
        #expect(journal.contains("submit failed: unavailable"), "\(journal)")
        #expect(!log.contains { $0.kind == .taskLaunch })
    }
}
