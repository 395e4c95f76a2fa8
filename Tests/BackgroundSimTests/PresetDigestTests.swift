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
/// deadline began to fail at once instead of waking the radio when the executor next reached it.
@Suite("Preset digests")
struct PresetDigestTests {
    static let pinned: [String: [String]] = [
        "device-only": ["658125b5759e1556", "0295fff19d2bda91", "0f689a3dd4adfd89"],
        "probe-refresh": ["7170753b94b97626", "15f084660c5767d6", "aad4f88d8be6ad6a"],
        "probe-processing": ["4b486d795a1d2505", "e9c17d179022558f", "5ef419bc3889ad41"],
        "proton-upload": ["576f4be85d436d66", "357fd8594c7a7f81", "cfdfb55b186ae88b"],
        "proton-upload-restart": ["3fa3f6a7cbd21a8d", "7c38e3cddee4f731", "95f3fc424d142c22"],
        "coverdrop-send": ["c6b3b169d021f384", "bb702468f5543764", "839191ca9825ba5b"],
        "coverdrop-send-forgetful": ["c75ebcca804a20a3", "9ec8457dd8f3a574", "4f4953d0e7fe2908"],
        "zashi-sync": ["1c92de3d715316e7", "ce75a0e5427590a0", "831644707af33318"],
        "bgscheduler-demo": ["961aa0f186571f85", "6ed5a7b2bbdcb702", "6c65f5a17b90c9bf"],
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
