import SimKernel

/// A background `URLSession`'s configuration, like `URLSessionConfiguration.background(withIdentifier:)`:
/// the transfers handed to such a session belong to the system's transfer daemon, which carries
/// them on while the app is suspended or terminated by the system, and launches the app in the
/// background when they have finished.
///
///     let session = BackgroundSessionConfiguration.background(withIdentifier: "uploads")
///     app.work.startHandingOff(to: session)
///
/// Apple's rules [A] (`URLSessionConfiguration.background(withIdentifier:)`, `isDiscretionary`,
/// `sessionSendsLaunchEvents`; "Downloading files in the background"): the transfers run out of
/// process; a force-quit cancels all of the session's transfers; with `isDiscretionary` the
/// system may wait for good conditions (Wi-Fi and power), and transfers created while the app is
/// in the background are discretionary whatever the setting.
public struct BackgroundSessionConfiguration: Sendable, Hashable {
    /// The session's identifier; the app is given it when it is launched for the session's events.
    public var identifier: String
    /// `isDiscretionary`: the transfers wait for Wi-Fi and the charger
    /// (``BackgroundURLSessionParameters``; Apple says the system "might" wait [A], the model
    /// always does [Inf]). Default false [A].
    public var isDiscretionary = false
    /// `allowsCellularAccess`: whether the transfers may use cellular. Default true [A].
    public var allowsCellularAccess = true
    /// `allowsConstrainedNetworkAccess`: whether the transfers may use a network in Low Data
    /// Mode. Default true [A].
    public var allowsConstrainedNetworkAccess = true
    /// `sessionSendsLaunchEvents`: whether the system launches or resumes the app when the
    /// session's transfers have finished. Default true [A].
    public var sessionSendsLaunchEvents = true
    /// `timeoutIntervalForResource`: a transfer not finished this long after it was created
    /// fails. Default 7 days [A] (the documented default); valid above 0.
    public var timeoutIntervalForResource = SimDuration.hours(7 * 24)

    /// A configuration with the defaults.
    public init(identifier: String) {
        self.identifier = identifier
    }

    /// `URLSessionConfiguration.background(withIdentifier:)`.
    public static func background(withIdentifier identifier: String) -> BackgroundSessionConfiguration {
        BackgroundSessionConfiguration(identifier: identifier)
    }

    /// Reports values out of range, with field paths relative to the configuration.
    func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty && identifier.count <= 128, "identifier", "expected 1–128 characters")
        v.require(timeoutIntervalForResource > .zero, "timeoutIntervalForResource", "expected a duration above 0")
    }
}
