import BackgroundSim
import BackgroundSimLab

/// One device's field log reduced to what replaying it through the launch model needs: the
/// user's foregrounds and backgrounds, the app's submissions and the system's launches, and the
/// phone's state where records give it. Times are seconds since the local midnight of the
/// device's first day, so evaluations (every 15 min of local time) fall on multiples of 900.
struct DeviceHistory: Sendable {
    /// The phone's state as records give it; `nil` where no record has said.
    struct State: Sendable, Equatable {
        var charging: Bool?
        var batteryPercent: Double?
        var network: FieldLogRecord.Network?
        /// Whether the phone was unlocked at the record (it says nothing once the record is past).
        var unlocked: Bool?

        /// `self` updated with what `other` knows.
        func updated(with other: State) -> State {
            State(charging: other.charging ?? charging, batteryPercent: other.batteryPercent ?? batteryPercent,
                  network: other.network ?? network, unlocked: other.unlocked)
        }
    }

    /// A submitted request, as the replay needs it.
    struct Submission: Sendable {
        var identifier: String
        var kind: FieldLogRecord.Kind
        /// When it may first run (its earliest begin date, or its submission).
        var earliest: Double
        var requiresNetwork: Bool
        var requiresExternalPower: Bool
        /// Whether the app submitted it while one of its tasks of the same kind ran (in the
        /// launch handler, typically): a resubmission the launch caused, not the user.
        var duringLaunch: Bool
    }

    enum Step: Sendable {
        case foreground(hour: Int)
        case background
        case submitted(Submission)
        /// A launch, with the phone's state its record gives (the state at the decision).
        case launched(identifier: String, kind: FieldLogRecord.Kind, state: State)
        /// The state a record gives; `launchOf` is the kind of the task whose launch the record
        /// follows from (its completion or expiry, a resubmission in its handler), if any.
        case state(State, launchOf: FieldLogRecord.Kind?)
        /// The phone started again at this step's time (a record's boot time), after the
        /// previous record at `since`: it was off, or shutting down, for an unknown part of the
        /// time between, and the replay evaluates none of it. From the boot to the first unlock
        /// nothing launches either; a log cannot say when that was, so processing's chain
        /// carries it (``PhoneStateProfile/Belief``). Refresh's replay takes the phone as
        /// unlocked from the boot on.
        case restarted(since: Double)
    }

    /// How much later a record's boot time must be than the last one seen to count as a new
    /// start: boot times an app computes from the uptime wobble by a little.
    static let bootTolerance = 60.0

    var device: String
    var firstDate: CivilDate
    var steps: [(time: Double, step: Step)]
    /// The time of the first record, and the time the log covers the device until: its last
    /// record's, or for a device's last history the log's end (``reachingTheLogsEnd(_:)``).
    var start: Double
    var end: Double
    /// Whether the log begins with the app's first launch since install
    /// (``FieldLogRecord/firstLaunch``): then the replay starts the phone as the simulator
    /// starts a new install, nothing learnt and nothing pending. Any other log began with a
    /// history it does not show, which the replay fills in (``earlierRequests``) and the
    /// refresh likelihood integrates out (``RefreshTape/Prehistory``).
    var startsAtInstall = false
    /// Requests taken as pending when a log that did not start at install began: one of each
    /// identifier the log shows submitted or launched, due from the first record (an earliest
    /// begin before the log is not in it), with the requirements of its first submission [Inf].
    /// Apps that keep a request pending, resubmitting at each launch and each open as the
    /// reference apps do, have one then; taking only those the log shows launched before any
    /// submission would keep the pending requests that launched and drop those that did not.
    var earlierRequests: [Submission] = []
    /// The user's opens of the app as the log shows them, for the use before a log that did
    /// not start at install: `nil` for one that did, or that shows no open.
    var loggedUse: LoggedUse?

    /// Opens spread evenly over the day added to a log's own when sharing its earlier use out
    /// by hour [Inf]: a user's opens before the log fell in hours their logged ones may miss,
    /// and an hour with no learnt use denies every refresh an hour before it, so the log's
    /// launches there could not be explained.
    static let pseudoOpens = 1.0

    /// The user's opens over a whole log.
    struct LoggedUse: Sendable {
        /// The rate of opens a day the earlier use is measured in: the replay's earlier use
        /// `u` is that many times this rate. The log's own rate (``ownOpensPerDay``), until
        /// ``withEarlierUseRates(_:)`` draws it towards the logs' mean by how much of the logs'
        /// spread between devices is noise.
        var opensPerDay: Double
        /// The opens' shares by local hour, summing to 1, with ``pseudoOpens`` spread evenly.
        var hourlyShares: [Double]
        /// Opens a day over the device-days of its own records, first to last (``days``: not
        /// to the log's end, ``DeviceHistory/reachingTheLogsEnd(_:)``), and the sample variance
        /// of its whole local days' counts of opens.
        var ownOpensPerDay: Double
        var dailyOpensVariance: Double
        var days: Double
    }

    /// The device-days a log from `start` to `end` covers: the local calendar days from the day
    /// of the first record to the day of the end (the log's: ``reachingTheLogsEnd(_:)``), each
    /// counted whole, as `bgsim run` counts the days it simulates (a phone run for 28 days from
    /// midnight whose user first opens the app that evening covers 28). Until 2026-11-28 the
    /// span from the first record to the last, which made a simulated log's rates about 3 %
    /// higher than its run's.
    static func wholeDays(from start: Double, to end: Double) -> Double {
        (end / 86_400).rounded(.down) - (start / 86_400).rounded(.down) + 1
    }

    /// ``wholeDays(from:to:)`` of this device's log.
    var days: Double { Self.wholeDays(from: start, to: end) }

    /// Whether the log before this history's first record is another history of the same
    /// device, ended by a silence of ``splittingSilenceDays`` or more (``pieces(_:)``).
    var followsSilence = false

    /// The steps of one device's records (sorted by time); `followsSilence` if they are the
    /// part of a device's log after a long silence (``pieces(_:)``).
    init(_ records: ArraySlice<FieldLogRecord>, followsSilence: Bool = false) {
        self.followsSilence = followsSilence
        device = records.first?.device ?? ""
        firstDate = records.first?.time.date ?? CivilDate(daysSinceEpoch: 0)
        let origin = Double(firstDate.daysSinceEpoch) * 86_400
        steps = []
        /// Tasks running now, by identifier, with their kind.
        var running: [String: FieldLogRecord.Kind] = [:]
        var lastBoot: Double?
        var previousTime: Double?
        /// Identifiers the log shows submitted so far.
        var submitted: Set<String> = []
        /// One copy of each identifier, which every step naming it shares: a long identifier
        /// parsed from each record would otherwise keep a copy for each (a sixth of what
        /// calibration holds for CoverDrop's logs).
        var identifiers: [String: String] = [:]
        func interned(_ identifier: String?) -> String {
            let identifier = identifier ?? ""
            if let kept = identifiers[identifier] { return kept }
            identifiers[identifier] = identifier
            return identifier
        }
        startsAtInstall = records.first?.firstLaunch == true
        let start = (records.first?.time.seconds ?? origin) - origin
        var earlierRequests: [Submission] = []
        let startsAtInstall = startsAtInstall
        func noteEarlierRequest(_ identifier: String, kind: FieldLogRecord.Kind, requirementsFrom submission: FieldLogRecord?) {
            guard !startsAtInstall else { return }
            let index = earlierRequests.firstIndex { $0.identifier == identifier } ?? {
                earlierRequests.append(Submission(identifier: identifier, kind: kind, earliest: start, requiresNetwork: false,
                                                  requiresExternalPower: false, duringLaunch: false))
                return earlierRequests.count - 1
            }()
            if let submission {
                earlierRequests[index].requiresNetwork = submission.requiresNetwork ?? false
                earlierRequests[index].requiresExternalPower = submission.requiresExternalPower ?? false
            }
        }
        for record in records {
            let time = record.time.seconds - origin
            if let boot = record.bootTime.map({ $0.seconds - origin }) {
                if let lastBoot, boot > lastBoot + Self.bootTolerance, let previousTime {
                    // Off (or shutting down) at some time after the previous record, on again at the boot.
                    steps.append((Swift.min(time, Swift.max(previousTime, boot)), .restarted(since: previousTime)))
                    running.removeAll()
                }
                lastBoot = Swift.max(lastBoot ?? boot, boot)
            }
            previousTime = time
            let state = State(charging: record.charging, batteryPercent: record.batteryPercent, network: record.network,
                              unlocked: record.protectedDataAvailable)
            if record.event != .taskLaunched && state != State() {
                // A submission while a task of its kind runs, or the end of a running task.
                let followsLaunch = switch record.event {
                case .taskSubmitted: record.kind.map { running.values.contains($0) } ?? false
                case .taskCompleted, .taskExpired: running[record.identifier ?? ""] != nil
                default: false
                }
                let launchOf = followsLaunch ? record.kind : nil
                steps.append((time, .state(state, launchOf: launchOf)))
            }
            switch record.event {
            case .appForeground: steps.append((time, .foreground(hour: record.time.hour)))
            case .appBackground: steps.append((time, .background))
            case .taskSubmitted:
                let isNew = submitted.insert(record.identifier ?? "").inserted
                guard let kind = record.kind else { break }
                if isNew { noteEarlierRequest(record.identifier ?? "", kind: kind, requirementsFrom: record) }
                let earliest = Swift.max(time, (record.earliestBegin?.seconds ?? 0) - origin)
                steps.append((time, .submitted(Submission(
                    identifier: interned(record.identifier), kind: kind, earliest: earliest,
                    requiresNetwork: record.requiresNetwork ?? false, requiresExternalPower: record.requiresExternalPower ?? false,
                    duringLaunch: running.values.contains(kind)))))
            case .taskLaunched:
                guard let kind = record.kind else { break }
                noteEarlierRequest(record.identifier ?? "", kind: kind, requirementsFrom: nil)
                running[record.identifier ?? ""] = kind
                steps.append((time, .launched(identifier: interned(record.identifier), kind: kind, state: state)))
            case .taskCompleted, .taskExpired:
                running.removeValue(forKey: record.identifier ?? "")
            }
        }
        self.start = start
        self.earlierRequests = earlierRequests
        end = (records.last?.time.seconds ?? origin) - origin
        if !startsAtInstall { loggedUse = Self.loggedUse(steps, days: days) }
        // A launch at the same instant as other records goes first: the system chose it at its
        // evaluation, before the process launched and the app, in its launch callbacks,
        // submitted again (the log shows those first because they run first). A restart goes
        // before both: the phone was on again before anything at that instant.
        steps = steps.enumerated().sorted { a, b in
            func rank(_ step: Step) -> Int {
                switch step {
                case .restarted: 0
                case .launched: 1
                default: 2
                }
            }
            return (a.element.time, rank(a.element.step), a.offset) < (b.element.time, rank(b.element.step), b.offset)
        }.map(\.element)
        // A submission at a launch's instant, logged before it, was made in its handler (and
        // the state its record gives follows from the launch).
        var launchTimes: [FieldLogRecord.Kind: Double] = [:]
        for index in steps.indices {
            let time = steps[index].time
            switch steps[index].step {
            case .launched(_, let kind, _): launchTimes[kind] = time
            case .submitted(var submission) where launchTimes[submission.kind] == time && !submission.duringLaunch:
                submission.duringLaunch = true
                steps[index].step = .submitted(submission)
                if index > 0, steps[index - 1].time == time, case .state(let state, nil) = steps[index - 1].step {
                    steps[index - 1].step = .state(state, launchOf: submission.kind)
                }
            default: break
            }
        }
    }

    /// The user's opens in `steps` over `days` device-days; `nil` if there are none.
    static func loggedUse(_ steps: [(time: Double, step: Step)], days: Double) -> LoggedUse? {
        var opensByHour = [Double](repeating: 0, count: 24)
        var opensByDay: [Double: Double] = [:]
        for (time, step) in steps {
            guard case .foreground(let hour) = step else { continue }
            opensByHour[hour] += 1
            opensByDay[(time / 86_400).rounded(.down), default: 0] += 1
        }
        let opens = opensByHour.reduce(0, +)
        guard opens > 0 else { return nil }
        let squares = opensByDay.values.sorted().reduce(0) { $0 + $1 * $1 }
        let variance = days > 1 ? Swift.max(0, squares - opens * opens / days) / (days - 1) : 0
        return LoggedUse(opensPerDay: opens / days,
                         hourlyShares: opensByHour.map { ($0 + Self.pseudoOpens / 24) / (opens + Self.pseudoOpens) },
                         ownOpensPerDay: opens / days, dailyOpensVariance: variance, days: days)
    }

    /// Whether the log has anything of `kind` (a submission or a launch).
    func involves(_ kind: FieldLogRecord.Kind) -> Bool {
        steps.contains { entry in
            switch entry.step {
            case .submitted(let submission): submission.kind == kind
            case .launched(_, let launched, _): launched == kind
            default: false
            }
        }
    }

    /// The histories of `records` (sorted by device, then time): each device's, split at its
    /// long silences (``pieces(_:)``).
    static func histories(_ records: [FieldLogRecord]) -> [DeviceHistory] {
        reachingTheLogsEnd(FieldLogFormat.devices(records).flatMap { pieces($0[...]) })
    }

    /// The shortest silence, in days, that splits a device's log in two (``pieces(_:)``);
    /// default 7, plausible 5–14 [Inf]. Records lost in between (an upload that never arrived,
    /// the app offloaded) would be read as days without an open or a launch, and after such a
    /// gap the phone's state is as unknown as at a log's start, which the replay of such a log
    /// treats. A silence this long also comes from users who stop opening the app (a holiday,
    /// weekly users): in 60 simulated CoverDrop phones × 28 days, none for daily users, 12 of 59
    /// phones with the `weekly` profile, 29 of 60 with a 14-day absence. Those silences are
    /// evidence (no launch as the fade sets in), so only a silence that begins soon after an
    /// open splits (``splittingSilenceOpenWithinDays``).
    static let splittingSilenceDays = 7.0

    /// How soon after the app's last open a silence must begin to split the log: default 3
    /// days, plausible 2–4 [Inf]. After an open an app that holds a refresh request is
    /// launched within hours to days (the fade is weakest then), and each launch is a record,
    /// so records that stop within days of an open and stay stopped for a week were lost; a
    /// user who stops opening the app leaves launches for days after the last open first.
    /// Split at every long silence instead, 29 of 60 phones with a 14-day absence were split
    /// and the fade came out 3.86 days (3.26–4.57) against the true 3 (each piece before a
    /// silence ends at its last launch, which drops the evaluations without one after it);
    /// with this rule 2 are, and 3.27 (2.79–3.83). With 1 or 2 days, phones whose logs lost 8
    /// days went unsplit and fits broke (docs/CALIBRATION.md).
    static let splittingSilenceOpenWithinDays = 3.0

    /// How many times the device's median gap between records a silence must also last to
    /// split its log: default 16, plausible 14–18 [O]. A user who opens the app about once a
    /// week, with a refresh budget of about one launch in two days, leaves silences of 7 days
    /// and more soon after an open as a matter of course: in 240 simulated CoverDrop phones ×
    /// 28 days with the `weekly` profile, 46 such silences, each 1.4–14.3 times its device's
    /// median gap (about 2 days); split there, the fade came out 8.2 days (5.9–11.4) against the
    /// true 5, and 6.8 (5.2–8.8) with none split (before logs ran to their end:
    /// ``reachingTheLogsEnd(_:)``). Records lost for 8 days from daily users' logs
    /// (the gap study in docs/CALIBRATION.md) leave silences 18.1–57 times their device's median
    /// gap (180 of 180, three logs of 60 phones). The gaps counted are those of an hour or more
    /// (a launch and the records it causes come within minutes).
    static let splittingSilenceMedianGaps = 16.0

    /// The median of the gaps of an hour or more between consecutive `records` (sorted by
    /// time), in seconds; `nil` if there is none.
    static func medianGap(_ records: ArraySlice<FieldLogRecord>) -> Double? {
        let gaps = zip(records, records.dropFirst()).map { $1.time.seconds - $0.time.seconds }.filter { $0 >= 3_600 }.sorted()
        guard !gaps.isEmpty else { return nil }
        return gaps.count % 2 == 1 ? gaps[gaps.count / 2] : (gaps[gaps.count / 2 - 1] + gaps[gaps.count / 2]) / 2
    }

    /// One device's records (sorted by time) as histories: split before every record that
    /// follows the one before it by ``splittingSilenceDays`` or more, and by
    /// ``splittingSilenceMedianGaps`` times the device's median gap between records
    /// (``medianGap(_:)``) or more, where that one came within ``splittingSilenceOpenWithinDays``
    /// of the app's last open; each piece after a split is replayed as a log that began after
    /// install (its first record is no first launch).
    static func pieces(_ records: ArraySlice<FieldLogRecord>) -> [DeviceHistory] {
        var pieces: [DeviceHistory] = []
        var pieceStart = records.startIndex
        var lastOpen: Double?
        let shortestSplit = Swift.max(splittingSilenceDays * 86_400, splittingSilenceMedianGaps * (medianGap(records) ?? 0))
        for index in records.indices {
            if index > records.startIndex, let lastOpen {
                let previous = records[records.index(before: index)].time.seconds
                if records[index].time.seconds - previous >= shortestSplit,
                   previous - lastOpen <= splittingSilenceOpenWithinDays * 86_400 {
                    pieces.append(DeviceHistory(records[pieceStart..<index], followsSilence: pieceStart != records.startIndex))
                    pieceStart = index
                }
            }
            if records[index].event == .appForeground { lastOpen = records[index].time.seconds }
        }
        pieces.append(DeviceHistory(records[pieceStart...], followsSilence: pieceStart != records.startIndex))
        return pieces
    }
}
