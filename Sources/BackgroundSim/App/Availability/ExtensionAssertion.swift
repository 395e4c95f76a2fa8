/// One background-task assertion a policy holds while it leaves the app with work (the ~30 s
/// extension): begun at most once, ended at most once.
package final class ExtensionAssertion {
    private var identifier = BackgroundTaskIdentifier.invalid

    package init() {}

    /// Whether the assertion is held.
    package var isHeld: Bool { identifier != .invalid }

    /// Begins the assertion unless it is held; `expiration` runs shortly before its time ends.
    package func begin(_ app: AppContext, name: String, expiration: @escaping () -> Void) {
        guard !isHeld else { return }
        identifier = app.beginBackgroundTask(withName: name, expirationHandler: expiration)
    }

    /// Ends the assertion if it is held.
    package func end(_ app: AppContext) {
        guard isHeld else { return }
        let held = identifier
        identifier = .invalid
        app.endBackgroundTask(held)
    }
}
