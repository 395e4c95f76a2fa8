/// Something a policy promises about what it asks of iOS, declared with its parameters
/// (``PolicyParameters/promises``) so that `bgsim check` holds every run to it without knowing
/// the app: the checker turns each promise into an invariant.
///
///     extension UploadParameters {
///         public var promises: [PolicyPromise] {
///             [.earliestBeginWithin(identifier: identifier, minutes: 15...60)]
///         }
///     }
public enum PolicyPromise: Sendable, Equatable {
    /// Every request for `identifier` asks to begin between `minutes` from its submission
    /// (its `earliestBeginDate`).
    case earliestBeginWithin(identifier: String, minutes: ClosedRange<Double>)
    /// Two runs that end in success are at least `minutes` apart, measured on the device clock
    /// (a run after the clock jumps back is not held to it).
    case minimumRunInterval(minutes: Double)
}
