extension Tuning {
    /// Where a configuration ended up.
    public enum Status: String, Sendable {
        /// The recommended configuration.
        case chosen
        /// Meets the bounds and cannot be told apart from the chosen one.
        case indistinguishable
        /// In contention to the end, meets the bounds, shown worse than the chosen one.
        case worse
        /// Out at a look: another configuration that meets the bounds beat it.
        case screenedOut
        /// Misses a bound (shown at a look, or by its mean at the end).
        case missesBound
        /// The objective did not apply (no values) on enough seeds.
        case notApplicable
    }

    /// Configuration `index`'s status.
    public func status(of index: Int) -> Status {
        if outcome.best == index { return .chosen }
        if outcome.indistinguishable.contains(index) { return .indistinguishable }
        if outcome.feasibility[index].contains(.misses) { return .missesBound }
        if outcome.screening.eliminatedBy[index] != nil { return .screenedOut }
        if outcome.screening.survivors.contains(index) { return outcome.summaries[index].count > 0 ? .worse : .notApplicable }
        return .notApplicable
    }

    /// The status in words: "chosen", "screened out by 3", "misses app battery use ≤ 0.05".
    public func statusText(of index: Int) -> String {
        switch status(of: index) {
        case .chosen: return "chosen"
        case .indistinguishable: return "cannot be told apart"
        case .worse: return "worse"
        case .screenedOut: return "screened out by \(outcome.screening.eliminatedBy[index]!)"
        case .missesBound:
            let missed = procedure.objective.bounds.indices.filter { outcome.feasibility[index][$0] == .misses }
            return "misses " + missed.map { procedure.objective.bounds[$0].description }.joined(separator: ", ")
        case .notApplicable: return "no values"
        }
    }
}
