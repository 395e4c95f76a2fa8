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
/// three presets were pinned when they came. Changed for every preset when the phone began to
/// restart on its own (an overnight iOS update every 30 days; the inactivity reboot) and to launch
/// nothing in the background before the first unlock after a start; for the URL-session presets
/// when the resume rate limiter moved from the launch for a session's events to the transfers
/// the app creates in the background; for the push preset when pushes got a throttle (a burst in
/// a sliding hour, a count per 24 hours) and stopped reaching an app unused for three weeks; and
/// for two presets that now do what ships: Proton's interrupted uploads restart at every return
/// to the foreground, and CoverDrop's July 2025 build has no processing mode in its Info.plist;
/// and for TestBGScheduler as shipped when its request became exactly now + 60 s, as the code
/// asks (it had the seconds dropped); and for Proton's Photos backup when it took the code's
/// identifier, Wi-Fi only, and a task that completes only after an upload; for CoverDrop as
/// shipped and its July 2025 build when the library began to start (3 s) before any job in a
/// new process and a cold task launch's two jobs began to run at the same time, as the code
/// lets them; and for the Photos backup when leaving the app began to carry a running backup
/// on under an extension and the reminder task (2, 4, 8… days) came; for the push and
/// continued-processing doors when their policies became ones a recipe can state (a push
/// during a send in progress answers `.noData`, a send at launch keeps the hourly limit and has
/// no handler deadline; a continued task with nothing left completes without starting the
/// work) — no reported figure of a year moved; and for CoverDrop as shipped when, matched
/// against the same behaviour written as app code, its delays became whole seconds, two
/// overlapping jobs each got a full run's rounds of cover padding, and each job recorded its
/// run as it ended (the task's job clears the pending flag the launch's failsafe set); and for
/// Zashi as shipped when, matched the same way, its window jitter became whole minutes drawn
/// as the code draws them (`Int.random(in: 0...60)`) and its scheduler handler asked for the
/// scheduler first.
@Suite("Preset digests")
struct PresetDigestTests {
    static let pinned: [String: [String]] = [
        "device-only": ["3d471fa5761256c3", "a23a52e074581648", "a609667fc5f81a78"],
        "probe-refresh": ["2cbce589efb88375", "978dd94e34467c3d", "c0db7d08cf5e1a42"],
        "probe-processing": ["e11dfce684b122f4", "69ef049dceaad29b", "592e7c97122992de"],
        "proton-upload-designed": ["b8d0dd78e6e7c1a4", "6453b6e09c0ccb37", "75b35a540aed893e"],
        "proton-upload-restart": ["9343438c28793775", "284c3fe462d56336", "b4af38194fe35740"],
        "proton-upload-shipped": ["343deddb15acd76a", "0a3911e2f32f592c", "4ea373277d0a9401"],
        "proton-upload-urlsession": ["2052b2fe28994cc0", "671b6e7215e1e568", "bb1318b79e8a5f0f"],
        "proton-upload-continued": ["8aaea7afff80329b", "cdee4ad2f14bfc60", "430b9903a637d6fb"],
        "proton-photos-backup": ["c595285b447f1c46", "1dcd51b2127a4ae3", "5194c78e49b6023b"],
        "coverdrop-designed": ["df5c780c250d090b", "aaa7faef4a9c0497", "5ccb155d6dbf6912"],
        "coverdrop-shipped": ["82c5056cc772b6e6", "4f6f05a5a41c47b9", "807ac0ade88ebac1"],
        "coverdrop-processing-2025-07": ["d7ca1ee55d570c0a", "229a8a53c1ceb367", "ecff2696b5f86d2f"],
        "coverdrop-push": ["18f4fc1f95ac062a", "a1e688e83e7e871d", "c61159d5ccfe30f8"],
        "coverdrop-send-forgetful": ["784c6cfe223c264d", "d561c473a328af56", "8fbdf58631b5dff4"],
        "zashi-designed": ["8e12e03f0ba32b09", "f7a923dd25d3933f", "5f36a6c642b50872"],
        "zashi-shipped": ["e1bd5271ef9632ca", "8fbb2c868da4e317", "ee98d3fa764a27e1"],
        "bgscheduler-designed": ["ec36999809d94db3", "51b27e2cdb5bd6f7", "3786cecc4ec18f27"],
        "bgscheduler-shipped": ["e5951442ec0d404c", "b80790d8954a226e", "3bc1ee096e95ef63"],
    ]

    @Test("every preset has pinned digests")
    func everyPresetIsPinned() {
        #expect(Set(Presets.all.map(\.name)) == Set(Self.pinned.keys))
    }


    @Test("a year of each preset on seeds 1–3 (seed 1 in a debug build) gives its pinned digest", arguments: Presets.all.map(\.name))
    func pinnedDigest(preset: String) throws {
        let scenario = try #require(Presets.scenario(named: preset))
        let expected = try #require(Self.pinned[preset])
        for (index, seed) in TestBuild.digestSeeds.enumerated() {
            let result = try SimulationRunner.run(scenario: scenario, seed: seed, days: 365)
            #expect(result.digest.description == expected[index], "\(preset) seed \(seed)")
        }
    }
}
