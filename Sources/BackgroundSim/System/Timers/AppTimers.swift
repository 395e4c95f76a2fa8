import SimKernel

/// The app's timers (``AppContext/schedule(after:_:)``): each fires once, only while the process
/// runs; one that comes due while the app is suspended fires when it next runs, and termination
/// cancels them all.
///
/// This type never calls into the app: it hands back the handlers for the system to call.
struct AppTimers {
    struct Entry {
        var id: UInt32
        var due: SimInstant
        var handler: () -> Void
        var event: EventHandle?
        /// Came due while the app was suspended; fires when it next runs.
        var overdue = false
    }

    private(set) var entries: [Entry] = []
    /// The next timer's id; ids start at 1 (0 is a timer that was never scheduled).
    private(set) var nextID: UInt32 = 1

    mutating func add(dueAt due: SimInstant, handler: @escaping () -> Void) -> AppTimer {
        let id = nextID
        nextID &+= 1
        entries.append(Entry(id: id, due: due, handler: handler))
        checkInvariantsIfEnabled()
        return AppTimer(id: id)
    }

    mutating func cancel(_ timer: AppTimer) {
        // The event, if scheduled, finds no entry and does nothing.
        entries.removeAll { $0.id == timer.id }
    }

    /// Timer `id`'s event fired: returns its handler to run now if the process `isRunning`;
    /// otherwise keeps it, overdue, for when the app next runs.
    mutating func fire(_ id: UInt32, processRunning isRunning: Bool) -> (() -> Void)? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        entries[index].event = nil
        guard isRunning else {
            entries[index].overdue = true
            checkInvariantsIfEnabled()
            return nil
        }
        return entries.remove(at: index).handler
    }

    /// Removes the timers that came due while the app was suspended and returns their handlers,
    /// in the order they came due.
    mutating func takeOverdue() -> [() -> Void] {
        let due = entries.filter(\.overdue).sorted { ($0.due, $0.id) < ($1.due, $1.id) }
        entries.removeAll(where: \.overdue)
        return due.map(\.handler)
    }

    /// Gives every waiting timer an event, at its due time or now if that has passed.
    mutating func reconcile(now: SimInstant, in simulation: inout Simulation<WorldEvent>) {
        precondition(now == simulation.now, "AppTimers: reconciled as of \(now) at \(simulation.now)")
        for index in entries.indices where entries[index].event == nil && !entries[index].overdue {
            entries[index].event = simulation.schedule(.system(.appTimer(id: entries[index].id)), at: Swift.max(now, entries[index].due))
        }
        checkInvariantsIfEnabled()
    }

    /// The process ended: every timer goes, with its event.
    mutating func removeAll(in simulation: inout Simulation<WorldEvent>) {
        for entry in entries { if let event = entry.event { simulation.cancel(event) } }
        entries.removeAll()
    }
}
