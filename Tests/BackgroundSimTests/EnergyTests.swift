@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Battery and energy")
struct EnergyTests {
    @Test("battery levels that are not whole hundredths are reached exactly: a charge limit just past 50 % or 80 %, an odd power-on level",
          arguments: [(50.00000005, 2.0), (80.00000005, 2.0), (100, 1.23456)])
    func oddLevels(chargeLimit: Double, powerOn: Double) throws {
        var scenario = Scenario()
        scenario.power.chargeLimitPercent = chargeLimit
        scenario.power.powerOnPercent = powerOn
        scenario.user.sessionsPerDay = 200          // flat batteries, to turn back on at the odd level
        scenario.device.screenOnWatts = 5
        let result = try SimulationRunner.run(scenario: scenario, seed: 1, days: 20)
        // A level rounded to hundredths was reached again and again, ever closer (millions of events).
        #expect(result.events < 20 * 1_000, "\(result.events) events")
        #expect(result.device.batteryDepletions > 0)
    }

    @Test("analytic integration agrees with a fine numeric integration within 0.1 %", arguments: [UInt64(3), 4])
    func analyticAgainstNumeric(seed: UInt64) throws {
        // Record the net power after every event of 30 simulated days, then integrate it again
        // in 1-second steps, clamping to empty and full as the battery does.
        let run = try RecordedRun(seed: seed, days: 30)
        let capacity = run.device.battery.capacityJoules
        var energy = run.samples[0].energyJoules
        var worst = 0.0
        for (previous, sample) in zip(run.samples, run.samples.dropFirst()) {
            var remaining = previous.time.duration(to: sample.time).seconds
            while remaining > 0 {
                let step = Swift.min(1.0, remaining)
                energy = Swift.min(capacity, Swift.max(0, energy + previous.netWatts * step))
                remaining -= step
            }
            worst = Swift.max(worst, abs(energy - sample.energyJoules) / capacity)
        }
        #expect(run.samples.count > 3_000)
        #expect(worst < 0.001, "worst difference \(worst * 100) % of capacity")
    }

    @Test("a battery reaches a level exactly when its crossing time says")
    func crossingTime() {
        var battery = Battery(capacityJoules: 46_730, percent: 50, at: .start)
        battery.setNetWatts(-1.1)
        let delay = try! #require(battery.timeToReach(percent: 20))
        // 30 % of 46,730 J at 1.1 W.
        #expect(abs(delay.seconds - 0.3 * 46_730 / 1.1) < 1e-6)
        battery.advance(to: .start + delay)
        #expect(abs(battery.percent - 20) < 1e-9)
        #expect(battery.timeToReach(percent: 30) == nil, "moving away from 30 %")
        battery.setNetWatts(0)
        #expect(battery.timeToReach(percent: 10) == nil, "not moving")
    }

    @Test("the charge curve takes 25, 30 and 45 minutes for 0→50→80→100 %")
    func chargeCurve() throws {
        // Start nearly flat; the first overnight charge then runs from the power-on level to full
        // without an unplug in between.
        var scenario = Scenario()
        scenario.power.initialBatteryPercent = 1
        scenario.power.optimizedBatteryCharging = false
        let run = try RecordedRun(scenario, days: 2)
        let plugIn = try #require(run.records.first { $0.kind == DeviceEvent.plugIn(overnight: true).traceKind && $0.detail == 1 })
        let levels = run.records.filter { $0.kind == DeviceEvent.batteryLevel(hundredths: 0).traceKind && $0.time > plugIn.time }
        let fifty = try #require(levels.first { $0.detail == 5_000 })
        let eighty = try #require(levels.first { $0.detail == 8_000 })
        let full = try #require(levels.first { $0.detail == 10_000 })
        #expect(abs(fifty.time.duration(to: eighty.time).seconds - 30 * 60) < 1e-6, "50→80 %")
        #expect(abs(eighty.time.duration(to: full.time).seconds - 45 * 60) < 1e-6, "80→100 %")
        let constants = PowerConstants(scenario: scenario)
        #expect(abs(constants.chargeWattsTo50 - 15.58) < 0.01, "about 15.6 W into the battery (a 20 W adapter)")
        #expect(abs(constants.chargeWatts50To80 - 7.79) < 0.01)
        #expect(abs(constants.chargeWatts80To100 - 3.46) < 0.01)
    }

    @Test("Optimized Battery Charging holds every overnight charge at 80 % after the learning period and resumes at 06:00 the same night, also when plugged in after midnight")
    func optimizedCharging() throws {
        let run = try RecordedRun(days: 120)
        let calendar = Scenario().calendar.calendar
        let learning = SimInstant.start + .days(14)
        let resumes = run.records.filter { $0.kind == DeviceEvent.optimizedChargingResume.traceKind }.map(\.time)
        #expect(resumes.allSatisfy { $0 > learning }, "no hold while the routine is being learnt")
        // Every resume is at 06:00 local time: the usual 07:00 unplug, less the 45 min of
        // 80→100 % charging and the 15 min margin.
        for resume in resumes {
            #expect(calendar.timeOfDay(at: resume) == .hours(6), "resume at \(resume)")
        }
        // Each overnight charge after the learning period that lasts past 06:00 resumes inside
        // that charge, whether it began before or after midnight.
        let plugIns = run.records.filter { $0.kind == DeviceEvent.plugIn(overnight: true).traceKind && $0.detail == 1 }.map(\.time)
        let unplugs = run.records.filter { $0.kind == DeviceEvent.unplug.traceKind }.map(\.time)
        var checked = (beforeMidnight: 0, afterMidnight: 0)
        for plugIn in plugIns where plugIn > learning {
            guard let unplug = unplugs.first(where: { $0 > plugIn }) else { continue }
            let plugInDay = calendar.day(of: plugIn)
            let afterMidnight = calendar.timeOfDay(at: plugIn) < .hours(12)
            let six = calendar.midnight(ofDay: afterMidnight ? plugInDay : plugInDay + 1) + .hours(6)
            guard unplug > six, plugIn < six else { continue }
            #expect(resumes.contains(six), "charge \(plugIn)–\(unplug) did not resume at \(six)")
            // Until then it charges no higher than 80 % (or the level it was plugged in at, if
            // higher: the charger then holds it there).
            let capacity = run.device.battery.capacityJoules
            let atPlugIn = run.samples.last { $0.time <= plugIn }?.energyJoules ?? 0
            let ceiling = Swift.max(0.8 * capacity, atPlugIn) + 1e-6
            #expect(run.samples.allSatisfy { $0.time <= plugIn || $0.time >= six || $0.energyJoules <= ceiling })
            if afterMidnight { checked.afterMidnight += 1 } else { checked.beforeMidnight += 1 }
        }
        #expect(checked.beforeMidnight > 30)
        #expect(checked.afterMidnight > 5, "plug-ins after midnight are a sixth of nights")
    }

    @Test("without Optimized Battery Charging there is no hold")
    func noOptimizedCharging() throws {
        var scenario = Scenario()
        scenario.power.optimizedBatteryCharging = false
        let run = try RecordedRun(scenario, days: 30)
        #expect(run.records.allSatisfy { $0.kind != DeviceEvent.optimizedChargingResume.traceKind })
    }

    @Test("a charge limit stops charging at the limit")
    func chargeLimit() throws {
        var scenario = Scenario()
        scenario.power.chargeLimitPercent = 85
        let run = try RecordedRun(scenario, days: 20)
        #expect(run.samples.allSatisfy { $0.energyJoules <= run.device.battery.capacityJoules * 0.85 + 1e-6 || $0.time == .start })
        #expect(run.records.contains { $0.kind == DeviceEvent.batteryLevel(hundredths: 0).traceKind && $0.detail == 8_500 })
    }

    @Test("a heavy user runs flat: the phone turns off at 0 % and back on while charging; Low Power Mode is offered")
    func flatBattery() throws {
        var scenario = Scenario()
        scenario.device.screenOnWatts = 2.5
        scenario.power.overnightChargeProbability = 0.5
        scenario.power.topUpsPerDay = 0
        scenario.power.lowPowerModeAcceptProbability = 1
        let run = try RecordedRun(scenario, days: 60)
        let metrics = run.device.metrics
        #expect(metrics.batteryDepletions > 0)
        #expect(metrics.zeroBatterySeconds > 0)
        #expect(metrics.missedSessions > 0, "sessions while the phone is off are missed")
        #expect(metrics.lowPowerModePrompts > 0)
        #expect(metrics.lowPowerModeAccepted == metrics.lowPowerModePrompts, "accept probability 1")
        #expect(metrics.lowPowerModeSeconds > 0)
        #expect(metrics.minimumBatteryPercent == 0)
        let levels = run.records.filter { $0.kind == DeviceEvent.batteryLevel(hundredths: 0).traceKind }
        #expect(levels.contains { $0.detail == 0 })
        #expect(levels.contains { $0.detail == 300 }, "turns back on at 3 %")
        // While off (from each 0 % to the next 3 %), the battery never loses energy.
        var checked = 0
        for off in levels where off.detail == 0 {
            let next = levels.first { $0.time > off.time && $0.detail == 300 }
            let on: SimInstant = next?.time ?? SimInstant.start + .days(60)
            let window = run.samples.filter { $0.time >= off.time && $0.time <= on }
            for (previous, next) in zip(window, window.dropFirst()) {
                #expect(next.energyJoules >= previous.energyJoules - 1e-9, "drew power while off at \(next.time)")
                checked += 1
            }
        }
        #expect(checked > 10)
    }

    @Test("Low Power Mode turns itself off at 80 % while charging")
    func lowPowerModeOffAtEighty() throws {
        var scenario = Scenario()
        scenario.power.initialBatteryPercent = 25
        scenario.power.lowPowerModeAcceptProbability = 1
        scenario.device.screenOnWatts = 2.5
        let run = try RecordedRun(scenario, days: 5)
        // With every prompt accepted, Low Power Mode runs from each 20 % reached while
        // discharging to the next 80 % (reached only while charging) or the end: its total time
        // is exactly the sum of those spans.
        let levels = run.records.filter { $0.kind == DeviceEvent.batteryLevel(hundredths: 0).traceKind }
        var expected = 0.0
        var since: SimInstant?
        for level in levels {
            if level.detail == 2_000, since == nil { since = level.time }
            if level.detail == 8_000, let start = since {
                expected += start.duration(to: level.time).seconds
                since = nil
            }
        }
        if let start = since { expected += start.duration(to: .start + .days(5)).seconds }
        #expect(run.device.metrics.lowPowerModeAccepted > 0)
        #expect(expected > 0 && expected < 5 * 86_400)
        #expect(abs(run.device.metrics.lowPowerModeSeconds - expected) < 1e-6, "\(run.device.metrics.lowPowerModeSeconds) s, expected \(expected) s")
    }

    @Test("battery level by hour: every hour weighs the same time; a discharging day falls hour by hour")
    func batteryLevelByHour() throws {
        var scenario = Scenario()
        scenario.power.overnightChargeProbability = 0
        scenario.power.topUpsPerDay = 0
        scenario.power.initialBatteryPercent = 100
        let oneDay = try RecordedRun(scenario, days: 1).device
        #expect(oneDay.metrics.secondsByHour.allSatisfy { abs($0 - 3_600) < 1e-6 }, "\(oneDay.metrics.secondsByHour)")
        let levels = DeviceReport(device: oneDay, days: 1).batteryPercentByHour
        #expect(levels.count == 24)
        #expect(levels[0] < 100 && levels[0] > levels[23])
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 >= $1 }, "\(levels)")
        // The mean of the hourly means is the time-weighted mean level of the day, which for a
        // battery that never charges lies between the final level and 100 %.
        #expect(oneDay.battery.percent < levels.reduce(0, +) / 24)

        // With the default user, who charges most nights, the small hours sit above the evening.
        let month = try RecordedRun(Scenario(), days: 30).device
        #expect(month.metrics.secondsByHour.allSatisfy { abs($0 - 30 * 3_600) < 1e-6 })
        let typical = DeviceReport(device: month, days: 30).batteryPercentByHour
        #expect(typical[5] > typical[21] + 10, "\(typical)")
    }

    @Test("the ledger's battery energy equals the battery's own accounting")
    func ledgerAddsUp() throws {
        // With no charging, everything consumed comes out of the battery.
        var scenario = Scenario()
        scenario.power.overnightChargeProbability = 0
        scenario.power.topUpsPerDay = 0
        scenario.power.initialBatteryPercent = 100
        let run = try RecordedRun(scenario, days: 1)
        let drawn = run.device.ledger.totalBatteryJoules
        let lost = run.device.battery.capacityJoules - run.device.battery.energyJoules
        #expect(abs(drawn - lost) < 1e-6 * run.device.battery.capacityJoules, "drawn \(drawn) J, lost \(lost) J")
        let screen = run.device.ledger.batteryJoules(of: .screen)
        #expect(abs(screen - run.device.metrics.screenOnSeconds * 1.1) < 1e-6 * screen)
    }
}

@Suite("Radio energy (the per-wake model)")
struct RadioTests {
    /// Runs transfers of `length` every `period` for `count` times on `path` and returns the
    /// app's radio energy by component, integrated in an ``EnergyLedger``.
    func cadence(
        period: SimDuration, length: SimDuration, count: Int, path: NetworkPath,
        up: Double = 1, down: Double = 5, parameters: EnergyParameters = EnergyParameters()
    ) -> (promotion: Double, active: Double, tail: Double) {
        var radio = RadioModel(parameters: parameters)
        var ledger = EnergyLedger(at: .start)
        var now = SimInstant.start
        func move(to instant: SimInstant) {
            // Let promotions and tails end on their own on the way.
            while let change = radio.nextPhaseChange, change <= instant {
                ledger.advance(to: change, onCharger: false)
                radio.advancePhase(at: change)
                radio.applyWatts(to: &ledger)
            }
            ledger.advance(to: instant, onCharger: false)
            now = instant
        }
        for index in 0..<count {
            move(to: .start + period * Int64(index))
            let flowing = radio.beginTransfer(at: now, path: path, uplinkMbps: up, downlinkMbps: down, ridesOtherTraffic: false)
            radio.applyWatts(to: &ledger)
            move(to: flowing + length)
            radio.endTransfer(at: now)
            radio.applyWatts(to: &ledger)
        }
        move(to: now + .minutes(5))
        return (ledger.batteryJoules(of: .appRadioPromotion), ledger.batteryJoules(of: .appRadioActive),
                ledger.batteryJoules(of: .appRadioTail))
    }

    static let lteGood = NetworkPath(interface: .cellular, technology: .lte, signal: .good, isConstrained: false)

    @Test("LTE every 15 minutes for 20 s: promotion + active + full tail per wake")
    func lteCadence() {
        // Hand calculation with the defaults (Huang et al. 2012 and AT&T ARO's LTE constants):
        //   promotion 0.26 s × 1.21 W = 0.3146 J
        //   active    20 s × (1.29 + 0.438 × 1 + 0.052 × 5) W = 20 × 1.988 = 39.76 J
        //   tail      11.6 s × 1.06 W = 12.296 J          per wake, × 96 wakes a day.
        let energy = cadence(period: .minutes(15), length: .seconds(20), count: 96, path: Self.lteGood)
        #expect(abs(energy.promotion - 96 * 0.3146) < 1e-6)
        #expect(abs(energy.active - 96 * 39.76) < 1e-6)
        #expect(abs(energy.tail - 96 * 12.296) < 1e-6)
    }

    @Test("transfers 5 s apart share one promotion and pay only the gaps of the tail")
    func sharedTail() {
        // 10 transfers of 2 s starting every 7 s, all inside the previous one's 11.6 s tail:
        //   one promotion 0.26 s × 1.21 W = 0.3146 J (the first transfer flows from 0.26 s);
        //   active 10 × 2 s × 1.988 W = 39.76 J;
        //   tail: the first gap 7 − 2.26 = 4.74 s, eight gaps of 5 s, then one full tail:
        //         (4.74 + 40) × 1.06 + 12.296 = 59.7204 J.
        let energy = cadence(period: .seconds(7), length: .seconds(2), count: 10, path: Self.lteGood)
        #expect(abs(energy.promotion - 0.3146) < 1e-6)
        #expect(abs(energy.active - 39.76) < 1e-6)
        #expect(abs(energy.tail - 59.7204) < 1e-6, "tail \(energy.tail)")
    }

    @Test("5G multiplies active and tail power; poor signal multiplies active power; Wi-Fi's tail is short")
    func multipliers() {
        let nrPoor = NetworkPath(interface: .cellular, technology: .fiveG, signal: .poor, isConstrained: false)
        let energy = cadence(period: .hours(1), length: .seconds(10), count: 1, path: nrPoor)
        #expect(abs(energy.active - 10 * 1.988 * 2.0 * 1.5) < 1e-6)
        #expect(abs(energy.tail - 11.6 * 1.06 * 1.5) < 1e-6)
        #expect(abs(energy.promotion - 0.26 * 1.21) < 1e-6, "promotion is not multiplied")

        let wifi = NetworkPath(interface: .wifi, technology: .lte, signal: .poor, isConstrained: false)
        let onWifi = cadence(period: .hours(1), length: .seconds(10), count: 1, path: wifi)
        #expect(abs(onWifi.promotion - 0.08 * 0.124) < 1e-9)
        // β 0.133 W + 0.283 W per Mbps up (1) + 0.137 W per Mbps down (5), and no signal multiplier.
        #expect(abs(onWifi.active - 10 * (0.133 + 0.283 * 1 + 0.137 * 5)) < 1e-9, "no signal multiplier on Wi-Fi")
        #expect(abs(onWifi.tail - 0.25 * 0.12) < 1e-9)
        // The LTE fixed cost per wake (promotion and tail) is hundreds of times Wi-Fi's.
        #expect((0.26 * 1.21 + 11.6 * 1.06) / (onWifi.promotion + onWifi.tail) > 300)
    }

    @Test("a transfer riding on other traffic pays no promotion and no tail")
    func ridesOtherTraffic() {
        var radio = RadioModel(parameters: EnergyParameters())
        let start = radio.beginTransfer(at: .start, path: Self.lteGood, uplinkMbps: 1, downlinkMbps: 5, ridesOtherTraffic: true)
        #expect(start == .start)
        #expect(radio.watts.promotion == 0)
        radio.endTransfer(at: .start + .seconds(3))
        #expect(radio.phase == .idle)
        #expect(radio.nextPhaseChange == nil)
    }
}
