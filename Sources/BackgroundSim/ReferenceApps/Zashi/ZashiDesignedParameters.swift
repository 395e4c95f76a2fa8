/// The parameters of ``ZashiDesigned`` (Zashi's wallet sync); defaults from the "Background
/// Syncing" design document in Electric-Coin-Company/zashi-ios.
package struct ZashiDesignedParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The processing task's identifier. Default "co.electriccoin.zashi.sync".
    package var identifier = "co.electriccoin.zashi.sync"

    /// `requiresExternalPower` ("optional, we require the iPhone to be connected to the power").
    /// Default true.
    package var requiresExternalPower = true

    /// `requiresNetworkConnectivity` ("required"). Default true.
    package var requiresNetworkConnectivity = true

    /// Sync only on Wi-Fi (the custom check before starting the synchronizer). Default true.
    package var requiresWifi = true

    /// Earliest begin of the next sync after scheduling, in minutes (the design's
    /// `<scheduledTime>`, not given). [Inf].
    package var scheduleDelayMinutes: Double = 60

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
    }
}

extension ZashiDesignedParameters {
    package static let numberFields: [NumberField<ZashiDesignedParameters>] = [
        NumberField("scheduleDelayMinutes", \.scheduleDelayMinutes, valid: 0...10_080),
    ]
}
