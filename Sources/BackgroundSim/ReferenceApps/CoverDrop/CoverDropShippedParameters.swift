/// The parameters of ``CoverDropShipped`` (the Guardian's CoverDrop message sending as its iOS
/// code ships it). Every default is the app's own [C], from guardian/coverdrop at `a43016f`
/// under `ios/reference/CoverDropCore/Sources/CoverDropCore/`: `Services/BackgroundTaskService.swift`
/// (the delays) and `CoverDropConfig.swift` (the rate limit and the messages per run), except
/// where marked.
package struct CoverDropShippedParameters: PolicyParameters {
    /// The defaults: the build shipped now.
    package init() {}

    /// The task identifier. Default "com.theguardian.coverdrop.reference.refresh" (the
    /// identifier the app's own debugging notes use).
    package var identifier = "com.theguardian.coverdrop.reference.refresh"

    /// The request: `refresh` (`BGAppRefreshTaskRequest`, no requirements; the build shipped now,
    /// and `e0bd24a`) or `processing` (`BGProcessingTaskRequest` with
    /// `requiresNetworkConnectivity = true`, `requiresExternalPower = false`: the build of
    /// `2ebee75`, July 2025). Default refresh.
    package var requestKind: RecipeTaskKind = .refresh

    /// Whether the task handler submits the next request before it runs the job (added in
    /// `8ee46ab`, August 2025; absent from `e0bd24a` and `2ebee75`). Default true.
    package var resubmitsInHandler = true

    /// Mean of the exponential delay before a scheduled run, in minutes, before clamping
    /// (`expectedMeanDelaySeconds = 10*60`). Clamped, the mean is about 11.1 min and about 39 % of
    /// draws land on the minimum.
    package var meanDelayMinutes: Double = 10

    /// The clamp of the delays, in minutes (`minDelaySeconds = 5*60`, `maxDelaySeconds = 120*60`).
    /// The minimum at most the maximum.
    package var minimumDelayMinutes: Double = 5
    package var maximumDelayMinutes: Double = 120

    /// Minutes added to the request a foreground or launch submits (`extraDelaySeconds = 10*60`).
    package var failsafeExtraMinutes: Double = 10

    /// Least time between two runs that send, in minutes, on the device clock
    /// (`minDurationBetweenBackgroundRunsInSecs = 3600`); a run that comes sooner is skipped and,
    /// in a task, completes with false.
    package var minimumRunIntervalMinutes: Double = 60

    /// Messages every run sends (`numMessagesPerBackgroundRun = 2`): real messages from the queue
    /// first [Inf], padded with cover messages to this number.
    package var messagesPerRun = 2

    /// Bytes on the wire of one message, real or cover: the 773-byte encrypted user-to-CoverNode
    /// message (`userToCovernodeEncryptedMessageLen` in `generated/Constants.swift`) with its
    /// request's encoding and headers [Inf]. Give the scenario's real messages the same size
    /// (`work.uploadMedianKilobytes: 1`, `uploadSigma: 0`): every send is the same size, which is
    /// the point of cover traffic.
    package var messageBytes: Double = 1_000

    /// Whether the jobs one process starts run at the same time, as the code lets them
    /// (`CoverDropService.swift` runs the launch's job in its own `Task` once the library has
    /// started, while the task handler's `Task` waits for the library and then runs its own, in
    /// `BackgroundTaskService.swift`). Both read the last run's time before their sends and
    /// write it after (`BackgroundMessageSendJob.swift`), so both pass the hourly limit; each
    /// send peeks at the queue's head, sends it and then dequeues the head
    /// (`PublicDataRepository.trySendMessageAndDequeue`, `PrivateSendingQueueRepository.dequeue`).
    /// Both peek before either dequeues (they start within a millisecond and a send takes far
    /// longer), so the first send goes out twice; after it the job whose send ends first peeks
    /// after its own dequeue and before the other's, so they send different messages. A pair of
    /// runs of 2 sends each sends m1 twice, m2 and m3 once, and dequeues m1–m4: m4 is lost
    /// (``WorkEngine/start(limit:senders:)``) [C; which job finishes first, our inference].
    /// `false` runs them one after the other (the reading our earlier model, and the recipe
    /// language, take). Default true [C].
    package var jobsOverlap = true

    /// Seconds the library takes to start in every new process, background launches included,
    /// before any job runs: the status and public-key look-ups (from their on-disk caches while
    /// those are fresh, else over the network), the sending queue, the encrypted storage, the
    /// device checks and a dead-drop download (`CoverDropService.ensureInitializedAsync`). [Inf: a
    /// few HTTPS round trips]. Without a network the requests fail at once and the start falls back
    /// on the caches (`CacheableApiRepository`): it takes no time [Inf]. The bytes it moves are not
    /// charged to the radio (the process's running time is).
    package var libraryStartSeconds: Double = 3

    /// Chance that a library start fails: the app then runs no job until the next return to the
    /// foreground starts it again, and a task waiting for it completes with false
    /// (`getLibraryBlocking` throws, `BackgroundTaskService.swift`). It fails when the public keys
    /// cannot be loaded and verified; with the on-disk caches that is rare after the first start
    /// (keys out of date with no network). [Inf: no published rate].
    package var libraryStartFailureProbability: Double = 0

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
        if maximumDelayMinutes >= 0 && maximumDelayMinutes <= 1_440 {
            // Within its own range (numberFields), it must also not be below the minimum.
            v.check(maximumDelayMinutes, from: minimumDelayMinutes, to: 1_440, "maximumDelayMinutes")
        }
    }
}

extension CoverDropShippedParameters {
    /// Its bounded delays, and the failsafe's minutes more. Not its hourly limit: the shipped
    /// code measures it from a run's start, so two runs' ends may be closer than an hour by the
    /// first run's length.
    package var promises: [PolicyPromise] {
        let upper = failsafeExtraMinutes + maximumDelayMinutes
        guard minimumDelayMinutes <= upper else { return [] }
        return [.earliestBeginWithin(identifier: identifier, minutes: minimumDelayMinutes...upper)]
    }
}

extension CoverDropShippedParameters {
    package static let numberFields: [NumberField<CoverDropShippedParameters>] = [
        NumberField("meanDelayMinutes", \.meanDelayMinutes, valid: 1...1_440),
        NumberField("minimumDelayMinutes", \.minimumDelayMinutes, valid: 0...1_440),
        NumberField("maximumDelayMinutes", \.maximumDelayMinutes, valid: 0...1_440),
        NumberField("failsafeExtraMinutes", \.failsafeExtraMinutes, valid: 0...1_440),
        NumberField("minimumRunIntervalMinutes", \.minimumRunIntervalMinutes, valid: 0...1_440),
        NumberField("messagesPerRun", \.messagesPerRun, valid: 1...8),
        NumberField("messageBytes", \.messageBytes, valid: 1...1e6),
        NumberField("libraryStartSeconds", \.libraryStartSeconds, valid: 0...60, plausible: 1...10),
        NumberField("libraryStartFailureProbability", \.libraryStartFailureProbability, valid: 0...1, plausible: 0...0.05),
    ]
}
