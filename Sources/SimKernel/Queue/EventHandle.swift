/// Identifies one scheduled event so that it can be cancelled.
///
/// A handle stays valid until its event fires or is cancelled; after that, cancelling it again
/// is a harmless no-op, even if the queue has since reused the event's storage for another event.
/// (The handle records a generation count that the storage advances each time it is freed.
/// The count is 32 bits wide, so a handle kept across four billion reuses of the same slot could
/// in theory match again; no simulation holds a handle that long.)
public struct EventHandle: Sendable, Hashable {
    @usableFromInline let slot: UInt32
    @usableFromInline let generation: UInt32

    @inlinable
    init(slot: UInt32, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }
}
