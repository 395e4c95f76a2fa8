import SimKernel

/// An item of work a policy adds to the app's queue: bytes to send and receive and CPU time to
/// spend, with an optional deadline and a label to follow its progress by.
///
///     try app.work.enqueue(WorkRequest(uploadBytes: 2_500_000, label: "photo"))
///     app.work.start()
///
/// The executor works on items one at a time, in the order they were queued: first the CPU time,
/// then the upload at the network's uplink rate, then the download at its downlink rate (the
/// rates and the energy are in docs/MODEL.md). The item counts in the `work` report like the
/// scenario's own items.
public struct WorkRequest: Sendable, Equatable {
    /// Bytes to upload. Valid 0–10¹⁰.
    public var uploadBytes: Double
    /// Bytes to download. Valid 0–10¹⁰.
    public var downloadBytes: Double
    /// Seconds of CPU time (one core). Valid 0–86,400.
    public var cpuSeconds: Double
    /// How long after it is queued the item fails if unfinished; `nil` for the workload's
    /// `work.deadlineHours` (none if 0). Valid above 0.
    public var deadline: SimDuration?
    /// A name to follow the item's progress by (``WorkController/progress(label:)``); empty for
    /// none. Up to 64 characters, and up to ``maximumLabels`` distinct labels a run.
    public var label: String
    /// Cover traffic: an item sent only so that an observer of the network cannot tell when
    /// there is real work (CoverDrop pads every run to a fixed number of messages). Its bytes,
    /// time and energy count like any item's; it is left out of the `work` report's items,
    /// failures and latency, and counted in `coverItemsSent` instead. Default false.
    public var isCover: Bool

    /// The most distinct labels one run may use.
    public static let maximumLabels = 64

    /// An item of `uploadBytes`, `downloadBytes` and `cpuSeconds` (at least one above 0).
    public init(uploadBytes: Double = 0, downloadBytes: Double = 0, cpuSeconds: Double = 0,
                deadline: SimDuration? = nil, label: String = "", isCover: Bool = false) {
        self.uploadBytes = uploadBytes
        self.downloadBytes = downloadBytes
        self.cpuSeconds = cpuSeconds
        self.deadline = deadline
        self.label = label
        self.isCover = isCover
    }

    /// Reports values out of range, with field paths relative to the request.
    func validate(_ v: inout ParameterValidator) {
        v.check(uploadBytes, 0...1e10, "uploadBytes")
        v.check(downloadBytes, 0...1e10, "downloadBytes")
        v.check(cpuSeconds, 0...86_400, "cpuSeconds")
        v.require(uploadBytes > 0 || downloadBytes > 0 || cpuSeconds > 0, "uploadBytes",
                  "expected some work: uploadBytes, downloadBytes or cpuSeconds above 0")
        if let deadline { v.require(deadline > .zero, "deadline", "expected a deadline after the item is queued") }
        v.require(label.count <= 64, "label", "expected at most 64 characters, got \(label.count)")
    }
}

/// How a label's items are doing: queued (not yet finished), completed and failed.
public struct WorkProgress: Sendable, Equatable {
    public var queued = 0
    public var completed = 0
    public var failed = 0

    public init(queued: Int = 0, completed: Int = 0, failed: Int = 0) {
        self.queued = queued
        self.completed = completed
        self.failed = failed
    }
}
