import BackgroundSim
import SimulatedBackgroundTasks

extension PolicyDefinition {
    /// The photo uploader as a policy: a fresh `PhotoAppDelegate` at each process launch.
    public static let photoUploads = PolicyDefinition.appDelegate(
        name: "photos-real", summary: "Photo uploads handed to a background URL session, the app's own code.",
        taskIdentifiers: []) { PhotoAppDelegate() }
}

extension Presets.Preset {
    /// Proton Drive's user and phone, with the photo uploader. The photos are the app's own
    /// (taken as the user opens it), not the simulator's workload, which is turned off.
    public static var photoUploads: Presets.Preset {
        var scenario = Presets.scenario(named: "proton-upload-urlsession")!
        scenario.name = "photos-real"
        scenario.work = WorkParameters()
        scenario.app.policy = PolicyConfiguration(.photoUploads)
        scenario.app.permittedIdentifiers = []
        return Presets.Preset(name: "photos-real", summary: "Photo uploads in a background URL session, the app's own code, on Proton Drive's user and phone.",
                              scenario: scenario)
    }
}
