import BackgroundSim
import Foundation

/// `UIBackgroundFetchResult`: what the app's handler of a silent push reports.
public enum UIBackgroundFetchResult: UInt, Sendable {
    case newData = 0
    case noData = 1
    case failed = 2
}

extension UIApplication {
    /// Registers for remote notifications. The simulation's silent pushes come from the
    /// scenario's `pushes` whether or not the app registers, so this does nothing.
    public func registerForRemoteNotifications() {}
}

extension UIBackgroundFetchResult {
    /// The model's result.
    var model: BackgroundFetchResult {
        switch self {
        case .newData: .newData
        case .noData: .noData
        case .failed: .failed
        }
    }
}
