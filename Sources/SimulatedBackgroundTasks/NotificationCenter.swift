import Foundation

/// `NotificationCenter`, per simulated process: `NotificationCenter.default` reaches the process
/// whose code is running, and its observers end with the process, as on iOS. The simulated app
/// posts `UIApplication`'s lifecycle notifications here (``AppDelegatePolicy``).
///
/// Observers are blocks (`addObserver(forName:object:queue:using:)`); the queue is ignored and
/// blocks run at once, on the simulation's thread, in the order they were added. Selector-based
/// observers need the Objective-C runtime and are not supported.
open class NotificationCenter: @unchecked Sendable {
    private struct Observer {
        let token: ObserverToken
        let name: Notification.Name?
        let block: (Notification) -> Void
    }

    private var observers: [Observer] = []

    /// The simulated process's notification center.
    open class var `default`: NotificationCenter {
        SimulatedProcess.required(by: "NotificationCenter.default").notifications
    }

    public init() {}

    /// Adds `block` for notifications named `name` (every notification for `nil`); returns the
    /// token that removes it.
    @discardableResult
    open func addObserver(forName name: Notification.Name?, object obj: Any?, queue: OperationQueue?,
                          using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol {
        let token = ObserverToken()
        observers.append(Observer(token: token, name: name, block: block))
        return token
    }

    /// Removes the observer `observer` returned.
    open func removeObserver(_ observer: Any) {
        guard let token = observer as? ObserverToken else { return }
        observers.removeAll { $0.token === token }
    }

    open func post(_ notification: Notification) {
        for observer in observers where observer.name == nil || observer.name == notification.name {
            observer.block(notification)
        }
    }

    open func post(name aName: Notification.Name, object anObject: Any?, userInfo aUserInfo: [AnyHashable: Any]? = nil) {
        post(Notification(name: aName, object: anObject, userInfo: aUserInfo))
    }

    private final class ObserverToken: NSObject {}
}
