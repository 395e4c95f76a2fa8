/// The parameters of ``ZashiDesigned`` (Zashi's wallet sync); defaults from the "Background
/// Syncing" design document in Electric-Coin-Company/zashi-ios.
public struct ZashiDesignedParameters: PolicyParameters {
    /// The defaults.
    public init() {}

    /// The processing task's identifier. Default "co.electriccoin.zashi.sync".
    public var identifier = "co.electriccoin.zashi.sync"

    /// `requiresExternalPower` ("optional, we require the iPhone to be connected to the power").
    /// Default true.
    public var requiresExternalPower = true

    /// `requiresNetworkConnectivity` ("required"). Default true.
    public var requiresNetworkConnectivity = true

    /// Sync only on Wi-Fi (the custom check before starting the synchronizer). Default true.
    public var requiresWifi = true

    /// Earliest begin of the next sync after scheduling, in minutes (the design's
    /// `<scheduledTime>`, not given). Default 60 [Inf]; valid 0–10,080.
    public var scheduleDelayMinutes: Double = 60

    public func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
        v.check(scheduleDelayMinutes, 0...10_080, "scheduleDelayMinutes")
    }
}
