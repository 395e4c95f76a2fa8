extension EventQueue {
    /// Runs ``checkInvariants()`` when the package is built with `SIMKERNEL_INTERNAL_CHECKS`.
    @inlinable @inline(__always)
    func checkInvariantsIfEnabled() {
        #if SIMKERNEL_INTERNAL_CHECKS
        checkInvariants()
        #endif
    }

    /// Traps unless the queue's internal structure is consistent: heap order, a live top, slot
    /// bookkeeping and the cancelled count.
    ///
    /// - Complexity: O(n).
    @usableFromInline
    func checkInvariants() {
        for index in heap.indices.dropFirst() {
            let parent = (index - 1) / 2
            precondition(!heap[index].precedes(heap[parent]), "EventQueue: heap order broken at \(index)")
        }
        if let top = heap.first {
            precondition(slots[Int(top.slot)].event != nil, "EventQueue: cancelled key at the top")
        }
        let cancelled = heap.count { slots[Int($0.slot)].event == nil }
        precondition(cancelled == cancelledInHeap, "EventQueue: cancelled count \(cancelledInHeap), found \(cancelled)")
        precondition(heap.count + freeSlots.count == slots.count, "EventQueue: slots leaked or double-freed")
        var seen = [Bool](repeating: false, count: slots.count)
        for slot in heap.map(\.slot) + freeSlots {
            precondition(!seen[Int(slot)], "EventQueue: slot \(slot) used twice")
            seen[Int(slot)] = true
        }
    }
}
