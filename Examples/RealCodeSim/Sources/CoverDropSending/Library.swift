#if os(iOS)
import Foundation
import Network
#else
import SimulatedBackgroundTasks
#endif

/// What a job needs, ready once the library has started.
public struct Library: Sendable {
    let sendingQueue: SendingQueue
    let api: MessageAPI
    let clock: DateFunction
}

/// The app's service: starts the library in every new process, then runs the fallback job
/// (`onAppForeground`); the task handler waits for the same library. Made by the app delegate
/// at launch, so that each process has its own.
public final class CoverDropService: @unchecked Sendable {
    /// How long the library takes to start with a network: its status and key look-ups and the
    /// dead-drop download, stood in for here by their duration; from its caches, without a
    /// network, at once.
    static let libraryStartSeconds = 3

    let scheduler: any TaskScheduler
    let clock: DateFunction
    let sendingQueue: SendingQueue
    private let pathMonitor = NWPathMonitor()

    private enum State { case notStarted, starting, ready(Library) }
    private var state = State.notStarted
    /// Those waiting for the library to start, in order.
    private var waiting: [CheckedContinuation<Library?, Never>] = []

    public init(scheduler: any TaskScheduler = BGTaskScheduler.shared, clock: DateFunction = .live,
                sendingQueue: SendingQueue = SendingQueue()) {
        self.scheduler = scheduler
        self.clock = clock
        self.sendingQueue = sendingQueue
        pathMonitor.start(queue: DispatchQueue(label: "coverdrop.path"))
    }

    /// Starts the library, then runs `onAppForeground`.
    public func start() {
        guard case .notStarted = state else { return }
        state = .starting
        Task {
            let library = await ensureInitialized()
            await onAppForeground(library)
        }
    }

    /// The app returns to the foreground: with the library ready, run the fallback.
    public func willEnterForeground() {
        guard case .ready(let library) = state else { return }
        Task { await onAppForeground(library) }
    }

    /// The app leaves: ask for a run soon and mark work as pending.
    public func didEnterBackground() {
        BackgroundTaskService.scheduleBackgroundSendJob(scheduler: scheduler)
        UserDefaults.standard.set(true, forKey: BackgroundMessageSendJob.pendingKey)
    }

    /// The library, once started.
    func library() async -> Library? {
        if case .ready(let library) = state { return library }
        return await withCheckedContinuation { waiting.append($0) }
    }

    private func ensureInitialized() async -> Library {
        if pathMonitor.currentPath.status == .satisfied {
            try? await Task.sleep(for: .seconds(Self.libraryStartSeconds))
        }
        let library = Library(sendingQueue: sendingQueue, api: MessageAPI(), clock: clock)
        state = .ready(library)
        let resumed = waiting
        waiting.removeAll()
        for continuation in resumed { continuation.resume(returning: library) }
        return library
    }

    /// The fallback for runs the system never gave: run the job if work is pending, then ask
    /// for a run 10 minutes further out than usual and mark work as pending.
    private func onAppForeground(_ library: Library) async {
        if UserDefaults.standard.bool(forKey: BackgroundMessageSendJob.pendingKey) {
            _ = await BackgroundMessageSendJob.run(library: library)
        }
        BackgroundTaskService.scheduleBackgroundSendJob(extraDelaySeconds: BackgroundTaskService.extraDelaySeconds,
                                                        scheduler: scheduler)
        UserDefaults.standard.set(true, forKey: BackgroundMessageSendJob.pendingKey)
    }
}
