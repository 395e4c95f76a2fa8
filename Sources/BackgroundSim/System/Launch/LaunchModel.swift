import SimKernel

/// What a launch model may consider when deciding whether to run a pending request now.
package struct LaunchConditions: Sendable {
    package var now: SimInstant
    /// Local hour of day, 0 ... 23.
    package var hour: Int
    package var isCharging: Bool
    /// How long the screen has been off (zero while it is on).
    package var screenOffFor: SimDuration
    package var batteryPercent: Double
    package var thermalState: ThermalState
    /// When the user last had the app in the foreground, if ever.
    package var lastAppUse: SimInstant?
    /// When a task of the request's kind was last launched, if ever.
    package var lastLaunchOfKind: SimInstant?
    /// What the app's energy and data budgets leave of a launch's chance, 0 … 1, and which
    /// budget sets it (``LaunchBudgets``); 1 when the budgets are not low.
    package var budgetFactor = 1.0
    package var budgetLimit = LaunchDenial.energyBudget

    package init(now: SimInstant, hour: Int, isCharging: Bool, screenOffFor: SimDuration, batteryPercent: Double,
                 thermalState: ThermalState, lastAppUse: SimInstant?, lastLaunchOfKind: SimInstant?) {
        self.now = now
        self.hour = hour
        self.isCharging = isCharging
        self.screenOffFor = screenOffFor
        self.batteryPercent = batteryPercent
        self.thermalState = thermalState
        self.lastAppUse = lastAppUse
        self.lastLaunchOfKind = lastLaunchOfKind
    }
}

/// The system's discretion over when the app runs in the background.
///
/// The system applies the rules that Apple documents before asking the model (``WakeRule/table``:
/// the phone on, the earliest begin date, the Background App Refresh switch, the app switcher,
/// the request's power and network requirements, Low Power Mode, a screen-off device for
/// processing) and throttling after a kill after it. The model adds everything else: its floors
/// (battery, heat), which apply to every door the table says they do, and for task requests its
/// decision — usage prediction, budgets, spacing, idleness. Policy conclusions should be checked
/// against more than one model.
package protocol LaunchModel {
    /// The user brought the app to the foreground (models may learn from this).
    mutating func appDidEnterForeground(at instant: SimInstant, hour: Int)

    /// Whether to launch a task for `request` now, and if not, why. `random` is the system's
    /// stream for the day.
    mutating func decide(_ request: TaskRequest, conditions: LaunchConditions, random: inout RandomStream) -> LaunchDecision

    /// A task of `kind` was launched.
    mutating func didLaunch(_ kind: TaskRequest.Kind, at instant: SimInstant)

    /// The first instant after `now`, and not before `notBefore` (the request's earliest begin
    /// date), at which the model might launch a pending request of `kind`; `nil` if it will not
    /// until something the system tells it about changes (the app is used, the device changes).
    func nextEvaluation(for kind: TaskRequest.Kind, after now: SimInstant, notBefore: SimInstant) -> SimInstant?

    /// Whether the system should also look at pending requests after every device change (a
    /// plug-in, the screen going off, a new network). A model whose chances are per evaluation
    /// must not, or its launch rate would depend on how busy the device is.
    var reactsToDeviceChanges: Bool { get }

    /// Whether the app's energy and data budgets hold launches back: true for the heuristic and
    /// stingy models; the eager model, an upper bound, ignores them — for tasks, a URL session's
    /// events and pushes alike.
    var appliesBudgets: Bool { get }

    /// Whether the model's decisions are the real system's, taken from a log: the system then
    /// does not apply its rules about the device (charging, screen, network, Low Power Mode)
    /// again to task requests, since the logged decisions already reflect the real phone's.
    /// False by default.
    var replaysDecisions: Bool { get }

    /// The battery level, in percent, below which the model wakes the app for nothing while
    /// the phone is off the charger (``WakeRule/Check/batteryFloor``); `nil` for no floor.
    var criticalBatteryPercent: Double? { get }

    /// The thermal state from which the model launches no task (``WakeRule/Check/thermalState``);
    /// `nil` for none.
    var thermalCeiling: ThermalState? { get }

    /// Why ``nextEvaluation(for:after:notBefore:)`` passes over the evaluations right after `now`
    /// for a due request of `kind` (the reason the first of them could not launch); `nil` if it
    /// passes over none.
    func skipReason(for kind: TaskRequest.Kind, after now: SimInstant) -> LaunchDenial?
}

extension LaunchModel {
    package func skipReason(for kind: TaskRequest.Kind, after now: SimInstant) -> LaunchDenial? { nil }
    package var appliesBudgets: Bool { true }
    package var replaysDecisions: Bool { false }
    package var criticalBatteryPercent: Double? { nil }
    package var thermalCeiling: ThermalState? { nil }
}

/// Runs every request as soon as the documented rules allow: at its earliest begin date, or when
/// its conditions next hold, with no floors and no budgets, for every door. What developers
/// tend to assume; an upper bound on what iOS grants.
package struct EagerLaunchModel: LaunchModel {
    package init() {}
    package mutating func appDidEnterForeground(at instant: SimInstant, hour: Int) {}
    package mutating func decide(_ request: TaskRequest, conditions: LaunchConditions, random: inout RandomStream) -> LaunchDecision {
        .launched
    }
    package mutating func didLaunch(_ kind: TaskRequest.Kind, at instant: SimInstant) {}
    package func nextEvaluation(for kind: TaskRequest.Kind, after now: SimInstant, notBefore: SimInstant) -> SimInstant? {
        notBefore > now ? notBefore : nil
    }
    package var reactsToDeviceChanges: Bool { true }
    package var appliesBudgets: Bool { false }
}

/// The calibrated default: learns when the app is used and launches refresh shortly before,
/// within a daily budget that grows with use and vanishes when the app goes unused; runs
/// processing on the idle device, strongly favouring the charger. See
/// ``HeuristicLaunchParameters`` for the calibration targets and sources.
///
/// Refresh is a hazard process: at each evaluation (every 15 min) a pending refresh runs with
/// probability `1 − exp(−B · p(h + lead) · φ · Δt)`, where B is the daily budget, p(h) the learnt
/// share of app use in the hour `lead` ahead and φ the fading since the app's last use, subject to
/// a token bucket of B launches a day and the minimum spacing. Processing runs with a chance per
/// evaluation, higher on the charger, that fades too. Both chances are scaled by the app's energy
/// and data budgets (``LaunchConditions/budgetFactor``) in the same single draw (``draw(_:_:random:)``).
package struct HeuristicLaunchModel: LaunchModel {
    package let parameters: HeuristicLaunchParameters
    /// Scales budgets and chances (1 for the heuristic model, lower for the stingy one).
    let generosity: Double
    /// Decayed count of foreground sessions by local hour.
    var usageByHour = [Double](repeating: 0, count: 24)
    /// Decayed count of foreground sessions in all, and when it was last decayed.
    var usageDecayedAt: SimInstant = .start
    var decayedSessions = 0.0
    /// Refresh launches left in the bucket, and when it was last refilled.
    var refreshTokens: Double
    var tokensUpdatedAt: SimInstant = .start
    var lastForeground: SimInstant?
    private var lastRefresh: SimInstant?
    /// Whether ``nextEvaluation(for:after:notBefore:)`` skips evaluations that cannot launch;
    /// tests turn it off to check that skipping changes nothing.
    package var skipsFutileEvaluations = true

    /// The local calendar, to know the hour of future evaluations.
    let calendar: SimCalendar

    package init(parameters: HeuristicLaunchParameters, calendar: SimCalendar, generosity: Double = 1) {
        self.parameters = parameters
        self.calendar = calendar
        precondition(generosity > 0 && generosity <= 1, "HeuristicLaunchModel: a generosity of \(generosity); expected above 0, at most 1")
        self.generosity = generosity
        refreshTokens = Self.initialRefreshTokens(parameters, generosity: generosity)
    }

    private var evaluationInterval: SimDuration { .minutes(parameters.evaluationMinutes) }

    package mutating func appDidEnterForeground(at instant: SimInstant, hour: Int) {
        precondition((0..<24).contains(hour), "HeuristicLaunchModel: a foreground at hour \(hour); expected 0 to 23")
        defer { checkInvariantsIfEnabled() }
        lastForeground = instant
        decay(to: instant)
        usageByHour[hour] += 1
        decayedSessions += 1
    }

    /// Decays the usage counts to `instant` (half-life ``HeuristicLaunchParameters/usageHalfLifeDays``).
    private mutating func decay(to instant: SimInstant) {
        guard instant > usageDecayedAt else { return }
        let factor = remainingUse(afterDays: usageDecayedAt.duration(to: instant).seconds / 86_400)
        for hour in 0..<24 { usageByHour[hour] *= factor }
        decayedSessions *= factor
        usageDecayedAt = instant
    }

    /// The share of the learnt use left after `days`: it halves every
    /// ``HeuristicLaunchParameters/usageHalfLifeDays``.
    package func remainingUse(afterDays days: Double) -> Double {
        precondition(days >= 0, "HeuristicLaunchModel: use remaining \(days) days on")
        return PortableMath.exp(-days * 0.693_147_180_559_945_3 / parameters.usageHalfLifeDays)
    }

    /// Refresh launches per day an app used `sessionsPerDay` times a day has earned.
    static func dailyBudget(sessionsPerDay: Double, parameters: HeuristicLaunchParameters, generosity: Double) -> Double {
        precondition(sessionsPerDay >= 0 && generosity >= 0, "HeuristicLaunchModel: a budget for \(sessionsPerDay) sessions a day at \(generosity)× generosity")
        let budget = parameters.refreshBasePerDay + parameters.refreshPerAppSession * sessionsPerDay
        return Swift.min(parameters.refreshMaximumPerDay, budget) * generosity
    }

    /// Below ``HeuristicLaunchParameters/criticalBatteryPercent`` off the charger, nothing.
    package var criticalBatteryPercent: Double? { parameters.criticalBatteryPercent }

    /// From a serious thermal state, no task [Inf].
    package var thermalCeiling: ThermalState? { .serious }

    package mutating func decide(_ request: TaskRequest, conditions: LaunchConditions, random: inout RandomStream) -> LaunchDecision {
        defer { checkInvariantsIfEnabled() }
        switch request.kind {
        case .appRefresh: return decideRefresh(conditions, random: &random)
        case .processing: return decideProcessing(conditions, random: &random)
        }
    }

    /// Why refresh is impossible at `instant`, judged without touching any state or drawing: the
    /// app was not used recently enough, the spacing has not passed, or the hour ahead has no
    /// learnt use; `nil` if it is possible. Evaluations at which it is impossible can be skipped
    /// without changing anything.
    private func refreshDenial(at instant: SimInstant, hour: Int) -> LaunchDenial? {
        guard let lastUse = lastForeground, lastUse.duration(to: instant) < .hours(parameters.refreshRecencyDays * 24) else {
            return .appNotUsedRecently
        }
        if let lastRefresh, lastRefresh.duration(to: instant) < .minutes(parameters.refreshMinimumSpacingMinutes) {
            return .rateLimit
        }
        return shareOfUse(aheadOf: hour) > 0 ? nil : .noPredictedUse
    }

    /// The learnt share of app use in the hour `refreshLeadMinutes` after `hour`; uniform until
    /// something has been learnt.
    private func shareOfUse(aheadOf hour: Int) -> Double {
        let total = usageByHour.reduce(0, +)
        return total > 0 ? usageByHour[hourAhead(of: hour)] / total : 1.0 / 24
    }

    /// The local hour whose learnt use a refresh evaluation in `hour` reads: the hour
    /// ``HeuristicLaunchParameters/refreshLeadMinutes`` later.
    package func hourAhead(of hour: Int) -> Int {
        precondition((0..<24).contains(hour), "HeuristicLaunchModel: the hour ahead of \(hour)")
        return (hour + Int(parameters.refreshLeadMinutes / 60 + 0.5)) % 24
    }

    /// Starts the model as on a phone that has had the app for some time: as many decayed opens
    /// already learnt as `sessionsPerDay` opens a day leave in the long run (the count over
    /// the half-life's mean age, ``HeuristicLaunchParameters/usageHalfLifeDays`` ÷ ln 2), spread over the
    /// hours of the day as `hourlyShares` (summing to 1), the last of them at `instant`, which
    /// the counts are decayed to, and the refresh bucket full (its next refill tops it up to a
    /// day's budget) [Inf]: launches a day spend at most the budget they refill at, so a phone
    /// long in use mostly has a full bucket. Calibration starts the replay of a log that began
    /// after install so (docs/CALIBRATION.md); a run starts at install, with nothing learnt.
    package mutating func assumeEarlierUse(sessionsPerDay: Double, hourlyShares: [Double], lastAt instant: SimInstant) {
        precondition(hourlyShares.count == 24 && sessionsPerDay >= 0, "assumeEarlierUse: 24 shares and a rate of at least 0")
        defer { checkInvariantsIfEnabled() }
        let sessions = sessionsPerDay * parameters.usageHalfLifeDays / 0.693_147_180_559_945_3
        decay(to: instant)
        for hour in 0..<24 { usageByHour[hour] += sessions * hourlyShares[hour] }
        decayedSessions += sessions
        if lastForeground.map({ $0 < instant }) ?? true { lastForeground = instant }
        refreshTokens = .infinity
    }

    private mutating func decideRefresh(_ conditions: LaunchConditions, random: inout RandomStream) -> LaunchDecision {
        switch refreshChance(conditions) {
        case .denied(let denial): return .notLaunched(denial)
        case .chance(let chance): return Self.draw(chance, conditions, random: &random)
        }
    }

    /// What an evaluation of a pending request comes to before the draw: a denial, or the
    /// chance of a launch.
    package enum LaunchChance: Equatable {
        case denied(LaunchDenial)
        case chance(Double)
    }

    /// The refresh decision up to the draw: the state it updates (usage decay, the token
    /// bucket) and the chance it would draw against. Calibration replays logged histories
    /// through it to compute the likelihood of the launches they show.
    package mutating func refreshChance(_ conditions: LaunchConditions) -> LaunchChance {
        defer { checkInvariantsIfEnabled() }
        if let denial = refreshDenial(at: conditions.now, hour: conditions.hour) { return .denied(denial) }
        switch Self.refreshHazard(readRefreshUse(at: conditions), parameters: parameters, generosity: generosity, tokens: &refreshTokens) {
        case .denied(let denial): return .denied(denial)
        case .expected(let hazard): return .chance(1 - PortableMath.exp(-hazard))
        }
    }

    /// What a refresh evaluation reads of the app's use: none of it depends on the launch
    /// budget's parameters or the fade, so calibration records it once per log and replays
    /// only ``refreshHazard(_:parameters:generosity:tokens:)`` for each candidate.
    package struct RefreshUse: Sendable, Equatable {
        /// Days since the bucket was last refilled (the last evaluation that reached it).
        package var elapsedDays: Double
        /// Sessions a day, as the decayed count estimates them.
        package var sessionsPerDay: Double
        /// The learnt share of use in the hour ahead.
        package var shareAhead: Double
        /// Days since the app's last use.
        package var daysSinceUse: Double

        package init(elapsedDays: Double, sessionsPerDay: Double, shareAhead: Double, daysSinceUse: Double) {
            self.elapsedDays = elapsedDays
            self.sessionsPerDay = sessionsPerDay
            self.shareAhead = shareAhead
            self.daysSinceUse = daysSinceUse
        }
    }

    /// The use a refresh evaluation at `conditions` reads, or `nil` where it is denied before
    /// the budget (``refreshDenial(at:hour:)``). Decays the usage counts and marks the bucket
    /// as refilled now, as the evaluation does.
    package mutating func refreshUse(_ conditions: LaunchConditions) -> RefreshUse? {
        defer { checkInvariantsIfEnabled() }
        return refreshDenial(at: conditions.now, hour: conditions.hour) == nil ? readRefreshUse(at: conditions) : nil
    }

    private mutating func readRefreshUse(at conditions: LaunchConditions) -> RefreshUse {
        decay(to: conditions.now)
        // Decayed sessions over the half-life's mean age (half-life / ln 2) estimate sessions per day.
        let sessionsPerDay = decayedSessions * 0.693_147_180_559_945_3 / parameters.usageHalfLifeDays
        let elapsedDays = tokensUpdatedAt.duration(to: conditions.now).seconds / 86_400
        tokensUpdatedAt = conditions.now
        let daysSinceUse = (lastForeground ?? conditions.now).duration(to: conditions.now).seconds / 86_400
        return RefreshUse(elapsedDays: elapsedDays, sessionsPerDay: sessionsPerDay,
                          shareAhead: shareOfUse(aheadOf: conditions.hour), daysSinceUse: daysSinceUse)
    }

    /// A refresh evaluation's hazard: the launches it expects over one evaluation interval
    /// (the chance of one is `1 − exp(−expected)`), or a denial.
    package enum RefreshHazard: Equatable {
        case denied(LaunchDenial)
        case expected(Double)
    }

    /// The budget's part of a refresh evaluation that read `use`: refills `tokens`, and gives
    /// the hazard `B · p(h + lead) · φ · Δt`, or the empty bucket's denial.
    package static func refreshHazard(_ use: RefreshUse, parameters: HeuristicLaunchParameters, generosity: Double,
                                      tokens: inout Double) -> RefreshHazard {
        refreshHazard(use, parameters: parameters, generosity: generosity, tokens: &tokens,
                      fade: fade(days: use.daysSinceUse, halfLife: parameters.refreshFadeHalfLifeDays))
    }

    /// ``refreshHazard(_:parameters:generosity:tokens:)`` with the fade at `use.daysSinceUse`
    /// given (``FadeSteps`` computes it for a run of evaluations).
    package static func refreshHazard(_ use: RefreshUse, parameters: HeuristicLaunchParameters, generosity: Double,
                                      tokens: inout Double, fade: Double) -> RefreshHazard {
        let budget = dailyBudget(sessionsPerDay: use.sessionsPerDay, parameters: parameters, generosity: generosity)
        // Refill the bucket at the daily budget's rate, up to one day's worth (and at least one
        // launch, or a budget below one a day could never be spent).
        tokens = Swift.min(Swift.max(1, budget), tokens + use.elapsedDays * budget)
        guard tokens >= 1 else { return .denied(.budgetExhausted) }
        let hazardPerHour = budget * use.shareAhead * fade
        return .expected(hazardPerHour * parameters.evaluationMinutes / 60)
    }

    /// The bucket a model starts with: one day's base budget.
    package static func initialRefreshTokens(_ parameters: HeuristicLaunchParameters, generosity: Double) -> Double {
        parameters.refreshBasePerDay * generosity
    }

    private func decideProcessing(_ conditions: LaunchConditions, random: inout RandomStream) -> LaunchDecision {
        switch processingChance(conditions) {
        case .denied(let denial): return .notLaunched(denial)
        case .chance(let chance): return Self.draw(chance, conditions, random: &random)
        }
    }

    /// The processing decision up to the draw: a denial (the app unused too long, the device
    /// not idle long enough, the spacing) or the chance of a launch. Calibration replays logged
    /// histories through it.
    package func processingChance(_ conditions: LaunchConditions) -> LaunchChance {
        guard let lastUse = conditions.lastAppUse, lastUse.duration(to: conditions.now) < .hours(parameters.processingRecencyDays * 24) else {
            return .denied(.appNotUsedRecently)
        }
        guard conditions.screenOffFor >= .minutes(parameters.idleDelayMinutes) else { return .denied(.deviceNotIdle) }
        if let last = conditions.lastLaunchOfKind,
           last.duration(to: conditions.now) < .hours(parameters.processingMinimumSpacingHours) {
            return .denied(.rateLimit)
        }
        let chance = conditions.isCharging ? parameters.processingChargingChancePerEvaluation : parameters.processingBatteryChancePerEvaluation
        let fade = Self.fade(days: lastUse.duration(to: conditions.now).seconds / 86_400, halfLife: parameters.processingFadeHalfLifeDays)
        return .chance(chance * generosity * fade)
    }

    /// Every reason this model can give a pending request of `kind` it does not launch
    /// (``refreshChance(_:)``, ``processingChance(_:)`` and the draw, ``draw(_:_:random:)``):
    /// what the docs' reasons table says of the launch model's stage (``LaunchDenial/markdownTable``).
    /// A test holds runs of every preset to it.
    package static func denials(for kind: TaskRequest.Kind) -> [LaunchDenial] {
        switch kind {
        case .appRefresh: [.appNotUsedRecently, .rateLimit, .noPredictedUse, .budgetExhausted, .energyBudget, .dataBudget, .notChosen]
        case .processing: [.appNotUsedRecently, .deviceNotIdle, .rateLimit, .energyBudget, .dataBudget, .notChosen]
        }
    }

    /// 2^(−days ÷ halfLife): how much a launch chance has faded `days` after the app's last use.
    package static func fade(days: Double, halfLife: Double) -> Double {
        precondition(halfLife > 0, "HeuristicLaunchModel: a fade with a half-life of \(halfLife) days")
        return PortableMath.exp(-Swift.max(0, days) * 0.693_147_180_559_945_3 / halfLife)
    }

    /// One draw against `chance` scaled by the app's budgets: launched if it falls within the
    /// scaled chance; denied for the budget that scaled it if it falls within the chance alone;
    /// otherwise not chosen. With the budgets not low (a factor of 1) this is exactly
    /// `random.chance(chance)`: budgets never change how many draws a decision takes.
    static func draw(_ chance: Double, _ conditions: LaunchConditions, random: inout RandomStream) -> LaunchDecision {
        let draw = Double(random.next() >> 11)
        if draw < chance * conditions.budgetFactor * 0x1p53 { return .launched }
        return draw < chance * 0x1p53 ? .notLaunched(conditions.budgetLimit) : .notLaunched(.notChosen)
    }

    package mutating func didLaunch(_ kind: TaskRequest.Kind, at instant: SimInstant) {
        defer { checkInvariantsIfEnabled() }
        if kind == .appRefresh {
            refreshTokens -= 1
            lastRefresh = instant
        }
    }

    /// Evaluations fall on multiples of ``HeuristicLaunchParameters/evaluationMinutes`` since
    /// the start. For refresh, ticks at which ``refreshDenial(at:hour:)`` denies are skipped,
    /// which is exact: such ticks change nothing and draw nothing.
    package func nextEvaluation(for kind: TaskRequest.Kind, after now: SimInstant, notBefore: SimInstant) -> SimInstant? {
        let interval = evaluationInterval.nanoseconds
        let from = Swift.max(now.nanosecondsSinceStart + 1, notBefore.nanosecondsSinceStart)
        var tick = SimInstant(nanosecondsSinceStart: (from + interval - 1) / interval * interval)
        guard kind == .appRefresh && skipsFutileEvaluations else { return tick }
        // At most a day and a half of ticks: past the recency cutoff nothing is possible, and
        // any hour with use recurs within a day.
        for _ in 0..<(36 * 60 / Int(parameters.evaluationMinutes)) {
            if refreshDenial(at: tick, hour: hour(of: tick)) == nil { return tick }
            guard let lastUse = lastForeground, lastUse.duration(to: tick) < .hours(parameters.refreshRecencyDays * 24) else {
                return nil
            }
            tick = tick + evaluationInterval
        }
        return tick
    }

    package func skipReason(for kind: TaskRequest.Kind, after now: SimInstant) -> LaunchDenial? {
        guard kind == .appRefresh && skipsFutileEvaluations else { return nil }
        let interval = evaluationInterval.nanoseconds
        let tick = SimInstant(nanosecondsSinceStart: (now.nanosecondsSinceStart + interval) / interval * interval)
        return refreshDenial(at: tick, hour: hour(of: tick))
    }

    /// The local hour of `instant`, from the calendar the system was given.
    private func hour(of instant: SimInstant) -> Int {
        Int(calendar.timeOfDay(at: instant) / .hours(1))
    }

    package var reactsToDeviceChanges: Bool { false }
}

/// The pessimistic end of what developers report: a quarter of the heuristic model's budgets and
/// chances, refresh at least 4 h apart, processing at most once a day.
package struct StingyLaunchModel: LaunchModel {
    private var inner: HeuristicLaunchModel

    package init(parameters: HeuristicLaunchParameters, calendar: SimCalendar) {
        var stingy = parameters
        stingy.refreshMinimumSpacingMinutes = Swift.max(parameters.refreshMinimumSpacingMinutes, 240)
        stingy.processingMinimumSpacingHours = Swift.max(parameters.processingMinimumSpacingHours, 24)
        stingy.refreshRecencyDays = Swift.min(parameters.refreshRecencyDays, 3)
        inner = HeuristicLaunchModel(parameters: stingy, calendar: calendar, generosity: 0.25)
    }

    package mutating func appDidEnterForeground(at instant: SimInstant, hour: Int) { inner.appDidEnterForeground(at: instant, hour: hour) }
    package mutating func decide(_ request: TaskRequest, conditions: LaunchConditions, random: inout RandomStream) -> LaunchDecision {
        inner.decide(request, conditions: conditions, random: &random)
    }
    package mutating func didLaunch(_ kind: TaskRequest.Kind, at instant: SimInstant) { inner.didLaunch(kind, at: instant) }
    package func nextEvaluation(for kind: TaskRequest.Kind, after now: SimInstant, notBefore: SimInstant) -> SimInstant? {
        inner.nextEvaluation(for: kind, after: now, notBefore: notBefore)
    }
    package var reactsToDeviceChanges: Bool { false }
    package func skipReason(for kind: TaskRequest.Kind, after now: SimInstant) -> LaunchDenial? {
        inner.skipReason(for: kind, after: now)
    }
    package var criticalBatteryPercent: Double? { inner.criticalBatteryPercent }
    package var thermalCeiling: ThermalState? { inner.thermalCeiling }

    /// The heuristic's switch, for tests that check that skipping changes nothing.
    package var skipsFutileEvaluations: Bool {
        get { inner.skipsFutileEvaluations }
        set { inner.skipsFutileEvaluations = newValue }
    }
}
