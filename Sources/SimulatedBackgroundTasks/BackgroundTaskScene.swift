import BackgroundSim

/// SwiftUI's `BackgroundTask`: a kind of background task that a scene's async action handles.
///
/// Of SwiftUI's kinds, `appRefresh(_:)` is simulated; the app still asks for its refreshes with
/// `BGAppRefreshTaskRequest` and `BGTaskScheduler.shared.submit(_:)`, as on iOS.
public struct BackgroundTask<Request: Sendable, Response: Sendable>: Sendable {
    /// The task identifier the action answers.
    let identifier: String
    /// What the action receives when the system launches a task of this kind.
    let request: @Sendable () -> Request
}

extension BackgroundTask where Request == Void, Response == Void {
    /// The refresh tasks of `identifier`.
    public static func appRefresh(_ identifier: String) -> BackgroundTask<Void, Void> {
        BackgroundTask(identifier: identifier, request: {})
    }
}

/// The background-task part of an app's SwiftUI scene: the async actions its
/// `backgroundTask(_:action:)` modifiers attach, which SwiftUI registers as the app launches.
///
/// The rest of a scene — its windows and views — is not simulated, so the app's `App` type
/// does not compile here. Copy its `backgroundTask` modifiers onto a `BackgroundTaskScene`, and
/// give it to ``BackgroundSim/PolicyDefinition/appDelegate(name:summary:taskIdentifiers:server:scene:make:)``:
///
///     // In the app:
///     WindowGroup { ContentView() }
///         .backgroundTask(.appRefresh("com.example.refresh")) { await Refresher.shared.refresh() }
///     // In the simulation:
///     BackgroundTaskScene()
///         .backgroundTask(.appRefresh("com.example.refresh")) { await Refresher.shared.refresh() }
///
/// As on iOS [A] (SwiftUI's `backgroundTask(_:action:)`), the system considers the task complete
/// when the action returns, and cancels the Swift task running the action if the task expires
/// first. The simulation records that cancellation (`taskActionCancelled`), and completes the
/// task when the cancelled action returns, unsuccessfully [Inf]; an action that does not return
/// within the grace that follows an expiration gets the app killed, as any task not completed in
/// time does.
public struct BackgroundTaskScene: Sendable {
    /// One modifier's action, with its request made.
    struct Action: Sendable {
        let identifier: String
        let run: @Sendable () async -> Void
    }

    private(set) var actions: [Action] = []
    /// What its `onChange(of: scenePhase)` modifiers do, in the order attached.
    private(set) var phaseChanges: [SimulationThreadBound<(ScenePhase, ScenePhase) -> Void>] = []

    /// A scene with no background-task actions.
    public init() {}

    /// The scene, with `action` called with the new phase whenever the scene's phase changes
    /// (`.onChange(of: scenePhase) { newPhase in … }`, iOS 14).
    public func onChange(of value: ScenePhase, perform action: @escaping (ScenePhase) -> Void) -> BackgroundTaskScene {
        onChange(of: value) { _, newPhase in action(newPhase) }
    }

    /// The scene, with `action` called with the old and new phase whenever the scene's phase
    /// changes (iOS 17); with `initial`, also once as the scene connects.
    public func onChange(of value: ScenePhase, initial: Bool = false, _ action: @escaping (ScenePhase, ScenePhase) -> Void) -> BackgroundTaskScene {
        var scene = self
        scene.phaseChanges.append(SimulationThreadBound(action))
        return scene
    }

    /// The scene, with `action` called whenever the scene's phase changes (iOS 17).
    public func onChange(of value: ScenePhase, initial: Bool = false, _ action: @escaping () -> Void) -> BackgroundTaskScene {
        onChange(of: value) { _, _ in action() }
    }

    /// Tells the `onChange` actions that the phase moved from `old` to `new`.
    func phaseChanged(from old: ScenePhase, to new: ScenePhase) {
        for change in phaseChanges { change.value(old, new) }
    }

    /// The scene, with `action` run whenever the system launches a task of `task`'s kind.
    public func backgroundTask<Request: Sendable, Response: Sendable>(
        _ task: BackgroundTask<Request, Response>, action: @escaping @Sendable (Request) async -> Response
    ) -> BackgroundTaskScene {
        var scene = self
        scene.actions.append(Action(identifier: task.identifier) { _ = await action(task.request()) })
        return scene
    }

    /// Registers the actions with `process`'s task scheduler, as SwiftUI does as the app
    /// launches (a second registration of an identifier crashes the app, as on iOS).
    func register(in process: SimulatedProcess) {
        for action in actions {
            process.register(taskIdentifier: action.identifier) { task in
                Self.start(action, for: SimulationThreadBound(task), in: process)
            }
        }
    }

    /// Runs `action` in a Swift task of its own, which completes `task` when the action returns
    /// and which the task's expiration cancels.
    private static func start(_ action: Action, for task: SimulationThreadBound<SystemTask>, in process: SimulatedProcess) {
        let work = Task {
            await action.run()
            task.value.setTaskCompleted(success: !Task.isCancelled)
        }
        task.value.setExpirationHandler {
            process.run {
                task.value.recordActionCancelled()
                work.cancel()
            }
        }
    }
}
