extension ReferenceApp {
    /// Proton Drive: photo uploads (as designed: an extension, then processing tasks; as
    /// shipped: the extension only), through a background URL session and a continued-processing
    /// task (doors the app does not use), and the Photos backup's own processing task.
    static let protonDrive = ReferenceApp(
        name: "Proton Drive",
        sources: ["the \"Background Operations\" design document (ProtonDriveApps/ios-drive)",
                  "ProtonDriveApps/ios-drive, the App Store build's code (docs/POLICIES.md names the commits)"],
        policies: [
            PolicyDefinition(name: "proton-upload-designed",
                             summary: "Proton Drive as designed: uploads in an extension, then a processing task (network required).",
                             parameters: ProtonUploadDesignedParameters.self, taskIdentifiers: [ProtonUploadDesignedParameters().identifier]) {
                ProtonUploadDesigned(parameters: $0)
            },
            PolicyDefinition(name: "proton-upload-shipped",
                             summary: "Proton Drive as shipped in the App Store build: uploads in the extension only, paused when it expires.",
                             parameters: ProtonUploadShippedParameters.self) { ProtonUploadShipped(parameters: $0) },
            PolicyDefinition(name: "proton-upload-urlsession",
                             summary: "Proton Drive's uploads handed to a background URL session (a door the app does not use).",
                             parameters: ProtonUploadURLSessionParameters.self) { ProtonUploadURLSession(parameters: $0) },
            PolicyDefinition(name: "proton-upload-continued",
                             summary: "Proton Drive's uploads in an iOS 26 continued-processing task (a door the app does not use).",
                             parameters: ProtonUploadContinuedParameters.self,
                             taskIdentifiers: [ProtonUploadContinuedParameters().wildcardIdentifier]) { ProtonUploadContinued(parameters: $0) },
            PolicyDefinition(name: "proton-photos-backup",
                             summary: "Proton Drive's Photos backup as shipped: its own processing task, at once when photos wait, else a day ahead.",
                             parameters: ProtonPhotosBackupParameters.self,
                             taskIdentifiers: [ProtonPhotosBackupParameters().identifier, ProtonPhotosBackupParameters().reminderIdentifier]) {
                ProtonPhotosBackup(parameters: $0)
            },
        ],
        presets: { [uploadDesigned, uploadRestart, uploadShipped, uploadURLSession, uploadContinued, photosBackup].map(Presets.Preset.init) })

    /// Photo uploads: about one photo every other app session (2.5 MB median, HEIC-sized
    /// [Inf]), upload URLs valid for 3 h (its "Background Operations" design), block uploads
    /// that keep their progress [Inf].
    private static var uploadDesigned: Scenario {
        var scenario = scenario(name: "proton-upload-designed", policy: PolicyConfiguration(name: "proton-upload-designed"),
                                identifiers: [ProtonUploadDesignedParameters().identifier],
                                description: "Proton Drive as designed: photo uploads in an extension, then processing tasks; URLs expire after 3 h.")
        scenario.work.arrivals = .appSessions
        scenario.work.itemsPerAppSession = 0.5
        scenario.work.uploadMedianKilobytes = 2_500
        scenario.work.uploadSigma = 1.0
        scenario.work.cpuMedianSeconds = 0.2
        scenario.work.cpuSigma = 0.5
        scenario.work.deadlineHours = 3
        return scenario
    }

    /// The uploads with the change the design leaves open: restart uploads when the app comes
    /// back to the foreground with work left ("We don't try to restart when app transitions to
    /// foreground").
    private static var uploadRestart: Scenario {
        var scenario = uploadDesigned
        scenario.name = "proton-upload-restart"
        scenario.description = "Proton Drive uploads, restarting them when the user returns to the app with work left."
        var parameters = ProtonUploadDesignedParameters()
        parameters.restartOnForeground = true
        scenario.app.policy.parameters = parameters
        return scenario
    }

    /// The uploads as the App Store build ships them: the same photos, the extension only.
    private static var uploadShipped: Scenario {
        uploadDesigned.with(name: "proton-upload-shipped", policy: "proton-upload-shipped", identifiers: [],
                            description: "Proton Drive as shipped in the App Store build: uploads in the extension only, paused when it expires.")
    }

    /// The uploads through a background URL session (the same workload).
    private static var uploadURLSession: Scenario {
        uploadDesigned.with(name: "proton-upload-urlsession", policy: "proton-upload-urlsession", identifiers: [],
                            description: "Proton Drive uploads handed to a background URL session; the app is woken when they finish.")
    }

    /// The uploads in a continued-processing task (the same workload).
    private static var uploadContinued: Scenario {
        uploadDesigned.with(name: "proton-upload-continued", policy: "proton-upload-continued",
                            identifiers: [ProtonUploadContinuedParameters().wildcardIdentifier],
                            description: "Proton Drive uploads in an iOS 26 continued-processing task, submitted when the user adds photos.")
    }

    /// The Photos backup as shipped: a photo to back up every two hours, day and night (a dozen a
    /// day, evenly spread: a simplification of when people take photos [Inf]), 2.5 MB each
    /// [Inf], backed up by the module's own processing task or in the foreground.
    private static var photosBackup: Scenario {
        var scenario = scenario(name: "proton-photos-backup", policy: PolicyConfiguration(name: "proton-photos-backup"),
                                identifiers: [ProtonPhotosBackupParameters().identifier, ProtonPhotosBackupParameters().reminderIdentifier],
                                description: "Proton Drive's Photos backup as shipped: its own processing task (network), at once when photos wait, else a day ahead.")
        scenario.work.arrivals = .cadence
        scenario.work.cadenceSeconds = 7_200
        scenario.work.uploadMedianKilobytes = 2_500
        scenario.work.cpuMedianSeconds = 0.2
        return scenario
    }
}

extension Scenario {
    /// This scenario under another name and description, running the built-in `policy` at its
    /// defaults, allowed `identifiers`: an app's workload run by another of its policies.
    func with(name: String, policy: String, identifiers: [String], description: String) -> Scenario {
        var scenario = self
        scenario.name = name
        scenario.description = description
        scenario.app.policy = PolicyConfiguration(name: policy)
        scenario.app.permittedIdentifiers = identifiers
        return scenario
    }
}
