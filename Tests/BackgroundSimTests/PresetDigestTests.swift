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
/// not change).
@Suite("Preset digests")
struct PresetDigestTests {
    static let pinned: [String: [String]] = [
        "device-only": ["658125b5759e1556", "0295fff19d2bda91", "0f689a3dd4adfd89"],
        "probe-refresh": ["7170753b94b97626", "15f084660c5767d6", "aad4f88d8be6ad6a"],
        "probe-processing": ["4b486d795a1d2505", "e9c17d179022558f", "5ef419bc3889ad41"],
        "proton-upload-designed": ["1d66aae0d2759ff8", "019d9ce9f2dc4319", "5a92b06fb64cf568"],
        "proton-upload-restart": ["3fa3f6a7cbd21a8d", "d25d2250fd7592de", "547b82fb8ffd3bca"],
        "proton-upload-shipped": ["54c164b5f0e15024", "06e0346d25750d44", "3b1b40f6545ca5f7"],
        "proton-photos-backup": ["8d143d733215877c", "036ff8ab62ed83b6", "d36fa1425264b1f5"],
        "coverdrop-designed": ["31e989cd6c6b0e17", "cd99f0818dfe8375", "1643e144c9cf6880"],
        "coverdrop-shipped": ["bb5f65aed2a73abf", "8fdaba8e98745fc4", "41fed60c01d32077"],
        "coverdrop-processing-2025-07": ["42faaaee4e9c6127", "0a1f676123cbb19e", "078b7738dff46cae"],
        "coverdrop-send-forgetful": ["7e0e21a3d4702185", "562f5b9599c2973b", "191aeefb865598f4"],
        "zashi-designed": ["1c92de3d715316e7", "ce75a0e5427590a0", "831644707af33318"],
        "zashi-shipped": ["dd378fffd1ec59c0", "9a0c62525bbf020d", "b6da16f4496192da"],
        "bgscheduler-designed": ["961aa0f186571f85", "6ed5a7b2bbdcb702", "6c65f5a17b90c9bf"],
        "bgscheduler-shipped": ["b1fcbd18ce4f4189", "c7cc6f426ff715a2", "4e317d30d7233e97"],
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
