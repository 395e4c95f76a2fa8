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

    /// Least time between two successful runs, in minutes
    /// (`minDurationBetweenBackgroundRunsInSecs`, one hour in production).
    package var minimumRunIntervalMinutes: Double = 60

    /// Most messages sent in one run ("up to a configured limit"). [C]
    /// (`numMessagesPerBackgroundRun` in the app's configuration).
    package var messagesPerRun = 2

    /// Lower bound of the exponential delays, in minutes; the default is the design's "exponential
    /// delay between 5-120 mins".
    package var minimumDelayMinutes: Double = 5

    /// Upper bound of the exponential delays, in minutes (the design's); at least
    /// ``minimumDelayMinutes``.
    package var maximumDelayMinutes: Double = 120

    /// Mean of the random exponential delay before a scheduled run, in minutes, before bounding.
    /// [C] (the design gives only the bounds; the shipped code's `expectedMeanDelaySeconds` in
    /// `Services/BackgroundTaskService.swift`).
    package var meanDelayMinutes: Double = 10

    /// The failsafe's fixed part, in minutes ("10 mins delay + exponential delay").
    package var failsafeBaseMinutes: Double = 10

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
        if maximumDelayMinutes >= 0 && maximumDelayMinutes <= 1_440 {
            // Within its own range (numberFields), it must also not be below the minimum.
            v.check(maximumDelayMinutes, from: minimumDelayMinutes, to: 1_440, "maximumDelayMinutes")
        }
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

extension CoverDropDesignedParameters {
    package static let numberFields: [NumberField<CoverDropDesignedParameters>] = [
        NumberField("minimumRunIntervalMinutes", \.minimumRunIntervalMinutes, valid: 0...1_440),
        NumberField("messagesPerRun", \.messagesPerRun, valid: 1...1_000),
        NumberField("minimumDelayMinutes", \.minimumDelayMinutes, valid: 0...1_440),
        NumberField("maximumDelayMinutes", \.maximumDelayMinutes, valid: 0...1_440),
        NumberField("meanDelayMinutes", \.meanDelayMinutes, valid: 1...1_440),
        NumberField("failsafeBaseMinutes", \.failsafeBaseMinutes, valid: 0...1_440),
    ]
}
