import SimKernel

/// A test event: a label, traced as kind 7 with the label as entity.
enum Probe: TraceableEvent, Equatable {
    case mark(Int)
    /// Reschedules itself after `delay` nanoseconds, forever.
    case loop(delay: Int64)

    var traceKind: UInt32 {
        switch self {
        case .mark: 7
        case .loop: 8
        }
    }

    var traceEntity: UInt64 {
        switch self {
        case .mark(let label): UInt64(label)
        case .loop: 0
        }
    }

    var traceDetail: Int64 {
        switch self {
        case .mark: 0
        case .loop(let delay): delay
        }
    }

    static func traceKindName(_ kind: UInt32) -> String {
        kind == 7 ? "mark" : "loop"
    }
}

/// Records the labels of fired `.mark` events; reschedules `.loop` events.
struct Recorder: EventHandler {
    var fired: [Int] = []
    var times: [SimInstant] = []
    /// Called for each event, for tests that schedule from inside a handler.
    var onEvent: ((Probe, inout Simulation<Probe>) -> Void)?

    mutating func handle(_ event: Probe, in simulation: inout Simulation<Probe>) {
        switch event {
        case .mark(let label):
            fired.append(label)
            times.append(simulation.now)
        case .loop(let delay):
            simulation.schedule(event, after: .nanoseconds(delay))
        }
        onEvent?(event, &simulation)
    }
}

/// Every permutation of `elements`, in lexicographic order of positions.
func permutations<T>(of elements: [T]) -> [[T]] {
    guard elements.count > 1 else { return [elements] }
    var result: [[T]] = []
    for index in elements.indices {
        var rest = elements
        let first = rest.remove(at: index)
        for tail in permutations(of: rest) {
            result.append([first] + tail)
        }
    }
    return result
}

/// The package's root directory, found from this file's path.
func packageRoot(_ file: String = #filePath) -> String {
    var components = file.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(3)  // Tests/<Target>/<File>.swift
    return components.joined(separator: "/")
}
