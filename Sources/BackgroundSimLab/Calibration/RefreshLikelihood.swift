import BackgroundSim
import SimKernel

/// The likelihood of a device's logged refresh launches under the heuristic launch model with
/// given parameters, by replaying the log through the model itself.
///
/// The model evaluates a pending refresh request every `evaluationMinutes` on a grid of local
/// time (00:00, 00:15, …), and at each evaluation launches it with a chance that depends on what
/// it has learnt: the app's foregrounds (their hours, decayed), its earlier launches (the token
/// bucket, the spacing) and the days since the app was last used (``HeuristicLaunchModel``).
/// All of that is in the log, so the chance at every evaluation can be recomputed: replaying
/// the log's foregrounds and launches into a model with the candidate parameters, in time
/// order, gives at each evaluation with a request pending either a denial (no chance) or a
/// chance p. The log-likelihood is Σ log p over evaluations where the log shows a launch (a
/// launch is placed at the evaluation at or before its time) plus Σ log(1 − p) over the others.
///
/// Conditioning on the log this way needs no model of the user: the foregrounds and
/// submissions are taken as they happened (a partial likelihood; Cox 1975). What the log
/// cannot show is assumed absent: Low Power Mode, a force-quit, Background App Refresh switched
/// off, heat, and budgets held low by other work. A launch at an evaluation the model would
/// deny, or with no request pending, cannot be explained; it is counted, not scored.
struct RefreshLikelihood: Sendable {
    /// One device's log reduced to what the replay needs, times in seconds since the local
    /// midnight of the device's first day.
    struct History: Sendable {
        enum Step: Sendable {
            case foreground(hour: Int)
            case submitted(identifier: String, earliest: Double)
            /// A launch, with the phone's state its record gives (the state at the decision).
            case launched(identifier: String, charging: Bool?, batteryPercent: Double?)
            case state(charging: Bool?, batteryPercent: Double?)
        }

        var firstDate: CivilDate
        var steps: [(time: Double, step: Step)]
        var end: Double

        /// The refresh-relevant steps of one device's records (sorted by time).
        init(_ records: ArraySlice<FieldLogRecord>) {
            firstDate = records.first?.time.date ?? CivilDate(daysSinceEpoch: 0)
            let origin = Double(firstDate.daysSinceEpoch) * 86_400
            steps = []
            for record in records {
                let time = record.time.seconds - origin
                if record.event != .taskLaunched && (record.charging != nil || record.batteryPercent != nil) {
                    steps.append((time, .state(charging: record.charging, batteryPercent: record.batteryPercent)))
                }
                switch record.event {
                case .appForeground: steps.append((time, .foreground(hour: record.time.hour)))
                case .taskSubmitted where record.kind == .refresh:
                    steps.append((time, .submitted(identifier: record.identifier ?? "", earliest: Swift.max(time, (record.earliestBegin?.seconds ?? 0) - origin))))
                case .taskLaunched where record.kind == .refresh:
                    steps.append((time, .launched(identifier: record.identifier ?? "", charging: record.charging, batteryPercent: record.batteryPercent)))
                case .taskLaunched:
                    if record.charging != nil || record.batteryPercent != nil {
                        steps.append((time, .state(charging: record.charging, batteryPercent: record.batteryPercent)))
                    }
                default: break
                }
            }
            end = (records.last?.time.seconds ?? origin) - origin
            // A launch at the same instant as other records goes first: the system chose it at
            // its evaluation, before the process launched and the app, in its launch callbacks,
            // submitted again (the log shows those first because they run first).
            steps = steps.enumerated().sorted { a, b in
                func isLaunch(_ step: Step) -> Bool { if case .launched = step { true } else { false } }
                return (a.element.time, isLaunch(a.element.step) ? 0 : 1, a.offset) < (b.element.time, isLaunch(b.element.step) ? 0 : 1, b.offset)
            }.map(\.element)
        }
    }

    /// What a replay found.
    struct Score: Sendable {
        var logLikelihood = 0.0
        var launches = 0
        /// Launches the model could not have made (no request pending, or a denial).
        var unexplained = 0
        var evaluations = 0
    }

    /// What an unexplained launch adds to the log-likelihood: log 10⁻¹², as if the model had
    /// given it a chance of one in a trillion. Under the parameters that wrote a simulated log
    /// there are none; elsewhere it is a steep, finite wall, which the optimiser can climb down.
    static let unexplainedLogChance = -27.631_021_115_928_547

    /// Replays `history` under `parameters`.
    static func score(_ history: History, parameters: HeuristicLaunchParameters) -> Score {
        let calendar = SimCalendar(startDate: history.firstDate, startTime: TimeOfDay(hour: 0))
        var model = HeuristicLaunchModel(parameters: parameters, calendar: calendar)
        let step = parameters.evaluationMinutes * 60
        var score = Score()
        var pending: [String: Double] = [:]
        var charging: Bool?
        var battery: Double?
        var tick = 0.0
        func instant(_ seconds: Double) -> SimInstant { SimInstant(nanosecondsSinceStart: Int64((seconds * 1e9).rounded())) }
        /// What the model sees at the evaluation at `tick`, and whether the battery floor holds it back.
        func conditions(at tick: Double) -> LaunchConditions {
            LaunchConditions(now: instant(tick), hour: Int(tick.truncatingRemainder(dividingBy: 86_400) / 3_600),
                             isCharging: charging ?? false, screenOffFor: .zero, batteryPercent: battery ?? 100,
                             thermalState: .nominal, lastAppUse: nil, lastLaunchOfKind: nil)
        }
        func belowBatteryFloor() -> Bool { (battery.map { $0 < parameters.criticalBatteryPercent } ?? false) && charging != true }
        /// Scores the evaluations strictly before `time` as launch-free.
        func evaluate(before time: Double) {
            while tick < time && tick <= history.end {
                defer { tick += step }
                guard pending.values.contains(where: { $0 <= tick }) else { continue }
                if belowBatteryFloor() { continue }
                guard case .chance(let p) = model.refreshChance(conditions(at: tick)) else { continue }
                score.evaluations += 1
                score.logLikelihood += PortableMath.log(Swift.max(1e-300, 1 - p))
            }
        }
        for (time, entry) in history.steps {
            switch entry {
            case .launched(let identifier, let launchCharging, let launchBattery):
                // The evaluation at or before the launch.
                let at = (time / step).rounded(.down) * step
                evaluate(before: at)
                if let launchCharging { charging = launchCharging }
                if let launchBattery { battery = launchBattery }
                score.launches += 1
                var explained = false
                if pending.values.contains(where: { $0 <= at }), !belowBatteryFloor(),
                   case .chance(let p) = model.refreshChance(conditions(at: at)) {
                    score.evaluations += 1
                    score.logLikelihood += PortableMath.log(Swift.max(1e-300, p))
                    explained = true
                }
                if !explained {
                    score.unexplained += 1
                    score.logLikelihood += unexplainedLogChance
                }
                if tick <= at { tick = at + step }
                model.didLaunch(.appRefresh, at: instant(at))
                pending.removeValue(forKey: identifier)
            default:
                evaluate(before: time)
                switch entry {
                case .foreground(let hour): model.appDidEnterForeground(at: instant(time), hour: hour)
                case .submitted(let identifier, let earliest): pending[identifier] = earliest
                case .state(let isCharging, let percent):
                    if let isCharging { charging = isCharging }
                    if let percent { battery = percent }
                case .launched: break
                }
            }
        }
        evaluate(before: history.end + step)
        return score
    }
}
