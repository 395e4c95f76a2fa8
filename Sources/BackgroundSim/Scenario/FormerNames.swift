/// Names the built-in presets, policies and scenario keys had before, with the name that replaced
/// each: the one table behind every message that meets an old name. The format is pre-1.0, so an old name
/// is refused, not accepted; the message says what to write instead.
package enum FormerNames {
    /// Each former name and its replacement: the names before each seed app existed as designed
    /// and as shipped.
    static let table: [(old: String, new: String)] = [
        ("proton-upload", "proton-upload-designed"), ("coverdrop-send", ReferenceApp.CoverDropName.designed),
        ("zashi-sync", "zashi-designed"), ("bgscheduler-demo", "bgscheduler-designed"),
    ]

    /// The keys of the removed `policies` section, each with the policy whose parameters it held.
    static let policySections: [(key: String, policy: String)] = [
        ("protonUpload", "proton-upload-designed"), ("coverDrop", ReferenceApp.CoverDropName.designed), ("zashiSync", "zashi-designed"),
        ("periodicDemo", "bgscheduler-designed"),
    ]

    /// The policy whose parameters the removed `policies` section's `key` held, if it is one.
    package static func policy(forSection key: String) -> String? {
        policySections.first { $0.key == key }?.policy
    }

    /// What replaced `name`, if it is a former name.
    package static func replacement(for name: String) -> String? {
        table.first { $0.old == name }?.new
    }

    /// Scenario keys renamed because what they mean changed, by path: the new key and why.
    static let keys: [(path: String, new: String, why: String)] = [
        ("system.backgroundURLSession.relaunchDelaySeconds", "resumeDelaySeconds",
         "the resume rate limiter now holds back transfers created in the background, not the launch for events"),
        ("system.push.minimumSpacingMinutes", "burstDeliveries",
         "pushes are throttled by a burst in a sliding window, burstWindowMinutes, and the device's budget, deviceBudgetPerHour"),
        ("system.push.dailyDeliveries", "deviceBudgetPerHour",
         "the daily count is no longer the app's own: each 24 hours the device delivers at most 24 times this to all its apps, "
            + "whose other pushes, system.otherApps.backgroundPushesPerHour, spend it too"),
    ]

    /// A clause for a message about an unknown key at `path`, if it is a former key.
    package static func keyHint(forPath path: String) -> String? {
        keys.first { $0.path == path }.map { "; it is now \"\($0.new)\" (\($0.why))" }
    }

    /// A clause for a message about an unknown `name`: `; "proton-upload" is now called
    /// "proton-upload-designed"` for a former name, empty otherwise.
    package static func hint(for name: String) -> String {
        replacement(for: name).map { "; \"\(name)\" is now called \"\($0)\"" } ?? ""
    }
}
