extension DeviceHistory {
    /// `histories` (each device's in a row, in time order: ``pieces(_:)``) with each device's
    /// last history covering the device until the log's end: the latest record of any device,
    /// on each device's local clock [Inf].
    ///
    /// A log ends when it was collected, not at each phone's last record. The evaluations
    /// after a phone's last record found a request pending and launched nothing — evidence,
    /// as the fade sets in, of how fast launches die away after the last open. Ending each
    /// device at its own last record dropped it for exactly the phones whose last record came
    /// early, users who rarely open the app: on 240 simulated CoverDrop phones × 28 days of
    /// users with the `weekly` profile (truth: 0.5 a day, 1.2 per session, a fade of 5 days;
    /// seed 500000), the fade came out 6.79 days (5.23–8.80) with closes followed by no launch
    /// flagged as rarer in the logs than in the model; ended at the log's end, 5.28
    /// (3.83–6.54), every feature fitting. The assumption: each phone kept the app until the
    /// log was collected. A phone whose user deleted the app early reads as days without an
    /// open or a launch after its last record, which pulls the fade shorter.
    ///
    /// A history ended by a long silence (``pieces(_:)``) keeps its last record as its end:
    /// what came after was lost. Devices' clocks are read as they are given, so on logs whose
    /// times carry no UTC offset a device in another time zone is covered until the same
    /// local time, hours from the log's end.
    ///
    /// The rate of opens the earlier use of a log begun after install is measured in
    /// (``loggedUse``) stays that of the device's own records, first to last [Inf]: measured
    /// over the span to the log's end instead, one 60-phone log begun 7 days after install
    /// (seed 100540) gave a base budget of 0.578 (0.526–0.626) against the true 0.5 and a fade
    /// interval of the whole range, against 0.565 (0.444–0.612) and 2.3–16.9 days; why is not
    /// yet understood (docs/CALIBRATION.md, "The likelihood").
    static func reachingTheLogsEnd(_ histories: [DeviceHistory]) -> [DeviceHistory] {
        guard let logEnd = histories.map(\.localEnd).max() else { return histories }
        var result = histories
        for index in result.indices where index == result.count - 1 || result[index + 1].device != result[index].device {
            let end = logEnd - result[index].localOrigin
            if end > result[index].end { result[index].end = end }
        }
        return result
    }

    /// Seconds from the epoch's local midnight to the history's first local midnight: what its
    /// times are counted from.
    var localOrigin: Double { Double(firstDate.daysSinceEpoch) * 86_400 }

    /// ``end`` counted from the epoch's local midnight.
    var localEnd: Double { localOrigin + end }
}
