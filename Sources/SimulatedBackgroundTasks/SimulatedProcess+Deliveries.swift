import BackgroundSim
import Foundation

// What the app's process does with each delivery: it calls the app's delegate and posts
// UIKit's notifications as iOS does, or runs the closure the app handed the system.
extension SimulatedProcess {
    /// Runs the app's code for `delivery`, and the async work it starts.
    func handle(_ delivery: ProcessDelivery) {
        switch delivery {
        case .launch(let reason, let clockStartSeconds):
            launch(reason: reason, clockStartSeconds: clockStartSeconds)
        case .didEnterBackground:
            relay((UIApplication.willResignActiveNotification, { $0.applicationWillResignActive(.shared) }, .inactive),
                  (UIApplication.didEnterBackgroundNotification, { $0.applicationDidEnterBackground(.shared) }, .background))
        case .willEnterForeground:
            holdsSessionEvents = false
            relay((UIApplication.willEnterForegroundNotification, { $0.applicationWillEnterForeground(.shared) }, .inactive),
                  (UIApplication.didBecomeActiveNotification, { $0.applicationDidBecomeActive(.shared) }, .active))
        case .willTerminate:
            relay((UIApplication.willTerminateNotification, { $0.applicationWillTerminate(.shared) }, nil))
        case .handleSessionEvents(let identifier, let completion):
            handleSessionEvents(identifier: identifier, completion: completion)
        case .remoteNotification(let completion):
            receiveRemoteNotification(completion: completion)
        case .taskLaunched(let handler, let task, let identifier, let kind):
            callbacks.taskLaunch(handler)?(SystemTask(handle: task, identifier: identifier, kind: kind, process: self))
        case .callback(let id):
            callbacks.take(id)?()
        case .run:
            run {}
        }
    }

    /// `didFinishLaunchingWithOptions`, after the scene's actions are registered, and for a
    /// launch by the user, `didBecomeActive`, as UIKit does.
    private func launch(reason: LaunchReason, clockStartSeconds: Int64) {
        launched(clockStartSeconds: clockStartSeconds)
        // Launched for a session's events: the news of its tasks waits for
        // `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
        holdsSessionEvents = reason == .backgroundURLSession
        run {
            // The scene's actions are registered first [Inf]: SwiftUI builds the scene as the
            // app launches, and the order is not documented.
            let scene = recipe.makeScene()
            self.scene = scene
            scene.register(in: self)
            let delegate = recipe.makeDelegate()
            self.delegate = delegate
            _ = delegate.application(.shared, didFinishLaunchingWithOptions: nil)
            notifications.post(name: UIApplication.didFinishLaunchingNotification, object: UIApplication.shared)
            // A launch by the user goes on to the foreground, as UIKit does, and connects the scene.
            if state.isActive {
                delegate.applicationDidBecomeActive(.shared)
                notifications.post(name: UIApplication.didBecomeActiveNotification, object: UIApplication.shared)
                movePhase(to: .inactive)
                movePhase(to: .active)
            }
        }
    }

    /// Hands a background session's events to the delegate's
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`; the session it
    /// makes (or made) with the identifier then hears of its tasks, and then
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`.
    private func handleSessionEvents(identifier: String, completion: CompletionHandle) {
        run {
            holdsSessionEvents = false
            if !sessionsAwaitingFinish.contains(identifier) { sessionsAwaitingFinish.append(identifier) }
            let process = SimulationThreadBound(self)
            delegate?.application(.shared, handleEventsForBackgroundURLSession: identifier) {
                process.value.call(.completeSessionEvents(completion))
            }
        }
    }

    /// Hands a silent push to the delegate's
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`. A handler that
    /// never calls back leaves the system to end the process when the push's time is up.
    private func receiveRemoteNotification(completion: CompletionHandle) {
        run {
            let process = SimulationThreadBound(self)
            delegate?.application(.shared, didReceiveRemoteNotification: Self.silentPushPayload) { result in
                process.value.call(.completePush(completion, result.model))
            }
        }
    }

    /// For each step in order, calls the delegate, then posts the step's notification, as UIKit
    /// does, then moves the scene to the step's phase — all in one run of the process's code, so
    /// the async work they start runs after.
    private func relay(_ steps: (notification: Notification.Name, call: (any UIApplicationDelegate) -> Void, phase: ScenePhase?)...) {
        run {
            for step in steps {
                if let delegate { step.call(delegate) }
                notifications.post(name: step.notification, object: UIApplication.shared)
                if let phase = step.phase { movePhase(to: phase) }
            }
        }
    }

    /// Moves the scene to `phase`, telling its `onChange` actions. (A process launched in the
    /// background stays `.background` until the user brings it to the foreground.)
    private func movePhase(to phase: ScenePhase) {
        guard phase != scenePhase else { return }
        let old = scenePhase
        scenePhase = phase
        scene?.phaseChanged(from: old, to: phase)
    }

    /// What the app's handler receives as a silent push's payload: the `aps` dictionary with
    /// `content-available` 1, and nothing of the app's own (the scenario's pushes carry none).
    static var silentPushPayload: [AnyHashable: Any] { ["aps": ["content-available": 1]] }
}
