import BackgroundSim

/// A number of the heuristic launch model that calibration fits to field logs, typed: its
/// declaration (``HeuristicLaunchParameters/numberFields``, the one place its valid range is
/// written), where it lives, and the scale the optimiser climbs it on.
///
/// - Refresh: `refreshBasePerDay`, `refreshPerAppSession`, `refreshFadeHalfLifeDays`, on their
///   logarithms (so they stay positive).
/// - Processing: the two chances per evaluation on their logits, `processingFadeHalfLifeDays` on
///   its logarithm.
package enum FittedKey: String, Sendable, CaseIterable {
    case refreshBasePerDay
    case refreshPerAppSession
    case refreshFadeHalfLifeDays
    case processingChargingChancePerEvaluation
    case processingBatteryChancePerEvaluation
    case processingFadeHalfLifeDays

    /// The task kind whose launches inform the number.
    package var kind: FieldLogRecord.Kind {
        switch self {
        case .refreshBasePerDay, .refreshPerAppSession, .refreshFadeHalfLifeDays: .refresh
        case .processingChargingChancePerEvaluation, .processingBatteryChancePerEvaluation, .processingFadeHalfLifeDays: .processing
        }
    }

    /// The keys of `kind`'s numbers, in the optimiser's order.
    package static func keys(of kind: FieldLogRecord.Kind) -> [FittedKey] { allCases.filter { $0.kind == kind } }

    /// Where the number lives in the launch model's parameters.
    var keyPath: WritableKeyPath<HeuristicLaunchParameters, Double> {
        switch self {
        case .refreshBasePerDay: \.refreshBasePerDay
        case .refreshPerAppSession: \.refreshPerAppSession
        case .refreshFadeHalfLifeDays: \.refreshFadeHalfLifeDays
        case .processingChargingChancePerEvaluation: \.processingChargingChancePerEvaluation
        case .processingBatteryChancePerEvaluation: \.processingBatteryChancePerEvaluation
        case .processingFadeHalfLifeDays: \.processingFadeHalfLifeDays
        }
    }

    /// Whether the number is a chance, climbed on its logit; otherwise it is positive and
    /// climbed on its logarithm.
    var isChance: Bool { self == .processingChargingChancePerEvaluation || self == .processingBatteryChancePerEvaluation }

    /// The number's declaration, found by its key (a test checks that every key has one).
    package var field: NumberField<HeuristicLaunchParameters>? {
        HeuristicLaunchParameters.numberFields.first { $0.key == rawValue }
    }

    /// The values the fit may take: the declaration's valid range, less 0 for a number climbed
    /// on its logarithm (from 0.001). Read once per key.
    var range: ClosedRange<Double> { Self.ranges[Self.allCases.firstIndex(of: self)!] }

    private static let ranges: [ClosedRange<Double>] = allCases.map { key in
        guard let valid = key.field?.valid else { preconditionFailure("FittedKey: \(key.rawValue) has no NumberField") }
        return key.isChance ? valid : Swift.max(valid.lowerBound, 0.001)...valid.upperBound
    }
}
