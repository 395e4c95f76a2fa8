/// The parameters of ``CoverDropPush``: CoverDrop's message sending woken by silent pushes
/// from its server instead of app refresh tasks, a door the app does not use
/// (guardian/coverdrop at `a43016f`) [Inf].
package struct CoverDropPushParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// Least time between two successful runs, in minutes (the shipped one-hour limit [C]).
    package var minimumRunIntervalMinutes: Double = 60

    /// Most messages sent in one run. [C].
    package var messagesPerRun = 2

    /// When the app calls the push's completion handler at the latest, in seconds after the push:
    /// the system gives 30 s [A]. [Inf].
    package var handlerDeadlineSeconds: Double = 25
}

extension CoverDropPushParameters {
    package static let numberFields: [NumberField<CoverDropPushParameters>] = [
        NumberField("minimumRunIntervalMinutes", \.minimumRunIntervalMinutes, valid: 0...1_440),
        NumberField("messagesPerRun", \.messagesPerRun, valid: 1...1_000),
        NumberField("handlerDeadlineSeconds", \.handlerDeadlineSeconds, valid: 1...29),
    ]
}
