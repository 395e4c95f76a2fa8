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
    /// (`expectedMeanDelaySeconds = 10*60`). Default 10; valid 1–1,440. Clamped, the mean is
    /// about 11.1 min and about 39 % of draws land on the minimum.
    package var meanDelayMinutes: Double = 10

    /// The clamp of the delays, in minutes (`minDelaySeconds = 5*60`, `maxDelaySeconds = 120*60`).
    /// Defaults 5 and 120; valid 0–1,440, minimum ≤ maximum.
    package var minimumDelayMinutes: Double = 5
    package var maximumDelayMinutes: Double = 120

    /// Minutes added to the request a foreground or launch submits (`extraDelaySeconds = 10*60`).
    /// Default 10; valid 0–1,440.
    package var failsafeExtraMinutes: Double = 10

    /// Least time between two runs that send, in minutes, on the device clock
    /// (`minDurationBetweenBackgroundRunsInSecs = 3600`); a run that comes sooner is skipped and,
    /// in a task, completes with false. Default 60; valid 0–1,440.
    package var minimumRunIntervalMinutes: Double = 60

    /// Messages every run sends (`numMessagesPerBackgroundRun = 2`): real messages from the
    /// queue first [Inf], padded with cover messages to this number. Default 2; valid 1–8.
    package var messagesPerRun = 2

    /// Bytes on the wire of one message, real or cover: the 773-byte encrypted user-to-CoverNode
    /// message (`userToCovernodeEncryptedMessageLen` in `generated/Constants.swift`) with its
    /// request's encoding and headers [Inf]. Default 1,000; valid 1–10⁶. Give the scenario's real
    /// messages the same size (`work.uploadMedianKilobytes: 1`, `uploadSigma: 0`): every send is
    /// the same size, which is the point of cover traffic.
    package var messageBytes: Double = 1_000

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
        v.check(meanDelayMinutes, 1...1_440, "meanDelayMinutes")
        v.check(minimumDelayMinutes, 0...1_440, "minimumDelayMinutes")
        v.check(maximumDelayMinutes, from: minimumDelayMinutes, to: 1_440, "maximumDelayMinutes")
        v.check(failsafeExtraMinutes, 0...1_440, "failsafeExtraMinutes")
        v.check(minimumRunIntervalMinutes, 0...1_440, "minimumRunIntervalMinutes")
        v.check(messagesPerRun, 1...8, "messagesPerRun")
        v.check(messageBytes, 1...1e6, "messageBytes")
    }
}
