import BackgroundSim

extension LaunchFit {
    /// This fit with its free parameters' 95 % intervals: the bootstrap over devices
    /// (``LaunchFitBootstrap``) joined with the maxima the logs cannot tell apart
    /// (``spanningAgreeingMaxima(base:)``) and the likelihood-ratio interval along each axis
    /// (``spanningLikelihoodRatio(scorer:base:)``); and how many resamples ended on the
    /// bootstrap grid's edge.
    ///
    /// Where the starts agree on a maximum that lies on the edge of a parameter's valid range
    /// (a fade half-life at 30 days when the users seldom go days without the app), the logs
    /// bound that parameter from one side only: it is held at the edge for the bootstrap, which
    /// gives the others their intervals, and its own interval is the profile likelihood ratio's
    /// (``spanningProfileLikelihood(scorer:base:)``), from where the best log-likelihood with the
    /// others free falls by ``likelihoodRatioDrop`` to the range's end. The parameter is marked
    /// ``FittedParameter/onRangeEdge``. The others' intervals, conditional on the edge in the
    /// bootstrap, are then widened to their profile likelihood-ratio intervals with the edge's
    /// parameter free (``spanningProfileOverEdges(scorer:base:)``). Where some logs began after
    /// install, every interval is widened to its profile likelihood-ratio interval
    /// (``spanningProfiles(scorer:base:)``). Called on a fit whose starts disagree, it returns
    /// the fit without intervals.
    func withIntervals(scorer: LaunchScorer, base: HeuristicLaunchParameters) -> (fit: LaunchFit, resamplesAtGridEdge: Int) {
        guard convergence.startsAgree else { return (self, 0) }
        let edges = Self.edgeKeys(of: coordinates.start(parameters), coordinates: coordinates, base: base)
        var inner = self
        for index in inner.fitted.indices where edges.contains(inner.fitted[index].key) {
            inner.fitted[index].heldBecause = "on the edge of its range"
        }
        var (result, atGridEdge) = LaunchFitBootstrap.intervals(for: inner, scorer: scorer, base: base)
        for index in result.fitted.indices where edges.contains(result.fitted[index].key) {
            result.fitted[index].heldBecause = nil
            result.fitted[index].onRangeEdge = true
            result.fitted[index].low = result.fitted[index].value
            result.fitted[index].high = result.fitted[index].value
        }
        result = result.spanningAgreeingMaxima(base: base).spanningLikelihoodRatio(scorer: scorer, base: base)
        if !edges.isEmpty {
            result = result.spanningProfileLikelihood(scorer: scorer, base: base).spanningProfileOverEdges(scorer: scorer, base: base)
        } else if scorer.integratesEarlierUse {
            result = result.spanningProfiles(scorer: scorer, base: base)
        }
        return (result, atGridEdge)
    }
}
