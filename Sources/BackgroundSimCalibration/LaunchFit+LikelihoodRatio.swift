import BackgroundSim
import SimKernel
import BackgroundSimLab

extension LaunchFit {
    /// Half the 95 % point of χ² with one degree of freedom (3.841): how far the log-likelihood
    /// falls at the ends of a likelihood-ratio interval.
    static let likelihoodRatioDrop = 1.920_729_410_347_062

    /// `self` with each free parameter's interval widened to hold its likelihood-ratio
    /// interval along its own axis (the other parameters at the fit): the values whose
    /// log-likelihood is within ``likelihoodRatioDrop`` of the fit's, out to the parameter's
    /// range where it never falls that far.
    ///
    /// The bootstrap's percentiles fail where the maximum sits on the edge of what the
    /// parameter may be — a chance of 0 when the logs show no launch it could explain — because
    /// most resamples pick the same edge (Andrews 2000); the likelihood ratio does not (at an
    /// edge its reference distribution is half χ²₀ and half χ²₁, Self & Liang 1987, so χ²₁ is
    /// conservative). Along one axis it can be narrower than the profile interval where the
    /// parameters are correlated, which the bootstrap's spread then covers: the union is kept.
    func spanningLikelihoodRatio(scorer: LaunchScorer, base: HeuristicLaunchParameters) -> LaunchFit {
        let coordinates = self.coordinates
        let center = coordinates.start(parameters)
        func logLikelihood(_ point: [Double]) -> Double { scorer.score(coordinates.applying(point, to: base)).logLikelihood }
        let floor = logLikelihood(center) - Self.likelihoodRatioDrop
        var result = self
        for (axis, key) in coordinates.keys.enumerated() {
            guard let index = result.fitted.firstIndex(where: { $0.key == key }),
                  let low = result.fitted[index].low, let high = result.fitted[index].high else { continue }
            func isInside(_ direction: Double, _ distance: Double) -> Bool {
                var point = center
                point[axis] += direction * distance
                return logLikelihood(point) >= floor
            }
            func end(_ direction: Double) -> Double {
                Self.intervalEnd(key, from: center[axis], direction: direction, bisections: Self.bisections) { isInside(direction, $0) }
            }
            result.fitted[index].low = Swift.min(low, end(-1))
            result.fitted[index].high = Swift.max(high, end(1))
        }
        return result
    }

    /// `self` with the interval of each parameter on the edge of its range
    /// (``FittedParameter/onRangeEdge``) reaching its **profile** likelihood-ratio end: moving
    /// the parameter from its edge into its range, with the other free parameters climbed again
    /// at each value (Nelder–Mead from the fit, a first step of 0.5, at most
    /// ``profileClimbEvaluations`` evaluations), to where the best log-likelihood falls by
    /// ``likelihoodRatioDrop`` (Self & Liang 1987 for the reference distribution at an edge).
    ///
    /// Along the axis alone the others stay at the fit, and a parameter correlated with the one
    /// on the edge cannot make up for it: on night-owl Zashi logs whose fade ended at 30 days,
    /// the axis's end lay between 4.5 and 8.1 days in 43 of 43 replications, against a true 4.
    func spanningProfileLikelihood(scorer: LaunchScorer, base: HeuristicLaunchParameters) -> LaunchFit {
        let coordinates = self.coordinates
        let center = coordinates.start(parameters)
        func logLikelihood(_ point: [Double]) -> Double { scorer.score(coordinates.applying(point, to: base)).logLikelihood }
        let floor = logLikelihood(center) - Self.likelihoodRatioDrop
        var result = self
        for (axis, key) in coordinates.keys.enumerated() {
            guard let index = result.fitted.firstIndex(where: { $0.key == key }), result.fitted[index].onRangeEdge,
                  let low = result.fitted[index].low, let high = result.fitted[index].high else { continue }
            let range = key.range
            let lowEnd = Coordinates.coordinate(key, Swift.max(range.lowerBound, 1e-9)), highEnd = Coordinates.coordinate(key, range.upperBound)
            // Into the range: down from the upper edge, up from the lower.
            let direction: Double = highEnd - center[axis] < center[axis] - lowEnd ? -1 : 1
            func profile(_ distance: Double) -> Double {
                profileLogLikelihood(axis: axis, offset: direction * distance, center: center, logLikelihood: logLikelihood)
            }
            let end = Self.intervalEnd(key, from: center[axis], direction: direction, bisections: Self.profileBisections) {
                profile($0) >= floor
            }
            result.fitted[index].low = Swift.min(low, end)
            result.fitted[index].high = Swift.max(high, end)
        }
        return result
    }

    /// `self` with the interval of every free parameter not on the edge of its range widened to
    /// its profile likelihood-ratio interval, with every other free parameter — the one on the
    /// edge among them — climbed again at each value; unchanged when no parameter is on an
    /// edge.
    ///
    /// The bootstrap holds a parameter on its range's edge at the edge
    /// (``withIntervals(scorer:base:)``), so the others' intervals from it are conditional on
    /// that edge; the profile frees it. Each side is checked at the interval's current end
    /// first — if the profile there is below ``likelihoodRatioDrop`` of the best, the profile
    /// interval ends inside and nothing changes (two climbs) — and otherwise followed outward as
    /// ``intervalEnd(_:from:direction:bisections:isInside:)`` does.
    func spanningProfileOverEdges(scorer: LaunchScorer, base: HeuristicLaunchParameters) -> LaunchFit {
        guard fitted.contains(where: \.onRangeEdge) else { return self }
        return spanningProfiles(scorer: scorer, base: base)
    }

    /// `self` with the interval of every free parameter not on the edge of its range widened to
    /// its profile likelihood-ratio interval (as ``spanningProfileOverEdges(scorer:base:)``
    /// does, whether or not a parameter is on an edge).
    ///
    /// Calibration takes it where the likelihood is profiled over more than the parameters: the
    /// mixture of earlier use that logs begun after install integrate out (``EarlierUseMixture``)
    /// is fitted afresh at each point, and the bootstrap, which resamples devices under the
    /// mixture fitted to all of them, leaves out how much it trades off against the budget.
    func spanningProfiles(scorer: LaunchScorer, base: HeuristicLaunchParameters) -> LaunchFit {
        let coordinates = self.coordinates
        let center = coordinates.start(parameters)
        func logLikelihood(_ point: [Double]) -> Double { scorer.score(coordinates.applying(point, to: base)).logLikelihood }
        let floor = logLikelihood(center) - Self.likelihoodRatioDrop
        var result = self
        for (axis, key) in coordinates.keys.enumerated() {
            guard let index = result.fitted.firstIndex(where: { $0.key == key }), !result.fitted[index].onRangeEdge,
                  let low = result.fitted[index].low, let high = result.fitted[index].high else { continue }
            let range = key.range
            for (direction, end) in [(-1.0, low), (1.0, high)] where range.lowerBound < end && end < range.upperBound {
                let reach = abs(Coordinates.coordinate(key, end) - center[axis])
                func profile(_ distance: Double) -> Double {
                    profileLogLikelihood(axis: axis, offset: direction * distance, center: center, logLikelihood: logLikelihood)
                }
                guard profile(reach) >= floor else { continue }
                let wider = Self.intervalEnd(key, from: center[axis], direction: direction, bisections: Self.profileBisections) {
                    $0 <= reach || profile($0) >= floor
                }
                if direction < 0 { result.fitted[index].low = Swift.min(low, wider) } else { result.fitted[index].high = Swift.max(high, wider) }
            }
        }
        return result
    }

    /// The best log-likelihood with coordinate `axis` moved by `offset` from `center`, the
    /// other coordinates climbed again from `center` (Nelder–Mead, a first step of 0.5, at most
    /// ``profileClimbEvaluations`` evaluations); the point along the axis alone if that is
    /// better.
    func profileLogLikelihood(axis: Int, offset: Double, center: [Double], logLikelihood: ([Double]) -> Double) -> Double {
        var point = center
        point[axis] += offset
        let along = logLikelihood(point)
        let others = center.indices.filter { $0 != axis }
        guard !others.isEmpty else { return along }
        let climb = NelderMead.minimise({ free in
            var trial = point
            for (slot, other) in others.enumerated() { trial[other] = free[slot] }
            return -logLikelihood(trial)
        }, start: others.map { center[$0] }, step: 0.5, tolerance: Self.climbTolerance.values, sizeTolerance: Self.climbTolerance.size,
           maximumEvaluations: Self.profileClimbEvaluations)
        return Swift.max(along, -climb.value)
    }

    /// The end of an interval of `key`'s values from `coordinate` (the fit's, in the optimiser's
    /// coordinates) in `direction`: the distance doubles from 0.25 while `isInside` holds, until
    /// the parameter's range or ``widestSearch`` ends (the range's end is then the interval's),
    /// then the bracket is halved `bisections` times and its outer end taken.
    static func intervalEnd(_ key: FittedKey, from coordinate: Double, direction: Double, bisections: Int,
                            isInside: (_ distance: Double) -> Bool) -> Double {
        let range = key.range
        func value(_ distance: Double) -> Double { Coordinates.value(key, at: coordinate + direction * distance) }
        var inside = 0.0, distance = 0.25
        while isInside(distance) {
            inside = distance
            let reached = value(distance)
            if reached <= range.lowerBound || reached >= range.upperBound || distance >= widestSearch {
                return direction < 0 ? range.lowerBound : range.upperBound
            }
            distance *= 2
        }
        var outside = distance
        for _ in 0..<bisections {
            let middle = (inside + outside) / 2
            if isInside(middle) { inside = middle } else { outside = middle }
        }
        return value(outside)
    }

    /// Evaluations each of the profile's climbs may take, and the halvings of its bracket (1/256
    /// of it: each halving costs a climb).
    static let profileClimbEvaluations = 120
    static let profileBisections = 8

    /// How far the search for an end goes in the optimiser's coordinates (a logit of ±64
    /// reaches a chance's range; a logarithm's range is nearer) and how finely it resolves it:
    /// 10 halvings, under 0.1 % of the bracket.
    static let widestSearch = 64.0
    static let bisections = 10
}
