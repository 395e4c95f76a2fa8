/// The parameters of ``ProtonPhotosBackup`` (Proton Drive's Photos backup module as shipped:
/// ProtonDriveApps/ios-drive at `97efc13`, v1.45.0).
package struct ProtonPhotosBackupParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The module's processing task identifier. Default "ch.protonmail.drive.photosBackup" [Inf]
    /// (a name of ours; the module has its own identifier).
    package var identifier = "ch.protonmail.drive.photosBackup"

    /// With nothing left to back up, the request's earliest begin, in hours from now (when photos
    /// are waiting, it has none: `earliestBeginDate = nil`). Default 24 [C]; valid 0–168.
    package var idleDelayHours: Double = 24

    /// `requiresNetworkConnectivity`. Default true [C].
    package var requiresNetworkConnectivity = true

    /// `requiresExternalPower`. Default false [C].
    package var requiresExternalPower = false

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
        v.check(idleDelayHours, 0...168, "idleDelayHours")
    }
}
