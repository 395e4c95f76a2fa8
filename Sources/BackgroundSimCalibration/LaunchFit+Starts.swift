import BackgroundSim
import SimKernel
import BackgroundSimLab

extension LaunchFit {
    /// Where one start of the search ended.
    package struct StartResult: Sendable, Equatable {
        /// Where it started: "base" (the base scenario's values) or "grid" (a point of the
        /// coarse global stage).
        package var origin: String
        package var logLikelihood: Double
        /// The point it ended at, in the optimiser's coordinates.
        var point: [Double]
    }

    /// Whether the search found the maximum, as far as it can tell.
    package struct Convergence: Sendable, Equatable {
        /// Every start's end, best first.
        package var starts: [StartResult]
        /// Why the maximum is in doubt; `nil` when at least two starts ended within
        /// ``agreement`` log-likelihood units of the best and no fitted value lies on the edge
        /// of its valid range.
        package var problem: String?

        package var converged: Bool { problem == nil }
        /// Whether at least two starts ended within ``agreement`` of the best: when they do and
        /// the fit has not converged, the problem is a value on the edge of its range — most
        /// often where the logs do not bound it — not the optimiser.
        package var startsAgree = true

        /// The ends within ``agreement`` of the best, the best included: the maxima the data
        /// cannot tell apart, which a parameter's interval must span.
        var agreeing: [StartResult] {
            guard let best = starts.first else { return [] }
            return starts.filter { best.logLikelihood - $0.logLikelihood <= agreement }
        }
    }

    /// Log-likelihood units within which two starts' ends count as the same maximum: 1.92, half
    /// the 95 % point of χ² with one degree of freedom, the drop that bounds a 95 %
    /// likelihood-ratio interval. The likelihood is rugged (each logged launch a budget must
    /// pay for is a small wall), so climbs from different starts stop at nearby local maxima a
    /// fraction of a unit apart; ends closer than this are maxima the logs cannot tell apart,
    /// and the intervals are widened to span them. Ends farther apart mean the search has not
    /// found the maximum.
    static let agreement = 1.92

    /// The values the coarse global stage tries for each parameter (a grid over the keys that are
    /// fitted: at most 5 × 5 × 4 = 100 points), spanning the plausible ranges in docs/MODEL.md
    /// and beyond on a logarithmic scale.
    static func gridValues(_ key: FittedKey) -> [Double] {
        switch key {
        case .refreshBasePerDay: [0.1, 0.3, 1, 3, 10]
        case .refreshPerAppSession: [0.03, 0.1, 0.3, 1, 3]
        case .processingChargingChancePerEvaluation: [0.02, 0.1, 0.3, 0.7, 0.95]
        case .processingBatteryChancePerEvaluation: [0.001, 0.005, 0.02, 0.1]
        case .refreshFadeHalfLifeDays, .processingFadeHalfLifeDays: [0.7, 2, 6, 20]    // in days
        }
    }

    /// Starts taken from the global stage: its best points, besides the base values. With two,
    /// a 24-phone CoverDrop log had both climb to the same local maximum 2.9 units below the
    /// one a third start found; with four, one of them finds it [Inf].
    static let gridStarts = 4

    /// Climbs per start: a climb that gains at least ``climbGain`` is followed by another from
    /// where it stopped, with a fresh simplex.
    static let maximumClimbs = 3
    /// The gain in log-likelihood after which a climb is tried again: 0.1, a twentieth of
    /// ``agreement``. (At 0.01, a 250-phone CoverDrop log took 8 climbs of about 120
    /// evaluations each, the later ones gaining hundredths on the likelihood's small walls.)
    static let climbGain = 0.1

    /// Each climb stops when its simplex's values span less than 0.001 log-likelihood units or
    /// its points lie within 0.003 of each other in the optimiser's coordinates (0.3 % of a
    /// value): far finer than the intervals, whose grid steps are at least 0.01.
    static let climbTolerance = (values: 1e-3, size: 3e-3)

    /// The maximum of `objective` (a log-likelihood over the optimiser's coordinates) by several
    /// starts, in turn: the base values, then the ``gridStarts`` best points of a coarse grid,
    /// each climbed by Nelder–Mead (at most ``maximumClimbs`` climbs), until two ends agree on
    /// the best so far (within ``agreement``) or the starts run out. Returns the best end and how the starts agree.
    static func search(coordinates: Coordinates, base: HeuristicLaunchParameters,
                       objective: ([Double]) -> Double) -> (point: [Double], evaluations: Int, convergence: Convergence) {
        var evaluations = 0
        func value(_ point: [Double]) -> Double {
            evaluations += 1
            let v = objective(point)
            return v.isFinite ? v : -Double.greatestFiniteMagnitude
        }
        // The global stage: every combination of the keys' grid values.
        let axes = coordinates.keys.map { key in gridValues(key).map { Coordinates.coordinate(key, $0) } }
        var gridPoints: [[Double]] = [[]]
        for axis in axes { gridPoints = gridPoints.flatMap { prefix in axis.map { prefix + [$0] } } }
        let scored = gridPoints.map { ($0, value($0)) }
        let best = scored.indices.sorted { (-scored[$0].1, $0) < (-scored[$1].1, $1) }.prefix(gridStarts)
        let starts: [(String, [Double])] = [("base", coordinates.start(base))] + best.map { ("grid", scored[$0].0) }
        var ends: [StartResult] = []
        for (origin, start) in starts {
            var point = start
            var current = value(point)
            for _ in 0..<maximumClimbs {
                let result = NelderMead.minimise({ -value($0) }, start: point, step: 0.3, tolerance: climbTolerance.values, sizeTolerance: climbTolerance.size,
                                                 maximumEvaluations: 300)
                let gained = -result.value - current
                if -result.value > current { (point, current) = (result.point, -result.value) }
                if gained < climbGain { break }
            }
            ends.append(StartResult(origin: origin, logLikelihood: current, point: point))
            // Two ends that agree on the best so far settle it, unless the best is on a range's
            // edge: starts that fall into the same wrong basin end there together (a night-owl
            // Zashi log had the base and the best grid point both stop 344 units below the
            // truth, at the edges), so the remaining starts are tried.
            let best = ends.max { $0.logLikelihood < $1.logLikelihood }!
            if ends.filter({ best.logLikelihood - $0.logLikelihood <= agreement }).count >= 2
                && edges(of: best.point, coordinates: coordinates, base: base).isEmpty { break }
        }
        ends.sort { ($0.logLikelihood, $1.origin) > ($1.logLikelihood, $0.origin) }
        let top = ends[0]
        var problem: String?
        let agreeing = ends.filter { top.logLikelihood - $0.logLikelihood <= agreement }.count
        if agreeing < 2 {
            problem = "the starts disagree: the best ended \(Format.significant(top.logLikelihood - ends[1].logLikelihood)) log-likelihood units above the next"
        }
        for edge in edges(of: top.point, coordinates: coordinates, base: base) {
            problem = problem.map { $0 + "; " + edge } ?? edge
        }
        var convergence = Convergence(starts: ends, problem: problem)
        convergence.startsAgree = agreeing >= 2
        return (top.point, evaluations, convergence)
    }

    /// What lies on the edge of its valid range at `point` (within 0.1 % of the range in the
    /// optimiser's coordinates), said for the report.
    static func edges(of point: [Double], coordinates: Coordinates, base: HeuristicLaunchParameters) -> [String] {
        let parameters = coordinates.applying(point, to: base)
        return edgeKeys(of: point, coordinates: coordinates, base: base).map { key in
            "\(key.rawValue) is on the edge of its valid range (\(Format.significant(Coordinates.value(key, of: parameters))))"
        }
    }

    /// The keys whose values lie on the edge of their valid range at `point`.
    static func edgeKeys(of point: [Double], coordinates: Coordinates, base: HeuristicLaunchParameters) -> [FittedKey] {
        let parameters = coordinates.applying(point, to: base)
        return coordinates.keys.filter { key in
            let value = Coordinates.value(key, of: parameters), range = key.range
            let low = Coordinates.coordinate(key, Swift.max(range.lowerBound, 1e-9)), high = Coordinates.coordinate(key, range.upperBound)
            let c = Coordinates.coordinate(key, value)
            return c - low < 0.001 * (high - low) || high - c < 0.001 * (high - low)
        }
    }
}
