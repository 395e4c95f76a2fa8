import BackgroundSim

/// What the system delivers to the app's process: each runs some of the app's code, as iOS
/// calls into an app — a launch, a lifecycle move, a task's handler, a callback the app
/// registered — and then the async work that code started, until none is ready.
enum ProcessDelivery: Equatable {
    /// The process launched: `didFinishLaunchingWithOptions`, and `didBecomeActive` for a
    /// launch into the foreground. `clockStartSeconds` is the device clock's start as seconds
    /// since 1970 (its local time read as GMT), for the app's `Date`s.
    case launch(reason: LaunchReason, clockStartSeconds: Int64)
    /// `willResignActive`, then `didEnterBackground`.
    case didEnterBackground
    /// `willEnterForeground`, then `didBecomeActive`.
    case willEnterForeground
    /// `applicationWillTerminate`.
    case willTerminate
    /// `handleEventsForBackgroundURLSession` for `session`, with a completion handler.
    case handleSessionEvents(session: String, completion: CompletionHandle)
    /// `didReceiveRemoteNotification` for a silent push, with a completion handler.
    case remoteNotification(completion: CompletionHandle)
    /// The system launched a task; `handler` is the launch handler registered for it.
    case taskLaunched(handler: CallbackID, task: TaskHandle, identifier: String, kind: BackgroundSim.BackgroundTask.Kind)
    /// The system calls a closure the app gave it (an expiration handler, a timer, a request
    /// sent).
    case callback(CallbackID)
    /// Nothing of the app's own: the process runs so that what is due reaches it (the news of
    /// background transfers that ended while it runs).
    case run
}
