// An export the user starts, written as an iOS 26 app writes one: a continued-processing
// request submitted on the user's action, with a title and subtitle; a handler registered at
// launch for the identifiers' wildcard, which runs the export in a `Task`, reports each step in
// the task's `progress`, and completes the task; an expiration handler that cancels the export.
// Only the imports differ from the app's file.
#if os(iOS)
import BackgroundTasks
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

final class ExportService: @unchecked Sendable {
    static let wildcard = "com.example.export.*"
    /// The export's steps, and the seconds each takes.
    let steps: Int64
    let stepSeconds: Int
    /// Whether the export reports each step, or only the last.
    let reportsEachStep: Bool
    let requiredResources: BGContinuedProcessingTaskRequest.Resources
    let journal: @Sendable (String) -> Void
    private var exports = 0

    init(steps: Int64, stepSeconds: Int, reportsEachStep: Bool, requiredResources: BGContinuedProcessingTaskRequest.Resources = .default,
         journal: @escaping @Sendable (String) -> Void) {
        self.steps = steps
        self.stepSeconds = stepSeconds
        self.reportsEachStep = reportsEachStep
        self.requiredResources = requiredResources
        self.journal = journal
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.wildcard, using: nil) { task in
            guard let task = task as? BGContinuedProcessingTask else { return }
            self.run(task)
        }
    }

    /// The user tapped "Export".
    func startExport() {
        exports += 1
        let request = BGContinuedProcessingTaskRequest(identifier: "com.example.export.\(exports)",
                                                       title: "Exporting", subtitle: "Export \(exports)")
        request.requiredResources = requiredResources
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch let error as BGTaskScheduler.Error {
            journal("submit failed: \(error.code)")
        } catch {
            journal("submit failed: \(error)")
        }
    }

    private func run(_ task: BGContinuedProcessingTask) {
        task.progress.totalUnitCount = steps
        let export = Task {
            do {
                for step in 1...steps {
                    try await Task.sleep(for: .seconds(stepSeconds))
                    if reportsEachStep || step == steps { task.progress.completedUnitCount = step }
                    task.updateTitle("Exporting", subtitle: "\(step) of \(steps)")
                }
                return true
            } catch {
                return false
            }
        }
        task.expirationHandler = { export.cancel() }
        Task {
            let success = await export.value
            journal(success ? "exported" : "export stopped")
            task.setTaskCompleted(success: success)
        }
    }
}

final class ExportAppDelegate: UIApplicationDelegate {
    let service: ExportService

    init(service: ExportService) {
        self.service = service
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        service.register()
        if application.applicationState == .active { service.startExport() }
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        service.startExport()
    }
}
