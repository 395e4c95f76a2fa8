import BackgroundSim
import Foundation

/// An app's own code, written against `BackgroundTasks` and `UIKit`, run as a policy: each
/// process launch starts a fresh process of the app — by default an OS process of its own
/// (``AppProcessIsolation``) — which makes the app's delegate and runs it as iOS would, with the
/// app's async work on the process's simulated executor.
///
///     let sync = PolicyDefinition.appDelegate(name: "my-sync", summary: "Our sync service, unchanged.",
///                                             taskIdentifiers: ["com.example.sync"]) { AppDelegate() }
///
/// This object is the system's side of one launch: it hands the model's callbacks to the
/// process as deliveries (``ProcessDelivery``), and the process's calls reach the model
/// through its ``ProcessHost``.
public final class AppDelegatePolicy: BackgroundPolicy {
    /// What makes the app's code at each launch.
    let recipe: AppRecipe
    private let isolation: AppProcessIsolation
    private var host: ProcessHost?

    /// A policy whose launches make their scene's background-task actions with `makeScene` and
    /// their delegate with `makeDelegate`, whose requests `server` answers, and whose processes
    /// run as `isolation` says.
    public init(server: SimulatedServer = .empty, isolation: AppProcessIsolation = .processPerLaunch,
                makeScene: @escaping () -> BackgroundTaskScene = { BackgroundTaskScene() },
                makeDelegate: @escaping () -> any UIApplicationDelegate) {
        recipe = AppRecipe(makeDelegate: makeDelegate, makeScene: makeScene, server: server)
        self.isolation = isolation
    }

    public func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        let phone = SimulatedPhone.of(app)
        let host = ProcessHost(app: app, phone: phone)
        self.host = host
        phone.launched(host)
        host.link = link(for: host, on: phone)
        host.discardQueuedRequests()
        host.deliver(.launch(reason: reason, clockStartSeconds: WallClock.startSeconds(of: app.calendar)))
    }

    /// Where this launch's code runs.
    private func link(for host: ProcessHost, on phone: SimulatedPhone) -> any ProcessLink {
        #if os(Linux)
        if isolation == .processPerLaunch {
            return ForkedLink(host: host, server: phone.forkServer(recipe: recipe, policy: host.app.scenarioPolicy))
        }
        #endif
        return InProcessLink(host: host, recipe: recipe)
    }

    public func didEnterBackground(_ app: AppContext) {
        host?.deliver(.didEnterBackground)
    }

    public func willEnterForeground(_ app: AppContext) {
        host?.deliver(.willEnterForeground)
    }

    public func handleEventsForBackgroundURLSession(_ app: AppContext, identifier: String, completionHandler: @escaping () -> Void) {
        guard let host else { return }
        host.deliver(.handleSessionEvents(session: identifier, completion: host.keep(sessionCompletion: completionHandler)))
    }

    public func willTerminate(_ app: AppContext) {
        host?.deliver(.willTerminate)
    }

    /// Hands a silent push to the delegate's
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`. A handler that
    /// never calls back leaves the system to end the process when the push's time is up.
    public func didReceiveRemoteNotification(_ app: AppContext, fetchCompletionHandler: @escaping (BackgroundFetchResult) -> Void) {
        guard let host else { return }
        host.deliver(.remoteNotification(completion: host.keep(pushCompletion: fetchCompletionHandler)))
    }
}

extension AppDelegatePolicy {
    /// Asks a tool that runs these policies to start the ``ProcessBroker`` as it starts.
    static func startBrokerWithTool() {
        #if os(Linux)
        ToolStart.add(key: "SimulatedBackgroundTasks.ProcessBroker") { ProcessBroker.start(policies: $0) }
        #endif
    }
}

/// Where a simulated launch of the app's own code runs.
public enum AppProcessIsolation: Sendable, Equatable {
    /// Each launch in an OS process of its own, forked from a copy of the simulation made before
    /// any of the app's code ran, as a process starts on iOS: every global, static and singleton
    /// of the app's code starts fresh at each launch, simulations running at once share none,
    /// and a trap in the app's code is a crash of that process, recorded, while the run goes on.
    /// The default. Linux only: elsewhere it runs as ``sharedProcess``
    /// (docs/RUN-YOUR-OWN-CODE.md, "One process or one per launch").
    case processPerLaunch
    /// Every launch in the OS process that runs the simulation, as function calls: faster, and
    /// right only for code that keeps nothing in globals or statics (what they hold survives a
    /// simulated process's death and is shared by simulations on other threads), and whose
    /// traps may end the whole run.
    case sharedProcess
}

extension PolicyDefinition {
    /// A policy of the app's own code: its app delegate, made afresh at each process launch, and
    /// its SwiftUI scene's background-task actions, if it has any (``BackgroundTaskScene``);
    /// `server` answers its requests, and each launch runs as `isolation` says.
    public static func appDelegate(name: String, summary: String, taskIdentifiers: [String], server: SimulatedServer = .empty,
                                   isolation: AppProcessIsolation = .processPerLaunch,
                                   scene: @escaping @Sendable () -> BackgroundTaskScene = { BackgroundTaskScene() },
                                   make: @escaping @Sendable () -> any UIApplicationDelegate) -> PolicyDefinition {
        AppDelegatePolicy.startBrokerWithTool()
        return PolicyDefinition(name: name, summary: summary, taskIdentifiers: taskIdentifiers) {
            AppDelegatePolicy(server: server, isolation: isolation, makeScene: scene, makeDelegate: make)
        }
    }

    /// A policy of the app's own code whose delegate is made from the policy's `parameters`,
    /// which a scenario sets in `app.policy.parameters` (and a sweep or a tune varies): a
    /// switch the app's code reads, as an app reads a launch argument in a UI test.
    public static func appDelegate<Parameters: PolicyParameters>(
        name: String, summary: String, parameters: Parameters.Type, taskIdentifiers: [String], server: SimulatedServer = .empty,
        isolation: AppProcessIsolation = .processPerLaunch,
        scene: @escaping @Sendable () -> BackgroundTaskScene = { BackgroundTaskScene() },
        make: @escaping @Sendable (Parameters) -> any UIApplicationDelegate
    ) -> PolicyDefinition {
        AppDelegatePolicy.startBrokerWithTool()
        return PolicyDefinition(name: name, summary: summary, parameters: parameters, taskIdentifiers: taskIdentifiers) { parameters in
            AppDelegatePolicy(server: server, isolation: isolation, makeScene: scene) { make(parameters) }
        }
    }

    /// A policy of a SwiftUI app's own code with no app delegate: its scene's background-task
    /// actions, registered afresh at each process launch; `server` answers its requests.
    public static func app(name: String, summary: String, taskIdentifiers: [String], server: SimulatedServer = .empty,
                           isolation: AppProcessIsolation = .processPerLaunch,
                           scene: @escaping @Sendable () -> BackgroundTaskScene) -> PolicyDefinition {
        appDelegate(name: name, summary: summary, taskIdentifiers: taskIdentifiers, server: server, isolation: isolation,
                    scene: scene) {
            SceneOnlyAppDelegate()
        }
    }
}

/// The app delegate of a SwiftUI app that declares none: it does nothing.
private final class SceneOnlyAppDelegate: UIApplicationDelegate {}
