/// The closures the app's code handed the system, by number: the system delivers
/// ``ProcessDelivery/callback(_:)`` or ``ProcessDelivery/taskLaunched(handler:task:identifier:kind:)``
/// when it would call one.
struct CallbackTable {
    private enum Callback {
        case plain(() -> Void, once: Bool)
        case taskLaunch((SystemTask) -> Void)
    }

    private var callbacks: [CallbackID: Callback] = [:]
    private var last: UInt32 = 0

    /// Keeps `body`; a callback made `once` is let go after it runs.
    mutating func add(once: Bool, _ body: @escaping () -> Void) -> CallbackID {
        keep(.plain(body, once: once))
    }

    /// Keeps a task's launch handler.
    mutating func add(taskLaunch body: @escaping (SystemTask) -> Void) -> CallbackID {
        keep(.taskLaunch(body))
    }

    mutating func remove(_ id: CallbackID) {
        callbacks[id] = nil
    }

    mutating func removeAll() {
        callbacks.removeAll()
    }

    /// The closure `id` names, let go if it runs once.
    mutating func take(_ id: CallbackID) -> (() -> Void)? {
        guard case .plain(let body, let once)? = callbacks[id] else { return nil }
        if once { callbacks[id] = nil }
        return body
    }

    /// The task launch handler `id` names.
    func taskLaunch(_ id: CallbackID) -> ((SystemTask) -> Void)? {
        guard case .taskLaunch(let body)? = callbacks[id] else { return nil }
        return body
    }

    private mutating func keep(_ callback: Callback) -> CallbackID {
        last += 1
        let id = CallbackID(rawValue: last)
        callbacks[id] = callback
        return id
    }
}
