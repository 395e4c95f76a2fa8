/// SwiftUI's `ScenePhase`: whether the app's scene is in the foreground and taking input.
///
/// The simulated scene moves as UIKit's lifecycle does [Inf]: a launch by the user connects it
/// (`.inactive`, then `.active`); leaving goes `.active` → `.inactive` → `.background`, and
/// returning `.background` → `.inactive` → `.active`, each after the app delegate's own
/// callback. A launch in the background connects no scene, so its phase stays `.background`
/// and no `onChange` runs (SwiftUI makes no scene for a background launch).
public enum ScenePhase: Comparable, Hashable, Sendable {
    case background, inactive, active
}

/// SwiftUI's `EnvironmentValues`: what a view or scene reads from its environment.
public struct EnvironmentValues: Sendable {
    /// The scene's phase in the app's simulated code (`.active` elsewhere).
    public var scenePhase: ScenePhase { SimulatedProcess.current?.scenePhase ?? .active }
}

/// SwiftUI's `@Environment`: a value read from the environment, as a scene reads its phase
/// (`@Environment(\.scenePhase) private var scenePhase`).
@propertyWrapper
public struct Environment<Value>: @unchecked Sendable {
    private let keyPath: KeyPath<EnvironmentValues, Value>

    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
        self.keyPath = keyPath
    }

    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}
