/// The parameters of ``ProtonUploadURLSession``: Proton Drive's photo uploads through a background
/// `URLSession`, a door the app does not use (ProtonDriveApps/ios-drive at `97efc13` uploads in
/// its own process) and that its design names only as an alternative [Inf].
public struct ProtonUploadURLSessionParameters: PolicyParameters {
    /// The defaults.
    public init() {}

    /// The background session's identifier. Default "ch.protonmail.drive.uploads" [Inf].
    public var sessionIdentifier = "ch.protonmail.drive.uploads"

    /// The session's `isDiscretionary`. Default false: the user is waiting for the photos [Inf].
    public var isDiscretionary = false

    /// The session's `allowsCellularAccess`. Default true (Proton Drive uploads on cellular
    /// unless the user turns it off) [Inf].
    public var allowsCellularAccess = true

    /// The session configuration these parameters describe.
    public var configuration: BackgroundSessionConfiguration {
        var configuration = BackgroundSessionConfiguration.background(withIdentifier: sessionIdentifier)
        configuration.isDiscretionary = isDiscretionary
        configuration.allowsCellularAccess = allowsCellularAccess
        return configuration
    }

    public func validate(_ v: inout ParameterValidator) {
        v.require(!sessionIdentifier.isEmpty && sessionIdentifier.count <= 128, "sessionIdentifier", "expected 1–128 characters")
    }
}
