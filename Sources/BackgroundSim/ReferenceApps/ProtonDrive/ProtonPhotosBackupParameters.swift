/// The parameters of ``ProtonPhotosBackup`` (Proton Drive's Photos backup module as shipped:
/// ProtonDriveApps/ios-drive at `97efc13`, v1.45.0).
package struct ProtonPhotosBackupParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The module's processing task identifier. Default "ch.protonmail.protondrive.photosProcessing"
    /// [C] (`BackgroundModes.swift`).
    package var identifier = "ch.protonmail.protondrive.photosProcessing"

    /// With nothing left to back up, the request's earliest begin, in hours from now (when photos
    /// are waiting, it has none: `earliestBeginDate = nil`). [C].
    package var idleDelayHours: Double = 24

    /// `requiresNetworkConnectivity`. Default true [C].
    package var requiresNetworkConnectivity = true

    /// `requiresExternalPower`. Default false [C].
    package var requiresExternalPower = false

    /// Whether the backup uploads on Wi-Fi only. Default true [C]
    /// (`LocalSettings.isPhotosBackupConnectionConstrained` defaults to true;
    /// `PhotoBackupNetworkController` holds the backup off cellular). The model checks the network
    /// when the backup starts, in the foreground or in the task, not while it runs [Inf].
    package var wifiOnly = true

    /// Whether the user has set an app lock with an auto-lock timeout, in which case the module
    /// submits no processing request (`PhotosTaskSchedulerEnabledPolicy`). Default false [Inf]
    /// (a setting some users choose).
    package var appLockWithTimeout = false

    /// Whether leaving the app keeps a running backup going under a `beginBackgroundTask`
    /// extension until the photos are up or the extension expires. Default true [C]
    /// (`DC+Populate.swift` gives photo uploads the extension on leaving).
    package var uploadsWhenLeaving = true

    /// Whether the app schedules its reminder: an app refresh task
    /// (`BackgroundAppRefreshTaskScheduler.swift`) submitted on leaving, 2 days ahead, then 4,
    /// 8, … as the same process submits it again (the exponent lives in memory, so a new
    /// process starts at 2 days again); cancelled, and the exponent reset, when the app returns
    /// to the foreground. Its handler posts a local "new photos" notification if photos wait and
    /// completes at once; the model launches the app for it but does not model the user's
    /// response to the notification, and resubmits after each run [Inf]. Default true [C].
    package var remindsOfNewPhotos = true

    /// The reminder's task identifier. Default "ch.protonmail.protondrive.checkNewPhotoInGallery"
    /// [C] (`BackgroundModes.swift`).
    package var reminderIdentifier = "ch.protonmail.protondrive.checkNewPhotoInGallery"

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
        v.require(!reminderIdentifier.isEmpty, "reminderIdentifier", "expected a task identifier")
    }
}

extension ProtonPhotosBackupParameters {
    package static let numberFields: [NumberField<ProtonPhotosBackupParameters>] = [
        NumberField("idleDelayHours", \.idleDelayHours, valid: 0...168),
    ]
}
