/// The built-in scenarios, listed by `bgsim presets`.
public enum Presets {
    /// A built-in scenario with its name and what it is for.
    public struct Preset: Sendable {
        public var name: String
        public var summary: String
        public var scenario: Scenario

        /// A scenario offered by `name`, with what it is for.
        public init(name: String, summary: String, scenario: Scenario) {
            self.name = name
            self.summary = summary
            self.scenario = scenario
        }
    }

    /// Every preset, in the order `bgsim presets` lists them.
    public static let all: [Preset] = [
        Preset(
            name: "device-only",
            summary: "The default user and iPhone 15 with no app: the device's own days, for calibration.",
            scenario: {
                var scenario = Scenario()
                scenario.name = "device-only"
                scenario.description = "The default user and device with no app."
                return scenario
            }()),
        Preset(
            name: "probe-refresh",
            summary: "Default user and device; the app keeps one refresh request pending (earliest +15 min).",
            scenario: probe(name: "probe-refresh", policy: "probe-refresh", identifier: ProbePolicy.refreshIdentifier)),
        Preset(
            name: "probe-processing",
            summary: "Default user and device; the app keeps one processing request (power, network) pending.",
            scenario: probe(name: "probe-processing", policy: "probe-processing", identifier: ProbePolicy.processingIdentifier)),
        Preset(name: "proton-upload-designed",
               summary: "Proton Drive uploads as designed: extension, then processing tasks (network required); 3 h URL expiry.",
               scenario: protonUpload),
        Preset(name: "proton-upload-restart",
               summary: "Proton Drive uploads as designed, also restarting when the user returns to the app (an open question of the design).",
               scenario: protonUploadRestart),
        Preset(name: "proton-upload-shipped",
               summary: "Proton Drive uploads as the App Store build ships them: the extension only, uploads paused when it expires.",
               scenario: protonUploadShipped),
        Preset(name: "proton-upload-urlsession",
               summary: "Proton Drive uploads handed to a background URL session: the system uploads while the app is suspended.",
               scenario: protonUploadURLSession),
        Preset(name: "proton-upload-continued",
               summary: "Proton Drive uploads in an iOS 26 continued-processing task, submitted when the user adds photos.",
               scenario: protonUploadContinued),
        Preset(name: "proton-photos-backup",
               summary: "Proton Drive's Photos backup as shipped: its own processing task, at once when photos wait, else a day ahead.",
               scenario: protonPhotosBackup),
        Preset(name: "coverdrop-designed",
               summary: "CoverDrop sending as designed: real messages only, cancel on success, backoff 5–120 min, hourly rate limit.",
               scenario: coverDropDesigned),
        Preset(name: "coverdrop-shipped",
               summary: "CoverDrop sending as shipped: 2 fixed-size messages a run padded with cover, a run on every foreground, no cancel.",
               scenario: coverDropShipped),
        Preset(name: "coverdrop-processing-2025-07",
               summary: "CoverDrop as built in July 2025: a processing request with network required, no resubmit in the handler.",
               scenario: coverDropProcessing202507),
        Preset(name: "coverdrop-push",
               summary: "CoverDrop sending woken by an hourly silent push from its server instead of app refresh tasks.",
               scenario: coverDropPush),
        Preset(name: "coverdrop-send-forgetful",
               summary: "CoverDrop with a planted bug after device clock jumps, on a phone whose clock jumps often: for bgsim check.",
               scenario: coverDropForgetful),
        Preset(name: "zashi-designed", summary: "Zashi wallet sync as designed: a processing task on power and Wi-Fi an hour ahead; a block every 75 s.",
               scenario: zashiDesigned),
        Preset(name: "zashi-shipped",
               summary: "Zashi wallet sync as shipped: the next night 03:00 + 0–60 min, a 14:00 scheduler task, no keys while locked.",
               scenario: zashiShipped),
        Preset(name: "bgscheduler-designed", summary: "TestBGScheduler as designed: refresh every 60 s with three 2 s operations.",
               scenario: bgschedulerDesigned),
        Preset(name: "bgscheduler-shipped",
               summary: "TestBGScheduler as shipped: handler registered in the scene delegate, completion called twice (bgsim check finds both).",
               scenario: bgschedulerShipped),
    ]

    /// The names presets had before each seed app existed as designed and as shipped, and the
    /// preset each now stands for: `bgsim` accepts them and says what replaced them.
    public static let renamed: [(old: String, new: String)] = [
        ("proton-upload", "proton-upload-designed"), ("coverdrop-send", "coverdrop-designed"),
        ("zashi-sync", "zashi-designed"), ("bgscheduler-demo", "bgscheduler-designed"),
    ]

    /// The current name for `name`: itself, or what replaced it (``renamed``).
    public static func currentName(for name: String) -> String {
        renamed.first { $0.old == name }?.new ?? name
    }

    /// Proton Drive's photo uploads: about one photo every other app session (2.5 MB median,
    /// HEIC-sized [Inf]), upload URLs valid for 3 h (its "Background Operations" design), block uploads that keep their
    /// progress [Inf].
    static var protonUpload: Scenario {
        var scenario = app(name: "proton-upload-designed", policy: "proton-upload-designed", identifier: ProtonUploadParameters().identifier,
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

    /// CoverDrop with a planted bug (``RefreshMessageSender/forgetsCompletionAfterClockJump``)
    /// on a phone whose clock jumps three times a day by ±3 h (a traveller's time zones and
    /// erratic network time [Inf]), so that `bgsim check` has something to find.
    static var coverDropForgetful: Scenario {
        var scenario = coverDropDesigned
        scenario.name = "coverdrop-send-forgetful"
        scenario.description = "CoverDrop with a planted bug: after the device clock jumps back, the worker forgets setTaskCompleted."
        scenario.app.policy.name = "coverdrop-send-forgetful"
        scenario.clock.randomJumpsPerDay = 3
        scenario.clock.randomJumpSigmaMinutes = 180
        return scenario
    }

    /// Proton Drive's uploads with the change its design leaves open: restart uploads when the app
    /// comes back to the foreground with work left ("We don't try to restart when app
    /// transitions to foreground").
    static var protonUploadRestart: Scenario {
        var scenario = protonUpload
        scenario.name = "proton-upload-restart"
        scenario.description = "Proton Drive uploads, restarting them when the user returns to the app with work left."
        var parameters = ProtonUploadParameters()
        parameters.restartOnForeground = true
        scenario.app.policy.parameters = parameters
        return scenario
    }

    /// Proton Drive's uploads as the App Store build ships them: the same photos, the extension only.
    static var protonUploadShipped: Scenario {
        var scenario = protonUpload
        scenario.name = "proton-upload-shipped"
        scenario.description = "Proton Drive as shipped in the App Store build: uploads in the extension only, paused when it expires."
        scenario.app.policy = PolicyConfiguration(name: "proton-upload-shipped")
        scenario.app.permittedIdentifiers = []
        return scenario
    }

    /// Proton Drive's Photos backup as shipped: a photo to back up every two hours, day and night
    /// (a dozen a day, evenly spread: a simplification of when people take photos [Inf]), 2.5 MB
    /// each [Inf], backed up by the module's own processing task or in the foreground.
    static var protonPhotosBackup: Scenario {
        var scenario = app(name: "proton-photos-backup", policy: "proton-photos-backup", identifier: PhotosBackupParameters().identifier,
                           description: "Proton Drive's Photos backup as shipped: its own processing task (network), at once when photos wait, else a day ahead.")
        scenario.work.arrivals = .cadence
        scenario.work.cadenceSeconds = 7_200
        scenario.work.uploadMedianKilobytes = 2_500
        scenario.work.cpuMedianSeconds = 0.2
        return scenario
    }

    /// CoverDrop as designed: a real message now and then (about one every five app sessions
    /// [Inf], written during the session and so queued when the user leaves), each a fixed 1 kB
    /// on the wire (the 773-byte encrypted message [C] with its request [Inf]) with a little CPU
    /// for encryption [Inf].
    static var coverDropDesigned: Scenario {
        var scenario = app(name: "coverdrop-designed", policy: "coverdrop-designed", identifier: CoverDropParameters().identifier,
                           description: "CoverDrop as designed: queued messages sent from app refresh, hourly rate limit, backoff 5–120 min.")
        scenario.work.arrivals = .appSessions
        scenario.work.itemsPerAppSession = 0.2
        scenario.work.appSessionMoment = .close
        scenario.work.uploadMedianKilobytes = 1
        scenario.work.uploadSigma = 0
        scenario.work.cpuMedianSeconds = 0.05
        scenario.work.cpuSigma = 0
        return scenario
    }

    /// Proton Drive's uploads through a background URL session (the same workload).
    static var protonUploadURLSession: Scenario {
        var scenario = protonUpload
        scenario.name = "proton-upload-urlsession"
        scenario.description = "Proton Drive uploads handed to a background URL session; the app is woken when they finish."
        scenario.app.policy = PolicyConfiguration(name: "proton-upload-urlsession")
        scenario.app.permittedIdentifiers = []
        return scenario
    }

    /// Proton Drive's uploads in a continued-processing task (the same workload).
    static var protonUploadContinued: Scenario {
        var scenario = protonUpload
        scenario.name = "proton-upload-continued"
        scenario.description = "Proton Drive uploads in an iOS 26 continued-processing task, submitted when the user adds photos."
        scenario.app.policy = PolicyConfiguration(name: "proton-upload-continued")
        scenario.app.permittedIdentifiers = [ProtonContinuedParameters().wildcardIdentifier]
        return scenario
    }

    /// CoverDrop woken by silent pushes: the designed workload, the server pushing every hour
    /// (matching the one-hour limit between runs) [Inf].
    static var coverDropPush: Scenario {
        var scenario = coverDropDesigned
        scenario.name = "coverdrop-push"
        scenario.description = "CoverDrop sending woken by its server's hourly silent push instead of app refresh tasks."
        scenario.app.policy = PolicyConfiguration(name: "coverdrop-push")
        scenario.app.permittedIdentifiers = []
        scenario.pushes.schedule = .cadence
        scenario.pushes.everyMinutes = 60
        return scenario
    }

    /// CoverDrop as shipped: the same messages, a sending queue of 8 [C].
    static var coverDropShipped: Scenario {
        var scenario = coverDropDesigned
        scenario.name = "coverdrop-shipped"
        scenario.description = "CoverDrop as shipped: every run sends 2 fixed-size messages, padded with cover; a run on every foreground."
        scenario.app.policy = PolicyConfiguration(name: "coverdrop-shipped")
        scenario.work.maximumQueuedItems = 8
        return scenario
    }

    /// CoverDrop as built in July 2025 (guardian/coverdrop `2ebee75`): a processing request with
    /// the network required, and a handler that does not resubmit.
    static var coverDropProcessing202507: Scenario {
        var scenario = coverDropShipped
        scenario.name = "coverdrop-processing-2025-07"
        scenario.description = "CoverDrop as built in July 2025: a processing request (network required); the handler does not resubmit."
        var parameters = CoverDropShippedParameters()
        parameters.requestKind = .processing
        parameters.resubmitsInHandler = false
        scenario.app.policy = PolicyConfiguration(name: "coverdrop-shipped", parameters: parameters)
        return scenario
    }

    /// Zashi as designed: a block every 75 s (about 1,152 a day, as its "Background Syncing"
    /// design says), each about 1 kB of compact block data and 20 ms of trial decryption [Inf].
    static var zashiDesigned: Scenario {
        var scenario = app(name: "zashi-designed", policy: "zashi-designed", identifier: ZashiSyncParameters().identifier,
                           description: "Zashi as designed: wallet sync in processing tasks on power and Wi-Fi; blocks accumulate every 75 s.")
        scenario.work.arrivals = .cadence
        scenario.work.cadenceSeconds = 75
        scenario.work.downloadMedianKilobytes = 1
        scenario.work.cpuMedianSeconds = 0.02
        return scenario
    }

    /// Zashi as shipped: the same blocks, both task identifiers.
    static var zashiShipped: Scenario {
        var scenario = zashiDesigned
        scenario.name = "zashi-shipped"
        scenario.description = "Zashi as shipped: sync the next night 03:00 + 0–60 min on power and Wi-Fi, a 14:00 scheduler task; keys need an unlocked phone."
        scenario.app.policy = PolicyConfiguration(name: "zashi-shipped")
        let parameters = ZashiShippedParameters()
        scenario.app.permittedIdentifiers = [parameters.syncIdentifier, parameters.schedulerIdentifier]
        return scenario
    }

    /// TestBGScheduler as designed: refresh every 60 s with three 2 s operations; no work queue.
    static var bgschedulerDesigned: Scenario {
        app(name: "bgscheduler-designed", policy: "bgscheduler-designed", identifier: PeriodicDemoParameters().identifier,
            description: "TestBGScheduler as designed: refresh 60 s after backgrounding, every 60 s, three 2 s operations.")
    }

    /// TestBGScheduler as shipped (i336616/TestBGScheduler `9176947`).
    static var bgschedulerShipped: Scenario {
        app(name: "bgscheduler-shipped", policy: "bgscheduler-shipped", identifier: PeriodicDemoParameters().identifier,
            description: "TestBGScheduler as shipped: handler registered in the scene delegate; setTaskCompleted called twice.")
    }

    /// A probe: the default user and device with a probe policy that is allowed its identifier.
    static func probe(name: String, policy: String, identifier: String) -> Scenario {
        app(name: name, policy: policy, identifier: identifier,
            description: "Measures how often the system launches a \(policy == "probe-refresh" ? "refresh" : "processing") task.")
    }

    /// The default user and device running `policy`, allowed its task identifier.
    static func app(name: String, policy: String, identifier: String, description: String) -> Scenario {
        var scenario = Scenario()
        scenario.name = name
        scenario.description = description
        scenario.app.policy = PolicyConfiguration(name: policy)
        scenario.app.permittedIdentifiers = [identifier]
        return scenario
    }

    /// The preset called `name` (or by a name in ``renamed``), if there is one.
    public static func scenario(named name: String) -> Scenario? {
        let current = currentName(for: name)
        return all.first { $0.name == current }?.scenario
    }
}
