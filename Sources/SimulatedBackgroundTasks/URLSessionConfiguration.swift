import BackgroundSim
import Foundation
import SimKernel

/// `URLSessionConfiguration`: how a session's requests go. A background configuration's tasks
/// are carried by the system's transfer daemon on the simulated phone, whatever the app's state.
///
///     let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.uploads")
///     configuration.isDiscretionary = true
///     let session = URLSession(configuration: configuration, delegate: uploader, delegateQueue: nil)
open class URLSessionConfiguration: @unchecked Sendable {
    /// The background session's identifier; `nil` for the other kinds.
    public let identifier: String?

    /// Whether the system may wait for good conditions (Wi-Fi, and power): default false; a
    /// background session's tasks made while the app is not in the foreground are discretionary
    /// anyway [A].
    open var isDiscretionary = false
    /// Whether the system launches or resumes the app when the session's tasks finish: default true.
    open var sessionSendsLaunchEvents = true
    /// Whether the tasks may use cellular data: default true.
    open var allowsCellularAccess = true
    /// Whether the tasks may use an expensive network: default true. Not modelled apart from
    /// cellular access: the simulated phone's expensive network is its cellular one.
    open var allowsExpensiveNetworkAccess = true
    /// Whether the tasks may use a network in Low Data Mode: default true.
    open var allowsConstrainedNetworkAccess = true
    /// Seconds a request may wait for data: default 60. Not modelled (the simulated network
    /// does not stall part way).
    open var timeoutIntervalForRequest: TimeInterval = 60
    /// Seconds a background task may take in all before it fails with `URLError(.timedOut)`:
    /// default 7 days. A value that is not above 0 reads as the default, and one above a year
    /// as a year [Inf].
    open var timeoutIntervalForResource: TimeInterval = 7 * 24 * 60 * 60
    /// The `URLProtocol` classes that handle the session's requests, as tests set to mock the
    /// network: kept, not consulted (the simulated network answers with the policy's
    /// ``SimulatedServer``).
    open var protocolClasses: [AnyClass]?
    /// Whether requests require DNSSEC validation (iOS 16): kept, not modelled.
    open var requiresDNSSECValidation = false
    /// Headers added to every request: kept, not modelled.
    open var httpAdditionalHeaders: [AnyHashable: Any]?
    /// Whether requests wait for connectivity instead of failing at once: kept, not modelled.
    open var waitsForConnectivity = false
    /// The most connections a host gets at once: kept, not modelled.
    open var httpMaximumConnectionsPerHost = 6

    init(identifier: String?) {
        self.identifier = identifier
    }

    /// A fresh default configuration.
    open class var `default`: URLSessionConfiguration { URLSessionConfiguration(identifier: nil) }
    /// A fresh ephemeral configuration (for the simulation, the same as `default`).
    open class var ephemeral: URLSessionConfiguration { URLSessionConfiguration(identifier: nil) }

    /// A configuration whose tasks the system carries on in the background, under `identifier`.
    open class func background(withIdentifier identifier: String) -> URLSessionConfiguration {
        URLSessionConfiguration(identifier: identifier)
    }

    /// The model's configuration of the background session, if this is one.
    var backgroundSession: BackgroundSessionConfiguration? {
        guard let identifier else { return nil }
        var session = BackgroundSessionConfiguration(identifier: identifier)
        session.isDiscretionary = isDiscretionary
        session.allowsCellularAccess = allowsCellularAccess && allowsExpensiveNetworkAccess
        session.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
        session.sessionSendsLaunchEvents = sessionSendsLaunchEvents
        let year: TimeInterval = 365 * 24 * 60 * 60
        let timeout = timeoutIntervalForResource > 0 ? Swift.min(timeoutIntervalForResource, year) : 7 * 24 * 60 * 60
        session.timeoutIntervalForResource = .nanoseconds(Int64((timeout * 1e9).rounded()))
        return session
    }
}
