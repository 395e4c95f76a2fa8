#if os(iOS)
import Foundation
#else
import SimulatedBackgroundTasks
#endif

/// The private sending queue: real messages the user wrote, kept across launches; a cover
/// message goes out when it is empty, so that every run looks the same on the wire.
public actor SendingQueue {
    static let key = "privateSendingQueue"
    /// Bytes of one message on the wire, real or cover.
    static let messageBytes = 1_000

    /// What the queue did, for the app's own diagnostics (and our tests).
    public enum Event: Sendable, Equatable {
        case sent(String?)          // the head, or a cover message (nil)
        case dequeued(String)
    }

    private let onEvent: (@Sendable (Event) -> Void)?

    public init(onEvent: (@Sendable (Event) -> Void)? = nil) {
        self.onEvent = onEvent
    }

    /// The real messages waiting, oldest first.
    public var messages: [String] { UserDefaults.standard.stringArray(forKey: Self.key) ?? [] }

    /// Queues a message the user wrote.
    public func enqueue(_ message: String) {
        UserDefaults.standard.set(messages + [message], forKey: Self.key)
    }

    /// Sends the head (or a cover message), then dequeues the head — whatever is at the head by
    /// then. Two jobs doing this at once both send the same head, and the second dequeue drops
    /// the message behind it unsent: the code allows it.
    func trySendHeadAndDequeue(using api: MessageAPI) async {
        let head = messages.first
        do {
            try await api.send(Data(repeating: head == nil ? 0 : 1, count: Self.messageBytes))
        } catch {
            return      // left queued for the next run
        }
        onEvent?(.sent(head))
        if let first = messages.first {
            UserDefaults.standard.set(Array(messages.dropFirst()), forKey: Self.key)
            onEvent?(.dequeued(first))
        }
    }
}

/// The server's message endpoint.
public struct MessageAPI: Sendable {
    let url = URL(string: "https://example.org/user/messages")!

    func send(_ body: Data) async throws {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        _ = try await URLSession.shared.upload(for: request, from: body)
    }
}
