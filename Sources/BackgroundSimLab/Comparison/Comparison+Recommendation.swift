import BackgroundSim

extension Comparison {
    /// The comparison's one recommendation.
    ///
    /// With an objective, ``Recommendation/choose(names:objective:values:)`` over the scenarios.
    /// Without one, from the Holm-corrected verdicts against the baseline: a candidate better on
    /// some metric by at least its margin and worse on none — neither by at least the margin nor
    /// by a real difference perhaps smaller than it — is recommended (the one better on most,
    /// the first on ties); if every candidate that differs is only worse, the baseline is;
    /// otherwise the line names the trade-off and asks for an objective.
    public func recommendation(_ objective: Objective? = nil) -> Recommendation {
        if let objective {
            return Recommendation.choose(names: names, objective: objective, alpha: alpha) { metric in
                rows.first { $0.metric.key == metric.key }?.values ?? names.map { _ in seeds.map { _ in nil } }
            }
        }
        let confidence = "Holm-corrected over \(testCount) claims, \(Format.significant((1 - alpha) * 100)) % family-wise"
        func labels(_ index: Int, _ judgement: Judgement) -> [String] {
            rows.filter { self.judgement($0, candidate: index) == judgement }.map(\.metric.label)
        }
        let candidates = Array(1..<names.count)
        let better = candidates.map { labels($0, .better) }, worse = candidates.map { labels($0, .worse) }
        let perhapsWorse = candidates.map { labels($0, .perhapsWorse) }
        let dominant = candidates.filter { better[$0 - 1].count > 0 && worse[$0 - 1].isEmpty && perhapsWorse[$0 - 1].isEmpty }
        if let pick = dominant.min(by: { (-better[$0 - 1].count, $0) < (-better[$1 - 1].count, $1) }) {
            let others = dominant.filter { $0 != pick }.map { names[$0] }
            return Recommendation(
                choice: pick, confident: true, indistinguishable: [],
                line: "Recommendation: \(names[pick]) — better than \(names[0]) on \(Recommendation.list(better[pick - 1])) and worse on nothing"
                    + (others.isEmpty ? "" : " (so are \(Recommendation.list(others)))") + " (\(confidence))")
        }
        let traders = candidates.filter { !better[$0 - 1].isEmpty }
        if let trader = traders.first {
            var costs: [String] = []
            if !worse[trader - 1].isEmpty { costs.append("worse on \(Recommendation.list(worse[trader - 1]))") }
            if !perhapsWorse[trader - 1].isEmpty {
                costs.append("worse, perhaps by less than the margin, on \(Recommendation.list(perhapsWorse[trader - 1]))")
            }
            return Recommendation(
                choice: nil, confident: false, indistinguishable: [],
                line: "Recommendation: none without an objective — \(names[trader]) is better on \(Recommendation.list(better[trader - 1]))"
                    + " but \(costs.joined(separator: " and ")); say what matters with --minimize or --maximize and --subject-to")
        }
        if candidates.contains(where: { !worse[$0 - 1].isEmpty }) {
            return Recommendation(choice: 0, confident: true, indistinguishable: [],
                                  line: "Recommendation: keep \(names[0]) — no candidate is better on any metric, and some are worse (\(confidence))")
        }
        let inconclusive = candidates.reduce(0) { $0 + labels($1, .inconclusive).count }
        let perhaps = candidates.reduce(0) { $0 + labels($1, .perhapsBetter).count + labels($1, .perhapsWorse).count }
        var notes: [String] = []
        if perhaps > 0 { notes.append("\(perhaps) real difference\(perhaps == 1 ? "" : "s") perhaps smaller than the margin") }
        if inconclusive > 0 { notes.append("\(inconclusive) verdict\(inconclusive == 1 ? "" : "s") inconclusive (each says what would decide it)") }
        return Recommendation(choice: nil, confident: false, indistinguishable: [],
                              line: "Recommendation: none — no difference of at least the margin"
                                + (notes.isEmpty ? ", every metric equivalent or different only where no direction is better" : "; " + notes.joined(separator: ", ")))
    }
}
