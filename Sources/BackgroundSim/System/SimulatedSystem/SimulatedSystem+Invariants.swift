// The system's own invariants, across its parts: nothing runs while the phone is off, and a
// process that is not running holds nothing.
extension SimulatedSystem {
    /// Runs ``checkInvariants()`` when the package is built with `SIMKERNEL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariantsIfEnabled() {
        #if SIMKERNEL_INTERNAL_CHECKS
        checkInvariants()
        #endif
    }

    /// Traps unless the state after a call into the system is consistent: no process while the
    /// phone is off; no door holds a process that is not running (``BackgroundDoor/holdsApp``);
    /// a suspended app is held by no door; a force-quit app is not running; each door's part is
    /// consistent.
    func checkInvariants() {
        precondition(snapshot.isPoweredOn || processState == .notRunning,
                     "SimulatedSystem: the app is \(processState) while the phone is off")
        if processState == .notRunning || processState == .suspended, let door = doorHoldingApp {
            preconditionFailure("SimulatedSystem: \(door) holds the app while it is \(processState)")
        }
        precondition(!forceQuitFlag || processState == .notRunning, "SimulatedSystem: a force-quit app runs")
        checkDoorInvariants()
    }

    /// Traps if `event` says the app's code runs while the phone is off.
    func checkPoweredOn(for event: SystemLogEvent) {
        precondition(snapshot.isPoweredOn || !event.runsAppCode, "SimulatedSystem: \(event.kind.rawValue) while the phone is off")
    }
}
