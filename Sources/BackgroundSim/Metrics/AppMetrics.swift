import SimKernel

/// The app's own metrics (``AppMetricDeclaration``), measured from its signposts and the user's
/// opens as the run goes: the `app` group of a run's report.
///
/// An interval is paired by its name and signpost ID across the app's launches: an upload begun
/// in one process and ended in a later one is one interval, as a team means "the file went up
/// within six hours" (Instruments pairs within a process) [Inf]. A begin whose name and ID are
/// already open abandons the open one, which counts as not done in time.
public struct AppMetrics: Sendable, Equatable {
    /// What the run saw of one declared interval.
    public struct Interval: Sendable, Equatable {
        public var begun = 0
        public var ended = 0
        /// Of ``ended``, those that ended within the declaration's `doneWithinHours`.
        public var endedInTime = 0
        /// Ends with no open begin of the same name and ID (ignored otherwise).
        public var unmatchedEnds = 0
        /// Begins followed by another begin of the same name and ID before their end.
        public var abandoned = 0
        /// Intervals still open at the run's end, and of them those open longer than
        /// `doneWithinHours` (late whatever happens next).
        public var openAtEnd = 0
        public var openAtEndLate = 0
        /// Seconds from begin to end of each ended interval.
        public var durations = LogHistogram()

        /// The share of intervals whose outcome is known that were done in time, in percent:
        /// ended in time over ended, abandoned and open past the time at the end; `nil` with
        /// none known.
        public var doneInTimePercent: Double? {
            let known = ended + abandoned + openAtEndLate
            return known > 0 ? Double(endedInTime) / Double(known) * 100 : nil
        }
    }

    /// The metrics, in the order declared.
    public let declarations: [AppMetricDeclaration]
    /// The content's age at each open, in seconds (for the first ``AppMetricDeclaration/Kind-swift.enum/contentAge``
    /// declaration; empty without one).
    public private(set) var contentAgeAtOpen = LogHistogram()
    /// For each declaration, in order: its interval's record (intervals only).
    public private(set) var intervals: [Interval]
    /// For each declaration, in order: how many of its signposts were emitted (events: the
    /// events; intervals: the begins).
    public private(set) var counts: [Int]
    /// Signposts of any name the app emitted.
    public private(set) var signposts = 0

    private let contentAgeIndex: Int?
    private var lastContentUpdate = SimInstant.start
    /// Open intervals: (declaration, signpost ID) to when it began.
    private var open: [OpenInterval: SimInstant] = [:]

    private struct OpenInterval: Hashable, Sendable {
        var declaration: Int
        var id: UInt64
    }

    public init(declarations: [AppMetricDeclaration] = []) {
        self.declarations = declarations
        intervals = declarations.map { _ in Interval() }
        counts = declarations.map { _ in 0 }
        contentAgeIndex = declarations.firstIndex { $0.kind == .contentAge }
    }

    /// Whether any metric is declared.
    public var isEmpty: Bool { declarations.isEmpty }

    /// Takes in a log event at `now`.
    package mutating func record(_ event: SystemLogEvent, at now: SimInstant) {
        switch event {
        case .launch(reason: .user), .willEnterForeground:
            if contentAgeIndex != nil { contentAgeAtOpen.record((now - lastContentUpdate).seconds) }
        case .signpost(let signpost):
            signposts += 1
            record(signpost, at: now)
        default:
            break
        }
    }

    private mutating func record(_ signpost: AppSignpost, at now: SimInstant) {
        for index in declarations.indices where declarations[index].signpostName == signpost.name {
            let declaration = declarations[index]
            switch (declaration.kind, signpost.kind) {
            case (.contentAge, .event):
                if index == contentAgeIndex { lastContentUpdate = now }
                counts[index] += 1
            case (.event, .event):
                counts[index] += 1
            case (.interval, .begin):
                counts[index] += 1
                intervals[index].begun += 1
                if open.updateValue(now, forKey: OpenInterval(declaration: index, id: signpost.id)) != nil {
                    intervals[index].abandoned += 1
                }
            case (.interval, .end):
                guard let begun = open.removeValue(forKey: OpenInterval(declaration: index, id: signpost.id)) else {
                    intervals[index].unmatchedEnds += 1
                    continue
                }
                let duration = now - begun
                intervals[index].ended += 1
                intervals[index].durations.record(duration.seconds)
                if duration <= declaration.doneWithin { intervals[index].endedInTime += 1 }
            default:
                break
            }
        }
    }

    /// Closes the books at the run's end: the intervals still open.
    package mutating func finish(at end: SimInstant) {
        for (key, begun) in open {
            intervals[key.declaration].openAtEnd += 1
            if end - begun > declarations[key.declaration].doneWithin { intervals[key.declaration].openAtEndLate += 1 }
        }
        open.removeAll()
    }
}
