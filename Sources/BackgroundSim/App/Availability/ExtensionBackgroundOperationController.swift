/// The app-wide extension: one background-task assertion shared by every module, begun when the
/// app leaves the foreground only if some module has work, and ended when the app returns, when
/// no module has work left, or when the system is about to expire it.
///
/// Create one per process, in `didFinishLaunching`, and forward the lifecycle callbacks.
package final class ExtensionBackgroundOperationController {
    private let app: AppContext
    private var assertion: BackgroundTaskIdentifier?
    private var modules: [ComputationalAvailabilityController] = []

    /// Whether the extension is running.
    package var isActive: Bool { assertion != nil }

    package init(app: AppContext) {
        self.app = app
    }

    /// Adds a module whose work counts and which hears of changes.
    func attach(_ module: ComputationalAvailabilityController) {
        modules.append(module)
    }

    /// Forward `didEnterBackground`: begins the extension if any module has work.
    package func appDidEnterBackground() {
        if modules.contains(where: \.hasWork) {
            assertion = app.beginBackgroundTask(withName: "ExtensionBackgroundOperation") { [weak self] in
                self?.expire()
            }
        }
        notifyModules()
    }

    /// Forward `willEnterForeground`: the extension is no longer needed.
    package func appWillEnterForeground() {
        end()
        notifyModules()
    }

    /// A module finished its work: ends the extension when no module has work left.
    package func workDidChange() {
        if isActive && !modules.contains(where: \.hasWork) {
            end()
        }
        notifyModules()
    }

    /// The system is about to expire the extension: modules see `suspended` and stop their work
    /// (and may schedule a processing task), then the assertion ends.
    private func expire() {
        guard let identifier = assertion else { return }
        assertion = nil
        notifyModules()
        app.endBackgroundTask(identifier)
    }

    private func end() {
        guard let assertion else { return }
        self.assertion = nil
        app.endBackgroundTask(assertion)
    }

    private func notifyModules() {
        for module in modules { module.reevaluate() }
    }
}
