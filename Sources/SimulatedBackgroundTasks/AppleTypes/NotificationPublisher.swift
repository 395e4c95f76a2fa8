import Foundation

// `NotificationCenter.publisher(for:)`, `sink` and `AnyCancellable`, the way SwiftUI apps observe
// the lifecycle, where Combine is absent (Linux): the few operators such code uses. A
// notification reaches the subscriber as the notification center posts it — with
// `receive(on:)` a queue, as a block on that queue — until its `AnyCancellable` is cancelled or
// released.

extension NotificationCenter {
    /// The notifications named `name` (from `object`, if given) as they are posted.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationPublisher<Notification> {
        NotificationPublisher(center: self, name: name, object: object) { notification, deliver in deliver(notification) }
    }
}

/// A stream of values made from a notification center's notifications.
public struct NotificationPublisher<Output> {
    let center: NotificationCenter
    let name: Notification.Name
    let object: AnyObject?
    /// Turns a notification into what reaches the subscriber, by calling `deliver` (or not).
    let transform: (Notification, @escaping (Output) -> Void) -> Void

    /// Each value turned into another.
    public func map<T>(_ transform: @escaping (Output) -> T) -> NotificationPublisher<T> {
        chained { value, deliver in deliver(transform(value)) }
    }

    /// Each value turned into another, or dropped for `nil`.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> NotificationPublisher<T> {
        chained { value, deliver in if let value = transform(value) { deliver(value) } }
    }

    /// The values `isIncluded` keeps.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> NotificationPublisher<Output> {
        chained { value, deliver in if isIncluded(value) { deliver(value) } }
    }

    /// The values, each delivered as a block on `queue`.
    public func receive(on queue: DispatchQueue, options: Never? = nil) -> NotificationPublisher<Output> {
        chained { value, deliver in
            let pending = SimulationThreadBound((value, deliver))
            queue.async { pending.value.1(pending.value.0) }
        }
    }

    /// The values, delivered as they come (a run loop runs them at once here).
    public func receive(on runLoop: RunLoop, options: Never? = nil) -> NotificationPublisher<Output> {
        self
    }

    /// Calls `receiveValue` with each value until the returned `AnyCancellable` is cancelled or
    /// released.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        let transform = SimulationThreadBound((self.transform, receiveValue))
        let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
            transform.value.0(notification, transform.value.1)
        }
        let center = self.center
        return AnyCancellable { center.removeObserver(token) }
    }

    private func chained<T>(_ step: @escaping (Output, @escaping (T) -> Void) -> Void) -> NotificationPublisher<T> {
        let transform = self.transform
        return NotificationPublisher<T>(center: center, name: name, object: object) { notification, deliver in
            transform(notification) { value in step(value, deliver) }
        }
    }
}

/// `AnyCancellable`: a subscription, cancelled by ``cancel()`` or when released.
public final class AnyCancellable: Hashable, @unchecked Sendable {
    private var cancellation: (() -> Void)?

    public init(_ cancel: @escaping () -> Void) {
        cancellation = cancel
    }

    deinit {
        cancel()
    }

    /// Ends the subscription.
    public func cancel() {
        cancellation?()
        cancellation = nil
    }

    /// Keeps the subscription in `set`.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Keeps the subscription in `array`.
    public func store(in array: inout [AnyCancellable]) {
        array.append(self)
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
