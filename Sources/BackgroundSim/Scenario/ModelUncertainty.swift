import SimKernel

/// What we do not know about iOS, as draws: each number of the iOS model that is our inference
/// or observed in the field, drawn per seed from its plausible range (``NumberField/plausible``,
/// docs/SCENARIOS.md's table), so that a decision's intervals include the model's uncertainty
/// and its sensitivity to each number can be measured (`--model-uncertainty`).
///
/// A seed's draw depends on the seed alone — the stream `model-uncertainty`, the seed as its
/// entity — so every arm of a comparison run on that seed lives under the same iOS and the
/// pairing holds. A range from a positive value to at least three times it is drawn uniformly on
/// the logarithm (a budget of 50–500 J/day is as likely below 158 as above); any other
/// uniformly; a whole number uniformly among the whole numbers in its range.
///
///     let uncertainty = ModelUncertainty.standard
///     let values = uncertainty.draw(seed: 7)                      // one per parameter
///     let variant = try uncertainty.applying(values, to: Scenario())
public struct ModelUncertainty: Sendable, Equatable {
    /// A number drawn, by its path in a scenario (`system.heuristic.refreshBasePerDay`).
    public struct Parameter: Sendable, Equatable {
        public var path: String
        public var plausible: ClosedRange<Double>
        public var isWholeNumber: Bool

        /// A number drawn from `plausible`, a whole number if `isWholeNumber`; its path is a
        /// number of a scenario (an uncertainty of one's own, such as a test's).
        public init(path: String, plausible: ClosedRange<Double>, isWholeNumber: Bool = false) {
            self.path = path
            self.plausible = plausible
            self.isWholeNumber = isWholeNumber
        }

        /// Whether draws are uniform on the logarithm: a positive lower end and an upper end at
        /// least three times it.
        public var isLogarithmic: Bool { plausible.lowerBound > 0 && plausible.upperBound >= 3 * plausible.lowerBound }

        /// The value at `u` in [0, 1) of the range (on the logarithm where ``isLogarithmic``).
        func value(at u: Double) -> Double {
            let low = plausible.lowerBound, high = plausible.upperBound
            if isWholeNumber { return Swift.min(high, (low + u * (high - low + 1)).rounded(.down)) }
            if isLogarithmic { return low * PortableMath.exp(u * PortableMath.log(high / low)) }
            return low + u * (high - low)
        }
    }

    public var parameters: [Parameter]
    /// Paths left as the scenario has them — a number the user set on purpose: one a
    /// comparison's scenarios differ in, a sweep's or a tuning's axis. They are still drawn (so
    /// every other number's draw stays the same) but not applied.
    public var fixedPaths: Set<String> = []

    /// The parameters applied, in order: those not fixed.
    public var varied: [Parameter] { parameters.filter { !fixedPaths.contains($0.path) } }

    /// This uncertainty with the plausible ranges `ranges` gives (a scenario's ``Scenario/plausible``,
    /// such as a calibration's intervals) in place of the standard ones.
    public func narrowed(by ranges: [PlausibleRange]) -> ModelUncertainty {
        var result = self
        for range in ranges {
            for index in result.parameters.indices where result.parameters[index].path == range.path {
                result.parameters[index].plausible = range.low...range.high
            }
        }
        return result
    }

    /// This uncertainty with `paths` left as the scenario has them.
    public func fixing(_ paths: some Sequence<String>) -> ModelUncertainty {
        var result = self
        result.fixedPaths.formUnion(paths)
        return result
    }

    /// The paths among ``parameters`` at which `scenarios` do not all hold the same value.
    public func pathsDiffering(among scenarios: [Scenario]) -> [String] {
        let documents = scenarios.map { ScenarioLoader.document(of: $0) }
        return parameters.map(\.path).filter { path in
            let keys = path.split(separator: ".").map(String.init)
            let values = documents.map { ScenarioLoader.value(at: keys, in: $0) }
            return values.contains { $0 != values.first! }
        }
    }

    /// Every number of the iOS model with a plausible range, in docs/SCENARIOS.md's order.
    public static var standard: ModelUncertainty {
        ModelUncertainty(parameters: Scenario.uncertainNumberRows.compactMap { row in
            row.plausible.map { Parameter(path: row.path, plausible: $0, isWholeNumber: row.isWholeNumber) }
        })
    }

    public init(parameters: [Parameter]) {
        self.parameters = parameters
    }

    /// The stream the draws come from.
    public static let streamLabel = StreamLabel("model-uncertainty")

    /// One value per parameter, in order, for `seed`.
    public func draw(seed: UInt64) -> [Double] {
        var stream = RandomStream(seed: seed, label: Self.streamLabel, entity: seed)
        return parameters.map { $0.value(at: stream.unit()) }
    }

    /// `scenario` with each parameter set to its value in `values` (from ``draw(seed:)``). A
    /// policy given in Swift (``Scenario/running(_:policy:)``), which no registry knows by
    /// name, is kept as it is.
    ///
    /// - Throws: ``ScenarioError`` if the values break a relation the scenario must keep.
    public func applying(_ values: [Double], to scenario: Scenario, policies: PolicyRegistry = .builtIn) throws(ScenarioError) -> Scenario {
        precondition(values.count == parameters.count, "ModelUncertainty: \(values.count) values for \(parameters.count) parameters")
        var document = ScenarioLoader.document(of: scenario)
        for (parameter, value) in zip(parameters, values) where !fixedPaths.contains(parameter.path) {
            document = ScenarioLoader.setting(.number(value), at: parameter.path.split(separator: ".").map(String.init), in: document)
        }
        // A Swift policy's name means nothing to the decoder: decode with none, then put it back.
        let swiftPolicy = scenario.app.policy.definition != nil && policies.definition(named: scenario.app.policy.name) == nil
        if swiftPolicy {
            document = ScenarioLoader.setting(.object([("name", .string("none"))]), at: ["app", "policy"], in: document)
        }
        var varied = try ScenarioLoader.decode(JSONWriter.compact(document), source: "\(scenario.name) (model uncertainty)", policies: policies)
        varied.name = scenario.name
        if swiftPolicy { varied.app.policy = scenario.app.policy }
        return varied
    }
}
