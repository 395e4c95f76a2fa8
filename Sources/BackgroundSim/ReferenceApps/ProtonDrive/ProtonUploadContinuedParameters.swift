/// The parameters of ``ProtonUploadContinued``: Proton Drive's photo uploads in an iOS 26
/// continued-processing task, a door the app does not use (ProtonDriveApps/ios-drive at
/// `97efc13`) [Inf].
package struct ProtonUploadContinuedParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The wildcard identifier the app permits and registers; each request's identifier adds a
    /// number to its prefix. Default "ch.protonmail.drive.upload.*" [Inf].
    package var wildcardIdentifier = "ch.protonmail.drive.upload.*"

    /// The request's submission strategy. Default `queue` (Apple's default) [A].
    package var strategy = ContinuedProcessingTaskRequest.SubmissionStrategy.queue

    package func validate(_ v: inout ParameterValidator) {
        v.require(wildcardIdentifier.hasSuffix(".*") && wildcardIdentifier.count > 2, "wildcardIdentifier",
                  "expected an identifier ending in \".*\"")
    }
}
