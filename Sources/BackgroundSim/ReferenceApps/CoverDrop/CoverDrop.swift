extension ReferenceApp {
    /// CoverDrop's preset and policy names (each preset runs the policy of its name), for the
    /// code that refers to them: `bgsim compare`'s built-in comparison, the former names.
    package enum CoverDropName {
        /// CoverDrop as designed.
        package static let designed = "coverdrop-designed"
        /// CoverDrop as shipped.
        package static let shipped = "coverdrop-shipped"
    }
    private typealias Name = CoverDropName

    /// The Guardian's CoverDrop: sending queued messages from app refresh tasks (as designed:
    /// real messages only, backoff, an hourly limit; as shipped: two fixed-size messages a run
    /// padded with cover traffic, a run on every foreground), its July 2025 processing build,
    /// woken by silent pushes (a door the app does not use), and with a planted bug for
    /// `bgsim check`.
    static let coverDrop = ReferenceApp(
        name: "CoverDrop",
        sources: ["the CoverDrop design document on background message sending",
                  "guardian/coverdrop and its iOS reference app (docs/POLICIES.md names the commits)"],
        policies: [
            PolicyDefinition(name: Name.designed,
                             summary: "CoverDrop as designed: real messages in app refresh, cancel on success, backoff 5–120 min, hourly limit.",
                             parameters: CoverDropDesignedParameters.self, taskIdentifiers: [CoverDropDesignedParameters().identifier]) {
                CoverDropDesigned(parameters: $0)
            },
            PolicyDefinition(name: Name.shipped,
                             summary: "CoverDrop as shipped: 2 fixed-size messages a run padded with cover, a run on every foreground, no cancel.",
                             parameters: CoverDropShippedParameters.self, taskIdentifiers: [CoverDropShippedParameters().identifier]) {
                CoverDropShipped(parameters: $0)
            },
            PolicyDefinition(name: "coverdrop-push",
                             summary: "CoverDrop sending woken by its server's silent pushes instead of app refresh (a door the app does not use).",
                             parameters: CoverDropPushParameters.self) { CoverDropPush(parameters: $0) },
            PolicyDefinition(name: "coverdrop-send-forgetful",
                             summary: "CoverDrop with a planted bug: after the device clock jumps back, the worker forgets setTaskCompleted.",
                             parameters: CoverDropDesignedParameters.self, taskIdentifiers: [CoverDropDesignedParameters().identifier]) {
                CoverDropDesigned(parameters: $0, forgetsCompletionAfterClockJump: true)
            },
        ],
        presets: { [designed, shipped, processing202507, push, forgetful].map(Presets.Preset.init) })

    /// As designed: a real message now and then (about one every five app sessions [Inf],
    /// written during the session and so queued when the user leaves), each a fixed 1 kB on the
    /// wire (the 773-byte encrypted message [C] with its request [Inf]) with a little CPU for
    /// encryption [Inf].
    private static var designed: Scenario {
        var scenario = scenario(name: Name.designed, policy: PolicyConfiguration(name: Name.designed),
                                identifiers: [CoverDropDesignedParameters().identifier],
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

    /// As shipped: the same messages, a sending queue of 8 [C].
    private static var shipped: Scenario {
        var scenario = designed.with(name: Name.shipped, policy: Name.shipped, identifiers: [CoverDropShippedParameters().identifier],
                                     description: "CoverDrop as shipped: every run sends 2 fixed-size messages, padded with cover; a run on every foreground.")
        scenario.work.maximumQueuedItems = 8
        return scenario
    }

    /// As built in July 2025 (guardian/coverdrop `2ebee75`): a processing request with the
    /// network required, and a handler that does not resubmit — in an app whose `Info.plist`
    /// (`ios/reference/reference/Info.plist` and its variants at `2ebee75`) declares only the
    /// `fetch` background mode [C], so every submit is refused (`notPermitted`) and the task
    /// never runs: messages leave only from the runs at each foreground.
    private static var processing202507: Scenario {
        var scenario = shipped
        scenario.name = "coverdrop-processing-2025-07"
        scenario.description = "CoverDrop as built in July 2025: a processing request the Info.plist does not permit (fetch mode only), so only foreground runs send."
        var parameters = CoverDropShippedParameters()
        parameters.requestKind = .processing
        parameters.resubmitsInHandler = false
        scenario.app.policy = PolicyConfiguration(name: Name.shipped, parameters: parameters)
        scenario.app.backgroundModes = [.fetch]
        return scenario
    }

    /// Woken by silent pushes: the designed workload, the server pushing every hour (matching the
    /// one-hour limit between runs) [Inf].
    private static var push: Scenario {
        var scenario = designed.with(name: "coverdrop-push", policy: "coverdrop-push", identifiers: [],
                                     description: "CoverDrop sending woken by its server's hourly silent push instead of app refresh tasks.")
        scenario.pushes.schedule = .cadence
        scenario.pushes.everyMinutes = 60
        return scenario
    }

    /// The planted bug (``CoverDropDesigned/forgetsCompletionAfterClockJump``) on a phone whose
    /// clock jumps three times a day by ±3 h (a traveller's time zones and erratic network time
    /// [Inf]), so that `bgsim check` has something to find.
    private static var forgetful: Scenario {
        var scenario = designed
        scenario.name = "coverdrop-send-forgetful"
        scenario.description = "CoverDrop with a planted bug: after the device clock jumps back, the worker forgets setTaskCompleted."
        scenario.app.policy.name = "coverdrop-send-forgetful"
        scenario.clock.randomJumpsPerDay = 3
        scenario.clock.randomJumpSigmaMinutes = 180
        return scenario
    }
}
