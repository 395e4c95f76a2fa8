/// The `os` and `metricKit` groups of a run's report: what the iOS model granted the app and
/// how the app's processes ended. Every field is documented in `docs/OUTPUT.md`.
public struct SystemReport: Sendable, Equatable {
    public var metrics: SystemMetrics
    public var days: Int

    var dayCount: Double { Swift.max(1, Double(days)) }

    public var refreshLaunchesPerDay: Double { Double(metrics.refreshLaunches) / dayCount }
    public var processingLaunchesPerDay: Double { Double(metrics.processingLaunches) / dayCount }
    public var continuedProcessingLaunchesPerDay: Double { Double(metrics.continuedProcessingLaunches) / dayCount }
    /// Cold launches and resumes of the app in the background, for any reason (tasks, a URL
    /// session's events, pushes), a day.
    public var backgroundWakesPerDay: Double { Double(metrics.backgroundWakes) / dayCount }
    public var expirationsPerDay: Double { Double(metrics.expirations) / dayCount }
    public var backgroundRunSecondsPerDay: Double { metrics.backgroundSeconds / dayCount }
    /// Tasks completed with `success: false`, by the app or by the system for a task whose
    /// expiration handler did not complete it, a day.
    public var tasksCompletedFalsePerDay: Double { Double(metrics.tasksCompletedUnsuccessfully) / dayCount }
    /// Crashes over the run: the task scheduler's rules broken and the app's own code that could
    /// not go on.
    public var crashes: Int { metrics.registrationCrashes + metrics.unregisteredLaunchCrashes + metrics.appCodeCrashes }
    /// Kills for the app's own overruns over the run (an assertion or a task past its time, the
    /// CPU monitor); terminations for memory are the system's and are not counted.
    public var killsForOverruns: Int { metrics.backgroundTaskAssertionTimeoutExits + metrics.cpuResourceLimitExits }
    public var launchesWhileChargingShare: Double {
        metrics.launches > 0 ? Double(metrics.launchesWhileCharging) / Double(metrics.launches) : 0
    }

    /// The `os` group.
    package var osJSON: JSONValue {
        .object([
            ("refreshLaunchesPerDay", .number(rounded(refreshLaunchesPerDay))),
            ("processingLaunchesPerDay", .number(rounded(processingLaunchesPerDay))),
            ("continuedProcessingLaunchesPerDay", .number(rounded(continuedProcessingLaunchesPerDay))),
            ("backgroundProcessLaunches", .number(Double(metrics.backgroundProcessLaunches))),
            ("backgroundWakesPerDay", .number(rounded(backgroundWakesPerDay))),
            ("expirationsPerDay", .number(rounded(expirationsPerDay))),
            ("expirationsByCause", .object(ExpirationCause.allCases.map { ($0.rawValue, .number(Double(metrics.expirations($0)))) })),
            ("tasksCompleted", .object([
                ("success", .number(Double(metrics.tasksCompletedSuccessfully))),
                ("failure", .number(Double(metrics.tasksCompletedUnsuccessfully))),
                ("duplicateCalls", .number(Double(metrics.duplicateCompletions))),
            ])),
            ("tasksCompletedFalsePerDay", .number(rounded(tasksCompletedFalsePerDay))),
            ("backgroundRunSecondsPerDay", .number(rounded(backgroundRunSecondsPerDay))),
            ("submits", .number(Double(metrics.submits))),
            ("submitErrors", .object(TaskSchedulerError.Code.allCases.map {
                ($0.name, .number(Double(metrics.submitErrorsByCode[$0])))
            })),
            ("throttledLaunches", .number(Double(metrics.throttledLaunches))),
            ("launchDecisions", .object([TaskRequest.Kind.appRefresh, .processing].map { kind in
                (kind.name, .object([
                    ("launched", .number(Double(metrics.launchDecisions.launched(kind)))),
                    ("notLaunched", .object(LaunchDenial.allCases.map { ($0.rawValue, .number(Double(metrics.launchDecisions.count(kind, $0)))) })),
                ]))
            })),
            ("killsForOverruns", .number(Double(killsForOverruns))),
            ("assertionsBegun", .number(Double(metrics.assertionsBegun))),
            ("assertionExpirations", .number(Double(metrics.assertionExpirations))),
            ("crashes", .object([
                ("total", .number(Double(crashes))),
                ("registration", .number(Double(metrics.registrationCrashes))),
                ("noLaunchHandler", .number(Double(metrics.unregisteredLaunchCrashes))),
                ("appCode", .number(Double(metrics.appCodeCrashes))),
                ("appCodeByReason", .object(CrashReason.allCases.filter(\.isAppCode).map { ($0.rawValue, .number(Double(metrics.crashes($0)))) })),
            ])),
            ("backgroundURLSession", .object([
                ("transfersCreated", .number(Double(metrics.sessionTransfersCreated))),
                ("transfersCancelled", .number(Double(metrics.sessionTransfersCancelled))),
                ("relaunches", .number(Double(metrics.sessionRelaunches))),
                ("relaunchesDeferred", .number(Double(metrics.sessionRelaunchesDeferred))),
                ("completionHandlersNotCalled", .number(Double(metrics.sessionCompletionHandlersNotCalled))),
            ])),
            ("silentPushes", .object([
                ("sent", .number(Double(metrics.pushesSent))),
                ("coalesced", .number(Double(metrics.pushesCoalesced))),
                ("discarded", .number(Double(metrics.pushesDiscarded))),
                ("deferred", .number(Double(metrics.pushesDeferred))),
                ("delivered", .number(Double(metrics.pushesDelivered))),
                ("kills", .number(Double(metrics.pushKills))),
            ])),
            ("launchHourHistogram", .array(metrics.launchHourHistogram.map { .number(Double($0)) })),
            ("launchesWhileChargingShare", .number(rounded(launchesWhileChargingShare))),
        ])
    }

    /// The `metricKit` group, named after `MXBackgroundExitData` and `MXAppRunTimeMetric`.
    package var metricKitJSON: JSONValue {
        .object([
            ("cumulativeNormalAppExitCount", .number(Double(metrics.normalAppExits))),
            ("cumulativeAbnormalExitCount", .number(Double(metrics.abnormalExits))),
            ("cumulativeAppWatchdogExitCount", .number(0)),   // launch-time watchdog: not modelled
            ("cumulativeBackgroundTaskAssertionTimeoutExitCount", .number(Double(metrics.backgroundTaskAssertionTimeoutExits))),
            ("cumulativeCPUResourceLimitExitCount", .number(Double(metrics.cpuResourceLimitExits))),
            ("cumulativeMemoryPressureExitCount", .number(Double(metrics.memoryPressureExits))),
            ("cumulativeMemoryResourceLimitExitCount", .number(0)),
            ("cumulativeSuspendedWithLockedFileExitCount", .number(0)),
            ("cumulativeForegroundTime", .number(rounded(metrics.foregroundSeconds))),
            ("cumulativeBackgroundTime", .number(rounded(metrics.backgroundSeconds))),
        ])
    }
}
