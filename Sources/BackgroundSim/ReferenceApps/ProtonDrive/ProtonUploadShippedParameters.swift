/// The parameters of ``ProtonUploadShipped`` (Proton Drive's uploads as the App Store build ships
/// them: ProtonDriveApps/ios-drive at `97efc13`, v1.45.0).
package struct ProtonUploadShippedParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// Whether uploads the extension's expiry paused restart when the user returns to the app
    /// in the same process. Default false [C] (interrupted uploads are not restarted on
    /// returning to the foreground); a new process (a cold launch) starts them again [Inf].
    package var restartOnForeground = false

    package func validate(_ v: inout ParameterValidator) {}
}
