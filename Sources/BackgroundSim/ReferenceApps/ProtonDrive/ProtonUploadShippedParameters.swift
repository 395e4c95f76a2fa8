/// The parameters of ``ProtonUploadShipped`` (Proton Drive's uploads as the App Store build ships
/// them: ProtonDriveApps/ios-drive at `97efc13`, v1.45.0).
package struct ProtonUploadShippedParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// Whether uploads the extension's expiry paused restart when the user returns to the app.
    /// Default true [C]: every return to the foreground restarts the uploads marked interrupted
    /// (ProtonDriveApps/ios-drive at `97efc13`: `ForegroundTransitionController.swift` runs
    /// `InterruptedUploadsInteractor.swift` on each foreground; `FileUploaderOperation.interrupt()`
    /// stores the mark on disk, so a new process restarts them too; since 1.10.0, `9c7483d`).
    /// False keeps them paused until the next cold launch (a what-if).
    package var restartOnForeground = true

    package func validate(_ v: inout ParameterValidator) {}
}
