import BackgroundSim
import SimKernel
import BackgroundSimLab

/// Replays one device's field log through the heuristic launch model for one task kind: the
/// user's foregrounds, the app's submissions and the phone's state go in as they happened, and
/// at each evaluation (every `evaluationMinutes` of local time, 00:00, 00:15, …) with a request
/// of the kind pending and due, the model gives a denial or a chance p.
///
/// As in the system, each pending request is decided on its own at an evaluation, and those
/// chosen launch together.
///
/// Two uses:
/// - **Scoring** (``score(_:kind:parameters:phone:)``): the launches are the log's, each placed
///   at the evaluation at or before it. The log-likelihood sums, over evaluations, the log of
///   the chance of what the log shows there: Π p over the requests launched × Π (1 − p) over
///   the others. Conditioning on the log this way needs no model of the user (a partial
///   likelihood; Cox 1975).
/// - **Simulating** (``simulate(_:kind:parameters:phone:resubmission:random:)``): the launches
///   are drawn, and the app resubmits at each as the log shows it did at its own launches
///   (``Resubmission``); the log's own launches, and the records its launches caused, are left
///   out.
///
/// What the log cannot show is assumed absent: Low Power Mode, a force-quit, Background App
/// Refresh switched off, heat, budgets held low by other work. A record's network holds for
/// ``PhoneStateProfile/freshSeconds``, then the network is taken as available. Refresh's chance
/// does not depend on the phone's charging except at the battery floor, where the last
/// record's state is used; simulating refresh, a drawn launch's charging state comes from the
/// chain below. For processing, whether the phone is on the charger and idle between records is a hidden Markov
/// chain over four states, each unlocked or still locked since a restart (``PhoneStateProfile``),
/// stepped at every evaluation with the base scenario's transition chances by hour (turned to
/// the users' day, ``UsersDayShift``). A record's `charging` keeps only the unlocked states that
/// agree with it, and an open or close of the app, or a record with the phone unlocked, only the
/// unlocked in-use states; scoring adds the chance of each such observation given the past to
/// the likelihood (the forward algorithm of a hidden Markov model; Rabiner 1989), simulating
/// moves a drawn state that disagrees. The model's chance applies in the unlocked idle states
/// only, its charging or battery chance by state; a request that requires external power has no
/// chance off the charger.
enum LaunchReplay {
    /// What a scoring replay found.
    struct Score: Sendable {
        var logLikelihood = 0.0
        var launches = 0
        /// Launches the model could not have made (no request pending and due, or a denial).
        var unexplained = 0
        var evaluations = 0
        /// Processing: the evaluations' expected numbers with the phone idle on the charger, and
        /// idle off it, where a request could launch in that state (the chain's chances at each):
        /// the evidence each chance is fitted on.
        var chargerWeight = 0.0
        var batteryWeight = 0.0

        static func + (a: Score, b: Score) -> Score {
            Score(logLikelihood: a.logLikelihood + b.logLikelihood, launches: a.launches + b.launches,
                  unexplained: a.unexplained + b.unexplained, evaluations: a.evaluations + b.evaluations,
                  chargerWeight: a.chargerWeight + b.chargerWeight, batteryWeight: a.batteryWeight + b.batteryWeight)
        }
    }

    /// What an unexplained launch adds to the log-likelihood: log 10⁻¹², as if the model had
    /// given it a chance of one in a trillion. Under the parameters that wrote a simulated log
    /// there are none; elsewhere it is a steep, finite wall, which the optimiser can climb down.
    static let unexplainedLogChance = -27.631_021_115_928_547

    /// A launch a simulating replay drew.
    struct SimulatedLaunch: Sendable {
        var time: Double
        var identifier: String
        /// The phone's state at the launch: the last records', with charging from the chain.
        var state: DeviceHistory.State
        /// The submissions the app made at it.
        var resubmissions: [DeviceHistory.Submission]
    }

    /// Scores `history`'s launches of `kind` under `parameters`; for a log that began after
    /// install, with `earlierUse` times the log's own rate of opens learnt before it
    /// (``RefreshTape/Prehistory``).
    static func score(_ history: DeviceHistory, kind: FieldLogRecord.Kind, parameters: HeuristicLaunchParameters,
                      phone: PhoneStateProfile, earlierUse: Double = 1) -> Score {
        var replay = Replay(history: history, kind: kind, parameters: parameters, phone: phone, resubmission: nil, random: nil,
                            earlierUse: earlierUse)
        replay.run()
        return replay.score
    }

    /// Records `history`'s refresh evaluations as a ``RefreshTape``: what each read of the
    /// app's use, and the log's launches there. `parameters` supply everything but the
    /// budget's and the fade's values, which the tape leaves open.
    static func refreshTape(_ history: DeviceHistory, parameters: HeuristicLaunchParameters, phone: PhoneStateProfile) -> RefreshTape {
        var replay = Replay(history: history, kind: .refresh, parameters: parameters, phone: phone, resubmission: nil, random: nil)
        replay.tape = RefreshTape.Points()
        if let logged = history.loggedUse { replay.prehistory = RefreshTape.Prehistory(opensPerDay: logged.opensPerDay) }
        replay.run()
        var points = replay.tape ?? RefreshTape.Points()
        points.trim()
        var tape = RefreshTape(points: points, recordedUnder: parameters)
        tape.prehistory = replay.prehistory
        tape.prehistory?.decay.trim()
        tape.prehistory?.shareAhead.trim()
        tape.dueEvaluations = replay.dueEvaluations
        return tape
    }

    /// Records `history`'s processing replay as a ``ProcessingTape``: the chain's steps, what
    /// the log shows of the phone, and each evaluation's due requests and launches.
    /// `parameters` supply everything but the chances' and the fade's values, which the tape
    /// leaves open.
    static func processingTape(_ history: DeviceHistory, parameters: HeuristicLaunchParameters, phone: PhoneStateProfile) -> ProcessingTape {
        var replay = Replay(history: history, kind: .processing, parameters: parameters, phone: phone, resubmission: nil, random: nil)
        replay.processingTape = []
        replay.run()
        var operations = replay.processingTape ?? []
        operations.trim()
        var tape = ProcessingTape(operations: operations, recordedUnder: parameters)
        tape.dueEvaluations = replay.dueEvaluations
        return tape
    }

    /// Draws launches of `kind` for `history`'s user and phone under `parameters` (with
    /// `earlierUse` as in ``score(_:kind:parameters:phone:earlierUse:)``).
    static func simulate(_ history: DeviceHistory, kind: FieldLogRecord.Kind, parameters: HeuristicLaunchParameters,
                         phone: PhoneStateProfile, resubmission: Resubmission, random: inout RandomStream,
                         earlierUse: Double = 1) -> [SimulatedLaunch] {
        var replay = Replay(history: history, kind: kind, parameters: parameters, phone: phone, resubmission: resubmission, random: random,
                            earlierUse: earlierUse)
        replay.run()
        random = replay.random ?? random
        return replay.launches
    }

    /// The replay's state as it walks the log.
    private struct Replay {
        let history: DeviceHistory
        let kind: FieldLogRecord.Kind
        let parameters: HeuristicLaunchParameters
        let phone: PhoneStateProfile
        var model: HeuristicLaunchModel
        let step: Double
        /// Set when simulating: how the app resubmits, and the stream launches are drawn from.
        let resubmission: Resubmission?
        var random: RandomStream?
        var score = Score()
        /// Recording a tape: evaluations with a request of the kind pending and due.
        var dueEvaluations = 0
        var launches: [SimulatedLaunch] = []
        var pending: [DeviceHistory.Submission] = []
        /// The phone's state as the last records gave it.
        var state = DeviceHistory.State()
        /// When a record last gave the network.
        var networkTime = -Double.infinity
        /// The chances of the phone's states (``PhoneStateProfile/Belief``) at the current
        /// evaluation given everything so far (scoring processing), or the state it is in, as a
        /// vector with one 1 (simulating either kind).
        var belief: PhoneStateProfile.Belief
        var inForeground = false
        var lastForeground: Double?
        var lastLaunch: Double?
        /// The next evaluation.
        var tick = 0.0
        /// Scoring: the log's launches of the kind by the evaluation they are placed at.
        var launchGroups: [Double: [String]] = [:]
        var lastScoredEvaluation = -1.0
        /// Set when recording a refresh tape (``refreshTape(_:parameters:phone:)``).
        var tape: RefreshTape.Points?
        /// Set when recording a processing tape (``processingTape(_:parameters:phone:)``).
        var processingTape: [ProcessingTape.Operation]?
        /// Set when recording a refresh tape of a log that began after install.
        var prehistory: RefreshTape.Prehistory?

        init(history: DeviceHistory, kind: FieldLogRecord.Kind, parameters: HeuristicLaunchParameters,
             phone: PhoneStateProfile, resubmission: Resubmission?, random: RandomStream?, earlierUse: Double = 1) {
            self.history = history
            self.kind = kind
            self.parameters = parameters
            self.phone = phone
            self.resubmission = resubmission
            self.random = random
            model = HeuristicLaunchModel(parameters: parameters, calendar: SimCalendar(startDate: history.firstDate, startTime: TimeOfDay(hour: 0)))
            step = parameters.evaluationMinutes * 60
            belief = phone.initialBelief
            if !history.startsAtInstall {
                // What the phone had before the log began: its requests pending, its app used at
                // the start, and (refresh) its use learnt over as many opens a day as it shows.
                pending = history.earlierRequests.filter { $0.kind == kind }
                lastForeground = history.start
                if kind == .refresh, let logged = history.loggedUse {
                    model.assumeEarlierUse(sessionsPerDay: earlierUse * logged.opensPerDay, hourlyShares: logged.hourlyShares,
                                           lastAt: Self.instant(history.start))
                }
            }
            if random != nil {
                belief = drawn(belief)
            } else {
                for (time, entry) in history.steps {
                    if case .launched(let identifier, kind, _) = entry { launchGroups[evaluation(before: time), default: []].append(identifier) }
                }
            }
        }

        var isSimulating: Bool { resubmission != nil }

        static func instant(_ seconds: Double) -> SimInstant { .start + .seconds(seconds) }   // saturating, never trapping
        static func hour(_ time: Double) -> Int { Int(time.truncatingRemainder(dividingBy: 86_400) / 3_600) }
        /// The evaluation at or before `time`.
        func evaluation(before time: Double) -> Double { (time / step).rounded(.down) * step }

        /// Whether `request` is due at `time` (and, while the last record's network holds, has
        /// its network requirement met).
        func isEligible(_ request: DeviceHistory.Submission, at time: Double) -> Bool {
            request.earliest <= time
                && !(request.requiresNetwork && state.network == FieldLogRecord.Network.none && time - networkTime <= PhoneStateProfile.freshSeconds)
        }

        /// One state drawn from `chances`, as a vector with one 1.
        mutating func drawn(_ chances: PhoneStateProfile.Belief) -> PhoneStateProfile.Belief {
            guard var stream = random else { return chances }
            var draw = stream.unit() * chances.sum()
            random = stream
            var state = PhoneStateProfile.Belief()
            for index in 0..<7 {
                if draw < chances[index] {
                    state[index] = 1
                    return state
                }
                draw -= chances[index]
            }
            state[7] = 1
            return state
        }

        /// Whether the hidden chain runs: for processing, whose chances depend on it; and when
        /// simulating refresh, for the charging state at the drawn launches.
        var usesChain: Bool { kind == .processing || isSimulating }

        /// The chain's step into the evaluation at `time`.
        mutating func advanceChain(to time: Double) {
            guard usesChain else { return }
            let hour = Self.hour(time)
            // Consecutive steps in one hour are one operation (one product when scored).
            if case .step(hour, let times)? = processingTape?.last, let last = processingTape?.indices.last {
                processingTape?[last] = .step(hour: hour, times: times + 1)
            } else {
                processingTape?.append(.step(hour: hour, times: 1))
            }
            belief = phone.step(belief, hour: hour)
            if isSimulating { belief = drawn(belief) }
        }

        /// Something the log shows of the phone's state (`mask`: the states it allows, which
        /// differ from the others in one respect: charging, or use). Scoring, its chance given
        /// the past joins the likelihood and the belief keeps only those states (Bayes' rule);
        /// simulating, a drawn state it rules out changes in that respect only.
        mutating func condition(on mask: PhoneStateProfile.Belief) {
            guard usesChain else { return }
            processingTape?.append(.observe(mask))
            let kept = belief * mask
            let mass = kept.sum()
            if isSimulating {
                guard mass == 0, let current = (0..<8).first(where: { belief[$0] == 1 }).map({ $0 & 3 }) else { return }
                // The state in the mask nearest the current one, unlocked: the other respect kept.
                let moved = mask == PhoneStateProfile.inUse ? current & 2
                    : mask[current] == 1 ? current : (current & 1) | (mask[2] == 1 ? 2 : 0)
                belief = PhoneStateProfile.Belief()
                belief[moved] = 1
                return
            }
            score.logLikelihood += PortableMath.log(Swift.max(1e-300, mass))
            belief = mass > 0 ? kept / mass : mask / mask.sum()
        }

        /// A record's state.
        mutating func observe(_ update: DeviceHistory.State, at time: Double) {
            state = state.updated(with: update)
            if update.network != nil { networkTime = time }
            if let charging = update.charging { condition(on: PhoneStateProfile.charging(charging)) }
            if update.unlocked == true { condition(on: PhoneStateProfile.inUse) }
        }

        /// The model's chance of a launch at the evaluation at `time` on an idle phone off the
        /// charger and on it (0 where it denies), before a request's own requirements; `nil` if
        /// it denies both. (Refresh's chance does not depend on the phone's state: both are the same.)
        /// What the model is told at the evaluation at `time`.
        func conditions(at time: Double, charging: Bool) -> LaunchConditions {
            LaunchConditions(
                now: Self.instant(time), hour: Self.hour(time), isCharging: charging,
                screenOffFor: .minutes(parameters.idleDelayMinutes), batteryPercent: state.batteryPercent ?? 100,
                thermalState: .nominal, lastAppUse: lastForeground.map(Self.instant), lastLaunchOfKind: lastLaunch.map(Self.instant))
        }

        /// Whether the last record's battery is below the floor at which nothing runs off the charger.
        func belowBatteryFloor(charging: Bool) -> Bool {
            !charging && (state.batteryPercent.map { $0 < parameters.criticalBatteryPercent } ?? false)
        }

        mutating func chances(at time: Double) -> (battery: Double, charger: Double)? {
            func conditions(charging: Bool) -> LaunchConditions { self.conditions(at: time, charging: charging) }
            switch kind {
            case .refresh:
                let charging = state.charging ?? false
                guard !belowBatteryFloor(charging: charging), case .chance(let p) = model.refreshChance(conditions(charging: charging)) else { return nil }
                return (p, p)
            case .processing:
                guard !inForeground else { return nil }
                var result = (battery: 0.0, charger: 0.0)
                for charging in [false, true] {
                    guard !belowBatteryFloor(charging: charging), case .chance(let p) = model.processingChance(conditions(charging: charging)) else { continue }
                    if charging { result.charger = p } else { result.battery = p }
                }
                return result.battery > 0 || result.charger > 0 ? result : nil
            }
        }

        mutating func launched(at time: Double, identifier: String) {
            model.didLaunch(kind == .refresh ? .appRefresh : .processing, at: Self.instant(time))
            lastLaunch = time
            pending.removeAll { $0.identifier == identifier }
        }

        mutating func submit(_ submission: DeviceHistory.Submission) {
            pending.removeAll { $0.identifier == submission.identifier }
            pending.append(submission)
        }

        /// The evaluation at `time`. Scoring, `launchedHere` are the log's launches placed at
        /// it; simulating, each eligible request launches with its chance in the chain's state.
        /// (Written without temporary arrays: it runs at every evaluation of every device.)
        mutating func evaluate(at time: Double, launchedHere: [String] = []) {
            if tape != nil { return record(at: time, launchedHere: launchedHere) }
            if processingTape != nil { return recordProcessing(at: time, launchedHere: launchedHere) }
            var chances: (battery: Double, charger: Double)?
            if pending.contains(where: { isEligible($0, at: time) }) { chances = self.chances(at: time) }
            /// A request's chance off the charger and on it.
            func chance(_ request: DeviceHistory.Submission) -> (battery: Double, charger: Double) {
                guard let chances, isEligible(request, at: time) else { return (0, 0) }
                return (request.requiresExternalPower ? 0 : chances.battery, chances.charger)
            }
            /// A request's chance in each of the chain's states (refresh: the same in all, the
            /// lock after a restart included; processing: idle and unlocked only).
            func emission(_ request: DeviceHistory.Submission) -> PhoneStateProfile.Belief {
                let p = chance(request)
                return kind == .refresh ? PhoneStateProfile.Belief(repeating: p.charger)
                    : PhoneStateProfile.processingChance(battery: p.battery, charger: p.charger)
            }
            if isSimulating {
                guard chances != nil, var stream = random else { return }
                let current = (0..<8).first { belief[$0] == 1 } ?? 0
                var chosen: [DeviceHistory.Submission] = []
                for request in pending {
                    let p = emission(request)[current]
                    if p > 0 && stream.chance(p) { chosen.append(request) }
                }
                random = stream
                for request in chosen {
                    launched(at: time, identifier: request.identifier)
                    let next = resubmission?.submissions(at: time, launching: request.identifier) ?? []
                    for submission in next { submit(submission) }
                    var launchState = state
                    launchState.charging = current & 3 >= PhoneStateProfile.onInUse
                    launches.append(SimulatedLaunch(time: time, identifier: request.identifier, state: launchState, resubmissions: next))
                }
                return
            }
            var unexplained = launchedHere.count
            if chances != nil {
                var outcome = PhoneStateProfile.Belief(repeating: 1)
                var anyBattery = false, anyCharger = false, considered = false
                for request in pending {
                    let p = emission(request)
                    guard p.max() > 0 else { continue }
                    considered = true
                    anyBattery = anyBattery || p[PhoneStateProfile.offIdle] > 0
                    anyCharger = anyCharger || p[PhoneStateProfile.onIdle] > 0
                    if launchedHere.contains(request.identifier) {
                        unexplained -= 1
                        outcome *= p
                    } else {
                        outcome *= 1 - p
                    }
                }
                if considered {
                    score.evaluations += 1
                    if anyCharger { score.chargerWeight += kind == .refresh ? 0 : belief[PhoneStateProfile.onIdle] }
                    if anyBattery { score.batteryWeight += kind == .refresh ? 0 : belief[PhoneStateProfile.offIdle] }
                    let total = kind == .refresh ? outcome[0] : (belief * outcome).sum()
                    if total > 0 {
                        score.logLikelihood += PortableMath.log(total)
                        if kind == .processing { belief = belief * outcome / total }
                    } else {
                        unexplained = launchedHere.count   // the launch's own state makes it impossible
                    }
                }
            }
            score.launches += launchedHere.count
            score.unexplained += unexplained
            score.logLikelihood += unexplainedLogChance * Double(unexplained)
            for identifier in launchedHere { launched(at: time, identifier: identifier) }
        }

        /// Recording a refresh tape: the evaluation at `time` as a point, if the model reads
        /// the app's use there or the log launches there.
        mutating func record(at time: Double, launchedHere: [String]) {
            var eligible: Int32 = 0, matched: Int32 = 0
            for request in pending where isEligible(request, at: time) {
                eligible += 1
                if launchedHere.contains(request.identifier) { matched += 1 }
            }
            if eligible > 0 { dueEvaluations += 1 }
            let charging = state.charging ?? false
            var use: HeuristicLaunchModel.RefreshUse?
            if eligible > 0 && !belowBatteryFloor(charging: charging) { use = model.refreshUse(conditions(at: time, charging: charging)) }
            if use != nil || !launchedHere.isEmpty {
                tape?.append(RefreshTape.Point(use: use, eligible: eligible, matched: matched, logged: Int32(launchedHere.count)))
                if let logged = history.loggedUse {
                    let days = Self.instant(history.start).duration(to: Self.instant(time)).seconds / 86_400
                    prehistory?.decay.append(model.remainingUse(afterDays: days))
                    prehistory?.shareAhead.append(logged.hourlyShares[model.hourAhead(of: Self.hour(time))])
                }
            }
            score.launches += launchedHere.count
            for identifier in launchedHere { launched(at: time, identifier: identifier) }
        }

        /// Recording a processing tape: the evaluation at `time`, if a request is due or the
        /// log launches there.
        mutating func recordProcessing(at time: Double, launchedHere: [String]) {
            var evaluation = ProcessingTape.Evaluation(daysSinceUse: 0, batteryOpen: false, chargerOpen: false, logged: Int32(launchedHere.count))
            for request in pending where isEligible(request, at: time) {
                let launched: Int32 = launchedHere.contains(request.identifier) ? 1 : 0
                if request.requiresExternalPower {
                    evaluation.externalPower.due += 1
                    evaluation.externalPower.launched += launched
                } else {
                    evaluation.anyPower.due += 1
                    evaluation.anyPower.launched += launched
                }
            }
            if evaluation.anyPower.due + evaluation.externalPower.due > 0 { dueEvaluations += 1 }
            if evaluation.anyPower.due + evaluation.externalPower.due > 0 && !inForeground, let lastForeground {
                for charging in [false, true] where !belowBatteryFloor(charging: charging) {
                    guard case .chance = model.processingChance(conditions(at: time, charging: charging)) else { continue }
                    if charging { evaluation.chargerOpen = true } else { evaluation.batteryOpen = true }
                }
                evaluation.daysSinceUse = Self.instant(lastForeground).duration(to: Self.instant(time)).seconds / 86_400
            }
            if evaluation.batteryOpen || evaluation.chargerOpen || evaluation.logged > 0 { processingTape?.append(.evaluate(evaluation)) }
            score.launches += launchedHere.count
            for identifier in launchedHere { launched(at: time, identifier: identifier) }
        }

        /// Makes the evaluations strictly before `time`, none with a logged launch.
        mutating func evaluate(before time: Double) {
            while tick < time && tick <= history.end {
                advanceChain(to: tick)
                evaluate(at: tick)
                tick += step
            }
        }

        /// The phone started again since the last record: no evaluation until `time`, the app
        /// not in the foreground, and the chain's belief that of the hour (its shares).
        mutating func restart(at time: Double) {
            tick = Swift.max(tick, (time / step).rounded(.up) * step)
            inForeground = false
            guard usesChain else { return }
            let hour = Self.hour(tick)
            processingTape?.append(.restart(hour: hour))
            belief = phone.afterRestart(hour: hour)
            if isSimulating { belief = drawn(belief) }
        }

        mutating func run() {
            for (time, entry) in history.steps {
                if case .restarted = entry {
                    restart(at: time)
                    continue
                }
                if case .launched(let identifier, kind, let launchState) = entry {
                    // Simulating, the log's own launches are left out, and what their records say with them.
                    guard !isSimulating else { continue }
                    // The launches placed at one evaluation are scored together, at the first.
                    let at = evaluation(before: time)
                    guard at != lastScoredEvaluation else { continue }
                    evaluate(before: at)
                    if tick <= at {
                        advanceChain(to: at)
                        tick = at + step
                    }
                    observe(launchState, at: time)
                    lastScoredEvaluation = at
                    evaluate(at: at, launchedHere: launchGroups[at] ?? [identifier])
                    continue
                }
                evaluate(before: time)
                switch entry {
                case .launched(_, _, let launchState): observe(launchState, at: time)   // another kind's launch
                case .foreground(let hour):
                    model.appDidEnterForeground(at: Self.instant(time), hour: hour)
                    lastForeground = time
                    inForeground = true
                    condition(on: PhoneStateProfile.inUse)
                case .background:
                    inForeground = false
                    condition(on: PhoneStateProfile.inUse)
                case .submitted(let submission) where submission.kind == kind:
                    if isSimulating && submission.duringLaunch { continue }   // the log's launches made these
                    submit(submission)
                case .submitted, .restarted: break
                case .state(let update, let launchOf):
                    if isSimulating && launchOf == kind { continue }
                    observe(update, at: time)
                }
            }
            evaluate(before: history.end + step)
        }
    }
}

extension Array {
    /// Drops the spare capacity appending left: a tape is built once and kept for the whole fit.
    mutating func trim() {
        self = withUnsafeBufferPointer { Array($0) }
    }
}
