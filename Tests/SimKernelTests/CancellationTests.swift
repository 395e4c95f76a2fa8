import SimKernel
import Testing

@Suite("Cancellation")
struct CancellationTests {
    @Test("a cancelled event never fires")
    func cancelledNeverFires() throws {
        var simulation = Simulation<Probe>()
        simulation.schedule(.mark(1), at: .start + .seconds(1))
        let doomed = simulation.schedule(.mark(2), at: .start + .seconds(2))
        simulation.schedule(.mark(3), at: .start + .seconds(3))
        #expect(simulation.isPending(doomed))
        #expect(simulation.cancel(doomed) == true)
        #expect(!simulation.isPending(doomed))
        #expect(simulation.pendingEventCount == 2)
        var recorder = Recorder()
        try simulation.run(until: .distantFuture, handler: &recorder)
        #expect(recorder.fired == [1, 3])
    }

    @Test("cancelling twice, or after firing, does nothing")
    func cancelIsIdempotent() {
        var simulation = Simulation<Probe>()
        let first = simulation.schedule(.mark(1), at: .start)
        #expect(simulation.cancel(first) == true)
        #expect(simulation.cancel(first) == false)
        let second = simulation.schedule(.mark(2), at: .start)
        #expect(simulation.step() == .mark(2))
        #expect(simulation.cancel(second) == false)
        #expect(simulation.pendingEventCount == 0)
    }

    @Test("a stale handle does not cancel the event that reuses its storage")
    func staleHandleAfterReuse() {
        var simulation = Simulation<Probe>()
        let old = simulation.schedule(.mark(1), at: .start)
        #expect(simulation.step() == .mark(1))
        // The freed slot is reused by the next event.
        let new = simulation.schedule(.mark(2), at: .start + .seconds(1))
        #expect(simulation.cancel(old) == false)
        #expect(simulation.isPending(new))
        #expect(simulation.step() == .mark(2))
    }

    @Test("cancelling the next event makes peek show the one after it")
    func peekSkipsCancelled() {
        var simulation = Simulation<Probe>()
        let first = simulation.schedule(.mark(1), at: .start + .seconds(1))
        simulation.schedule(.mark(2), at: .start + .seconds(2))
        #expect(simulation.peek()?.event == .mark(1))
        simulation.cancel(first)
        #expect(simulation.peek()?.event == .mark(2))
        #expect(simulation.peek()?.time == .start + .seconds(2))
        simulation.checkQueueInvariants()
    }

    @Test("mass cancellation compacts storage and keeps the order of survivors")
    func compaction() throws {
        var simulation = Simulation<Probe>()
        var handles: [EventHandle] = []
        for label in 0..<1_000 {
            handles.append(simulation.schedule(.mark(label), at: .start + .seconds(Int64(1_000 - label))))
        }
        for (label, handle) in handles.enumerated() where label % 10 != 0 {
            simulation.cancel(handle)
        }
        simulation.checkQueueInvariants()
        #expect(simulation.pendingEventCount == 100)
        #expect(simulation.queueStorageCount < 300, "cancelled keys were compacted away")
        var recorder = Recorder()
        try simulation.run(until: .distantFuture, handler: &recorder)
        #expect(recorder.fired == stride(from: 990, through: 0, by: -10).map { $0 })
    }
}
