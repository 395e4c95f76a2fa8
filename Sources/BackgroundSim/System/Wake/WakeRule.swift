/// One rule the system checks before it runs the app in the background: what it looks at, the
/// doors (``WakeSource``s) it applies to, what a wake it holds back is told, and its source.
///
/// ``table`` lists every rule in the order the system checks them; ``WakeAdmission`` walks it
/// for every wake request and stops at the first rule that holds the request back. Which rule
/// applies to which door is data here and nowhere else; `docs/MODEL.md` prints the same table,
/// and a test checks the two agree.
package struct WakeRule: Sendable {
    /// What a rule looks at.
    package enum Check: String, Sendable, CaseIterable {
        /// The app was not force-quit when a push arrived: a force-quit app gets no pushes until
        /// the user opens it, and the push is dropped, not held.
        case pushesAfterForceQuit
        /// A URL session whose events wait was configured to launch the app for them
        /// (`sessionSendsLaunchEvents`); if none was, they wait for the app to run, not retried.
        case sessionSendsLaunchEvents
        /// The phone is switched on: nothing runs while it is off (an empty battery, a restart).
        case phoneOn
        /// The app is not in the foreground: a task request waits until the user leaves it, and
        /// a push goes to the app in the foreground instead of waking it.
        case appInBackground
        /// The app is not still handling the previous push (its completion window is open).
        case onePushAtATime
        /// A continued-processing slot is free: fewer such tasks run than the system allows at
        /// once (``ContinuedProcessingParameters/maximumConcurrentTasks``).
        case continuedProcessingSlot
        /// The user has unlocked the phone since it last started.
        case unlockedSinceBoot
        /// A pending request's earliest begin date has come.
        case earliestBeginDate
        /// The user's Background App Refresh switch for the app (or a fault) is on.
        case backgroundAppRefresh
        /// The user has not force-quit the app since last opening it (the app switcher).
        case appSwitcher
        /// Low Data Mode is off for the current network (it turns Background App Refresh off).
        case lowDataMode
        /// The screen is off: processing runs only while the device is not in use.
        case deviceIdle
        /// The charger is connected, when the request requires external power.
        case externalPower
        /// A network is available, when the request requires connectivity.
        case networkConnectivity
        /// Low Power Mode is off.
        case lowPowerMode
        /// Low Power Mode is off, or the phone is on the charger.
        case lowPowerModeOnBattery
        /// The battery is not critically low off the charger (the launch model's floor, if it
        /// has one: ``LaunchModel/criticalBatteryPercent``).
        case batteryFloor
        /// The phone is not too hot (the launch model's ceiling, if it has one:
        /// ``LaunchModel/thermalCeiling``).
        case thermalState
        /// The user has opened the app within ``HeuristicLaunchParameters/refreshRecencyDays``:
        /// pushes are not delivered, and the app is not launched for its URL sessions' events,
        /// if it has not been launched for a while.
        case appUsedRecently
        /// The system's throttle on silent pushes lets a background delivery through: a burst
        /// in a sliding window, and the device's budget for 24 hours, which the other apps'
        /// pushes spend too, not spent (``PushThrottle``).
        case pushThrottle
        /// The transfer daemon's resume rate limiter lets a launch for URL-session events
        /// through: its delay since the app's last background launch or resume for events has
        /// passed (``SessionEventDelivery/launchOpensAt(_:)``).
        case sessionLaunchRateLimit
        /// The launch model chooses to run the request now: usage, its own rate limits and
        /// idleness, a chance scaled by the app's budgets (``LaunchModel/decide(_:conditions:random:)``).
        case launchModel
        /// The app's energy and data budgets leave room: one draw against their factor, under
        /// a launch model that applies budgets (``LaunchModel/appliesBudgets``).
        case budgets
        /// The system is not throttling the app after killing it for an unfinished task.
        case throttle
    }

    /// Where a rule comes from in the system's reasoning.
    package enum Stage: String, Sendable {
        /// A rule Apple documents: every launch model is held to it.
        case documented
        /// The launch model's discretion: what it is applies as the model says (the eager and
        /// replay models have no floors and ignore budgets).
        case discretion
        /// Checked after the system chose the wake.
        case afterChoice
    }

    package let check: Check
    package let stage: Stage
    /// The doors the rule applies to.
    package let appliesTo: WakeSources
    /// What a request the rule holds back is told; `nil` for ``Check/launchModel``, which gives
    /// its own reason.
    package let denial: LaunchDenial?
    /// Whether the rule is about the device's state (charging, screen, network, Low Power
    /// Mode): a launch model that replays logged decisions (``LaunchModel/replaysDecisions``)
    /// already met it on the real phone, so it is not checked again for task requests.
    package let isDeviceCondition: Bool
    /// Where the rule and its applicability come from, with its tag.
    package let source: String

    /// Whether the rule applies to wakes from `source`.
    package func applies(to source: WakeSource) -> Bool { appliesTo.contains(source) }

    /// Every rule, in the order the system checks them.
    ///
    /// The doors follow WWDC 2020 session 10063 ("Background execution demystified") as
    /// third-party notes report it [A-via]: refresh meets all seven factors; a push all but app
    /// usage; a non-discretionary URL session's transfers all but app usage and rate limiting,
    /// and its launch event upon completion those two as well; a discretionary one's transfers
    /// only the app switcher and the budgets (its launch event is held to the same two rules as
    /// a non-discretionary one's [Inf]: hand-offs made in the background are discretionary, and
    /// the launch is the same daemon's). Processing is held to the rules
    /// the model has always given it (the session lists fewer factors for it). A
    /// continued-processing task starts on the user's action and meets only the phone being on
    /// and a free slot; a debugger command bypasses the system and meets only the phone being on.
    ///
    /// A URL session's events meet one rule of their own first: the app is launched for them
    /// only if a waiting session sends launch events; if none does, the door keeps them for the
    /// app's next run and does not ask again (``SimulatedSystem/relaunchForSessionEvents(in:)``).
    ///
    /// A push meets three rules of its own first: it is dropped if the app was force-quit (the
    /// first rule, before the phone's state: a held push is dropped at the force-quit), delivered
    /// to the app in the foreground there, and held while the app handles the previous one. The
    /// door, not the admission, acts on those three reasons (``SimulatedSystem/deliverHeldPush(arrivedReplacingHeld:in:)``).
    package static let table: [WakeRule] = [
        WakeRule(check: .pushesAfterForceQuit, stage: .documented, appliesTo: WakeSources(.silentPush), denial: .forceQuit,
                 isDeviceCondition: false,
                 source: "a force-quit app gets no background pushes until the user opens it, "
                    + "application(_:didReceiveRemoteNotification:fetchCompletionHandler:) [A]; dropped, not held [Inf]"),
        WakeRule(check: .sessionSendsLaunchEvents, stage: .documented,
                 appliesTo: WakeSources(.sessionEvents, .discretionarySessionEvents), denial: .sessionSendsNoLaunchEvents,
                 isDeviceCondition: false,
                 source: "URLSessionConfiguration.sessionSendsLaunchEvents: false, the app is not resumed or launched when "
                    + "the session's transfers finish [A]; the events wait for the app to run [Inf]"),
        WakeRule(check: .phoneOn, stage: .documented, appliesTo: .all, denial: .phoneOff, isDeviceCondition: false,
                 source: "a phone that is off runs no code [A]"),
        WakeRule(check: .appInBackground, stage: .documented, appliesTo: WakeSources(.appRefreshTask, .processingTask, .silentPush),
                 denial: .appInForeground, isDeviceCondition: false,
                 source: "the scheduler launches tasks into the background, BGTaskScheduler [A]; a request pending while the app "
                    + "is in the foreground waits for it to leave [Inf]; a push to an app in the foreground is delivered to it "
                    + "there [A]"),
        WakeRule(check: .onePushAtATime, stage: .documented, appliesTo: WakeSources(.silentPush), denial: .previousPushRunning,
                 isDeviceCondition: false,
                 source: "the next push waits until the app has called the previous one's completion handler or its 30 s "
                    + "are up [Inf]"),
        WakeRule(check: .continuedProcessingSlot, stage: .documented, appliesTo: WakeSources(.continuedProcessingTask),
                 denial: .continuedProcessingSlotsTaken, isDeviceCondition: false,
                 source: "BGContinuedProcessingTaskRequest.SubmissionStrategy.queue: a queued request runs when the system "
                    + "can [A]; how many at once [Inf]"),
        WakeRule(check: .unlockedSinceBoot, stage: .documented,
                 appliesTo: WakeSources(.appRefreshTask, .processingTask, .silentPush, .sessionEvents, .discretionarySessionEvents),
                 denial: .beforeFirstUnlock, isDeviceCondition: true,
                 source: "until the first unlock after a restart the app's data (complete until first user authentication) "
                    + "cannot be read, Apple Platform Security [A]; so no background launches [Inf]"),
        WakeRule(check: .earliestBeginDate, stage: .documented, appliesTo: .taskRequests, denial: .notDue, isDeviceCondition: false,
                 source: "BGTaskRequest.earliestBeginDate [A]"),
        WakeRule(check: .backgroundAppRefresh, stage: .documented,
                 appliesTo: WakeSources(.appRefreshTask, .processingTask, .silentPush, .sessionEvents),
                 denial: .backgroundAppRefreshOff, isDeviceCondition: false,
                 source: "WWDC 2020 10063 [A-via]; UIApplication.backgroundRefreshStatus [A]"),
        WakeRule(check: .appSwitcher, stage: .documented,
                 appliesTo: WakeSources(.appRefreshTask, .processingTask, .sessionEvents, .discretionarySessionEvents),
                 denial: .forceQuit, isDeviceCondition: false,
                 source: "WWDC 2020 10063 [A-via]; a force-quit ends background launches until the user opens the app [A] "
                    + "(pushes: the first rule)"),
        WakeRule(check: .lowDataMode, stage: .documented,
                 appliesTo: WakeSources(.appRefreshTask, .processingTask, .silentPush, .sessionEvents),
                 denial: .lowDataMode, isDeviceCondition: true,
                 source: "Low Data Mode turns Background App Refresh off, Apple Support \"Use Low Data Mode on your iPhone\" [A]; "
                    + "the doors Background App Refresh governs [A-via]"),
        WakeRule(check: .appUsedRecently, stage: .documented,
                 appliesTo: WakeSources(.silentPush, .sessionEvents, .discretionarySessionEvents), denial: .appNotUsedRecently,
                 isDeviceCondition: false,
                 source: "pushes not delivered \"if the user has not launched the app for a while\", forum thread 776933 [A-DTS]; "
                    + "app usage applies to a URL session's launch event upon completion, attendees' notes of WWDC 2020 10063 "
                    + "[A-via] (not in the WWDCNotes summary), to a "
                    + "discretionary session's too [Inf]; a while as refreshRecencyDays [Inf]"),
        WakeRule(check: .deviceIdle, stage: .documented, appliesTo: WakeSources(.processingTask), denial: .deviceInUse,
                 isDeviceCondition: true, source: "BGProcessingTaskRequest: runs while the device is idle [A]"),
        WakeRule(check: .externalPower, stage: .documented, appliesTo: WakeSources(.processingTask), denial: .requiresExternalPower,
                 isDeviceCondition: true, source: "BGProcessingTaskRequest.requiresExternalPower [A]"),
        WakeRule(check: .networkConnectivity, stage: .documented, appliesTo: WakeSources(.processingTask),
                 denial: .requiresNetworkConnectivity, isDeviceCondition: true,
                 source: "BGProcessingTaskRequest.requiresNetworkConnectivity [A]"),
        WakeRule(check: .lowPowerMode, stage: .documented, appliesTo: WakeSources(.appRefreshTask, .silentPush, .sessionEvents),
                 denial: .lowPowerMode, isDeviceCondition: true,
                 source: "Low Power Mode pauses Background App Refresh [A]; WWDC 2020 10063 [A-via]"),
        WakeRule(check: .lowPowerModeOnBattery, stage: .documented, appliesTo: WakeSources(.processingTask), denial: .lowPowerMode,
                 isDeviceCondition: true, source: "processing in Low Power Mode only on the charger [Inf]"),
        WakeRule(check: .batteryFloor, stage: .discretion,
                 appliesTo: WakeSources(.appRefreshTask, .processingTask, .silentPush, .sessionEvents),
                 denial: .batteryFloor, isDeviceCondition: false,
                 source: "critically low battery: \"below 20 %, essential work only\", WWDC 2020 10063 [A-via]"),
        WakeRule(check: .thermalState, stage: .discretion, appliesTo: .taskRequests, denial: .thermalState, isDeviceCondition: false,
                 source: "thermal state serious or worse [Inf]"),
        WakeRule(check: .pushThrottle, stage: .discretion, appliesTo: WakeSources(.silentPush), denial: .rateLimit,
                 isDeviceCondition: false,
                 source: "the system \"may throttle\" background pushes [A]; the device's budgets, \"up to several\" an hour across all apps, "
                    + "reset every 24 hours, forum thread 776933 [A-DTS]; bursts then an hour of none, firebase-ios-sdk 7072, "
                    + "quickstart-ios 258 [O]; sizes and the other apps' pushes [Inf]"),
        WakeRule(check: .sessionLaunchRateLimit, stage: .discretion,
                 appliesTo: WakeSources(.sessionEvents, .discretionarySessionEvents), denial: .rateLimit, isDeviceCondition: false,
                 source: "rate limiting applies to a URL session's launch event upon completion, attendees' notes of WWDC 2020 "
                    + "10063 [A-via]; "
                    + "the limit as the daemon's resume rate limiter (its delay since the last background launch or resume "
                    + "for events), forum thread 14854 [A-DTS], applied to the launch [Inf]; to a discretionary session's "
                    + "too [Inf]"),
        WakeRule(check: .launchModel, stage: .discretion, appliesTo: .taskRequests, denial: nil, isDeviceCondition: false,
                 source: "the launch model (app usage, rate limits, idleness, budgets): WWDC 2020 10063 [A-via], calibration [Inf]"),
        WakeRule(check: .budgets, stage: .discretion,
                 appliesTo: WakeSources(.silentPush, .sessionEvents, .discretionarySessionEvents), denial: nil, isDeviceCondition: false,
                 source: "energy and data budgets, WWDC 2020 10063 [A-via]; sizes [Inf]"),
        WakeRule(check: .throttle, stage: .afterChoice, appliesTo: WakeSources(.appRefreshTask, .processingTask, .silentPush),
                 denial: .throttled, isDeviceCondition: false,
                 source: "apps that overrun are \"throttled for future background task requests\", WWDC 2022 10142 [A-DTS]; "
                    + "pushes, as rate limiting applies to them [Inf]"),
    ]

    /// The rules that apply to `source`, in the order they are checked.
    package static func rules(for source: WakeSource) -> [WakeRule] {
        table.filter { $0.applies(to: source) }
    }

    /// A rule as the admission walks it: what it checks and says, without its source text, so
    /// that walking a plan copies no string.
    struct Step {
        let check: Check
        let stage: Stage
        let denial: LaunchDenial?
        let isDeviceCondition: Bool
    }

    /// The steps for each source (indexed by its raw value): ``table``'s rules that apply to it,
    /// in order. Computed once.
    static let plans: [[Step]] = WakeSource.allCases.map { source in
        rules(for: source).map { Step(check: $0.check, stage: $0.stage, denial: $0.denial, isDeviceCondition: $0.isDeviceCondition) }
    }

    /// ``plans`` without the device conditions, for a launch model that replays logged
    /// decisions (the log's decisions already met them). Computed once.
    static let plansWithoutDeviceConditions: [[Step]] = plans.map { $0.filter { !$0.isDeviceCondition } }
}
