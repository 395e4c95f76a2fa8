/// The power the app draws now, by consumer, in watts: what the system tells the device's
/// energy ledger.
struct AppPower: Equatable {
    var cpu = 0.0
    var radioPromotion = 0.0
    var radioActive = 0.0
    var radioTail = 0.0
    var launchOverhead = 0.0
}
