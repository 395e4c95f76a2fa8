/// A request to keep work the user started in the foreground running after they leave the app,
/// for as long as it makes progress, like `BGContinuedProcessingTaskRequest` (iOS 26).
///
/// Submit it in the foreground, on the user's action; it starts at once if the system can,
/// or waits for a free slot (``SubmissionStrategy/queue``). Unlike a ``TaskRequest`` it is never
/// pending for the system to schedule, and it has no earliest begin date [A]. The identifier may
/// match a wildcard permitted identifier (`com.example.export.*`). The title and subtitle the
/// system shows are not modelled.
///
///     try app.taskScheduler.submit(ContinuedProcessingTaskRequest(identifier: "com.example.export.1"))
public struct ContinuedProcessingTaskRequest: Sendable, Hashable {
    /// What `submit` does with a request the system cannot start at once, like
    /// `BGContinuedProcessingTaskRequest.SubmissionStrategy`.
    public enum SubmissionStrategy: UInt8, Sendable, Hashable {
        /// Throw ``TaskSchedulerError/Code/immediateRunIneligible``.
        case fail = 0
        /// Wait at the back of a queue and start as soon as a slot frees (the default). A
        /// force-quit cancels queued requests [A].
        case queue = 1
    }

    /// The task identifier: a permitted identifier, or one that a permitted wildcard matches.
    public var identifier: String
    /// What to do if the task cannot start at once. Default ``SubmissionStrategy/queue`` [A].
    public var strategy: SubmissionStrategy

    public init(identifier: String, strategy: SubmissionStrategy = .queue) {
        self.identifier = identifier
        self.strategy = strategy
    }

    /// Whether `identifier` is `permitted`'s entry or matches one of its wildcard entries: an
    /// entry ending in `.*` matches every identifier that begins with what precedes the `*`
    /// and goes on past it [A]. Wildcards are for continued-processing tasks only.
    static func matches(_ identifier: String, wildcardIn permitted: [String]) -> Bool {
        permitted.contains { entry in
            entry == identifier
                || (entry.hasSuffix(".*") && identifier.hasPrefix(entry.dropLast()) && identifier.count > entry.count - 1)
        }
    }
}

/// In scenario files, `"queue"` or `"fail"`.
extension ContinuedProcessingTaskRequest.SubmissionStrategy: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        switch name {
        case "queue": self = .queue
        case "fail": self = .fail
        default:
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected one of \"queue\", \"fail\", got \"\(name)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self == .queue ? "queue" : "fail")
    }
}
