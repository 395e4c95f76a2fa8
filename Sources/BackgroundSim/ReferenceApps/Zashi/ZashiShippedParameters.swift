/// The parameters of ``ZashiShipped`` (Zashi's wallet sync as its iOS code ships it). Every
/// default is the app's own [C], from Electric-Coin-Company/zashi-ios at `2488b26` (the same since
/// `1d60dd3`, January 2024), `secant/AppDelegate.swift`, `secant/SecantApp.swift` and
/// `RootInitialization.swift`.
package struct ZashiShippedParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The sync task's identifier. Default "co.electriccoin.power_wifi_sync".
    package var syncIdentifier = "co.electriccoin.power_wifi_sync"

    /// The second ("scheduler") task's identifier. Default "co.electriccoin.scheduler".
    package var schedulerIdentifier = "co.electriccoin.scheduler"

    /// The sync request may begin this many hours after the start of the next local day, plus a
    /// random 0 … ``windowJitterMinutes`` whole minutes; the default is 03:00.
    package var syncWindowHour = 3

    /// The scheduler request may begin this many hours after the start of the next local day, plus
    /// the same kind of jitter; the default is 14:00.
    package var schedulerWindowHour = 14

    /// The random delay after a window opens, in whole minutes, uniform over 0 … this (both
    /// included; a fraction is dropped), as the code draws it (a random `Int` over `0...60` minutes
    /// in `DateComponents`).
    package var windowJitterMinutes: Double = 60

    /// The sync request's `requiresExternalPower`. Default true.
    package var requiresExternalPower = true

    /// The sync request's `requiresNetworkConnectivity`. Default true. (The scheduler request
    /// has no requirements.)
    package var requiresNetworkConnectivity = true

    /// The sync handler needs Wi-Fi (a path monitor on the Wi-Fi interface); off Wi-Fi it
    /// completes with false. Default true.
    package var requiresWifi = true

    /// The wallet's keys are readable only while the phone is unlocked: a process the system
    /// launched in the background while the phone was locked cannot start the synchronizer, and
    /// its sync task completes with false (``AppContext/isProtectedDataAvailable``). Default
    /// true (the keys' keychain protection); false models a wallet that keeps them readable after
    /// the first unlock.
    package var coldLaunchNeedsUnlock = true

    package func validate(_ v: inout ParameterValidator) {
        v.require(!syncIdentifier.isEmpty, "syncIdentifier", "expected a task identifier")
        v.require(!schedulerIdentifier.isEmpty, "schedulerIdentifier", "expected a task identifier")
        v.require(schedulerIdentifier != syncIdentifier, "schedulerIdentifier", "expected an identifier other than syncIdentifier")
    }
}

extension ZashiShippedParameters {
    package static let numberFields: [NumberField<ZashiShippedParameters>] = [
        NumberField("syncWindowHour", \.syncWindowHour, valid: 0...23),
        NumberField("schedulerWindowHour", \.schedulerWindowHour, valid: 0...23),
        NumberField("windowJitterMinutes", \.windowJitterMinutes, valid: 0...1_440),
    ]
}
