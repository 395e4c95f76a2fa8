/// The parameters of ``ProtonUploadDesigned`` (Proton Drive's photo uploads); defaults
/// from the "Background Operations" design document in the app's public repository
/// (ProtonDriveApps/ios-drive).
package struct ProtonUploadDesignedParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The processing task's identifier. Default "ch.protonmail.protondrive.photosProcessing".
    package var identifier = "ch.protonmail.protondrive.photosProcessing"

    /// Earliest begin of the processing task after the extension expires, and after each processing
    /// expiry, in minutes; the default is the design's: "The earliest processing task delay is set
    /// to 1 minute".
    package var reschedulingDelayMinutes: Double = 1

    /// The processing request's `requiresNetworkConnectivity`. Default true [C] (the design
    /// documents do not say; the request the app's flag builds submit does:
    /// ProtonDriveApps/ios-drive at `97efc13`).
    package var requiresNetworkConnectivity = true

    /// Whether uploads restart when the user returns to the app while work is left. Default false
    /// (the design: "We don't try to restart when app transitions to foreground", an open
    /// question there).
    package var restartOnForeground = false

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
    }
}

extension ProtonUploadDesignedParameters {
    package static let numberFields: [NumberField<ProtonUploadDesignedParameters>] = [
        NumberField("reschedulingDelayMinutes", \.reschedulingDelayMinutes, valid: 0...1_440),
    ]
}
