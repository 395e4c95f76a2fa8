extension Simulation {
    /// Traps unless the event queue's internal structure is consistent (heap order, slot
    /// bookkeeping, cancelled count). For the package's tests.
    ///
    /// - Complexity: O(n).
    package func checkQueueInvariants() {
        queue.checkInvariants()
    }

    /// The number of keys in the heap, counting cancelled ones not yet discarded. For the
    /// package's tests of compaction.
    package var queueStorageCount: Int { queue.heap.count }
}
