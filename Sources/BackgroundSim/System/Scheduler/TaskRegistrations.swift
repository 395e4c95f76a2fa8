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
        // A wildcard identifier (`com.example.export.*`) registers one handler for every
        // continued-processing identifier it matches [A].
        guard permitted.contains(identifier) else { return .notPermitted }
        guard !handlers.contains(where: { $0.identifier == identifier }) else { return .crash(.duplicateRegistration) }
        handlers.append((identifier, handler))
        return .registered
    }

    /// The handler registered for a task of `kind` with `identifier`, if any: the one registered
    /// under that identifier, or, for continued processing, under a wildcard that matches it.
    func handler(for identifier: String, kind: BackgroundTask.Kind) -> ((BackgroundTask) -> Void)? {
        handlers.first { $0.identifier == identifier }?.handler
            ?? (kind == .continuedProcessing
                ? handlers.first { ContinuedProcessingTaskRequest.matches(identifier, wildcardIn: [$0.identifier]) }?.handler : nil)
    }

    /// A new process, or none: nothing is registered.
    mutating func removeAll() {
        handlers.removeAll()
    }
}
