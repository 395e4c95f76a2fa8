import Foundation

/// `Operation`: a unit of work an `OperationQueue` runs once its dependencies have finished.
///
/// A synchronous operation (the default) does its work in ``main()`` and is finished when it
/// returns. An asynchronous one (``isAsynchronous`` true) keeps its own `isExecuting` and
/// `isFinished`, and says when they change with `willChangeValue(forKey:)` and
/// `didChangeValue(forKey:)`, as it must for key-value observing on iOS: `"isFinished"` is
/// what tells its queue it finished. (Key-path forms, `willChangeValue(for: \.isFinished)`, and
/// other observers are not simulated.)
open class Operation: @unchecked Sendable {
    /// `Operation.QueuePriority`.
    public enum QueuePriority: Int, Sendable, Comparable {
        case veryLow = -8, low = -4, normal = 0, high = 4, veryHigh = 8

        public static func < (lhs: QueuePriority, rhs: QueuePriority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private enum State { case waiting, executing, finished }
    private var state = State.waiting
    private var cancelled = false
    /// Operations that depend on this one.
    private var dependents: [WeakOperation] = []
    /// The queue it was added to.
    weak var queue: OperationQueue?

    public init() {}

    open var name: String?
    open var queuePriority = QueuePriority.normal
    open var qualityOfService = QualityOfService.default
    /// Run (on the queue's executor) once the operation has finished.
    open var completionBlock: (@Sendable () -> Void)?

    open var isCancelled: Bool { cancelled }
    open var isExecuting: Bool { state == .executing }
    open var isFinished: Bool { state == .finished }
    open var isAsynchronous: Bool { false }
    open var isConcurrent: Bool { isAsynchronous }
    /// Whether every dependency has finished.
    open var isReady: Bool { dependencies.allSatisfy { $0.isFinished } }
    open private(set) var dependencies: [Operation] = []

    /// Makes this operation wait for `operation` to finish.
    open func addDependency(_ operation: Operation) {
        dependencies.append(operation)
        operation.dependents.append(WeakOperation(operation: self))
    }

    open func removeDependency(_ operation: Operation) {
        dependencies.removeAll { $0 === operation }
        queue?.schedulePump()
    }

    /// Starts the operation: a cancelled one finishes at once; a synchronous one runs ``main()``
    /// and finishes when it returns; an asynchronous one finishes when it says so.
    open func start() {
        guard state == .waiting else { return }
        if cancelled {
            finish()
            return
        }
        state = .executing
        main()
        if !isAsynchronous { finish() }
    }

    /// The operation's work.
    open func main() {}

    /// Marks the operation cancelled; one not yet started finishes without running.
    open func cancel() {
        cancelled = true
        queue?.schedulePump()
    }

    /// Returns once the operation has finished: at once if it has; otherwise the process
    /// crashes (nothing can run it while the app's code waits, in simulated time).
    open func waitUntilFinished(file: StaticString = #fileID, line: UInt = #line) {
        guard !isFinished, let process = SimulatedProcess.current else { return }
        process.reportBlockingWait("Operation.waitUntilFinished() for an operation that has not finished", file: file, line: line)
    }

    /// Key-value observing's notice before a change (nothing to do here).
    open func willChangeValue(forKey key: String) {}

    /// Key-value observing's notice after a change: `"isFinished"` of an asynchronous operation
    /// that now reads finished tells its queue.
    open func didChangeValue(forKey key: String) {
        if key == "isFinished", isFinished { finished() }
    }

    private func finish() {
        state = .finished
        finished()
    }

    /// The operation finished: its completion block runs next, its queue and those of the
    /// operations that wait for it look for work.
    private func finished() {
        guard !hasAnnouncedFinish else { return }
        hasAnnouncedFinish = true
        if let completionBlock {
            if let process = SimulatedProcess.current { process.enqueue(completionBlock) } else { completionBlock() }
        }
        queue?.operationFinished(self)
        for dependent in dependents { dependent.operation?.queue?.schedulePump() }
    }

    private var hasAnnouncedFinish = false
}

/// An operation another holds without keeping it.
private struct WeakOperation {
    weak var operation: Operation?
}

/// `BlockOperation`: an operation of one or more blocks, run in the order added.
open class BlockOperation: Operation, @unchecked Sendable {
    /// Its blocks.
    open private(set) var executionBlocks: [@Sendable () -> Void] = []

    public override init() {}

    public convenience init(block: @escaping @Sendable () -> Void) {
        self.init()
        executionBlocks = [block]
    }

    open func addExecutionBlock(_ block: @escaping @Sendable () -> Void) {
        executionBlocks.append(block)
    }

    open override func main() {
        for block in executionBlocks { block() }
    }
}
