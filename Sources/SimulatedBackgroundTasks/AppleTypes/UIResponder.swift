/// `UIResponder`: the class an app delegate descends from on iOS
/// (`class AppDelegate: UIResponder, UIApplicationDelegate`), so that the delegate's file
/// compiles unchanged. It responds to nothing here: the simulation has no events of the user's
/// interface.
open class UIResponder: @unchecked Sendable {
    public init() {}
}

/// `UIWindow`: the window an app delegate may keep (`var window: UIWindow?`). The simulation
/// has no interface: a window is never shown.
open class UIWindow: UIResponder, @unchecked Sendable {}

extension UIApplication {
    /// `UIApplication.ExtensionPointIdentifier`: a kind of app extension the app may refuse
    /// (`application(_:shouldAllowExtensionPointIdentifier:)`; extensions are not simulated).
    public struct ExtensionPointIdentifier: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Custom keyboards.
        public static let keyboard = ExtensionPointIdentifier(rawValue: "com.apple.keyboard-service")
    }
}
