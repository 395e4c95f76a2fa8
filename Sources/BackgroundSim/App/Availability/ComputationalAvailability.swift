/// When an app module may do work, after Proton Drive's "Computational availability" design
/// (ProtonDriveApps/ios-drive,
/// `ProtonDrive-iOS/ProtonDrive/ApplicationState/ComputationalAvailability/ComputationalAvailability.md`).
///
/// - `foreground`: the app is in use; work runs normally.
/// - `suspended`: backgrounded with nothing keeping it running; no work.
/// - `extensionTask`: the ~30 s after leaving the foreground, held by a background-task
///   assertion that is begun only when there is work; work continues, mindful of the coming
///   suspension.
/// - `processingTask`: a `BGProcessingTask` woke the app; it ends when the task expires, when all
///   work is done, or when the user brings the app to the foreground (work then continues).
package enum ComputationalAvailability: String, Sendable, Equatable, CaseIterable {
    case foreground
    case suspended
    case extensionTask
    case processingTask

    /// Whether work may run in this state.
    package var allowsWork: Bool { self != .suspended }
}
