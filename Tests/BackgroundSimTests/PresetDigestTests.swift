import BackgroundSim
import Testing

/// Every preset's outcome, pinned: the trace digest of a year on seeds 1, 2 and 3.
///
/// A digest covers every event the run fired, with its time, kind and detail, so any change to
/// what a run does changes it. A change here must be deliberate: update the table in the same
/// commit and say in its message which outcomes changed and why.
///
/// The values are recorded with `bgsim run --preset P --days 365 --seed S --format json`, which
/// prints the same digest as ``SimulationRunner`` (this test runs the latter). History: pinned
/// before the iOS model was split into parts (a refactoring that changed no outcome); changed
/// for every preset when Optimized Battery Charging learnt to resume on the night a phone is
/// plugged in after midnight and the energy model stopped booking CPU power during transfers
/// and gained Wi-Fi's per-Mbps terms; changed for the Proton presets when an item past its
/// deadline began to fail at once instead of waking the radio when the executor next reached it;
/// when each seed app came to exist as designed and as shipped (presets renamed; the designed
/// Proton uploads' processing request requires the network as the app's does; the designed
/// CoverDrop's mean delay and messages per run took the shipped values, its messages 1 kB and
/// created when the user leaves the app — Zashi's and TestBGScheduler's designed digests did
/// not change); for the Photos backup when launches began to spend energy and data budgets; and
/// for every preset with an app when launch chances began to fade with the days since the app
/// was last used (and refresh to stop after three weeks instead of one); and when processing
/// tasks began to be expired early half the time (every preset's expiry draws moved). The other
/// doors (background URL sessions, continued processing, silent pushes) changed no digest; their
/// three presets were pinned when they came.
@Suite("Preset digests")
struct PresetDigestTests {
    static let pinned: [String: [String]] = [
        "device-only": ["658125b5759e1556", "0295fff19d2bda91", "0f689a3dd4adfd89"],
        "probe-refresh": ["159b25b8e525851e", "d1945af77af73c30", "c94402961f1b5e14"],
        "probe-processing": ["4a8a1a86f5038916", "fad65adc7fe306aa", "9e1a0dfec92c2f28"],
        "proton-upload-designed": ["13deb757a33c022a", "0fa6e384ed704b5f", "f6ff8e9cded780df"],
        "proton-upload-restart": ["3fa3f6a7cbd21a8d", "fbf405c71e9632b7", "33ab5cd8ea69cf99"],
        "proton-upload-shipped": ["54c164b5f0e15024", "06e0346d25750d44", "3b1b40f6545ca5f7"],
        "proton-upload-urlsession": ["a50160c026a64c54", "d7198f7041438cb5", "3e68cd6d8b6ea30d"],
        "proton-upload-continued": ["b8038c1507344b9b", "f3a54bffbaf2b9c7", "38265f60b8b54996"],
        "proton-photos-backup": ["567959cfc159d43f", "243cec1c64359fe6", "0f1c27ac9d2847c1"],
        "coverdrop-designed": ["53c011d28ff0f054", "deb915c05390da3c", "02c906f48a7e5b8c"],
        "coverdrop-shipped": ["16ea2e242077129c", "a9bd208d3f1a0880", "cd5fe47f92e9adcc"],
        "coverdrop-processing-2025-07": ["eec23daed2569938", "c2429207dbb63827", "28668d940e55fb75"],
        "coverdrop-push": ["b8be9baf24ec2a0f", "2af597de05c5c879", "e107bf72ed61bd6a"],
        "coverdrop-send-forgetful": ["d32c81069ae34069", "4aed9e073724eeb8", "831dcbd3a27b4d70"],
        "zashi-designed": ["c973cbaf6a00ce34", "9a99708daa81f2db", "28bc25d04a3b2c39"],
        "zashi-shipped": ["d0d8beee92050e73", "ed41adb7a3f8f22f", "e994bc68f1a65fd9"],
        "bgscheduler-designed": ["baaf27f08891fd4c", "5d953ac4755cb141", "fa8f7b462bb88673"],
        "bgscheduler-shipped": ["9ab65c72f684c20e", "9d0c80d6bda40354", "48290b263009b41a"],
    ]

    @Test("every preset has pinned digests")
    func everyPresetIsPinned() {
        #expect(Set(Presets.all.map(\.name)) == Set(Self.pinned.keys))
    }

    @Test("a year of each preset on seeds 1–3 gives its pinned digest", arguments: Presets.all.map(\.name))
    func pinnedDigest(preset: String) throws {
        let scenario = try #require(Presets.scenario(named: preset))
        let expected = try #require(Self.pinned[preset])
        for (index, seed) in [UInt64(1), 2, 3].enumerated() {
            let result = try SimulationRunner.run(scenario: scenario, seed: seed, days: 365)
            #expect(result.digest.description == expected[index], "\(preset) seed \(seed)")
        }
    }
}
