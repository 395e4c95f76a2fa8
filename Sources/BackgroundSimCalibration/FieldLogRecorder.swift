import BackgroundSim
import SimKernel
import BackgroundSimLab

/// Writes a simulated run as the field log an app instrumented as docs/FIELD-LOGS.md describes
/// would have written on that phone: the app's foregrounds and backgrounds, its task
/// submissions, launches, completions and expirations, each with the phone's charging state,
/// network, battery level, boot time and whether it is unlocked (its screen on) at that moment,
/// in local time.
///
/// Only what an app can see is written: not the system's launch decisions, not the model's
/// state. Continued-processing tasks, URL session events and pushes are not field-log events.
package enum FieldLogRecorder {
    /// Runs `scenario` on `seed` for `days` and returns the result and its field log, the device
    /// named `device`.
    package static func run(_ scenario: Scenario, seed: UInt64, days: Int, device: String,
                            policies: PolicyRegistry = .builtIn) throws -> (result: RunResult, records: [FieldLogRecord]) {
        final class Collector {
            var records: [FieldLogRecord] = []
        }
        let collector = Collector()
        let result = try run(scenario, seed: seed, days: days, device: device, policies: policies) { collector.records.append($0) }
        return (result, collector.records)
    }

    /// Runs `scenario` on `seed` for `days`, handing each record of its field log (the device
    /// named `device`) to `record` as the run writes it, and returns the result: a run of any
    /// length keeps none of its records.
    package static func run(_ scenario: Scenario, seed: UInt64, days: Int, device: String, policies: PolicyRegistry = .builtIn,
                            record emit: @escaping (FieldLogRecord) -> Void) throws -> RunResult {
        let calendar = scenario.calendar.calendar
        final class Kinds {
            var byIdentifier: [String: FieldLogRecord.Kind] = [:]
            /// The records written at the latest instant: one that repeats them is not written.
            var atInstant: [FieldLogRecord] = []
            var instant = SimInstant.start
            /// Whether a record has been written: the first, the user's first open of the newly
            /// installed app, says so (``FieldLogRecord/firstLaunch``).
            var wroteAny = false
        }
        let kinds = Kinds()
        return try SimulationRunner.run(scenario: scenario, seed: seed, days: days, policies: policies, configure: { system in
            system.log = { [unowned system] entry in
                let snapshot = system.snapshot
                func local(_ instant: SimInstant) -> LocalTimestamp {
                    let day = calendar.day(of: instant)
                    return LocalTimestamp(date: calendar.date(ofDay: day),
                                          secondsSinceMidnight: Double(calendar.timeOfDay(at: instant).nanoseconds) / 1e9)
                }
                var record = FieldLogRecord(device: device, time: local(entry.time), event: .appForeground,
                                            charging: snapshot.isCharging,
                                            network: Self.network(snapshot.network.interface),
                                            batteryPercent: (snapshot.batteryPercent * 10).rounded() / 10,
                                            bootTime: local(snapshot.bootedAt),
                                            protectedDataAvailable: snapshot.isScreenOn)
                switch entry.event {
                case .launch(reason: .user), .willEnterForeground:
                    record.event = .appForeground
                case .didEnterBackground:
                    record.event = .appBackground
                case .submit(let identifier, let kind, let earliestBeginIn) where kind != .continuedProcessing:
                    let logged: FieldLogRecord.Kind = kind == .appRefresh ? .refresh : .processing
                    kinds.byIdentifier[identifier] = logged
                    record.event = .taskSubmitted
                    record.identifier = identifier
                    record.kind = logged
                    if earliestBeginIn > .zero { record.earliestBegin = local(entry.time + earliestBeginIn) }
                    if kind == .processing, let request = system.pendingRequest(identifier: identifier) {
                        record.requiresNetwork = request.requiresNetworkConnectivity
                        record.requiresExternalPower = request.requiresExternalPower
                    }
                case .taskLaunch(let identifier, _, _, _):
                    guard let kind = kinds.byIdentifier[identifier] else { return }
                    record.event = .taskLaunched
                    record.identifier = identifier
                    record.kind = kind
                case .taskCompleted(let identifier, _, let success):
                    guard let kind = kinds.byIdentifier[identifier] else { return }
                    record.event = .taskCompleted
                    record.identifier = identifier
                    record.kind = kind
                    record.success = success
                case .taskExpire(let identifier, _, _):
                    guard let kind = kinds.byIdentifier[identifier] else { return }
                    record.event = .taskExpired
                    record.identifier = identifier
                    record.kind = kind
                default:
                    return
                }
                // An app that submits the same request twice at one instant (as it launches, and
                // again in the task's handler) writes two identical records; the reader keeps one
                // of any exact repeat (docs/FIELD-LOGS.md), and the second submission changes
                // nothing, so it is written once.
                if entry.time != kinds.instant {
                    kinds.instant = entry.time
                    kinds.atInstant.removeAll(keepingCapacity: true)
                }
                guard !kinds.atInstant.contains(record) else { return }
                kinds.atInstant.append(record)
                if !kinds.wroteAny {
                    // Every run starts at install: nothing learnt, nothing pending.
                    kinds.wroteAny = true
                    if record.event == .appForeground { record.firstLaunch = true }
                }
                emit(record)
            }
        })
    }

    /// Runs `scenario` on each of `seeds` in parallel and returns the results and one field log
    /// of every device (`device-SEED`), in seed order: the same for any number of jobs.
    package static func run(_ scenario: Scenario, seeds: [UInt64], days: Int, jobs: Int, policies: PolicyRegistry = .builtIn,
                            progress: (@Sendable () -> Void)? = nil) throws -> (results: [RunResult], records: [FieldLogRecord]) {
        try scenario.requireValid(policies: policies)
        try SimulationRunner.requireValid(days: days)
        let runs = try ParallelRuns.map(count: seeds.count, jobs: jobs, progress: progress) { index in
            try run(scenario, seed: seeds[index], days: days, device: "device-\(seeds[index])", policies: policies)
        }
        return (runs.map(\.result), runs.flatMap(\.records))
    }

    static func network(_ interface: NetworkPath.Interface) -> FieldLogRecord.Network {
        switch interface {
        case .wifi: .wifi
        case .cellular: .cellular
        case .none: FieldLogRecord.Network.none
        }
    }
}
