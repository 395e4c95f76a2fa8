extension ReferenceApp {
    /// Zashi, the Zcash wallet: syncing the wallet in processing tasks (as designed: on power and
    /// Wi-Fi an hour ahead, completed only when synced; as shipped: the next night at 03:00 with a
    /// second task at 14:00, and no keys while the phone is locked).
    static let zashi = ReferenceApp(
        name: "Zashi",
        sources: ["the Zashi \"Background Syncing\" design document",
                  "Electric-Coin-Company/zashi-ios (docs/POLICIES.md names the commit)"],
        policies: [
            PolicyDefinition(name: "zashi-designed", summary: "Zashi as designed: wallet sync in a processing task on power and Wi-Fi, completed only when synced.",
                             parameters: ZashiDesignedParameters.self, taskIdentifiers: [ZashiDesignedParameters().identifier]) {
                ZashiDesigned(parameters: $0)
            },
            PolicyDefinition(name: "zashi-shipped",
                             summary: "Zashi as shipped: sync the next night 03:00 + 0–60 min, a 14:00 scheduler task, no keys while locked.",
                             parameters: ZashiShippedParameters.self,
                             taskIdentifiers: [ZashiShippedParameters().syncIdentifier, ZashiShippedParameters().schedulerIdentifier]) {
                ZashiShipped(parameters: $0)
            },
        ],
        presets: { [designed, shipped].map(Presets.Preset.init) })

    /// As designed: a block every 75 s (about 1,152 a day, as its "Background Syncing" design
    /// says), each about 1 kB of compact block data and 20 ms of trial decryption [Inf].
    private static var designed: Scenario {
        var scenario = scenario(name: "zashi-designed", policy: PolicyConfiguration(name: "zashi-designed"),
                                identifiers: [ZashiDesignedParameters().identifier],
                                description: "Zashi as designed: wallet sync in processing tasks on power and Wi-Fi; blocks accumulate every 75 s.")
        scenario.work.arrivals = .cadence
        scenario.work.cadenceSeconds = 75
        scenario.work.downloadMedianKilobytes = 1
        scenario.work.cpuMedianSeconds = 0.02
        return scenario
    }

    /// As shipped: the same blocks, both task identifiers.
    private static var shipped: Scenario {
        let parameters = ZashiShippedParameters()
        return designed.with(name: "zashi-shipped", policy: "zashi-shipped", identifiers: [parameters.syncIdentifier, parameters.schedulerIdentifier],
                             description: "Zashi as shipped: sync the next night 03:00 + 0–60 min on power and Wi-Fi, a 14:00 scheduler task; keys need an unlocked phone.")
    }
}
