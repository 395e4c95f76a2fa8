/// The parameters of ``CoverDropDesigned`` (the Guardian's CoverDrop message sending as
/// designed); defaults from the "Background message sending" design document in
/// guardian/coverdrop (`docs/background_message_sending.md`, unchanged since `e0bd24a`), and,
/// where the document gives no number, the shipped code's (guardian/coverdrop at `a43016f`,
/// `ios/reference/CoverDropCore/Sources/CoverDropCore/`) [C].
package struct CoverDropDesignedParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The refresh task's identifier. Default "com.theguardian.coverdrop.reference.refresh".
    package var identifier = "com.theguardian.coverdrop.reference.refresh"

    /// Least time between two successful runs, in minutes (`minDurationBetweenBackgroundRunsInSecs`,
    /// one hour in production). Default 60; valid 0–1,440.
    package var minimumRunIntervalMinutes: Double = 60

    /// Most messages sent in one run ("up to a configured limit"). Default 2 [C]
    /// (`numMessagesPerBackgroundRun` in the app's configuration); valid 1–1,000.
    package var messagesPerRun = 2

    /// Lower bound of the exponential delays, in minutes. Default 5 (the design: "exponential
    /// delay between 5-120 mins"); valid 0–1,440.
    package var minimumDelayMinutes: Double = 5

    /// Upper bound of the exponential delays, in minutes. Default 120 (the design); valid from
    /// ``minimumDelayMinutes`` to 1,440.
    package var maximumDelayMinutes: Double = 120

    /// Mean of the random exponential delay before a scheduled run, in minutes, before bounding.
    /// Default 10 [C] (the design gives only the bounds; the shipped code's
    /// `expectedMeanDelaySeconds` in `Services/BackgroundTaskService.swift`); valid 1–1,440.
    package var meanDelayMinutes: Double = 10

    /// The failsafe's fixed part, in minutes ("10 mins delay + exponential delay"). Default 10;
    /// valid 0–1,440.
    package var failsafeBaseMinutes: Double = 10

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
        v.check(minimumRunIntervalMinutes, 0...1_440, "minimumRunIntervalMinutes")
        v.check(messagesPerRun, 1...1_000, "messagesPerRun")
        v.check(minimumDelayMinutes, 0...1_440, "minimumDelayMinutes")
        v.check(maximumDelayMinutes, from: minimumDelayMinutes, to: 1_440, "maximumDelayMinutes")
        v.check(meanDelayMinutes, 1...1_440, "meanDelayMinutes")
        v.check(failsafeBaseMinutes, 0...1_440, "failsafeBaseMinutes")
    }
}

extension CoverDropDesignedParameters {
    /// Its bounded delays — the backoff's 5–120 min, and the failsafe's minutes more — and its
    /// hourly limit on the device clock. None when the delays are out of order (an invalid
    /// scenario, which validation reports).
    package var promises: [PolicyPromise] {
        let upper = failsafeBaseMinutes + maximumDelayMinutes
        guard minimumDelayMinutes <= upper else { return [] }
        return [.earliestBeginWithin(identifier: identifier, minutes: minimumDelayMinutes...upper),
                .minimumRunInterval(minutes: minimumRunIntervalMinutes)]
    }
}
