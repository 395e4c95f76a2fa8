/// What a launch evaluation decided for one pending request.
public enum LaunchDecision: Sendable, Equatable {
    /// The system launched a task for it.
    case launched
    /// It stays pending, for this reason.
    case notLaunched(LaunchDenial)
}

/// Why the system did not run the app in the background for a request — a pending task at an
/// evaluation, a held push, a URL session's events — in the order the system checks
/// (``WakeRule/table``): its documented rules first, then the launch model's discretion, then
/// throttling. Raw values are the `reason` of `launchDecision`, `pushDeferred` and
/// `sessionRelaunchDeferred` in traces.
public enum LaunchDenial: String, Sendable, Equatable, CaseIterable {
    // The documented rules [A].

    /// Every URL session whose events wait was configured with `sessionSendsLaunchEvents`
    /// false: the system does not launch the app for them; they wait for it to run.
    case sessionSendsNoLaunchEvents = "sessionSendsNoLaunchEvents"
    /// The phone is switched off (an empty battery): nothing runs until it is back on.
    case phoneOff = "phoneOff"
    /// The phone has restarted and the user has not unlocked it since: no background launches
    /// before the first unlock.
    case beforeFirstUnlock = "beforeFirstUnlock"
    /// The app is in the foreground: background tasks wait until it leaves, and a push is
    /// delivered to it there instead.
    case appInForeground = "appInForeground"
    /// The app is still handling the previous push: the next waits until it is done.
    case previousPushRunning = "previousPushRunning"
    /// As many continued-processing tasks run as the system allows at once: a queued request
    /// waits for one to end.
    case continuedProcessingSlotsTaken = "continuedProcessingSlotsTaken"
    /// The earliest begin date has not come yet.
    case notDue = "notDue"
    /// Background App Refresh is off for the app (the setting, or a fault).
    case backgroundAppRefreshOff = "backgroundAppRefreshOff"
    /// The user force-quit the app and has not opened it since.
    case forceQuit = "forceQuit"
    /// Low Power Mode pauses refresh, and processing on battery.
    case lowPowerMode = "lowPowerMode"
    /// Low Data Mode is on for the current network: Background App Refresh is off.
    case lowDataMode = "lowDataMode"
    /// The screen is on: processing runs only while the device is not in use.
    case deviceInUse = "deviceInUse"
    /// The request requires external power and the phone is not charging.
    case requiresExternalPower = "requiresExternalPower"
    /// The request requires network connectivity and there is none.
    case requiresNetworkConnectivity = "requiresNetworkConnectivity"

    // The launch model's discretion.

    /// The battery is below the model's floor and not charging.
    case batteryFloor = "batteryFloor"
    /// The device is too hot (thermal state serious or critical).
    case thermalState = "thermalState"
    /// The app has not been used recently enough.
    case appNotUsedRecently = "appNotUsedRecently"
    /// Too soon after the last launch of this kind (the model's rate limit, the push throttle,
    /// or the transfer daemon's delay before another launch for URL-session events).
    case rateLimit = "rateLimit"
    /// The model predicts no use of the app in the coming hour.
    case noPredictedUse = "noPredictedUse"
    /// The app's daily refresh budget is spent.
    case budgetExhausted = "budgetExhausted"
    /// The screen has not been off long enough for the device to count as idle.
    case deviceNotIdle = "deviceNotIdle"
    /// The model's chance would have fallen, but the app's energy budget is low and scaled it
    /// below (``LaunchBudgetParameters``).
    case energyBudget = "energyBudget"
    /// The same, for the app's cellular data budget.
    case dataBudget = "dataBudget"
    /// Eligible, but the model's chance did not fall on this evaluation.
    case notChosen = "notChosen"

    // After the model chose it.

    /// The system is throttling the app after killing it for an unfinished task.
    case throttled = "throttled"
}
