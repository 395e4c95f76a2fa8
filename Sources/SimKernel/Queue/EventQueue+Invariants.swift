extension EventQueue {
    /// When the package is built with `SIMKERNEL_INTERNAL_CHECKS`: the O(1) checks
    /// (``checkBookkeeping()``) after every operation, and the full O(n) ``checkInvariants()``
    /// once every ``fullCheckSpacing`` operations, so that checking costs O(1) amortised per
    /// operation rather than O(n). A corruption is caught within that many operations of it, in
    /// the same run, whose seed replays it. (Checked in full after every operation, the queue's
    /// check was 97 % of a checked run: `bgsim-bench scenario-days --preset zashi-designed --days
    /// 60`, 4.70 billion instructions; with a full check every quarter-heap, 0.72 billion.)
    @inlinable @inline(__always)
    mutating func checkInvariantsIfEnabled() {
        #if SIMKERNEL_INTERNAL_CHECKS
        checkBookkeeping()
        operationsSinceFullCheck += 1
        if operationsSinceFullCheck >= fullCheckSpacing {
            operationsSinceFullCheck = 0
            checkInvariants()
        }
        #endif
    }

    /// Operations between two full checks: as many as the heap has keys, at least 1, so that a
    /// full check's O(n) is spread over n operations.
    @inlinable
    var fullCheckSpacing: Int { Swift.max(1, heap.count) }

    /// Traps unless every slot is in the heap or free (by count), and the cancelled count fits
    /// in the heap. (Whether the top key is live, the full check asks: in a debug build, where
    /// nothing generic is specialised, this check with that read of a payload was 50 M of the
    /// queue's 118 M instructions of checks in `bgsim-bench scenario-days --preset zashi-designed
    /// --days 20`.)
    ///
    /// - Complexity: O(1).
    @inlinable
    func checkBookkeeping() {
        precondition(heap.count + freeSlots.count == slots.count, "EventQueue: slots leaked or double-freed")
        precondition(cancelledInHeap >= 0 && cancelledInHeap <= heap.count, "EventQueue: cancelled count \(cancelledInHeap) of \(heap.count) keys")
    }

    /// Traps unless the queue's internal structure is consistent: heap order, a live top, slot
    /// bookkeeping and the cancelled count.
    ///
    /// - Complexity: O(n).
    @inlinable
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
        for key in heap {
            precondition(!seen[Int(key.slot)], "EventQueue: slot \(key.slot) used twice")
            seen[Int(key.slot)] = true
        }
        for slot in freeSlots {
            precondition(!seen[Int(slot)], "EventQueue: slot \(slot) used twice")
            seen[Int(slot)] = true
        }
    }
}
