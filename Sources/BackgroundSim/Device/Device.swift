import SimKernel

/// The simulated phone and its user: it owns the device's state and timelines and reacts to the
/// device's events.
///
/// Every change follows one pattern: bring all continuous quantities up to the event's time
/// (``advance(to:)``: battery charge, energy ledger, heat, time-weighted metrics), change the
/// state, then recompute powers and reschedule the next battery-level event
/// (``updatePower(in:)``). Between events every power is constant, so the integration is exact.
public struct Device {
    static let lowPowerModeLabel = StreamLabel("power.lowPowerMode")
    static let clockLabel = StreamLabel("clock.jumps")
    static let updatesLabel = StreamLabel("device.updates")

    public let scenario: Scenario
    /// The constants the per-event power computation needs, copied out of the scenario once.
    let constants: PowerConstants
    let calendar: SimCalendar
    let seed: UInt64
    let deviceID: UInt64
    var user: UserBehaviour
    let charging: ChargingPlan
    let networkPlan: NetworkPlan

    package private(set) var battery: Battery
    package private(set) var ledger: EnergyLedger
    package private(set) var thermal: ThermalModel
    package private(set) var clock: DeviceClock
    package private(set) var metrics = DeviceMetrics()

    // State.
    /// The user is in a phone session (whether or not the phone is on).
    public private(set) var inSession = false
    /// The current session turned the screen on (the phone was on when it started).
    var sessionUsesScreen = false
    /// The app is in the foreground.
    public private(set) var appInForeground = false
    public private(set) var isPluggedIn = false
    /// The phone is on (it turns off at 0 % and back on while charging, and off and on for a
    /// restart).
    public private(set) var isPoweredOn = true
    /// The user has unlocked the phone since it last started (a phone session while it is on
    /// unlocks it). True at the start: the phone has been unlocked before.
    public private(set) var isUnlockedSinceBoot = true
    /// How many times the phone has started again since the simulation began.
    public private(set) var bootCount: UInt32 = 0
    /// When the phone last started: the simulation's start until it first restarts (an app
    /// reads it with the `kern.boottime` sysctl).
    public private(set) var bootedAt: SimInstant = .start
    /// The phone is off for a restart, not for want of charge: it comes back on at
    /// ``DeviceEvent/bootComplete``.
    var restarting = false
    /// When the user last unlocked the phone (the inactivity reboot counts from it).
    private var lastUnlock: SimInstant = .start
    /// The day the next iOS update is due, if updates are on.
    private var nextUpdateDay: Int?
    public private(set) var isLowPowerMode = false
    /// The network the day's plan puts the phone on; ``network`` is this unless a fault cut it.
    private var plannedNetwork: NetworkPath
    /// Network-flap faults that have the network off now (``FaultPlan/networkFlaps``).
    var flapsOffline = 0
    /// The network the phone is on now: the plan's, unless a fault cut it. Until the user
    /// first unlocks the phone after it starts, it joins no Wi-Fi — the keychain that holds
    /// Wi-Fi passwords is still locked — and is on cellular where the plan has it on Wi-Fi
    /// [O] (J. Classen, "Reverse Engineering iOS 18 Inactivity Reboot", 2024,
    /// naehrdine.blogspot.com/2024/11/reverse-engineering-ios-18-inactivity.html: before the
    /// first unlock Wi-Fi passwords are encrypted and the phone joins no Wi-Fi; it still joins
    /// cellular unless the SIM is PIN-protected). That there is cellular coverage wherever there
    /// is Wi-Fi, as at home on nights the Wi-Fi fails, and no SIM PIN, is our simplification [Inf].
    public var network: NetworkPath {
        if flapsOffline > 0 { return .offline }
        guard !isUnlockedSinceBoot, plannedNetwork.interface == .wifi else { return plannedNetwork }
        return plannedNetwork.onCellular(constrained: scenario.network.lowDataModeOnCellular)
    }
    /// The battery's level now, 0 … 100 %.
    public var batteryPercent: Double { battery.percent }
    /// When the screen last went off (the start, if it has never been on).
    public private(set) var screenOffSince: SimInstant = .start
    /// What the app draws, as the system last said (``setAppPower(_:in:)``).
    private(set) var appPower = AppPower()
    /// Optimized Battery Charging is holding this charge at 80 %.
    var holdingAtEighty = false
    private var chargingOvernight = false
    private var sessionStartPending = false

    // Timelines of the current day.
    private var day = 0
    private var awayStream = RandomStream(seed: 0)
    private var awayUntil: SimInstant?
    private var lowPowerModeStream = RandomStream(seed: 0)

    // Pending events that state changes may move.
    private var batteryEvent: EventHandle?
    /// The exact level the scheduled battery event reaches (its trace detail is in hundredths
    /// of a percent, which a target such as a charge limit of 50.00000005 % would not round to).
    private var batteryEventTarget = 0.0
    private var networkSegmentEvent: EventHandle?
    private var resumeEvent: EventHandle?
    /// The instant the continuous quantities were last integrated to.
    package private(set) var lastMetricsUpdate: SimInstant
    /// The local hour last booked to by ``bookBatteryLevel(from:to:levels:_:)``, with its bounds,
    /// so that most intervals (which fall within one hour) need no calendar arithmetic.
    var bookedHour: (start: SimInstant, end: SimInstant, hour: Int) = (.start, .start, 0)

    /// Creates the device at the start of the simulation. Call ``start(in:)`` next.
    ///
    /// - Throws: ``ScenarioIssue`` if the parameters cannot be realised together (for example
    ///   a Wi-Fi share that home Wi-Fi alone exceeds).
    package init(scenario: Scenario, seed: UInt64, deviceID: UInt64 = 0) throws(ScenarioIssue) {
        self.scenario = scenario
        self.seed = seed
        self.deviceID = deviceID
        calendar = scenario.calendar.calendar
        constants = PowerConstants(scenario: scenario)
        user = UserBehaviour(parameters: scenario.user, calendar: calendar, seed: seed, device: deviceID)
        charging = ChargingPlan(parameters: scenario.power, calendar: calendar, seed: seed, device: deviceID)
        networkPlan = try NetworkPlan(parameters: scenario.network, calendar: calendar, seed: seed, device: deviceID)
        battery = Battery(capacityJoules: scenario.device.batteryCapacityJoules, percent: scenario.power.initialBatteryPercent, at: .start)
        ledger = EnergyLedger(at: .start)
        thermal = ThermalModel(parameters: scenario.device.thermal, at: .start)
        clock = DeviceClock(calendar: calendar)
        plannedNetwork = .offline
        lastMetricsUpdate = .start
        metrics.minimumBatteryPercent = battery.percent
        let updateDays = scenario.restarts.updateEveryDays
        if updateDays > 0 {
            var stream = RandomStream(seed: seed, label: Self.updatesLabel, entity: deviceID)
            nextUpdateDay = calendar.day(of: .start) + Int(stream.unit() * updateDays)
        }
    }

    /// Sets up the state the phone is in when the simulation starts (plugged in from last night,
    /// at home or away) and schedules the first events.
    mutating func start(in simulation: inout Simulation<WorldEvent>) {
        let firstDay = calendar.day(of: .start)
        // Last night's charge, if it is still going on.
        if let night = charging.overnight(of: firstDay - 1), night.plugIn <= .start, .start < night.unplug {
            isPluggedIn = true
            chargingOvernight = true
            simulation.schedule(.device(.unplug), at: night.unplug)
        } else if scenario.power.overnightPlugIn < scenario.power.overnightUnplug,
                  let night = charging.overnight(of: firstDay - 1), night.plugIn > .start {
            // Last night's charge is set to start after midnight, on the first day. (A usual
            // plug-in before midnight whose jitter carries it past midnight is not: the run's
            // first night then goes uncharged, as it always has — kept so that every preset's
            // outcome stays the same.)
            simulation.schedule(.device(.plugIn(overnight: true)), at: night.plugIn)
            simulation.schedule(.device(.unplug), at: night.unplug)
        }
        // Home or away at the start.
        plannedNetwork = networkPlan.homeNetwork(night: firstDay - 1)
        for jump in scenario.clock.jumps {
            let at = SimInstant.start + .hours(jump.atHours)
            simulation.schedule(.device(.clockJump(seconds: Int64((jump.byMinutes * 60).rounded()))), at: at)
        }
        precondition(scenario.faults.networkFlaps.count <= Int(UInt16.max), "Device: more network flaps than an event can name")
        for (index, flap) in scenario.faults.networkFlaps.enumerated() where flap.toHours > flap.fromHours {
            simulation.schedule(.device(.networkFlap(fault: UInt16(clamping: index), offline: true)), at: .start + .hours(flap.fromHours))
        }
        for death in scenario.faults.batteryDeaths {
            simulation.schedule(.device(.batteryDeath), at: .start + .hours(death.atHours))
        }
        beginDay(firstDay, in: &simulation)
        updatePower(in: &simulation)
    }

    // MARK: Events

    /// Handles one device event.
    mutating func handle(_ event: DeviceEvent, in simulation: inout Simulation<WorldEvent>) {
        defer { checkInvariantsIfEnabled() }
        let now = simulation.now
        advance(to: now)
        switch event {
        case .dayStart(let day):
            beginDay(Int(day), in: &simulation)
            return
        case .sessionStart:
            startSession(in: &simulation)
        case .sessionEnd:
            if isScreenOn { screenOffSince = now }
            inSession = false
            sessionUsesScreen = false
            scheduleNextSession(after: now, in: &simulation)
        case .appOpen:
            guard isPoweredOn else { return }
            appInForeground = true
            // Opening the app takes an unlocked phone.
            isUnlockedSinceBoot = true
            lastUnlock = now
            metrics.appSessions += 1
            return
        case .appClose(let forceQuit):
            guard appInForeground else { return }
            appInForeground = false
            if forceQuit { metrics.forceQuits += 1 }
            return
        case .plugIn(let overnight):
            plugIn(overnight: overnight, in: &simulation)
        case .unplug:
            isPluggedIn = false
            holdingAtEighty = false
            if let resumeEvent { simulation.cancel(resumeEvent) }
        case .optimizedChargingResume:
            holdingAtEighty = false
        case .networkChange(let change):
            changeNetwork(change, in: &simulation)
            return
        case .batteryLevel:
            reachBatteryLevel(batteryEventTarget, in: &simulation)
        case .clockJump(let seconds):
            clock.jump(by: .seconds(seconds))
            metrics.clockJumps += 1
            return
        case .networkFlap(let fault, let offline):
            flapNetwork(fault: Int(fault), offline: offline, in: &simulation)
            return
        case .batteryDeath:
            guard isPoweredOn else { return }
            battery.snap(toPercent: 0)
            metrics.minimumBatteryPercent = 0
            powerOff()
        case .restart(let reason):
            guard startRestart(reason, at: now, in: &simulation) else { return }
        case .bootComplete:
            guard restarting else { return }
            restarting = false
            boot(at: now)
        }
        updatePower(in: &simulation)
    }

    private mutating func beginDay(_ day: Int, in simulation: inout Simulation<WorldEvent>) {
        self.day = day
        let now = simulation.now
        let index = UInt64(bitPattern: Int64(day))
        lowPowerModeStream = RandomStream(seed: seed, label: Self.lowPowerModeLabel, entity: deviceID, index: index)

        user.begin(day: day)
        if !inSession && !sessionStartPending {
            scheduleNextSession(after: now, in: &simulation)
        }

        if let night = charging.overnight(of: day), night.plugIn >= now {
            simulation.schedule(.device(.plugIn(overnight: true)), at: night.plugIn)
            simulation.schedule(.device(.unplug), at: night.unplug)
        }
        for topUp in charging.topUps(of: day) where topUp.plugIn >= now {
            simulation.schedule(.device(.plugIn(overnight: false)), at: topUp.plugIn)
            simulation.schedule(.device(.unplug), at: topUp.unplug)
        }

        let plan = networkPlan.schedule(of: day)
        if let leave = plan.leave, let back = plan.back, leave >= now {
            simulation.schedule(.device(.networkChange(.leaveHome)), at: leave)
            simulation.schedule(.device(.networkChange(.returnHome)), at: back)
        } else if plan.leave == nil {
            simulation.schedule(.device(.networkChange(.homeEvening)), at: calendar.midnight(ofDay: day) + scenario.network.returnHome.sinceMidnight)
        }
        awayStream = networkPlan.awayStream(day: day)

        scheduleRandomClockJumps(day: day, in: &simulation)
        scheduleRestarts(day: day, in: &simulation)
        simulation.schedule(.device(.dayStart(day: Int32(clamping: day + 1))), at: calendar.midnight(ofDay: day + 1))
    }

    private mutating func scheduleNextSession(after instant: SimInstant, in simulation: inout Simulation<WorldEvent>) {
        if let next = user.nextSessionStart(after: instant) {
            simulation.schedule(.device(.sessionStart), at: next)
            sessionStartPending = true
        } else {
            sessionStartPending = false
        }
    }

    private mutating func startSession(in simulation: inout Simulation<WorldEvent>) {
        sessionStartPending = false
        inSession = true
        sessionUsesScreen = isPoweredOn
        let length = user.drawSessionLength()
        simulation.schedule(.device(.sessionEnd), after: length)
        let app = user.drawAppSession(sessionLength: length)
        guard isPoweredOn else {
            metrics.missedSessions += 1
            return
        }
        metrics.phoneSessions += 1
        isUnlockedSinceBoot = true
        lastUnlock = simulation.now
        if let app {
            simulation.schedule(.device(.appOpen), after: .zero)
            simulation.schedule(.device(.appClose(forceQuit: app.endsWithForceQuit)), after: app.length)
        }
    }

    private mutating func plugIn(overnight: Bool, in simulation: inout Simulation<WorldEvent>) {
        isPluggedIn = true
        chargingOvernight = overnight
        let power = scenario.power
        guard overnight, power.optimizedBatteryCharging, day >= power.optimizedChargingLearningDays else { return }
        // Reach 100 % a margin before the usual unplug: resume from 80 % that long plus the
        // 80→100 % time before it. The usual unplug is the next one ahead: this morning's when
        // the phone is plugged in after midnight, tomorrow's otherwise.
        let now = simulation.now
        let thisMorning = calendar.midnight(ofDay: calendar.day(of: now)) + power.overnightUnplug.sinceMidnight
        let expectedUnplug = thisMorning > now
            ? thisMorning
            : calendar.midnight(ofDay: calendar.day(of: now) + 1) + power.overnightUnplug.sinceMidnight
        let resume = expectedUnplug - .minutes(power.chargeMinutes80To100 + power.optimizedChargingMarginMinutes)
        if resume > now {
            holdingAtEighty = true
            resumeEvent = simulation.schedule(.device(.optimizedChargingResume), at: resume)
        }
    }

    private mutating func changeNetwork(_ change: DeviceEvent.NetworkChange, in simulation: inout Simulation<WorldEvent>) {
        let now = simulation.now
        switch change {
        case .leaveHome:
            awayUntil = nil
            nextAwaySegment(first: true, in: &simulation)
        case .awaySegment:
            nextAwaySegment(first: false, in: &simulation)
        case .returnHome, .homeEvening:
            if let networkSegmentEvent { simulation.cancel(networkSegmentEvent) }
            networkSegmentEvent = nil
            awayUntil = nil
            plannedNetwork = networkPlan.homeNetwork(night: calendar.day(of: now))
        }
    }

    /// A network-flap fault turns the network off or back on, and schedules its next turn
    /// within its window; it always ends with the network back on.
    private mutating func flapNetwork(fault index: Int, offline: Bool, in simulation: inout Simulation<WorldEvent>) {
        let flap = scenario.faults.networkFlaps[index]
        let end = SimInstant.start + .hours(flap.toHours)
        let now = simulation.now
        if offline {
            flapsOffline += 1
            simulation.schedule(.device(.networkFlap(fault: UInt16(index), offline: false)), at: Swift.min(end, now + .seconds(flap.offSeconds)))
        } else {
            flapsOffline -= 1
            let next = now + .seconds(flap.onSeconds)
            if next < end { simulation.schedule(.device(.networkFlap(fault: UInt16(index), offline: true)), at: next) }
        }
    }

    private mutating func nextAwaySegment(first: Bool, in simulation: inout Simulation<WorldEvent>) {
        let segment = networkPlan.nextAwaySegment(first: first, using: &awayStream)
        plannedNetwork = segment.path
        networkSegmentEvent = simulation.schedule(.device(.networkChange(.awaySegment)), after: segment.length)
    }

    private mutating func reachBatteryLevel(_ percent: Double, in simulation: inout Simulation<WorldEvent>) {
        precondition(percent >= 0 && percent <= 100, "Device: a battery level of \(percent) %")
        battery.snap(toPercent: percent)
        metrics.minimumBatteryPercent = Swift.min(metrics.minimumBatteryPercent, percent)
        if battery.netWatts < 0 {
            if (percent == 20 || percent == 10) && !isLowPowerMode {
                metrics.lowPowerModePrompts += 1
                if lowPowerModeStream.chance(constants.lowPowerModeAcceptProbability) {
                    isLowPowerMode = true
                    metrics.lowPowerModeAccepted += 1
                }
            } else if percent == 0 {
                powerOff()
            }
        } else {
            if percent >= 80 && isLowPowerMode { isLowPowerMode = false }
            if !isPoweredOn && !restarting && percent >= constants.powerOnPercent {
                // Charged enough to start: it starts now, as after a restart.
                restarting = true
                simulation.schedule(.device(.bootComplete), after: .zero)
            }
        }
    }

    /// The battery is empty: the phone turns off (and back on only while charging).
    private mutating func powerOff() {
        precondition(isPoweredOn, "Device: a flat battery turns off a phone that is off")
        shutDown()
        metrics.batteryDepletions += 1
    }

    /// The phone turns off: the screen goes dark and the app leaves the foreground.
    private mutating func shutDown() {
        if isScreenOn { screenOffSince = battery.updated }
        isPoweredOn = false
        sessionUsesScreen = false
        appInForeground = false
    }

    /// The phone starts: on, and locked until the user first unlocks it.
    private mutating func boot(at now: SimInstant) {
        precondition(!isPoweredOn, "Device: boots a phone that is already on")
        bootedAt = now
        isPoweredOn = true
        isUnlockedSinceBoot = false
        bootCount += 1
    }

    /// A restart for `reason` is due now: the phone shuts down if it still should (an update
    /// waits for a night on the charger and Wi-Fi with the phone not in use; an inactivity reboot
    /// is off if the user has unlocked the phone since it was scheduled) and comes back on after
    /// the restart's minutes. Returns whether it shut down.
    private mutating func startRestart(_ reason: DeviceEvent.RestartReason, at now: SimInstant,
                                       in simulation: inout Simulation<WorldEvent>) -> Bool {
        let parameters = scenario.restarts
        guard isPoweredOn else { return false }
        let minutes: Double
        switch reason {
        case .update:
            guard isPluggedIn, network.interface == .wifi, !inSession, let due = nextUpdateDay else { return false }
            nextUpdateDay = due + Swift.max(1, Int(parameters.updateEveryDays.rounded()))
            metrics.updateRestarts += 1
            minutes = parameters.updateMinutes
        case .inactivity:
            guard lastUnlock.duration(to: now) >= .hours(parameters.inactivityRebootHours) else { return false }
            metrics.inactivityReboots += 1
            minutes = parameters.rebootMinutes
        }
        shutDown()
        restarting = true
        simulation.schedule(.device(.bootComplete), after: .minutes(minutes))
        return true
    }

    /// Schedules the day's restarts: the night's update attempt, if one is due by today, and the
    /// inactivity reboot, if the time since the last unlock runs out today.
    private mutating func scheduleRestarts(day: Int, in simulation: inout Simulation<WorldEvent>) {
        let parameters = scenario.restarts
        let midnight = calendar.midnight(ofDay: day)
        if let due = nextUpdateDay, due <= day {
            let at = midnight + .hours(parameters.updateHour)
            if at >= simulation.now { simulation.schedule(.device(.restart(.update)), at: at) }
        }
        if parameters.inactivityRebootHours > 0 {
            let at = lastUnlock + .hours(parameters.inactivityRebootHours)
            if at >= Swift.max(midnight, simulation.now) && at < calendar.midnight(ofDay: day + 1) {
                simulation.schedule(.device(.restart(.inactivity)), at: at)
            }
        }
    }

    private mutating func scheduleRandomClockJumps(day: Int, in simulation: inout Simulation<WorldEvent>) {
        let parameters = scenario.clock
        guard parameters.randomJumpsPerDay > 0 else { return }
        var stream = RandomStream(seed: seed, label: Self.clockLabel, entity: deviceID, index: UInt64(bitPattern: Int64(day)))
        let count = PoissonDistribution(mean: parameters.randomJumpsPerDay).sample(using: &stream)
        let size = NormalDistribution(mean: 0, standardDeviation: parameters.randomJumpSigmaMinutes * 60)
        let midnight = calendar.midnight(ofDay: day)
        for _ in 0..<count {
            let at = midnight + .seconds(stream.unit() * 86_400)
            let seconds = Int64(size.sample(using: &stream).rounded())
            if at >= simulation.now { simulation.schedule(.device(.clockJump(seconds: seconds)), at: at) }
        }
    }

    // MARK: Continuous quantities

    /// Whether the screen is on.
    public var isScreenOn: Bool { isPoweredOn && inSession && sessionUsesScreen }

    /// Integrates battery, ledger, heat and time-weighted metrics up to `instant`.
    mutating func advance(to instant: SimInstant) {
        guard instant > lastMetricsUpdate else { return }
        let seconds = Double(instant.nanosecondsSinceStart - lastMetricsUpdate.nanosecondsSinceStart) * 1e-9
        if isScreenOn { metrics.screenOnSeconds += seconds }
        if isPluggedIn { metrics.chargingSeconds += seconds }
        if isLowPowerMode { metrics.lowPowerModeSeconds += seconds }
        if isPoweredOn {
            switch network.interface {
            case .wifi: metrics.wifiSeconds += seconds
            case .cellular: metrics.cellularSeconds += seconds
            case .none: metrics.offlineSeconds += seconds
            }
        } else if !restarting {
            metrics.zeroBatterySeconds += seconds
        }
        metrics.thermalSeconds[Int(thermal.state.rawValue)] += seconds
        let from = lastMetricsUpdate
        let levelBefore = battery.percent
        lastMetricsUpdate = instant
        battery.advance(to: instant)
        bookBatteryLevel(from: from, to: instant, levels: levelBefore, battery.percent)
        ledger.advance(to: instant, onCharger: isPluggedIn, appInBackground: !appInForeground)
        thermal.advance(to: instant)
        metrics.minimumBatteryPercent = Swift.min(metrics.minimumBatteryPercent, battery.percent)
        assert((0...100).contains(battery.percent) && seconds >= 0, "Device: battery at \(battery.percent) % after advancing \(seconds) s")
    }

    /// Books the battery level over `[from, to]` to the local hours it spans. The level moves
    /// linearly between events (clamping aside), so each piece's mean is the mean of its ends.
    private mutating func bookBatteryLevel(from: SimInstant, to: SimInstant, levels start: Double, _ end: Double) {
        let total = from.duration(to: to).seconds
        guard total > 0 else { return }
        var pieceStart = from
        var levelAtStart = start
        while pieceStart < to {
            if pieceStart < bookedHour.start || pieceStart >= bookedHour.end {
                let hour = Int(calendar.timeOfDay(at: pieceStart) / .hours(1))
                let hourStart = calendar.midnight(ofDay: calendar.day(of: pieceStart)) + .hours(Int64(hour))
                bookedHour = (hourStart, hourStart + .hours(1), hour)
            }
            let hour = bookedHour.hour
            let pieceEnd = Swift.min(to, bookedHour.end)
            let seconds = pieceStart.duration(to: pieceEnd).seconds
            let levelAtEnd = pieceEnd == to ? end : start + (end - start) * (from.duration(to: pieceEnd).seconds / total)
            metrics.batteryPercentSecondsByHour[hour] += (levelAtStart + levelAtEnd) / 2 * seconds
            metrics.secondsByHour[hour] += seconds
            pieceStart = pieceEnd
            levelAtStart = levelAtEnd
        }
    }

    /// The level charging stops at now: the charge limit, or 80 % while Optimized Battery Charging holds.
    private var chargeTargetPercent: Double {
        holdingAtEighty ? Swift.min(80, constants.chargeLimitPercent) : constants.chargeLimitPercent
    }

    /// Power into the battery at the current level, in watts, from the charge curve.
    private var chargingWatts: Double {
        let level = battery.level
        guard isPluggedIn, level < chargeTargetPercent else { return 0 }
        if level < 50 { return constants.chargeWattsTo50 }
        if level < 80 { return constants.chargeWatts50To80 }
        return constants.chargeWatts80To100
    }

    /// Sets the app's consumers (from the iOS model) from `now` on. Every power in `power` must
    /// be finite and not negative (the iOS model computes them from validated parameters; the
    /// device's invariants check them under internal checks).
    mutating func setAppPower(_ power: AppPower, in simulation: inout Simulation<WorldEvent>) {
        defer { checkInvariantsIfEnabled() }
        advance(to: simulation.now)
        appPower = power
        updatePower(in: &simulation)
    }

    /// Sets every consumer's power from the state, and schedules the next battery-level event.
    ///
    /// A phone that is off draws nothing: the app's power (a radio tail, a launch's overhead
    /// still running when the battery emptied) counts only while it is on.
    mutating func updatePower(in simulation: inout Simulation<WorldEvent>) {
        let app = isPoweredOn ? appPower : AppPower()
        ledger.setWatts(app.cpu, for: .appCPU)
        ledger.setWatts(app.radioPromotion, for: .appRadioPromotion)
        ledger.setWatts(app.radioActive, for: .appRadioActive)
        ledger.setWatts(app.radioTail, for: .appRadioTail)
        ledger.setWatts(app.launchOverhead, for: .appLaunchOverhead)
        ledger.setWatts(isScreenOn ? constants.screenOnWatts : 0, for: .screen)
        ledger.setWatts(isPoweredOn && !isScreenOn ? constants.screenOffBaselineWatts : 0, for: .baseline)
        let consumption = ledger.totalWatts
        let charge = chargingWatts
        battery.setNetWatts(isPluggedIn ? charge : -consumption)
        thermal.setInput(consumptionWatts: consumption, chargingWatts: charge)
        scheduleBatteryEvent(in: &simulation)
    }

    /// Schedules the next level the battery will reach at its current power, replacing any
    /// previously scheduled one.
    private mutating func scheduleBatteryEvent(in simulation: inout Simulation<WorldEvent>) {
        if let batteryEvent { simulation.cancel(batteryEvent) }
        batteryEvent = nil
        let level = battery.level
        var target: Double?
        if battery.netWatts < 0 {
            // Low Power Mode prompts at 20 % and 10 %, off at 0 %.
            target = level > 20 ? 20 : level > 10 ? 10 : level > 0 ? 0 : nil
        } else if battery.netWatts > 0 {
            // Charging phases change at 50 % and 80 %; charging stops at the target; a flat
            // phone turns back on at powerOnPercent.
            for candidate in [50.0, 80, chargeTargetPercent, isPoweredOn ? 200 : constants.powerOnPercent]
            where candidate > level && candidate < (target ?? 101) {
                target = candidate
            }
        }
        guard let target, let delay = battery.timeToReach(percent: target) else { return }
        batteryEventTarget = target
        batteryEvent = simulation.schedule(.device(.batteryLevel(hundredths: Int16((target * 100).rounded()))), after: delay)
    }
}

/// The scenario's numbers that the device uses at every event, copied out once so that the hot
/// path reads a few doubles instead of the whole scenario.
struct PowerConstants {
    let screenOnWatts: Double
    let screenOffBaselineWatts: Double
    let chargeLimitPercent: Double
    let powerOnPercent: Double
    let lowPowerModeAcceptProbability: Double
    /// Power into the battery in each phase of the charge curve, in watts.
    let chargeWattsTo50: Double
    let chargeWatts50To80: Double
    let chargeWatts80To100: Double

    init(scenario: Scenario) {
        let capacity = scenario.device.batteryCapacityJoules
        let power = scenario.power
        screenOnWatts = scenario.device.screenOnWatts
        screenOffBaselineWatts = scenario.device.screenOffBaselineWatts
        chargeLimitPercent = power.chargeLimitPercent
        powerOnPercent = power.powerOnPercent
        lowPowerModeAcceptProbability = power.lowPowerModeAcceptProbability
        chargeWattsTo50 = 0.5 * capacity / (power.chargeMinutesTo50 * 60)
        chargeWatts50To80 = 0.3 * capacity / (power.chargeMinutes50To80 * 60)
        chargeWatts80To100 = 0.2 * capacity / (power.chargeMinutes80To100 * 60)
    }
}
