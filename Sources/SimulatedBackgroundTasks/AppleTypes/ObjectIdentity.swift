/// Equality and hashing by identity, as the framework classes that are `NSObject`s on iOS have
/// them (`isEqual(_:)` and `hash` of `NSObject`): an app can keep them in sets, use them as
/// dictionary keys, and hold them in an `Equatable` action enum (a reducer's
/// `case task(BGProcessingTask)`).
public protocol ObjectIdentityEquatable: AnyObject, Hashable {}

extension ObjectIdentityEquatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

// The simulated frameworks' classes that are `NSObject`s on iOS.
extension BGTask: ObjectIdentityEquatable {}
extension BGTaskRequest: ObjectIdentityEquatable {}
extension BGTaskScheduler: ObjectIdentityEquatable {}
extension UIApplication: ObjectIdentityEquatable {}
extension UIDevice: ObjectIdentityEquatable {}
extension UIResponder: ObjectIdentityEquatable {}
extension URLSession: ObjectIdentityEquatable {}
extension URLSessionTask: ObjectIdentityEquatable {}
extension URLSessionConfiguration: ObjectIdentityEquatable {}
extension NotificationCenter: ObjectIdentityEquatable {}
extension UserDefaults: ObjectIdentityEquatable {}
extension DispatchQueue: ObjectIdentityEquatable {}
extension DispatchGroup: ObjectIdentityEquatable {}
extension DispatchSemaphore: ObjectIdentityEquatable {}
extension Operation: ObjectIdentityEquatable {}
extension OperationQueue: ObjectIdentityEquatable {}
extension Timer: ObjectIdentityEquatable {}
extension RunLoop: ObjectIdentityEquatable {}
