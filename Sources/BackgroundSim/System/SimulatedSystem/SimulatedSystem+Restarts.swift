import SimKernel

// The phone starting again, after a restart (``RestartParameters``) or an empty battery.
extension SimulatedSystem {
    /// Acts on the phone's starts since the system last looked (``DeviceSnapshot/bootCount``):
    /// the user's force-quit no longer holds the app back [A] ("the user must relaunch your app
    /// or restart the device"), and pending task requests are deleted if the model says so
    /// (``SystemParameters/restartDropsPendingRequests``). Until the user unlocks the phone the
    /// admission launches nothing in the background (``WakeRule/Check/unlockedSinceBoot``).
    func noticeRestart(in simulation: inout Simulation<WorldEvent>) {
        guard snapshot.bootCount != seenBootCount, snapshot.isPoweredOn else { return }
        seenBootCount = snapshot.bootCount
        let flagCleared = forceQuitFlag
        forceQuitFlag = false
        let drops = parameters.restartDropsPendingRequests && !pending.isEmpty
        if drops { pending.removeAll() }
        record(.phoneStarted(forceQuitFlagCleared: flagCleared, pendingRequestsCleared: drops))
    }
}
