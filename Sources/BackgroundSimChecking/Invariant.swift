import BackgroundSim
import SimKernel

/// A property every run must have, checked as the run goes: it sees each entry of the iOS
/// model's log, and each event with the device and the system as the event left them.
///
/// Invariants are values. A checker copies the ones it is given for every run, so an invariant
/// may keep state (which tasks are open, when work last started) without sharing it between runs
/// or threads. Report a violation with ``RunContext/fail(_:)``.
///
///     struct NeverCancelsAll: Invariant {
///         let name = "neverCancelsAll"
///         mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
///             if case .cancelAll = entry.event { run.fail("cancelled every pending request") }
///         }
///     }
public protocol Invariant: Sendable {
    /// A short, stable name, shown with each violation: "taskCompletedExactlyOnce".
    var name: String { get }

    /// Sees an entry of the iOS model's log: a launch, a submit, a launch decision, a task's
    /// completion, a kill … (``SystemLogEvent``).
    mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext)

    /// Sees the world after each event: `event` is the device's event (a session, a plug-in, a
    /// clock jump …), or `nil` after one of the iOS model's own (an evaluation, a deadline, a
    /// timer).
    mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext)
}

extension Invariant {
    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {}
    public mutating func observe(_ event: DeviceEvent?, device: borrowing Device, system: SimulatedSystem, in run: inout RunContext) {}
}

/// A broken invariant: which, when, and what happened.
public struct Violation: Sendable, Equatable, CustomStringConvertible {
    /// The invariant's ``Invariant/name``.
    public var invariant: String
    /// When it was broken, in the simulation's true time.
    public var time: SimInstant
    public var message: String

    public init(invariant: String, time: SimInstant, message: String) {
        self.invariant = invariant
        self.time = time
        self.message = message
    }

    /// The simulated day it happened on, from 0.
    public var day: Int { Int(time.nanosecondsSinceStart / SimDuration.days(1).nanoseconds) }

    public var description: String { "\(time) \(invariant): \(message)" }
}

/// What an invariant sees of the run besides the event: the time, the scenario, and where to
/// report a violation.
public struct RunContext {
    /// The time of the event or log entry being observed.
    public internal(set) var now: SimInstant = .start
    /// The scenario being run (after any swarm changes).
    public let scenario: Scenario
    /// The violations reported so far, in time order, at most ``limit`` of them.
    public internal(set) var violations: [Violation] = []
    /// The most violations a run keeps; the first is what matters, the rest give context.
    public let limit: Int
    /// The invariants' names, and the index of the one being called, for ``fail(_:)``.
    let names: [String]
    var current = 0

    init(scenario: Scenario, limit: Int, names: [String]) {
        self.scenario = scenario
        self.limit = limit
        self.names = names
    }

    /// Reports that the invariant being called is broken now.
    public mutating func fail(_ message: String) {
        guard violations.count < limit else { return }
        violations.append(Violation(invariant: names[current], time: now, message: message))
    }

    /// Hours since the run started.
    public var hours: Double { Double(now.nanosecondsSinceStart) / 3_600_000_000_000 }
}
