extension LaunchDenial {
    /// What the reason means, in a sentence: the reasons table's last column.
    package var summary: String {
        switch self {
        case .sessionSendsNoLaunchEvents: "every session whose events wait has `sessionSendsLaunchEvents` false: the events wait for the app to run (not logged)"
        case .phoneOff: "the phone is off (an empty battery): nothing runs until it is back on"
        case .beforeFirstUnlock: "the phone restarted and the user has not unlocked it since"
        case .appInForeground: "the app is in the foreground: task requests wait until it leaves; a push is delivered to it there, not by a background wake (not logged as a deferral)"
        case .previousPushRunning: "the app is still handling the previous push: the next is delivered when it is done (not logged as a deferral)"
        case .continuedProcessingSlotsTaken: "as many continued-processing tasks run as the system allows at once: the request stays queued until one ends (not logged)"
        case .notDue: "before the request's earliest begin date"
        case .backgroundAppRefreshOff: "Background App Refresh is off for the app (the user's switch, or a fault)"
        case .forceQuit: "the user force-quit the app and has not opened it since"
        case .lowPowerMode: "Low Power Mode is on (for processing: and the phone is on battery)"
        case .lowDataMode: "the current network is in Low Data Mode, which turns Background App Refresh off"
        case .deviceInUse: "the screen is on: processing runs only while the device is not in use"
        case .requiresExternalPower: "the request requires external power and the phone is not charging"
        case .requiresNetworkConnectivity: "the request requires network connectivity and there is none"
        case .batteryFloor: "the battery is below the model's floor and not charging"
        case .thermalState: "the phone is too hot (thermal state serious or worse)"
        case .appNotUsedRecently: "the app has not been opened recently enough (`refreshRecencyDays`, `processingRecencyDays`)"
        case .rateLimit: "too soon after the last launch of the kind (the model's spacing), the push throttle's burst or the device's spent push budget, or the transfer daemon's resume delay (a launch for URL-session events)"
        case .noPredictedUse: "no use of the app learnt for the hour ahead"
        case .budgetExhausted: "the app's daily refresh budget is spent"
        case .deviceNotIdle: "the screen has not been off long enough for the device to count as idle"
        case .energyBudget: "the app's low energy budget held it back: for a task request the model's chance fell but the budget scaled it below the draw; for a push or URL session's events, one draw against the budget's factor (docs/MODEL.md, \"Energy and data budgets\")"
        case .dataBudget: "the same, for the app's cellular data budget"
        case .notChosen: "eligible, but the model's chance did not fall on this evaluation"
        case .throttled: "chosen, but the system is throttling the app after killing it for an unfinished task"
        }
    }

    /// Whether a wake from `source` can be given this reason: a rule of ``WakeRule/table``
    /// that applies to it gives it (``WakeRule/denials(for:)``).
    package func canBeGiven(to source: WakeSource) -> Bool {
        WakeRule.table.contains { $0.denials(for: source).contains(self) }
    }

    /// Every reason as the Markdown table `docs/OUTPUT.md` prints under "Launch decisions" (a
    /// test checks that the two agree): one row per reason, in ``LaunchDenial``'s order, a
    /// column per door (``WakeRule/doors``) marking those that can be given it.
    package static var markdownTable: String {
        let doors = WakeRule.doors
        var lines = ["| reason | " + doors.map(\.name).joined(separator: " | ") + " | meaning |",
                     "|---|" + String(repeating: ":-:|", count: doors.count) + "---|"]
        for reason in allCases {
            let marks = doors.map { reason.canBeGiven(to: $0.source) ? "✓" : "" }
            lines.append("| `\(reason.rawValue)` | " + marks.joined(separator: " | ") + " | \(reason.summary) |")
        }
        return lines.joined(separator: "\n")
    }
}
