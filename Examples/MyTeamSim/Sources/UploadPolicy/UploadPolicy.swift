import BackgroundSim
import SimKernel

/// The team's upload policy: what the user adds while using the app is uploaded in the
/// foreground; what is left when they leave goes in a processing task that needs the network,
/// a few minutes later, rescheduled until nothing is left.
public final class UploadPolicy: BackgroundPolicy {
    public static let identifier = "com.example.upload"
    let parameters: UploadParameters

    public init(parameters: UploadParameters) {
        self.parameters = parameters
    }

    public func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        app.taskScheduler.register(forTaskWithIdentifier: Self.identifier) { task in
            // Complete each task once: the queue can empty again if the user adds photos
            // while the task still runs (the checker found this).
            var finished = false
            task.expirationHandler = {
                guard !finished else { return }
                finished = true
                app.work.stop()
                self.schedule(app)          // try again later
                task.setTaskCompleted(success: false)
            }
            app.work.onQueueEmpty = {
                guard !finished else { return }
                finished = true
                task.setTaskCompleted(success: true)
            }
            app.work.start()
        }
        // A tap on the icon launches the app straight into the foreground, and iOS calls
        // willEnterForeground only when a running app comes back: start here too, or what the
        // user adds after a cold launch waits for the background (`WorkStartsInTheForeground`
        // found this).
        if reason == .user { app.work.start() }
    }

    public func willEnterForeground(_ app: AppContext) {
        app.work.start()
    }

    public func didEnterBackground(_ app: AppContext) {
        if app.work.hasPendingWork { schedule(app) }
    }

    func schedule(_ app: AppContext) {
        var request = TaskRequest.processing(identifier: Self.identifier)
        request.requiresNetworkConnectivity = true
        request.requiresExternalPower = parameters.requiresPower
        request.earliestBeginDate = app.date + .minutes(parameters.delayMinutes)
        try? app.taskScheduler.submit(request)
    }
}

/// What a scenario file may set in `app.policy.parameters` for `"my-upload"`.
public struct UploadParameters: PolicyParameters {
    public init() {}

    /// Minutes after leaving the app before the processing task may run.
    public var delayMinutes: Double = 5
    /// Whether the task waits for the charger. Default false.
    public var requiresPower = false

    /// Each number's valid range, said once: the scenario loader checks it.
    public static let numberFields = [NumberField<Self>("delayMinutes", \.delayMinutes, valid: 0...1_440)]
}

extension PolicyDefinition {
    /// The policy as scenario files and command lines name it.
    public static let myUpload = PolicyDefinition(
        name: "my-upload", summary: "The team's uploads: foreground, then a processing task 5 min after leaving.",
        parameters: UploadParameters.self, taskIdentifiers: [UploadPolicy.identifier]
    ) { UploadPolicy(parameters: $0) }
}

extension Presets.Preset {
    /// Proton Drive's user and photo workload, with the team's policy instead of Proton's.
    public static var myUpload: Presets.Preset {
        var scenario = Presets.scenario(named: "proton-upload-designed")!
        scenario.name = "my-upload-photos"
        scenario.app.policy = PolicyConfiguration(.myUpload)
        scenario.app.permittedIdentifiers = [UploadPolicy.identifier]
        return Presets.Preset(name: "my-upload-photos", summary: "Proton Drive's photo workload, uploaded by the team's policy.",
                              scenario: scenario)
    }
}
