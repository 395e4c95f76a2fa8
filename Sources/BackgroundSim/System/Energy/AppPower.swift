/// The power the app draws now, by consumer, in watts: what the system tells the device's
/// energy ledger.
struct AppPower: Equatable {
    var cpu = 0.0
    var radioPromotion = 0.0
    var radioActive = 0.0
    var radioTail = 0.0
    var launchOverhead = 0.0

    /// Whether every power is finite and not negative.
    var isValid: Bool {
        Self.isPower(cpu) && Self.isPower(radioPromotion) && Self.isPower(radioActive) && Self.isPower(radioTail)
            && Self.isPower(launchOverhead)
    }

    private static func isPower(_ watts: Double) -> Bool { watts >= 0 && watts.isFinite }
}
