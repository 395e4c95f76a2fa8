import SimKernel

/// The classic "hold" model of event-queue benchmarks: `pending` timers, each of which, when it
/// fires, reschedules itself after an exponential delay (mean 1 s), until `events` have fired.
///
/// Both implementations below draw the same delays from the same labelled stream and order
/// events by `(time, scheduling sequence)`, so they fire the same events in the same order and
/// report the same digest; a mismatch would mean the kernel's order is wrong.
struct HoldParameters {
    var pending = 1_000
    var events = 10_000_000
    var seed: UInt64 = 1

    /// The stream both implementations draw their delays from.
    static let delayLabel = StreamLabel("bench.hold.delay")
    /// The trace kind code of a timer firing.
    static let timerKind: UInt32 = 1

    static let delay = ExponentialDistribution(mean: 1)

    func delayStream() -> RandomStream {
        RandomStream(seed: seed, label: Self.delayLabel)
    }
}

/// The result of one hold run.
struct HoldResult {
    var firedEvents: Int
    var digest: TraceDigest
    var finalTime: SimInstant
}

/// The hold model on the kernel's ``Simulation``.
enum KernelHold {
    enum Event: TraceableEvent {
        case timer(UInt32)

        var traceKind: UInt32 { HoldParameters.timerKind }
        var traceEntity: UInt64 {
            switch self {
            case .timer(let id): UInt64(id)
            }
        }
        var traceDetail: Int64 { 0 }
        static func traceKindName(_ kind: UInt32) -> String { "timer" }
    }

    struct Model: EventHandler {
        var stream: RandomStream
        var remaining: Int

        mutating func handle(_ event: Event, in simulation: inout Simulation<Event>) {
            let delay = SimDuration.seconds(HoldParameters.delay.sample(using: &stream))
            simulation.schedule(event, after: delay)
            remaining -= 1
            if remaining == 0 { simulation.stop() }
        }
    }

    static func run(_ parameters: HoldParameters) throws -> HoldResult {
        var simulation = Simulation<Event>()
        var model = Model(stream: parameters.delayStream(), remaining: parameters.events)
        for id in 0..<parameters.pending {
            let delay = SimDuration.seconds(HoldParameters.delay.sample(using: &model.stream))
            simulation.schedule(.timer(UInt32(id)), after: delay)
        }
        // Through the full run loop, limits and all, as a model would run.
        if parameters.events > 0 {
            try simulation.run(until: .distantFuture, handler: &model)
        }
        return HoldResult(
            firedEvents: Int(simulation.firedEventCount), digest: simulation.digest, finalTime: simulation.now)
    }
}

/// The hold model on a bare array binary heap, with no kernel: the ceiling to compare against.
///
/// It uses the kernel's random stream and digest function so that it does the same work apart
/// from the queue, and sifts the same way the kernel's queue does.
enum RawHeapHold {
    struct Entry {
        var time: Int64
        var sequence: UInt64
        var timer: UInt32

        @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    static func run(_ parameters: HoldParameters) -> HoldResult {
        var stream = parameters.delayStream()
        var heap: [Entry] = []
        heap.reserveCapacity(parameters.pending)
        var sequence: UInt64 = 0
        var digest = TraceDigest()

        func push(_ entry: Entry) {
            heap.append(entry)
            heap.withUnsafeMutableBufferPointer { keys in
                var hole = keys.count - 1
                while hole > 0 {
                    let parent = (hole - 1) >> 1
                    guard entry.precedes(keys[parent]) else { break }
                    keys[hole] = keys[parent]
                    hole = parent
                }
                keys[hole] = entry
            }
        }

        func pop() -> Entry {
            let last = heap.removeLast()
            guard !heap.isEmpty else { return last }
            let top = heap[0]
            heap.withUnsafeMutableBufferPointer { keys in
                let count = keys.count
                var hole = 0
                while true {
                    let left = 2 &* hole &+ 1
                    guard left < count else { break }
                    let right = left &+ 1
                    let child = right < count && keys[right].precedes(keys[left]) ? right : left
                    guard keys[child].precedes(last) else { break }
                    keys[hole] = keys[child]
                    hole = child
                }
                keys[hole] = last
            }
            return top
        }

        var now: Int64 = 0
        for id in 0..<parameters.pending {
            let delay = SimDuration.seconds(HoldParameters.delay.sample(using: &stream))
            push(Entry(time: delay.nanoseconds, sequence: sequence, timer: UInt32(id)))
            sequence &+= 1
        }
        var fired = 0
        while fired < parameters.events, !heap.isEmpty {
            let entry = pop()
            now = entry.time
            digest.combine(time: now, kind: HoldParameters.timerKind, entity: UInt64(entry.timer), detail: 0)
            let delay = SimDuration.seconds(HoldParameters.delay.sample(using: &stream))
            push(Entry(time: now &+ delay.nanoseconds, sequence: sequence, timer: entry.timer))
            sequence &+= 1
            fired += 1
        }
        return HoldResult(firedEvents: fired, digest: digest, finalTime: SimInstant(nanosecondsSinceStart: now))
    }
}
