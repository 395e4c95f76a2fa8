/// A deterministic discrete-event simulation: a virtual clock and the agenda of pending events.
///
/// `Simulation` knows nothing about what it simulates. A model schedules value-type events and
/// handles them as they fire, in a total order `(time, priority, sequence)`:
///
///     struct Ticker: EventHandler {
///         var ticks = 0
///         mutating func handle(_ event: TickEvent, in simulation: inout Simulation<TickEvent>) {
///             ticks += 1
///             simulation.schedule(.tick, after: .seconds(1))
///         }
///     }
///
///     var simulation = Simulation<TickEvent>()
///     var ticker = Ticker()
///     simulation.schedule(.tick, at: .start)
///     try simulation.run(until: .start + .minutes(1), handler: &ticker)
///     // ticker.ticks == 61, simulation.now == 0d 00:01:00.000
///
/// Every fired event is absorbed into ``digest`` and, if set, shown to ``tracer``. A run is
/// bounded by ``limits``, so a model that reschedules an event with zero delay forever stops with
/// a readable ``SimulationError`` instead of hanging.
///
/// The simulation is a value type meant to be owned by one driver and mutated in place; copying
/// a simulation copies its whole agenda.
public struct Simulation<Event: TraceableEvent> {
    /// The current simulated time: the firing time of the event being handled, or where the last
    /// run stopped.
    @inlinable
    public var now: SimInstant { currentTime }

    /// The number of events fired since the simulation began.
    @inlinable
    public var firedEventCount: UInt64 { firedCount }

    /// The digest of every event fired so far.
    @inlinable
    public var digest: TraceDigest { runningDigest }

    /// Called with every fired event's record, just before the event is handed to the model.
    ///
    /// `nil` (the default) costs one predictable branch per event.
    public var tracer: ((TraceRecord) -> Void)?

    /// The bounds that stop a runaway run.
    public var limits: RunLimits

    @usableFromInline var currentTime: SimInstant = .start
    @usableFromInline var firedCount: UInt64 = 0
    @usableFromInline var runningDigest = TraceDigest()
    @usableFromInline var queue = EventQueue<Event>()
    /// Events fired at `now` so far, for ``RunLimits/maxEventsPerInstant``.
    @usableFromInline var firedAtCurrentInstant = 0
    /// Set by ``stop()``; ends the current run after the event being handled.
    @usableFromInline var stopRequested = false

    /// Creates an empty simulation at ``SimInstant/start``.
    public init(limits: RunLimits = RunLimits()) {
        self.limits = limits
    }

    /// The number of events scheduled and not yet fired or cancelled.
    @inlinable
    public var pendingEventCount: Int { queue.count }

    // MARK: Scheduling

    /// Schedules `event` to fire at `time`.
    ///
    /// Events at the same time fire by ascending `priority`, then in the order they were
    /// scheduled.
    ///
    /// - Parameters:
    ///   - event: The event to deliver.
    ///   - time: When it fires. Must not be earlier than ``now``.
    ///   - priority: Its rank among events at the same instant.
    /// - Returns: A handle for ``cancel(_:)``.
    /// - Complexity: O(log n), where n is the number of pending events.
    @inlinable
    @discardableResult
    public mutating func schedule(_ event: Event, at time: SimInstant, priority: EventPriority = .normal) -> EventHandle {
        precondition(
            time >= now,
            "Simulation.schedule: '\(Event.traceKindName(event.traceKind))' at \(time) is in the past (now is \(now))"
        )
        return queue.insert(event, time: time.nanosecondsSinceStart, priority: priority)
    }

    /// Schedules `event` to fire `delay` after ``now``.
    ///
    /// - Precondition: `delay` is not negative.
    /// - Complexity: O(log n).
    @inlinable
    @discardableResult
    public mutating func schedule(_ event: Event, after delay: SimDuration, priority: EventPriority = .normal) -> EventHandle {
        precondition(
            delay >= .zero,
            "Simulation.schedule: '\(Event.traceKindName(event.traceKind))' after a negative delay \(delay)"
        )
        return queue.insert(event, time: now.advanced(by: delay).nanosecondsSinceStart, priority: priority)
    }

    /// Cancels a pending event. A cancelled event never fires.
    ///
    /// - Returns: `true` if the event was pending; `false` if it had already fired or been
    ///   cancelled, in which case nothing happens.
    /// - Complexity: O(1) amortized.
    @inlinable
    @discardableResult
    public mutating func cancel(_ handle: EventHandle) -> Bool {
        queue.cancel(handle)
    }

    /// Whether the event named by `handle` is still waiting to fire.
    @inlinable
    public func isPending(_ handle: EventHandle) -> Bool {
        queue.contains(handle)
    }

    // MARK: Running

    /// The next event to fire and its time, without firing it.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func peek() -> (time: SimInstant, event: Event)? {
        guard let next = queue.peek() else { return nil }
        return (SimInstant(nanosecondsSinceStart: next.time), next.event)
    }

    /// Fires the next event: advances ``now`` to its time, records it, and returns it for the
    /// caller to handle. Returns `nil` when nothing is pending.
    ///
    /// `step()` does not apply ``limits``; ``run(until:handler:)`` does.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public mutating func step() -> Event? {
        guard let next = queue.popMin() else { return nil }
        if next.time == now.nanosecondsSinceStart {
            firedAtCurrentInstant &+= 1
        } else {
            currentTime = SimInstant(nanosecondsSinceStart: next.time)
            firedAtCurrentInstant = 1
        }
        firedCount &+= 1
        let event = next.event
        let kind = event.traceKind
        let entity = event.traceEntity
        let detail = event.traceDetail
        runningDigest.combine(time: next.time, kind: kind, entity: entity, detail: detail)
        if let tracer {
            tracer(TraceRecord(time: now, kind: kind, entity: entity, detail: detail))
        }
        return event
    }

    /// Fires every event due at or before `deadline`, handing each to `handler`, then advances
    /// ``now`` to `deadline` (if it is later).
    ///
    /// Events that the handler schedules at or before `deadline` fire in the same run.
    ///
    /// - Parameters:
    ///   - deadline: The last instant to simulate. ``SimInstant/distantFuture`` runs until no
    ///     event is pending.
    ///   - handler: The model that handles each event.
    /// - Throws: ``SimulationError`` when a bound in ``limits`` is reached; the simulation stops
    ///   after the event that reached it, and can be inspected.
    @inlinable
    public mutating func run<Handler: EventHandler>(
        until deadline: SimInstant,
        handler: inout Handler
    ) throws(SimulationError) where Handler.Event == Event {
        let end = deadline.nanosecondsSinceStart
        stopRequested = false
        while let time = queue.minTime, time <= end {
            guard let event = step() else { break }
            try checkLimits(after: event)
            handler.handle(event, in: &self)
            if stopRequested {
                stopRequested = false
                return
            }
        }
        if deadline > now && deadline != .distantFuture {
            currentTime = deadline
        }
    }

    /// Ends the current ``run(until:handler:)`` once the handler returns from the event it is
    /// handling. The clock stays at that event's time, and pending events stay pending for the
    /// next run.
    ///
    /// A model calls this when the rest of the run cannot matter (a benchmark has counted
    /// enough events, a check has already failed).
    @inlinable
    public mutating func stop() {
        stopRequested = true
    }

    /// Runs for `duration` from ``now``; see ``run(until:handler:)``.
    @inlinable
    public mutating func run<Handler: EventHandler>(
        for duration: SimDuration,
        handler: inout Handler
    ) throws(SimulationError) where Handler.Event == Event {
        try run(until: now.advanced(by: duration), handler: &handler)
    }

    /// Throws if the event just fired went past a bound in ``limits``.
    @inlinable @inline(__always)
    func checkLimits(after event: Event) throws(SimulationError) {
        if firedAtCurrentInstant > limits.maxEventsPerInstant || firedCount > limits.maxEvents {
            throw limitError(after: event)
        }
    }

    @usableFromInline
    func limitError(after event: Event) -> SimulationError {
        let name = Event.traceKindName(event.traceKind)
        if firedAtCurrentInstant > limits.maxEventsPerInstant {
            return SimulationError(.instantLimitExceeded(
                limit: limits.maxEventsPerInstant, at: now, lastKind: name, lastEntity: event.traceEntity))
        }
        return SimulationError(.eventLimitExceeded(
            limit: limits.maxEvents, at: now, lastKind: name, lastEntity: event.traceEntity))
    }
}

/// A model that handles the events of a ``Simulation``.
public protocol EventHandler<Event> {
    /// The type of event this model handles.
    associatedtype Event: TraceableEvent

    /// Handles one fired event. `simulation.now` is the event's firing time; the handler may
    /// schedule and cancel events.
    mutating func handle(_ event: Event, in simulation: inout Simulation<Event>)
}
