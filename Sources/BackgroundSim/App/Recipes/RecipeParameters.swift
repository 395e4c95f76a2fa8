/// A background policy described as data: `app.policy = {"name": "recipe", "parameters": {…}}`.
/// The patterns real apps use — which request, when it may begin, when it is submitted, how
/// failures are retried, what a run does and how it completes, and the other doors (a
/// background URL session, silent pushes, a continued-processing request) — each a field with a
/// default, so a team without Swift can describe and sweep its policy (docs/RECIPES.md has
/// examples).
package struct RecipeParameters: PolicyParameters {
    package init() {}

    // MARK: The request

    /// The task identifier (it must be in `app.permittedIdentifiers`; for `continuedProcessing`
    /// a wildcard ending in `.*`, each request adding a number to its prefix, counted from 1 in
    /// each process). Default "recipe.task".
    package var identifier = "recipe.task"
    /// `refresh` (`BGAppRefreshTaskRequest`), `processing` (`BGProcessingTaskRequest`),
    /// `continuedProcessing` (`BGContinuedProcessingTaskRequest`, iOS 26: submitted when the user
    /// starts work — at a user launch and on every return to the foreground, with work queued
    /// and no continued task running — and running until the queue is empty) or `none` (no
    /// task: the recipe works in the app, its extension, a background URL session or on silent
    /// pushes). With `continuedProcessing` and `none` the `submit…` fields, the delay rule and
    /// the retry rule do not apply. Default refresh.
    package var kind: RecipeTaskKind = .refresh
    /// `continuedProcessing` only: what `submit` does when the task cannot start at once,
    /// `queue` (wait for a slot; Apple's default [A]) or `fail`. Default queue.
    package var continuedProcessingStrategy = ContinuedProcessingTaskRequest.SubmissionStrategy.queue
    /// Processing only: `requiresNetworkConnectivity`. Default false.
    package var requiresNetworkConnectivity = false
    /// Processing only: `requiresExternalPower`. Default false.
    package var requiresExternalPower = false

    // MARK: When it may begin

    /// How `earliestBeginDate` is set: `fixed` (now + ``delayMinutes``), `exponential` (an
    /// exponential draw with mean ``delayMinutes``, clamped to ``minimumDelayMinutes`` …
    /// ``maximumDelayMinutes``) or `nextWindow` (the next local day at ``windowTime`` plus a
    /// uniform 0 … ``windowJitterMinutes`` whole minutes). Default fixed.
    package var delayRule: RecipeDelayRule = .fixed
    /// The fixed delay, or the exponential's mean, in minutes.
    package var delayMinutes: Double = 15
    /// The exponential's clamp, in minutes; the minimum at most the maximum.
    package var minimumDelayMinutes: Double = 0
    package var maximumDelayMinutes: Double = 10_080
    /// `nextWindow`: the local time the window opens, "HH:MM". Default 03:00.
    package var windowTime = TimeOfDay(hour: 3)
    /// `nextWindow`: a random delay after the window opens, in whole minutes, uniform over 0 … this
    /// (both included; a fraction is dropped), as apps draw it (a random whole number of minutes
    /// over `0...60`).
    package var windowJitterMinutes: Double = 60
    /// Minutes added to the request a launch submits (a failsafe on start).
    package var launchExtraMinutes: Double = 0
    /// Minutes added to the request a return to the foreground submits.
    package var foregroundExtraMinutes: Double = 0

    // MARK: A second, scheduler request

    /// A second task identifier, for a "scheduler" request submitted with every request of the
    /// recipe's: a processing request with no requirements for the next local day at
    /// ``schedulerWindowTime`` plus a uniform 0 … ``windowJitterMinutes``, whose handler submits
    /// both requests again and completes with success (Zashi's `co.electriccoin.scheduler`).
    /// Empty (the default) for none; it must then also be in `app.permittedIdentifiers`.
    package var schedulerIdentifier = ""
    /// When the scheduler request's window opens, local time "HH:MM". Default 14:00.
    package var schedulerWindowTime = TimeOfDay(hour: 14)

    // MARK: When it is submitted

    /// On entering the background. Default true.
    package var submitOnEnterBackground = true
    /// On every process launch (foreground or background), with ``launchExtraMinutes`` added. Default false.
    package var submitOnLaunch = false
    /// On every return to the foreground. Default false.
    package var submitOnForeground = false
    /// First thing in the task's handler, as Apple advises. Default true.
    package var submitInHandler = true
    /// After a run that completed with success. Default false.
    package var submitAfterSuccess = false
    /// After a run that completed without success, using the retry rule. Default false.
    package var submitAfterFailure = false
    /// A pending flag, kept across launches: the submissions on entering the background, at
    /// launch and on returning to the foreground set it, a run that does its work clears it,
    /// and at every launch and every return to the foreground a set flag makes the app run
    /// first (in the app, without a task) and submit when that run ends — CoverDrop's fallback
    /// for runs the system never gave. Default false.
    package var runWhenPending = false

    // MARK: Retrying

    /// The delay after a failed run (with ``submitAfterFailure``): `none` (the usual rule),
    /// `doubling` (``retryMinimumMinutes`` × 2^(failures − 1), at most ``retryMaximumMinutes``;
    /// a success resets the count) or `random` (uniform between the two). Default none.
    package var retryRule: RecipeRetryRule = .none
    /// The retries' bounds, in minutes; the minimum at most the maximum.
    package var retryMinimumMinutes: Double = 5
    package var retryMaximumMinutes: Double = 120

    // MARK: What a run does

    /// A run that starts within this many minutes of the last successful one (on the device clock)
    /// does nothing and completes without success; 0 (the default) sets no limit.
    package var minimumIntervalMinutes: Double = 0
    /// A run needs Wi-Fi: off Wi-Fi it completes without success at once. Default false.
    package var requiresWifi = false
    /// Items the run completes before it completes: 0 works until the queue is empty.
    package var itemsPerRun = 0
    /// Items the policy itself adds at the start of each run (a sync request, say), each of these
    /// sizes.
    package var enqueuePerRun = 0
    /// Every run sends exactly ``itemsPerRun`` items: queued items first, padded with cover
    /// items (`WorkRequest.isCover`) of the `enqueue…` sizes — CoverDrop's cover traffic.
    /// Default false; needs ``itemsPerRun`` above 0.
    package var padWithCover = false
    /// What a run does without a network: `wait` for it (the work waits), `succeed` at once
    /// (its requests fail at once and it counts them done, as CoverDrop's does) or `fail` at
    /// once. Default wait.
    package var whenOffline: RecipeOfflineRule = .wait
    /// A process the system launched in the background while the phone was locked cannot run
    /// (its keys need the phone unlocked: `AppContext.isProtectedDataAvailable`): its runs
    /// complete without success until the user opens the app (Zashi's wallet). Default false.
    package var needsUnlockedPhoneAtLaunch = false
    /// Bytes up and down and CPU seconds of each added item.
    package var enqueueUploadBytes: Double = 0
    package var enqueueDownloadBytes: Double = 0
    package var enqueueCPUSeconds: Double = 0
    /// Whether the run sets an expiration handler (stop the work, complete without success).
    /// Without one, an overrun is killed by the system. Default true.
    package var setsExpirationHandler = true
    /// `workDone`: success only when the run finished its work; `always`: success whenever it
    /// completes (the expiration handler's completion included). Default workDone.
    package var completion: RecipeCompletion = .workDone

    // MARK: In the foreground and when leaving

    /// Work runs while the app is in the foreground (started at a user launch and on every
    /// return), and stops when it leaves unless the extension holds it. Default false.
    package var workInForeground = false
    /// On leaving with work queued, a `beginBackgroundTask` extension keeps working until the
    /// queue is empty or the extension expires. Default false.
    package var extensionWhenLeaving = false

    // MARK: The other doors

    /// A background `URLSession`'s identifier (`URLSessionConfiguration.background(withIdentifier:)`):
    /// when set, the app's work — in the foreground, in the extension when leaving and in runs —
    /// prepares each item (its CPU time) and hands its transfer to the system, which carries it
    /// whether the app is suspended or terminated; when the session's transfers finish, the
    /// system wakes the app (`handleEventsForBackgroundURLSession`), which hands off whatever is
    /// still queued and calls the completion handler. Empty (the default) for none; up to 128
    /// characters.
    package var sessionIdentifier = ""
    /// The session's `isDiscretionary`. Default false.
    package var sessionIsDiscretionary = false
    /// The session's `allowsCellularAccess`. Default true.
    package var sessionAllowsCellularAccess = true
    /// What a silent push (`didReceiveRemoteNotification`) does: `ignore` (complete with
    /// `.noData` at once) or `run`: with no run in progress (it is doing the work: `.noData`)
    /// and work queued (or added by the run), a run as a task's —
    /// the minimum interval (a run too soon completes `.noData`) and the offline rule included —
    /// completing the push's handler with `.newData` on success, `.failed` otherwise, and at
    /// the latest ``pushDeadlineSeconds`` after it starts, the work stopped. Default ignore.
    package var onPush: RecipePushRule = .ignore
    /// How long a push's run may work before it stops and calls the handler (`.failed`), in
    /// seconds: iOS gives about 30 [A].
    package var pushDeadlineSeconds: Double = 25
    /// At a user launch with work queued (or added by the run) and the network up, run once in
    /// the app, as a task's run (minimum interval included), without a deadline. Default false.
    package var runOnLaunch = false
    /// When a successful run counts as having happened for ``minimumIntervalMinutes``: at its
    /// `start` (the app's clock as the run began, CoverDrop's shipped code; here the simulated device clock) or at its `end`
    /// (when it finished, CoverDrop's design). Default start.
    package var lastSuccessAt: RecipeMoment = .start

    /// The identifiers the recipe registers: its own and its scheduler's (none for kind `none`).
    package var taskIdentifiers: [String]? {
        kind == .none ? [] : [identifier] + (schedulerIdentifier.isEmpty ? [] : [schedulerIdentifier])
    }

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
        if kind == .continuedProcessing {
            v.require(identifier.hasSuffix(".*") && identifier.count > 2, "identifier",
                      "expected a wildcard identifier ending in \".*\" for kind continuedProcessing (each request adds a number)")
        }
        if kind == .continuedProcessing || kind == .none {
            for (name, isSet) in [("submitOnLaunch", submitOnLaunch), ("submitOnForeground", submitOnForeground),
                                  ("submitAfterSuccess", submitAfterSuccess), ("submitAfterFailure", submitAfterFailure),
                                  ("runWhenPending", runWhenPending)] {
                v.require(!isSet, name, "does not apply to kind \(kind.rawValue), which submits no refresh or processing request")
            }
            v.require(schedulerIdentifier.isEmpty, "schedulerIdentifier", "expected none (\"\") for kind \(kind.rawValue)")
            v.require(!requiresNetworkConnectivity, "requiresNetworkConnectivity", "applies to kind \"processing\" only")
            v.require(!requiresExternalPower, "requiresExternalPower", "applies to kind \"processing\" only")
        }
        v.require(sessionIdentifier.count <= 128, "sessionIdentifier", "expected at most 128 characters")
        if !sessionIdentifier.isEmpty {
            v.require(itemsPerRun == 0, "itemsPerRun", "expected 0 with a background session: a run hands off the whole queue")
        }
        if maximumDelayMinutes >= 0 && maximumDelayMinutes <= 10_080 {
            // Within its own range (numberFields), it must also not be below the minimum.
            v.check(maximumDelayMinutes, from: minimumDelayMinutes, to: 10_080, "maximumDelayMinutes")
        }
        v.require(schedulerIdentifier != identifier, "schedulerIdentifier", "expected an identifier other than identifier (or empty for none)")
        if padWithCover {
            v.require(itemsPerRun > 0, "padWithCover", "expected itemsPerRun above 0: runs are padded to that many items")
            v.require(enqueuePerRun == 0, "padWithCover", "expected enqueuePerRun 0: padding decides how many items a run adds")
            v.require(enqueueUploadBytes > 0 || enqueueDownloadBytes > 0 || enqueueCPUSeconds > 0, "padWithCover",
                      "expected the cover items to need some work: enqueueUploadBytes, enqueueDownloadBytes or enqueueCPUSeconds above 0")
        }
        if retryMaximumMinutes >= 0 && retryMaximumMinutes <= 10_080 {
            // Within its own range (numberFields), it must also not be below the minimum.
            v.check(retryMaximumMinutes, from: retryMinimumMinutes, to: 10_080, "retryMaximumMinutes")
        }
        if enqueuePerRun > 0 {
            v.require(enqueueUploadBytes > 0 || enqueueDownloadBytes > 0 || enqueueCPUSeconds > 0, "enqueuePerRun",
                      "expected the added items to need some work: enqueueUploadBytes, enqueueDownloadBytes or enqueueCPUSeconds above 0")
        }
        if kind == .refresh {
            v.require(!requiresNetworkConnectivity, "requiresNetworkConnectivity", "a refresh request has no requirements; use kind \"processing\"")
            v.require(!requiresExternalPower, "requiresExternalPower", "a refresh request has no requirements; use kind \"processing\"")
        }
        v.require(kind == .continuedProcessing || kind == .none || submitOnEnterBackground || submitOnLaunch || submitOnForeground, "submitOnEnterBackground",
                  "expected at least one of submitOnEnterBackground, submitOnLaunch and submitOnForeground (nothing would ever be submitted)")
    }
}

/// The kind of task a recipe requests.
package enum RecipeTaskKind: String, NamedChoice, Sendable {
    case refresh, processing, continuedProcessing, none
}

/// What a recipe does on a silent push.
package enum RecipePushRule: String, NamedChoice, Sendable {
    case ignore, run
}

/// When a recipe's successful run counts as having happened.
package enum RecipeMoment: String, NamedChoice, Sendable {
    case start, end
}

/// How a recipe sets the earliest begin date.
package enum RecipeDelayRule: String, NamedChoice, Sendable {
    case fixed, exponential, nextWindow
}

/// How a recipe delays the request after a failed run.
package enum RecipeRetryRule: String, NamedChoice, Sendable {
    case none, doubling, random
}

/// When a recipe's run reports success.
package enum RecipeCompletion: String, NamedChoice, Sendable {
    case workDone, always
}

/// What a recipe's run does without a network.
package enum RecipeOfflineRule: String, NamedChoice, Sendable {
    case wait, succeed, fail
}

extension RecipeParameters {
    package static let numberFields: [NumberField<RecipeParameters>] = [
        NumberField("pushDeadlineSeconds", \.pushDeadlineSeconds, valid: 1...29),
        NumberField("delayMinutes", \.delayMinutes, valid: 0...10_080),
        NumberField("minimumDelayMinutes", \.minimumDelayMinutes, valid: 0...10_080),
        NumberField("maximumDelayMinutes", \.maximumDelayMinutes, valid: 0...10_080),
        NumberField("windowJitterMinutes", \.windowJitterMinutes, valid: 0...1_440),
        NumberField("launchExtraMinutes", \.launchExtraMinutes, valid: 0...10_080),
        NumberField("foregroundExtraMinutes", \.foregroundExtraMinutes, valid: 0...10_080),
        NumberField("retryMinimumMinutes", \.retryMinimumMinutes, valid: 0...10_080),
        NumberField("retryMaximumMinutes", \.retryMaximumMinutes, valid: 0...10_080),
        NumberField("minimumIntervalMinutes", \.minimumIntervalMinutes, valid: 0...10_080),
        NumberField("itemsPerRun", \.itemsPerRun, valid: 0...10_000),
        NumberField("enqueuePerRun", \.enqueuePerRun, valid: 0...1_000),
        NumberField("enqueueUploadBytes", \.enqueueUploadBytes, valid: 0...1e10),
        NumberField("enqueueDownloadBytes", \.enqueueDownloadBytes, valid: 0...1e10),
        NumberField("enqueueCPUSeconds", \.enqueueCPUSeconds, valid: 0...86_400),
    ]
}
