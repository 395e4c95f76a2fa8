import BackgroundSim
import BackgroundSimLab

extension LaunchReplay {
    /// How a simulated app resubmits at a simulated launch: as it did during the logged launch
    /// of the same identifier nearest in time of day (of those equally near, the latest at or
    /// before the simulated launch, else the first), each
    /// submission's earliest begin date at the same offset from the launch. Apps often aim at a
    /// time of day ("tomorrow at 03:00"), so a launch at 23:00 resubmits as the app did when it
    /// ran at 23:00, not as it did at 03:45. A device whose log has no launch of the identifier
    /// does what the first device with one did (`fallback`).
    struct Resubmission: Sendable {
        /// A logged launch and the submissions of the kind the app made while it ran, with
        /// their earliest begin dates as offsets from the launch.
        struct Pattern: Sendable {
            var time: Double
            var identifier: String
            var submissions: [(submission: DeviceHistory.Submission, offset: Double)]
        }

        var patterns: [Pattern]
        var fallback: [String: Pattern]

        init(_ history: DeviceHistory, kind: FieldLogRecord.Kind, fallback: [String: Pattern] = [:]) {
            patterns = []
            for (time, entry) in history.steps {
                switch entry {
                case .launched(let identifier, kind, _):
                    patterns.append(Pattern(time: time, identifier: identifier, submissions: []))
                case .submitted(let submission) where submission.kind == kind && submission.duringLaunch && !patterns.isEmpty:
                    patterns[patterns.count - 1].submissions.append((submission, submission.earliest - patterns[patterns.count - 1].time))
                default: break
                }
            }
            self.fallback = fallback
        }

        /// The first pattern of each identifier over `histories`, in device order.
        static func fallback(_ histories: [DeviceHistory], kind: FieldLogRecord.Kind) -> [String: Pattern] {
            var first: [String: Pattern] = [:]
            for history in histories {
                for pattern in Resubmission(history, kind: kind).patterns where first[pattern.identifier] == nil {
                    first[pattern.identifier] = pattern
                }
            }
            return first
        }

        /// The submissions the app makes at a launch of `identifier` at `time`.
        func submissions(at time: Double, launching identifier: String) -> [DeviceHistory.Submission] {
            /// The distance between two times of day, in seconds (0 … 43,200).
            func distance(_ a: Double, _ b: Double) -> Double {
                let gap = abs(a - b).truncatingRemainder(dividingBy: 86_400)
                return Swift.min(gap, 86_400 - gap)
            }
            var chosen: Pattern?
            for pattern in patterns where pattern.identifier == identifier {
                if let best = chosen, distance(pattern.time, time) > distance(best.time, time) { continue }
                if let best = chosen, distance(pattern.time, time) == distance(best.time, time), pattern.time > time { continue }
                chosen = pattern
            }
            guard let pattern = chosen ?? fallback[identifier] else { return [] }
            return pattern.submissions.map { entry in
                var submission = entry.submission
                submission.earliest = time + entry.offset
                return submission
            }
        }
    }
}
