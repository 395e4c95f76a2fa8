import BackgroundSim
import SimKernel

/// One of the app's calls into the simulated system: what the simulated frameworks
/// (`BGTaskScheduler`, `UIApplication`, `URLSession`, `UserDefaults`, …) ask of the iOS model
/// on the app's behalf, and which the system side (``ProcessHost``) carries out.
///
/// The app's process holds its own objects (its delegate, its tasks' handlers, its sessions) and
/// the system holds the model's; the two refer to each other's by number. A closure the app
/// hands the system — a task's launch or expiration handler, a timer — stays in the app's
/// process under a ``CallbackID``, and the system delivers ``ProcessDelivery/callback(_:)``
/// (or ``ProcessDelivery/taskLaunched(handler:task:identifier:kind:)``) when it would call it.
enum SystemCall: Equatable {
    // MARK: The task scheduler

    /// `BGTaskScheduler.register`: whether the identifier was registered.
    case registerTask(identifier: String, handler: CallbackID)
    /// `BGTaskScheduler.submit` of a refresh or processing request; its `earliestBeginDate` is
    /// on the device clock. Answers the refusal's code, if refused.
    case submit(TaskRequest)
    /// `BGTaskScheduler.submit` of a continued-processing request. Answers the refusal's code.
    case submitContinued(ContinuedProcessingTaskRequest)
    /// `BGTaskScheduler.cancel(taskRequestWithIdentifier:)`.
    case cancelRequest(identifier: String)
    /// `BGTaskScheduler.cancelAllTaskRequests()`.
    case cancelAllRequests
    /// The pending requests.
    case pendingRequests

    // MARK: Tasks the system launched

    /// The app set (or cleared) a task's expiration handler.
    case setExpirationHandler(task: TaskHandle, handler: CallbackID?)
    /// `setTaskCompleted(success:)`.
    case completeTask(task: TaskHandle, success: Bool)
    /// A continued-processing task's progress, read after the app's code ran (the system takes
    /// it if it changed). Answers whether the task is still running.
    case reportProgress(task: TaskHandle, completed: Int64, total: Int64)
    /// The system cancelled the Swift task running a SwiftUI action for the task.
    case recordActionCancelled(task: TaskHandle)

    // MARK: Background-task assertions, timers, crashes

    /// `beginBackgroundTask(withName:expirationHandler:)`. Answers the identifier.
    case beginBackgroundTask(name: String?, expirationHandler: CallbackID?)
    /// `endBackgroundTask(_:)`.
    case endBackgroundTask(identifier: Int)
    /// A timer that brings the process back for its next sleep. Answers the timer's number.
    case scheduleTimer(afterNanoseconds: Int64, handler: CallbackID)
    /// Cancels a timer by its number.
    case cancelTimer(UInt32)
    /// The app's code crashed for `reason`: the process ends once the current callback returns.
    case crash(CrashReason)

    // MARK: Randomness and storage

    /// 64 bits from the app's seeded stream.
    case randomBits
    /// An integer in the range from the app's seeded stream, by the kernel's portable algorithm.
    case randomInteger(lower: Int, upper: Int)
    /// The value stored under a `UserDefaults` key, if any.
    case storedValue(key: String)
    /// Stores (or, for `nil`, removes) a `UserDefaults` value.
    case store(key: String, value: PersistentStore.Value?)

    // MARK: The app's own requests (`URLSession.shared`, and sessions that are not background ones)

    /// Sends one request's bytes through the phone's network; `onSent` is delivered when they
    /// are sent. Answers whether the request was accepted.
    case startRequest(uploadBytes: Int, downloadBytes: Int, onSent: CallbackID)
    /// Stops the request being sent and gives up its bytes.
    case stopRequest
    /// Gives up the requests an earlier process left in the queue.
    case discardQueuedRequests

    // MARK: Background URL sessions (the system's transfer daemon)

    /// A task identifier for a new task of a background session, unique on the phone.
    case nextSessionTaskIdentifier(session: String)
    /// Hands a background session's task to the daemon. Answers its transfer number, or none
    /// if nothing will be carried.
    case handOffTransfer(BackgroundTransfer, configuration: BackgroundSessionConfiguration, uploadBytes: Int, downloadBytes: Int,
                         notBefore: SimDuration)
    /// Cancels a transfer in the daemon.
    case cancelTransfer(UInt32)
    /// The session's transfers still in the daemon.
    case transfersInFlight(session: String)
    /// Takes the session's transfers that ended and that no process has heard of.
    case takeEndedTransfers(session: String)

    // MARK: Completion handlers the system gave the app

    /// The app called a silent push's completion handler.
    case completePush(CompletionHandle, BackgroundFetchResult)
    /// The app called the completion handler of a background session's events.
    case completeSessionEvents(CompletionHandle)

    // MARK: Signposts

    /// The app emitted a signpost (`mxSignpost`, `os_signpost`, an `OSSignposter`).
    case signpost(AppSignpost)

    // MARK: Launch

    /// The environment and arguments the scenario launches the app with (``LaunchEnvironment``).
    case launchEnvironment
}

extension SystemCall {
    /// Whether the app's side waits for the system's answer. A call that answers nothing and
    /// changes nothing the app reads (``PhoneState``), and during which the system runs none of
    /// the app's code, is sent without waiting: the system carries it out, in order, before the
    /// process's next call or the end of the delivery.
    var awaitsAnswer: Bool {
        switch self {
        case .store, .cancelTimer, .completeTask, .setExpirationHandler, .recordActionCancelled, .signpost: false
        default: true
        }
    }
}

/// The system's answer to a ``SystemCall``.
enum SystemCallResult: Equatable {
    case none
    case bool(Bool)
    case integer(Int)
    case bits(UInt64)
    case refusal(TaskSchedulerError.Code?)
    case requests([TaskRequest])
    case value(PersistentStore.Value?)
    case transfer(UInt32?)
    case transfers([BackgroundTransfer])
    case endedTransfers([EndedTransfer])
    /// The environment as `NAME=value` entries in name order, and the launch arguments.
    case launch(environment: [String], arguments: [String])
}

/// A closure of the app's that the system calls back, by number within its process.
struct CallbackID: Hashable, Sendable {
    let rawValue: UInt32
}

/// A task the system launched, by number within the process it was launched in.
struct TaskHandle: Hashable, Sendable {
    let rawValue: UInt32
}

/// A completion handler the system gave the app (a push's, a session's events'), by number
/// within the process.
struct CompletionHandle: Hashable, Sendable {
    let rawValue: UInt32
}

/// A background session's task as the system's daemon keeps it: the session, the task's
/// identifier, and what the app's side needs to rebuild the task object in a later process
/// (its request, its kind, a download's answer, its description), kept as the app's side
/// encoded them.
struct BackgroundTransfer: Equatable {
    let session: String
    let taskIdentifier: Int
    let details: [UInt8]
}

/// A background transfer that ended, and how.
struct EndedTransfer: Equatable {
    let transfer: BackgroundTransfer
    let outcome: AppTransferOutcome
}
