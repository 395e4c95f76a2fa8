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
        Preset(name: "proton-upload", summary: "Proton Drive photo uploads: extension, then processing tasks; 3 h URL expiry.",
               scenario: protonUpload),
        Preset(name: "proton-upload-restart",
               summary: "Proton Drive uploads that also restart when the user returns to the app (an open question in its design).",
               scenario: protonUploadRestart),
        Preset(name: "coverdrop-send", summary: "CoverDrop message sending in app refresh; hourly rate limit, backoff 5–120 min.",
               scenario: coverDropSend),
        Preset(name: "coverdrop-send-forgetful",
               summary: "CoverDrop with a planted bug after device clock jumps, on a phone whose clock jumps often: for bgsim check.",
               scenario: coverDropForgetful),
        Preset(name: "zashi-sync", summary: "Zashi wallet sync in processing tasks on power and Wi-Fi; a block every 75 s.",
               scenario: zashiSync),
        Preset(name: "bgscheduler-demo", summary: "TestBGScheduler: refresh every 60 s with three 2 s operations.",
               scenario: bgschedulerDemo),
    ]

    /// Proton Drive's photo uploads: about one photo every other app session (2.5 MB median,
    /// HEIC-sized [Inf]), upload URLs valid for 3 h (its "Background Operations" design), block uploads that keep their
    /// progress [Inf].
    static var protonUpload: Scenario {
        var scenario = app(name: "proton-upload", identifier: ProtonUploadParameters().identifier,
                           description: "Proton Drive: photo uploads in an extension, then processing tasks; URLs expire after 3 h.")
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
        var scenario = coverDropSend
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

    /// CoverDrop: a real message now and then (about one every five app sessions [Inf]), each
    /// padded to a fixed 5 kB [Inf] with a little CPU for encryption.
    static var coverDropSend: Scenario {
        var scenario = app(name: "coverdrop-send", identifier: CoverDropParameters().identifier,
                           description: "CoverDrop: queued messages sent from app refresh, hourly rate limit, backoff 5–120 min.")
        scenario.work.arrivals = .appSessions
        scenario.work.itemsPerAppSession = 0.2
        scenario.work.uploadMedianKilobytes = 5
        scenario.work.uploadSigma = 0
        scenario.work.cpuMedianSeconds = 0.05
        scenario.work.cpuSigma = 0
        return scenario
    }

    /// Zashi: a block every 75 s (about 1,152 a day, as its "Background Syncing" design says), each about 1 kB of compact block
    /// data and 20 ms of trial decryption [Inf].
    static var zashiSync: Scenario {
        var scenario = app(name: "zashi-sync", identifier: ZashiSyncParameters().identifier,
                           description: "Zashi: wallet sync in processing tasks on power and Wi-Fi; blocks accumulate every 75 s.")
        scenario.work.arrivals = .cadence
        scenario.work.cadenceSeconds = 75
        scenario.work.downloadMedianKilobytes = 1
        scenario.work.cpuMedianSeconds = 0.02
        return scenario
    }

    /// TestBGScheduler's demo: refresh every 60 s with three 2 s operations; no work queue.
    static var bgschedulerDemo: Scenario {
        app(name: "bgscheduler-demo", identifier: PeriodicDemoParameters().identifier,
            description: "TestBGScheduler: refresh 60 s after backgrounding, every 60 s, three 2 s operations.")
    }

    /// A probe: the default user and device with a probe policy that is allowed its identifier.
    static func probe(name: String, policy: String, identifier: String) -> Scenario {
        app(name: name, identifier: identifier,
            description: "Measures how often the system launches a \(policy == "probe-refresh" ? "refresh" : "processing") task.")
    }

    /// The default user and device running the policy of the same name, allowed its task identifier.
    static func app(name: String, identifier: String, description: String) -> Scenario {
        var scenario = Scenario()
        scenario.name = name
        scenario.description = description
        scenario.app.policy = PolicyConfiguration(name: name)
        scenario.app.permittedIdentifiers = [identifier]
        return scenario
    }

    /// The preset called `name`, if there is one.
    public static func scenario(named name: String) -> Scenario? {
        all.first { $0.name == name }?.scenario
    }
}
