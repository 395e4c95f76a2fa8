@testable import SimKernel
import Testing

@Suite("Event order")
struct EventOrderTests {
    /// Schedules `keys` (time, priority) in order, labelled by index, and returns the fired labels.
    func fire(_ keys: [(time: Int64, priority: EventPriority)]) -> [Int] {
        var simulation = Simulation<Probe>()
        for (label, key) in keys.enumerated() {
            simulation.schedule(.mark(label), at: SimInstant(nanosecondsSinceStart: key.time), priority: key.priority)
        }
        simulation.checkQueueInvariants()
        var fired: [Int] = []
        while case .mark(let label)? = simulation.step() {
            fired.append(label)
        }
        return fired
    }

    @Test("every sequence of up to six events fires in (time, priority, scheduling) order")
    func exhaustiveTotalOrder() {
        // Two times × two priorities give four key classes; all 4^n sequences for n ≤ 6.
        let classes: [(Int64, EventPriority)] = [(0, .normal), (0, .urgent), (5, .normal), (5, .urgent)]
        var checked = 0
        for length in 0...6 {
            var digits = [Int](repeating: 0, count: length)
            while true {
                let keys = digits.map { classes[$0] }
                let expected = keys.indices.sorted { a, b in
                    (keys[a].0, keys[a].1.rawValue, a) < (keys[b].0, keys[b].1.rawValue, b)
                }
                #expect(fire(keys.map { (time: $0.0, priority: $0.1) }) == expected, "keys \(digits)")
                checked += 1
                // Next sequence in base 4; stop after the last.
                var position = 0
                while position < length && digits[position] == 3 {
                    digits[position] = 0
                    position += 1
                }
                if position == length { break }
                digits[position] += 1
            }
        }
        #expect(checked == 5_461)
    }

    @Test("equal-time events fire first in, first out, for every subset left after cancelling")
    func fifoWithCancellation() {
        // For each of the 64 subsets of six same-time events that survive cancellation, and each
        // of the 720 orders in which the six are scheduled, survivors fire in scheduling order.
        let labels = Array(0..<6)
        for order in permutations(of: labels) {
            for mask in 0..<64 {
                var simulation = Simulation<Probe>()
                var handles: [EventHandle] = []
                for label in order {
                    handles.append(simulation.schedule(.mark(label), at: .start + .seconds(1)))
                }
                for (position, label) in order.enumerated() where mask & (1 << label) != 0 {
                    #expect(simulation.cancel(handles[position]) == true)
                }
                simulation.checkQueueInvariants()
                var fired: [Int] = []
                while case .mark(let label)? = simulation.step() {
                    fired.append(label)
                }
                let expected = order.filter { mask & (1 << $0) == 0 }
                if fired != expected {
                    Issue.record("order \(order), cancelled mask \(mask): fired \(fired), expected \(expected)")
                    return
                }
            }
        }
    }

    @Test("an event scheduled at the current instant fires after those already due then")
    func schedulingAtNow() throws {
        var simulation = Simulation<Probe>()
        simulation.schedule(.mark(1), at: .start + .seconds(1))
        simulation.schedule(.mark(2), at: .start + .seconds(1))
        var recorder = Recorder()
        recorder.onEvent = { event, simulation in
            if event == .mark(1) {
                simulation.schedule(.mark(3), after: .zero)
                simulation.schedule(.mark(0), after: .zero, priority: .urgent)
            }
        }
        try simulation.run(until: .distantFuture, handler: &recorder)
        #expect(recorder.fired == [1, 0, 2, 3])
        #expect(recorder.times.allSatisfy { $0 == .start + .seconds(1) })
    }

    @Test("random schedules and cancellations match a sorted reference", arguments: [UInt64(1), 2, 3])
    func randomizedAgainstReference(seed: UInt64) {
        var stream = RandomStream(seed: seed, label: "test.queue.random")
        var simulation = Simulation<Probe>()
        // Reference: pending (time, priority, sequence, label, handle).
        var pending: [(time: Int64, priority: UInt16, sequence: Int, label: Int, handle: EventHandle)] = []
        var sequence = 0
        var fired = 0
        for _ in 0..<4_000 {
            let action = stream.int(in: 0..<10)
            if action < 5 {
                let time = simulation.now.nanosecondsSinceStart + Int64(stream.int(in: 0..<20))
                let priority = UInt16(stream.int(in: 0..<3))
                let handle = simulation.schedule(
                    .mark(sequence), at: SimInstant(nanosecondsSinceStart: time), priority: EventPriority(rawValue: priority))
                pending.append((time, priority, sequence, sequence, handle))
                sequence += 1
            } else if action < 8, !pending.isEmpty {
                let victim = pending.remove(at: stream.int(in: 0..<pending.count))
                #expect(simulation.cancel(victim.handle) == true)
                #expect(simulation.cancel(victim.handle) == false, "cancelling twice is a no-op")
            } else if let next = pending.indices.min(by: { a, b in
                (pending[a].time, pending[a].priority, pending[a].sequence)
                    < (pending[b].time, pending[b].priority, pending[b].sequence)
            }) {
                let expected = pending.remove(at: next)
                #expect(simulation.peek()?.event == .mark(expected.label))
                #expect(simulation.step() == .mark(expected.label))
                #expect(simulation.now.nanosecondsSinceStart == expected.time)
                #expect(!simulation.isPending(expected.handle))
                fired += 1
            }
            #expect(simulation.pendingEventCount == pending.count)
        }
        simulation.checkQueueInvariants()
        #expect(fired > 500)
    }
}
