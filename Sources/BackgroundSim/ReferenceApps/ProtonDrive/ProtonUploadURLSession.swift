/// Proton Drive's photo uploads through a background `URLSession` (``ProtonUploadURLSessionParameters``):
/// the app prepares each photo (its CPU time: encryption) and hands the upload to the system's
/// transfer daemon, which carries it whether the app is suspended or terminated.
///
/// - in the foreground, the app prepares and hands off every queued upload
///   (``WorkController/startHandingOff(to:)``);
/// - leaving the app with uploads not yet handed off begins the extension, which ends when all
///   are handed off; if it expires first, the rest wait for the next return to the app;
/// - when the session's transfers have finished, the system launches the app in the background
///   (`handleEventsForBackgroundURLSession`): it hands off anything still queued (discretionary,
///   being in the background [A]) and calls the completion handler;
/// - an upload's URL expires 3 h after it was created (the workload's deadline), in the daemon
///   as in the app.
package final class ProtonUploadURLSession: BackgroundPolicy {
    package let parameters: ProtonUploadURLSessionParameters
    private let extensionAssertion = ExtensionAssertion()

    package init(parameters: ProtonUploadURLSessionParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        if reason == .user { handOff(app) }
    }

    package func willEnterForeground(_ app: AppContext) {
        extensionAssertion.end(app)
        handOff(app)
    }

    package func didEnterBackground(_ app: AppContext) {
        guard app.work.isRunning, app.work.hasPendingWork else { return }
        extensionAssertion.begin(app, name: "PrepareUploads") { [unowned self] in
            app.work.stop()
            extensionAssertion.end(app)
        }
    }

    package func handleEventsForBackgroundURLSession(_ app: AppContext, identifier: String, completionHandler: @escaping () -> Void) {
        if app.work.hasPendingWork { handOff(app) }
        completionHandler()
    }

    private func handOff(_ app: AppContext) {
        app.work.onQueueEmpty = { [unowned self] in extensionAssertion.end(app) }
        try? app.work.startHandingOff(to: parameters.configuration)
    }
}
