/// Why a simulation run stopped before its deadline.
///
/// Its ``description`` says what happened, when, and what to look at.
public struct SimulationError: Error, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Representation: Sendable {
        case eventLimitExceeded(limit: UInt64, at: SimInstant, lastKind: String, lastEntity: UInt64)
        case instantLimitExceeded(limit: Int, at: SimInstant, lastKind: String, lastEntity: UInt64)
    }

    @usableFromInline let representation: Representation

    @usableFromInline
    init(_ representation: Representation) {
        self.representation = representation
    }

    /// Whether the run hit ``RunLimits/maxEventsPerInstant`` (a zero-delay loop, most likely).
    public var isInstantLimit: Bool {
        if case .instantLimitExceeded = representation { true } else { false }
    }

    /// Whether the run hit ``RunLimits/maxEvents``.
    public var isEventLimit: Bool {
        if case .eventLimitExceeded = representation { true } else { false }
    }

    public var description: String {
        switch representation {
        case let .eventLimitExceeded(limit, time, kind, entity):
            "simulation stopped at \(time): it fired more than \(limit) events in all "
                + "(the last was '\(kind)' for entity \(entity)); "
                + "raise RunLimits.maxEvents if the run really needs more"
        case let .instantLimitExceeded(limit, time, kind, entity):
            "simulation stopped at \(time): more than \(limit) events fired at this instant without "
                + "the clock advancing (the last was '\(kind)' for entity \(entity)); "
                + "is an event rescheduling itself with zero delay?"
        }
    }
}
