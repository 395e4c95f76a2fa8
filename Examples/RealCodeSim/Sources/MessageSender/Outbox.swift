#if os(iOS)
import Foundation
#else
import SimulatedBackgroundTasks
#endif

/// The messages waiting to be sent: an actor, as the app's state shared between its tasks is,
/// kept in `UserDefaults` so that they survive the process.
actor Outbox {
    static let countKey = "sender.outbox"

    init() {}

    /// Messages waiting.
    var count: Int { UserDefaults.standard.integer(forKey: Self.countKey) }

    func add() {
        UserDefaults.standard.set(count + 1, forKey: Self.countKey)
    }

    /// Sends every waiting message, 3 s of network each; throws `CancellationError` if the task
    /// is cancelled midway (what is sent stays sent).
    func sendAll() async throws {
        while count > 0 {
            try await Task.sleep(for: .seconds(3))
            UserDefaults.standard.set(count - 1, forKey: Self.countKey)
        }
    }
}

/// What the app's icon badge says: main-actor state, as UI is.
@MainActor final class StatusBadge {
    static let shared = StatusBadge()
    private(set) var text = ""
    private(set) var updates = 0

    func show(_ text: String) {
        self.text = text
        updates += 1
    }
}
