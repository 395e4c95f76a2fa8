/// A value handed to the app's async work that is used only on the thread of the simulation
/// that made it — as everything the app's simulated code does is — so it may cross into a
/// `Task` though its type is not `Sendable`.
struct SimulationThreadBound<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
