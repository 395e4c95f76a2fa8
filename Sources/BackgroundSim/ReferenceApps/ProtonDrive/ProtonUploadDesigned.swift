import SimKernel

/// Proton Drive's upload policy as its design documents describe it (the App Store build ships
/// without the processing fallback: ``ProtonUploadShipped``) (ProtonDriveApps/ios-drive,
/// `ProtonDrive-iOS/ProtonDrive/BackgroundModes/MyFilesBackgroundOperations/BackgroundOperations.md` at `97efc13` and
/// `…/ApplicationState/ComputationalAvailability/ComputationalAvailability.md`), built on ``ComputationalAvailabilityController``:
///
/// - uploads run in the foreground;
/// - leaving the app with uploads in progress begins the extension (never without work);
/// - the extension expiring with work left → stop, and schedule a processing task (earliest
///   begin ``ProtonUploadDesignedParameters/reschedulingDelayMinutes``);
/// - the processing task starts → upload; it expires → stop and reschedule;
/// - all uploads done (in the extension or a processing task) → nothing is scheduled;
/// - an upload's URL expires 3 h after creation, after which it fails (the workload's deadline).
///
/// Open question of the document, as a parameter: whether uploads restart when the user returns
/// to the app while a processing task is pending (``ProtonUploadDesignedParameters/restartOnForeground``,
/// default no: "We don't try to restart when app transitions to foreground").
package final class ProtonUploadDesigned: BackgroundPolicy {
    package let parameters: ProtonUploadDesignedParameters
    private var shared: ExtensionBackgroundOperationController?
    private var availability: ComputationalAvailabilityController?
    /// Persisted: a processing task is scheduled for interrupted uploads.
    static let interruptedKey = "proton.uploadsInterrupted"

    package init(parameters: ProtonUploadDesignedParameters) {
        self.parameters = parameters
    }

    package func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
        let shared = ExtensionBackgroundOperationController(app: app)
        let processing = BackgroundTaskStateController(identifier: parameters.identifier, app: app)
        let availability = ComputationalAvailabilityController(
            extension: shared, processing: processing, app: app, hasWork: { app.work.hasPendingWork })
        availability.onChange = { [unowned self] old, new in
            self.availabilityChanged(from: old, to: new, app: app, processing: processing)
        }
        app.work.onQueueEmpty = { availability.workDidChange() }
        self.shared = shared
        self.availability = availability
        if reason == .user { enterForeground(app) }
    }

    package func didEnterBackground(_ app: AppContext) {
        shared?.appDidEnterBackground()
    }

    package func willEnterForeground(_ app: AppContext) {
        shared?.appWillEnterForeground()
        enterForeground(app)
    }

    /// Uploads run in the foreground, unless they were interrupted and the policy does not
    /// restart them there.
    private func enterForeground(_ app: AppContext) {
        if !app.defaults.bool(forKey: Self.interruptedKey) || parameters.restartOnForeground {
            app.work.start()
        } else {
            app.work.stop()
        }
    }

    private func availabilityChanged(from old: ComputationalAvailability, to new: ComputationalAvailability,
                                     app: AppContext, processing: BackgroundTaskStateController) {
        switch new {
        case .foreground:
            break  // handled by enterForeground
        case .extensionTask:
            break  // the foreground's uploads continue
        case .processingTask:
            app.defaults.set(false, forKey: Self.interruptedKey)
            app.work.start()
        case .suspended:
            app.work.stop()
            if (old == .extensionTask || old == .processingTask) && app.work.hasPendingWork {
                app.defaults.set(true, forKey: Self.interruptedKey)
                processing.schedule(after: .minutes(parameters.reschedulingDelayMinutes),
                                    requiresNetworkConnectivity: parameters.requiresNetworkConnectivity)
            }
        }
    }
}
