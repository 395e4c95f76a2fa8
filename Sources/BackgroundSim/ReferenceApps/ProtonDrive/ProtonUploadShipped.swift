/// Proton Drive's photo uploads as the App Store build ships them (ProtonDriveApps/ios-drive at
/// `97efc13`, v1.45.0; the 15 public releases checked): the processing fallback of its design
/// (``ProtonUploadDesigned``) is compiled only under `SUPPORTS_BACKGROUND_UPLOADS`, which
/// the store configuration (`SharedBuildConfigs/Config-Release-Store.xcconfig`) sets to NO, so the
/// extension is all there is:
///
/// - uploads run in the foreground;
/// - leaving the app with uploads in progress begins the extension (`beginBackgroundTask`, only
///   while uploads run); the queue emptying ends it;
/// - the extension expiring pauses the uploads (interrupted) and ends it; nothing is scheduled;
/// - returning to the foreground restarts the interrupted uploads, and so does a new process:
///   the interruption is stored on disk (``ProtonUploadShippedParameters/restartOnForeground``).
package final class ProtonUploadShipped: BackgroundPolicy {
    package let parameters: ProtonUploadShippedParameters
    /// The extension's expiry paused the uploads in this process.
    private var interrupted = false
    private let extensionAssertion = ExtensionAssertion()

    package init(parameters: ProtonUploadShippedParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.work.onQueueEmpty = { [unowned self] in extensionAssertion.end(app) }
        if reason == .user { app.work.start() }
    }

    package func didEnterBackground(_ app: AppContext) {
        guard app.work.isRunning, app.work.hasPendingWork else {
            app.work.stop()
            return
        }
        extensionAssertion.begin(app, name: "ExtensionBackgroundOperation") { [unowned self] in
            app.work.stop()
            interrupted = true
            extensionAssertion.end(app)
        }
    }

    package func willEnterForeground(_ app: AppContext) {
        extensionAssertion.end(app)
        if !interrupted || parameters.restartOnForeground {
            interrupted = false
            app.work.onQueueEmpty = { [unowned self] in extensionAssertion.end(app) }
            app.work.start()
        }
    }
}
