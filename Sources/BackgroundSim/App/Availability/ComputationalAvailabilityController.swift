/// One module's computational availability: derived from the app's state, the shared extension
/// and the module's own processing task, with a callback on every change.
///
///     let availability = ComputationalAvailabilityController(
///         extension: sharedExtension, processing: uploads, app: app, hasWork: { !queue.isEmpty })
///     availability.onChange = { old, new in
///         if new.allowsWork { queue.start() } else { queue.stop() }
///         if old == .extensionTask, new == .suspended, !queue.isEmpty { uploads.schedule(after: .minutes(1)) }
///     }
///
/// The state is, in order of precedence: `foreground` while the app is active; `processingTask`
/// while the module's processing task runs; `extensionTask` while the shared extension runs;
/// otherwise `suspended`.
package final class ComputationalAvailabilityController {
    private let app: AppContext
    /// The app-wide extension controller, which keeps its modules: a weak back reference, or
    /// the two would keep each other (and every earlier process's policy) alive.
    package private(set) weak var extensionController: ExtensionBackgroundOperationController?
    package let processing: BackgroundTaskStateController
    private let workProvider: () -> Bool

    /// The current state.
    package private(set) var state: ComputationalAvailability

    /// Called with the old and the new state whenever the state changes.
    package var onChange: ((ComputationalAvailability, ComputationalAvailability) -> Void)?

    /// Creates a module's controller and attaches it to the shared extension.
    ///
    /// - Parameter hasWork: Whether the module has work left; it decides whether the extension
    ///   is begun and when the processing task is complete.
    package init(extension extensionController: ExtensionBackgroundOperationController, processing: BackgroundTaskStateController,
                app: AppContext, hasWork: @escaping () -> Bool) {
        self.app = app
        self.extensionController = extensionController
        self.processing = processing
        workProvider = hasWork
        state = app.applicationState == .active ? .foreground : .suspended
        extensionController.attach(self)
        processing.module = self
    }

    /// Whether the module has work left.
    package var hasWork: Bool { workProvider() }

    /// The module's work changed (an item finished, a new one arrived): with nothing left, the
    /// processing task is completed successfully and the extension may end.
    package func workDidChange() {
        if !hasWork && processing.isRunning {
            processing.complete(success: true)
        }
        extensionController?.workDidChange()
        reevaluate()
    }

    /// Recomputes the state and reports a change.
    func reevaluate() {
        let new: ComputationalAvailability = if app.applicationState == .active {
            .foreground
        } else if processing.isRunning {
            .processingTask
        } else if extensionController?.isActive == true {
            .extensionTask
        } else {
            .suspended
        }
        guard new != state else { return }
        let old = state
        state = new
        onChange?(old, new)
    }
}
