/// The parameters of ``ProtonUploadURLSession``: Proton Drive's photo uploads through a background
/// `URLSession`, a door the app does not use (ProtonDriveApps/ios-drive at `97efc13` uploads in
/// its own process) and that its design names only as an alternative [Inf].
package struct ProtonUploadURLSessionParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The background session's identifier. Default "ch.protonmail.drive.uploads" [Inf].
    package var sessionIdentifier = "ch.protonmail.drive.uploads"

    /// The session's `isDiscretionary`. Default false: the user is waiting for the photos [Inf].
    package var isDiscretionary = false

    /// The session's `allowsCellularAccess`. Default true (Proton Drive uploads on cellular
    /// unless the user turns it off) [Inf].
    package var allowsCellularAccess = true

    /// The session configuration these parameters describe.
    package var configuration: BackgroundSessionConfiguration {
        var configuration = BackgroundSessionConfiguration.background(withIdentifier: sessionIdentifier)
        configuration.isDiscretionary = isDiscretionary
        configuration.allowsCellularAccess = allowsCellularAccess
        return configuration
    }

    package func validate(_ v: inout ParameterValidator) {
        v.require(!sessionIdentifier.isEmpty && sessionIdentifier.count <= 128, "sessionIdentifier", "expected 1–128 characters")
    }
}
