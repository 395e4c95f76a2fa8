/// The agenda of a simulation: pending events in total `(time, priority, sequence)` order.
///
/// A binary min-heap of small keys. Event payloads live in a separate slot array, so sifting moves
/// 24-byte keys rather than payloads; slots are recycled through a free list, so a queue that has
/// reached its working size schedules and fires without allocating.
///
/// Cancellation is lazy: a cancelled event's payload is dropped at once, and its key is discarded
/// when it reaches the top of the heap (or when cancelled keys outnumber live ones, at which point
/// the heap is rebuilt). The top of the heap is never a cancelled key, so ``peek()`` is O(1).
///
/// The order of popped events depends only on the keys, never on the heap's internal layout, so
/// compaction and other layout changes cannot change a simulation's outcome.
@usableFromInline
struct EventQueue<Event> {
    /// A heap key: when the event fires and where its payload is.
    @usableFromInline
    struct Entry {
        /// Firing time, nanoseconds since the start.
        @usableFromInline var time: Int64
        /// `priority << 48 | sequence`: one integer comparison orders both.
        @usableFromInline var order: UInt64
        /// Index of the payload in `slots`.
        @usableFromInline var slot: UInt32

        @inlinable
        init(time: Int64, order: UInt64, slot: UInt32) {
            self.time = time
            self.order = order
            self.slot = slot
        }

        /// Whether `self` fires before `other`.
        @inlinable @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && order < other.order)
        }
    }

    /// Payload storage. `event == nil` means free, or cancelled while its key is still in the heap.
    @usableFromInline
    struct Slot {
        @usableFromInline var event: Event?
        @usableFromInline var generation: UInt32

        @inlinable
        init(event: Event?, generation: UInt32) {
            self.event = event
            self.generation = generation
        }
    }

    /// Sequence numbers occupy the low 48 bits of `Entry.order`.
    @usableFromInline static var sequenceLimit: UInt64 { 1 << 48 }

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var freeSlots: [UInt32] = []
    @usableFromInline var nextSequence: UInt64 = 0
    /// Keys in `heap` whose events were cancelled.
    @usableFromInline var cancelledInHeap = 0
    #if SIMKERNEL_INTERNAL_CHECKS
    /// Operations since the last full, O(n) check of the structure (``checkInvariantsIfEnabled()``).
    @usableFromInline var operationsSinceFullCheck = 0
    #endif

    @inlinable
    init() {}

    /// The number of events that will fire if nothing else is cancelled.
    @inlinable
    var count: Int { heap.count - cancelledInHeap }

    /// The firing time of the next event, or `nil` if none is pending.
    @inlinable
    var minTime: Int64? { heap.first?.time }

    /// The next event and its firing time, without removing it.
    ///
    /// - Complexity: O(1).
    @inlinable
    func peek() -> (time: Int64, event: Event)? {
        guard let top = heap.first else { return nil }
        return (top.time, slots[Int(top.slot)].event.unsafelyUnwrapped)
    }

    /// Adds an event and returns its handle.
    ///
    /// - Complexity: O(log n); no allocation once the queue has reached its working size.
    @inlinable
    mutating func insert(_ event: Event, time: Int64, priority: EventPriority) -> EventHandle {
        precondition(nextSequence < Self.sequenceLimit, "EventQueue: more than 2^48 events scheduled")
        let order = UInt64(priority.rawValue) << 48 | nextSequence
        nextSequence &+= 1

        let slot: UInt32
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(slot)].event = event
        } else {
            precondition(slots.count < Int(UInt32.max), "EventQueue: more than 2^32 pending events")
            slot = UInt32(truncatingIfNeeded: slots.count)
            slots.append(Slot(event: event, generation: 0))
        }
        heap.append(Entry(time: time, order: order, slot: slot))
        siftUp(from: heap.count - 1)
        checkInvariantsIfEnabled()
        return EventHandle(slot: slot, generation: slots[Int(slot)].generation)
    }

    /// Whether `handle` names an event that has neither fired nor been cancelled.
    @inlinable
    func contains(_ handle: EventHandle) -> Bool {
        let index = Int(handle.slot)
        return index < slots.count
            && slots[index].generation == handle.generation
            && slots[index].event != nil
    }

    /// Cancels the event named by `handle`, if it is still pending.
    ///
    /// - Returns: `true` if an event was cancelled; `false` if it had already fired or been
    ///   cancelled.
    /// - Complexity: O(1) amortized; O(log n) when the cancelled event was next to fire.
    @inlinable
    @discardableResult
    mutating func cancel(_ handle: EventHandle) -> Bool {
        guard contains(handle) else { return false }
        let index = Int(handle.slot)
        slots[index].event = nil
        slots[index].generation &+= 1
        cancelledInHeap += 1
        discardCancelledTop()
        if cancelledInHeap > 64 && cancelledInHeap * 2 > heap.count {
            compact()
        }
        checkInvariantsIfEnabled()
        return true
    }

    /// Removes and returns the next event to fire.
    ///
    /// - Complexity: O(log n).
    @inlinable
    mutating func popMin() -> (time: Int64, event: Event)? {
        guard !heap.isEmpty else { return nil }
        let top = removeTop()
        let index = Int(top.slot)
        let event = slots[index].event.unsafelyUnwrapped
        release(slot: top.slot)
        discardCancelledTop()
        checkInvariantsIfEnabled()
        return (top.time, event)
    }

    // MARK: Heap mechanics

    /// Frees a slot whose key has left the heap, invalidating outstanding handles to it.
    @inlinable @inline(__always)
    mutating func release(slot: UInt32) {
        let index = Int(slot)
        if slots[index].event != nil {
            slots[index].event = nil
            slots[index].generation &+= 1
        }
        freeSlots.append(slot)
    }

    /// Removes cancelled keys from the top so that the top, if any, is live.
    @inlinable @inline(__always)
    mutating func discardCancelledTop() {
        while cancelledInHeap > 0, let top = heap.first, slots[Int(top.slot)].event == nil {
            _ = removeTop()
            cancelledInHeap -= 1
            freeSlots.append(top.slot)
        }
    }

    /// Removes the heap's root and restores heap order.
    ///
    /// - Precondition: the heap is not empty.
    @inlinable
    mutating func removeTop() -> Entry {
        let last = heap.removeLast()
        return heap.withUnsafeMutableBufferPointer { keys in
            guard let top = keys.first else { return last }
            Self.siftDown(last, in: keys)
            return top
        }
    }

    /// Moves the key at `index` up to its place.
    @inlinable
    mutating func siftUp(from index: Int) {
        heap.withUnsafeMutableBufferPointer { keys in
            let moving = keys[index]
            var hole = index
            while hole > 0 {
                let parent = (hole - 1) >> 1
                guard moving.precedes(keys[parent]) else { break }
                keys[hole] = keys[parent]
                hole = parent
            }
            keys[hole] = moving
        }
    }

    /// Places `moving` into the hole at the root of `keys` and sifts it down to its place.
    @inlinable @inline(__always)
    static func siftDown(_ moving: Entry, in keys: UnsafeMutableBufferPointer<Entry>) {
        let count = keys.count
        var hole = 0
        while true {
            let left = 2 &* hole &+ 1
            guard left < count else { break }
            let right = left &+ 1
            let child = right < count && keys[right].precedes(keys[left]) ? right : left
            guard keys[child].precedes(moving) else { break }
            keys[hole] = keys[child]
            hole = child
        }
        keys[hole] = moving
    }

    /// Drops every cancelled key and rebuilds the heap in O(n).
    @usableFromInline
    mutating func compact() {
        var live: [Entry] = []
        live.reserveCapacity(heap.count - cancelledInHeap)
        for entry in heap {
            if slots[Int(entry.slot)].event == nil {
                freeSlots.append(entry.slot)
            } else {
                live.append(entry)
            }
        }
        heap = live
        cancelledInHeap = 0
        // Floyd's heap construction: sift down every internal node, last first.
        var index = heap.count / 2 - 1
        while index >= 0 {
            siftDown(at: index)
            index -= 1
        }
    }

    /// Sifts the key at `start` down to its place (used by ``compact()``).
    @usableFromInline
    mutating func siftDown(at start: Int) {
        let count = heap.count
        let moving = heap[start]
        var hole = start
        while true {
            let left = 2 * hole + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(moving) else { break }
            heap[hole] = heap[child]
            hole = child
        }
        heap[hole] = moving
    }
}
