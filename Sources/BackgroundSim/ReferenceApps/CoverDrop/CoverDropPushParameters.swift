/// The parameters of ``CoverDropPush``: CoverDrop's message sending woken by silent pushes
/// from its server instead of app refresh tasks, a door the app does not use
/// (guardian/coverdrop at `a43016f`) [Inf].
package struct CoverDropPushParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// Least time between two successful runs, in minutes (the shipped one-hour limit [C]).
    /// Default 60; valid 0–1,440.
    package var minimumRunIntervalMinutes: Double = 60

    /// Most messages sent in one run. Default 2 [C]; valid 1–1,000.
    package var messagesPerRun = 2

    /// When the app calls the push's completion handler at the latest, in seconds after the
    /// push: the system gives 30 s [A]. Default 25 [Inf]; valid 1–29.
    package var handlerDeadlineSeconds: Double = 25

    package func validate(_ v: inout ParameterValidator) {
        v.check(minimumRunIntervalMinutes, 0...1_440, "minimumRunIntervalMinutes")
        v.check(messagesPerRun, 1...1_000, "messagesPerRun")
        v.check(handlerDeadlineSeconds, 1...29, "handlerDeadlineSeconds")
    }
}
