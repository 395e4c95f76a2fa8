import BackgroundSim
import BackgroundSimLab

/// How many hours later than the base scenario's user the logged users live their day, from
/// what their logs show of their phones: the app's opens and closes (the phone in use) and the
/// charging state at every record.
///
/// Between records, whether a phone is charging and idle comes from a chain measured on the
/// base scenario's user (``PhoneStateProfile``). Users who sleep and charge at other hours —
/// night owls, shift workers, a region the base user was not drawn from — would leave the
/// processing fit reading their night as the base user's morning. Calibration therefore turns
/// the base chain by whole hours (``PhoneStateProfile/shifted(byHours:)``) and keeps the turn
/// under which the logs' own observations of the phone are likeliest (the forward algorithm
/// over them, the launches left out: ``ProcessingTape/observationLogLikelihood(phone:)``). A
/// turn is kept only if it beats none by ``minimumGain``.
///
/// The model is simpler than users: it moves the base user's whole day, sleep, charging and
/// use together. Users whose habits differ in shape rather than in clock time (who charge by
/// day, or never overnight) need a base scenario with those habits; the goodness of fit's
/// charging share and hour-of-day rows show when they do.
package struct UsersDayShift: Sendable, Equatable {
    /// Hours later than the base user (negative: earlier), −11 … 12.
    package var hours: Int
    /// How much likelier the logs' observations of the phone are under the shift than under
    /// none, in log-likelihood units (0 when the shift is 0).
    package var logLikelihoodGain: Double

    /// "+3 h", "−2 h", "0 h".
    package var signedHours: String { hours > 0 ? "+\(hours) h" : hours < 0 ? "−\(-hours) h" : "0 h" }

    /// The shifts tried.
    static let candidates = -11...12
    /// The least gain in log-likelihood for which a shift is kept: 10 units [Inf], a likelihood
    /// ratio of about 22,000. On 24 Zashi phones × 14 days of the base user every shift is less
    /// likely than none; of users living 3 h later, the 3-hour turn gains over 100 (test
    /// `usersDayFromTheirLogs`).
    static let minimumGain = 10.0

    /// No shift.
    package static let none = UsersDayShift(hours: 0, logLikelihoodGain: 0)

    /// The shift `histories` show against `phone`, the base scenario's chain; `base` supplies
    /// the launch model's timing (its evaluations and idle delay).
    static func estimate(_ histories: [DeviceHistory], base: HeuristicLaunchParameters, phone: PhoneStateProfile, jobs: Int) -> UsersDayShift {
        let likelihoods = logLikelihoods(histories, base: base, phone: phone, jobs: jobs)
        guard let unshifted = likelihoods.first(where: { $0.hours == 0 }),
              // The likeliest; among equals, the smallest shift.
              let best = likelihoods.max(by: { a, b in
                  a.logLikelihood != b.logLikelihood ? a.logLikelihood < b.logLikelihood : abs(a.hours) > abs(b.hours)
              }) else { return .none }
        let gain = best.logLikelihood - unshifted.logLikelihood
        return gain >= minimumGain ? UsersDayShift(hours: best.hours, logLikelihoodGain: gain) : .none
    }

    /// For each shift in ``candidates``, the log-likelihood of what `histories` show of their
    /// phones under `phone` turned by it; empty without histories.
    static func logLikelihoods(_ histories: [DeviceHistory], base: HeuristicLaunchParameters, phone: PhoneStateProfile,
                               jobs: Int) -> [(hours: Int, logLikelihood: Double)] {
        guard !histories.isEmpty else { return [] }
        let shifts = Array(candidates)
        let turned = shifts.map { phone.shifted(byHours: $0) }
        // Each device's tape is scored under every shift as soon as it is made, and dropped:
        // memory holds a tape per job, not one per device (140 MB less at 2,000 phones × 28 days).
        let perDevice = (try? ParallelRuns.map(count: histories.count, jobs: jobs) { index -> [Double] in
            let tape = LaunchReplay.processingTape(histories[index], parameters: base, phone: phone)
            return turned.map { tape.observationLogLikelihood(phone: $0) }
        }) ?? []
        // Summed in the devices' order, shift by shift.
        let sums = shifts.indices.map { shift in perDevice.reduce(0) { $0 + $1[shift] } }
        return zip(shifts, sums).map { (hours: $0, logLikelihood: $1) }
    }
}

extension TimeOfDay {
    /// The time `hours` later on the clock, wrapping at midnight.
    func shifted(byHours hours: Int) -> TimeOfDay {
        let minutes = ((minutesSinceMidnight + hours * 60) % 1_440 + 1_440) % 1_440
        return TimeOfDay(hour: minutes / 60, minute: minutes % 60)
    }
}

extension Scenario {
    /// This scenario with its user's day `hours` later: sleep and waking, the hourly use,
    /// the overnight charge, leaving and returning home.
    func shiftingDay(byHours hours: Int) -> Scenario {
        var shifted = self
        shifted.user.sleepStart = user.sleepStart.shifted(byHours: hours)
        shifted.user.wakeTime = user.wakeTime.shifted(byHours: hours)
        shifted.user.hourlyWeights = (0..<24).map { user.hourlyWeights[(($0 - hours) % 24 + 24) % 24] }
        shifted.power.overnightPlugIn = power.overnightPlugIn.shifted(byHours: hours)
        shifted.power.overnightUnplug = power.overnightUnplug.shifted(byHours: hours)
        shifted.network.leaveHome = network.leaveHome.shifted(byHours: hours)
        shifted.network.returnHome = network.returnHome.shifted(byHours: hours)
        return shifted
    }

    /// The fields ``shiftingDay(byHours:)`` changes, as a scenario fragment's sections.
    var dayFields: [(String, JSONValue)] {
        [
            ("user", .object([("sleepStart", .string(user.sleepStart.description)), ("wakeTime", .string(user.wakeTime.description)),
                              ("hourlyWeights", .array(user.hourlyWeights.map(JSONValue.number)))])),
            ("power", .object([("overnightPlugIn", .string(power.overnightPlugIn.description)),
                               ("overnightUnplug", .string(power.overnightUnplug.description))])),
            ("network", .object([("leaveHome", .string(network.leaveHome.description)), ("returnHome", .string(network.returnHome.description))])),
        ]
    }
}
