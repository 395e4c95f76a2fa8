/// The launch handlers registered in the current process (`register(forTaskWithIdentifier:
/// using:launchHandler:)`), with the scheduler's rules: registration only while the app is
/// finishing launching, and once per identifier — either mistake crashes the app [A] — and only
/// for permitted identifiers.
struct TaskRegistrations {
    /// What a registration did.
    enum Outcome: Equatable {
        case registered
        /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`: `register` returns false.
        case notPermitted
        /// The app crashes.
        case crash(CrashReason)
    }

    private var handlers: [(identifier: String, handler: (BackgroundTask) -> Void)] = []
    /// Registration is allowed only while this is set (during `didFinishLaunching`).
    var isFinishingLaunch = false

    mutating func register(_ identifier: String, permitted: [String], handler: @escaping (BackgroundTask) -> Void) -> Outcome {
        // "All launch handlers must be registered before application finishes launching."
        guard isFinishingLaunch else { return .crash(.registrationAfterLaunch) }
        guard permitted.contains(identifier) else { return .notPermitted }
        guard !handlers.contains(where: { $0.identifier == identifier }) else { return .crash(.duplicateRegistration) }
        handlers.append((identifier, handler))
        return .registered
    }

    /// The handler registered for `identifier`, if any.
    func handler(for identifier: String) -> ((BackgroundTask) -> Void)? {
        handlers.first { $0.identifier == identifier }?.handler
    }

    /// A new process, or none: nothing is registered.
    mutating func removeAll() {
        handlers.removeAll()
    }
}
