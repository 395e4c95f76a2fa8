import SimKernel

/// A way iOS keeps the app running in the background, as the rest of the system sees it once
/// the door has admitted a wake (``WakeAdmission``): whether it holds the app awake, what goes
/// when the process ends, and its own invariants.
///
/// The doors are listed once, in ``SimulatedSystem/forEachDoor(_:with:)``: the suspension rule
/// (``SimulatedSystem/reconcile(in:)``), the end of a process
/// (``SimulatedSystem/terminate(_:in:)``) and the system's invariants loop over that list, so a
/// new door is its folder under `System/` and one line there.
protocol BackgroundDoor: InternallyChecked {
    /// Whether the door keeps the app running in the background now. While any door does, the
    /// app is not suspended; a process that is not running is held by none.
    var holdsApp: Bool { get }

    /// The process ended: what the door gave it (tasks, assertions, completion handlers, queued
    /// requests) goes, with their pending events. It records nothing: the caller logs what ended.
    mutating func processEnded(in simulation: inout Simulation<WorldEvent>)
}

/// A door whose deliveries wait for the admission to let them wake the app (a silent push, a
/// URL session's events), asking again when it is denied or the wake does not deliver them
/// (``SimulatedSystem/wakeOrRetry(_:for:decision:in:retryAfterDenial:deliver:)``).
protocol WaitingDoor: BackgroundDoor {
    /// Whether something waits to be delivered.
    var isWaiting: Bool { get }

    /// Schedules the door's next attempt at `instant`.
    mutating func retry(at instant: SimInstant, in simulation: inout Simulation<WorldEvent>)
}

/// Something done to each door in turn (``SimulatedSystem/forEachDoor(_:with:)``), with a
/// context every visit shares: the simulation, for a visit that cancels events; `Void` for one
/// that only reads.
protocol DoorVisitor {
    associatedtype Context
    mutating func visit<Door: BackgroundDoor>(_ door: inout Door, with context: inout Context)
}

extension SimulatedSystem {
    /// Runs `visitor` on every door, in this order: the extension after the user leaves
    /// (``BackgroundAssertions``), background tasks (``RunningTasks``), continued-processing
    /// requests (``ContinuedProcessingTasks``), a background URL session's events
    /// (``SessionEventDelivery``) and a silent push (``PushDelivery``). The one list of doors.
    func forEachDoor<Visitor: DoorVisitor>(_ visitor: inout Visitor, with context: inout Visitor.Context) {
        visitor.visit(&assertions, with: &context)
        visitor.visit(&running, with: &context)
        visitor.visit(&continued, with: &context)
        visitor.visit(&sessionEvents, with: &context)
        visitor.visit(&push, with: &context)
    }

    /// The first door, in ``forEachDoor(_:with:)``'s order, that keeps the app running in the
    /// background; `nil` if none does.
    var doorHoldingApp: (any BackgroundDoor.Type)? {
        var finder = DoorHoldingApp()
        var none: Void = ()
        forEachDoor(&finder, with: &none)
        return finder.door
    }

    /// Ends every door's part in the process (``BackgroundDoor/processEnded(in:)``).
    func endDoors(in simulation: inout Simulation<WorldEvent>) {
        var ending = DoorEnding()
        forEachDoor(&ending, with: &simulation)
    }

    /// Traps unless every door's part is consistent (``InternallyChecked/checkInvariants()``).
    func checkDoorInvariants() {
        var checking = DoorChecking()
        var none: Void = ()
        forEachDoor(&checking, with: &none)
    }
}

private struct DoorHoldingApp: DoorVisitor {
    var door: (any BackgroundDoor.Type)?

    mutating func visit<Door: BackgroundDoor>(_ door: inout Door, with context: inout Void) {
        if self.door == nil && door.holdsApp { self.door = Door.self }
    }
}

private struct DoorEnding: DoorVisitor {
    mutating func visit<Door: BackgroundDoor>(_ door: inout Door, with simulation: inout Simulation<WorldEvent>) {
        door.processEnded(in: &simulation)
    }
}

private struct DoorChecking: DoorVisitor {
    mutating func visit<Door: BackgroundDoor>(_ door: inout Door, with context: inout Void) {
        door.checkInvariants()
    }
}
