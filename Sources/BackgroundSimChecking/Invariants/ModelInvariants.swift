import BackgroundSim
import SimKernel

// Invariants of the simulated world itself: whatever the policy does, these hold if the model is
// right. They guard the simulator; a violation is a bug in BackgroundSim, not in the policy.

/// The simulation's true time never goes backwards (the device's displayed clock may).
public struct TimeMovesForward: Invariant {
    public let name = "timeMovesForward"
    private var last = SimInstant.start

    public init() {}

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        check(entry.time, "log entry \(entry.event.kind.rawValue)", &run)
    }

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        check(run.now, "event \(event?.name ?? "of the iOS model")", &run)
    }

    private mutating func check(_ time: SimInstant, _ what: String, _ run: inout RunContext) {
        if time < last { run.fail("\(what) at \(time), after \(last)") }
        last = Swift.max(last, time)
    }
}

/// The battery's level stays within 0–100 %.
public struct BatteryWithinBounds: Invariant {
    public let name = "batteryWithinBounds"

    public init() {}

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        let percent = device.battery.percent
        if !(percent >= -1e-9 && percent <= 100 + 1e-9) { run.fail("battery at \(percent) %") }
    }
}

/// What the energy ledger books to the battery equals what the battery discharged (checked at
/// each midnight and battery-level event, to within a millionth of the capacity).
public struct EnergyLedgerBalances: Invariant {
    public let name = "energyLedgerBalances"

    public init() {}

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        switch event {
        case .dayStart?, .batteryLevel?: break
        default: return
        }
        let booked = device.ledger.totalBatteryJoules
        let discharged = device.battery.dischargedJoules
        if abs(booked - discharged) > 1e-6 * device.battery.capacityJoules {
            run.fail("the ledger booked \(booked) J to the battery, which discharged \(discharged) J")
        }
    }
}

/// At most 1 refresh and 10 processing requests are ever pending (`BGTaskScheduler.submit`).
public struct SubmitLimitsRespected: Invariant {
    public let name = "submitLimitsRespected"
    private var submitted = false

    public init() {}

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        if case .submit = entry.event { submitted = true }
    }

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        guard submitted else { return }
        submitted = false
        let refresh = system.pendingRequestCount(of: .appRefresh)
        let processing = system.pendingRequestCount(of: .processing)
        if refresh > 1 { run.fail("\(refresh) refresh requests pending") }
        if processing > 10 { run.fail("\(processing) processing requests pending") }
    }
}

/// No work of the app's own progresses while the app is suspended or not running (transfers
/// handed to a background URL session are the system's and may).
public struct NoWorkWhileSuspended: Invariant {
    public let name = "noWorkWhileSuspended"
    private var wasHalted = false
    private var completed = 0

    public init() {}

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        let halted = system.processState == .suspended || system.processState == .notRunning
        // Items the system's transfer daemon completes (a background URL session) do not count:
        // they progress whatever the app's state.
        let done = system.work.metrics.completed - system.work.metrics.completedBySession
        if halted && system.work.isProgressing {
            run.fail("the work executor is progressing while the app is \(system.processState)")
        }
        if wasHalted && done > completed {
            run.fail("\(done - completed) work items completed while the app was suspended or not running")
        }
        wasHalted = halted
        completed = done
    }
}

/// No background-task assertion outlives its budget (about 30 s from entering the background)
/// without the system killing the app.
public struct AssertionBudgetEnforced: Invariant {
    public let name = "assertionBudgetEnforced"

    public init() {}

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        guard system.processState == .background, system.heldAssertionCount > 0 else { return }
        let deadline = system.backgroundSince + .seconds(run.scenario.system.extensionBudgetSeconds)
        if run.now > deadline + .milliseconds(1) {
            run.fail("\(system.heldAssertionCount) assertion(s) held \(Format.duration(deadline.duration(to: run.now))) past the budget, and the app still runs")
        }
    }
}

/// Nothing runs while the phone is off: no launch or resume, no task handed over or expired, no
/// door's callback, no process at all — whichever door asks (a task, a push, a URL session's
/// events, continued processing, the user).
public struct NothingRunsWhilePhoneOff: Invariant {
    public let name = "nothingRunsWhilePhoneOff"
    /// The first log entry of the event being handled that runs the app's code.
    private var appCode: SystemLogEntry?

    public init() {}

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        if entry.event.runsAppCode && appCode == nil { appCode = entry }
    }

    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {
        defer { appCode = nil }
        guard !device.isPoweredOn else { return }
        if let appCode {
            run.fail("\(appCode.event.kind.rawValue) while the phone is off (after \(event?.name ?? "an event of the iOS model"))")
        } else if system.processState != .notRunning {
            run.fail("the app is \(system.processState) while the phone is off")
        }
    }
}
