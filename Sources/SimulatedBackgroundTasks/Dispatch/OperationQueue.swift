import Foundation

/// `OperationQueue`, in a file that imports this module: in the app's simulated code, its
/// operations run on the process's executor, each started as its own piece of work (first in,
/// first out with the jobs of Swift concurrency and Dispatch's blocks) once its dependencies
/// have finished, higher ``Operation/queuePriority`` first, then in the order added, never more
/// than ``maxConcurrentOperationCount`` executing at once (only asynchronous operations execute
/// for longer than one piece of work). `waitUntilAllOperationsAreFinished()` with work left would
/// wait forever (nothing runs while the app's code waits, in simulated time), and crashes the
/// process with its file and line (``CrashReason/blockingWait``). Outside the app's code the
/// operations run at once, on the calling thread.
open class OperationQueue: @unchecked Sendable {
    /// No limit on operations executing at once.
    public static let defaultMaxConcurrentOperationCount = -1

    open var name: String?
    open var qualityOfService = QualityOfService.default
    /// The queue its operations run on: only the executor here.
    open var underlyingQueue: DispatchQueue?
    /// The most operations executing at once (−1: no limit; the main queue's is 1).
    open var maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount {
        didSet { schedulePump() }
    }
    /// While set, no operation starts.
    open var isSuspended = false {
        didSet { schedulePump() }
    }

    /// Operations added and not finished, in the order added.
    private var waiting: [Operation] = []
    /// Operations started and not finished (asynchronous ones).
    private var executing: [Operation] = []
    /// A start of the next operations is queued on the executor.
    private var pumpQueued = false
    /// The barrier every operation added from now waits for, until it finishes.
    private var barrier: Operation?

    public init() {}

    init(main: ()) {
        name = "NSOperationQueue Main Queue"
        maxConcurrentOperationCount = 1
    }

    /// The main operation queue: the process's own in the app's simulated code (simulations
    /// on other threads have theirs).
    open class var main: OperationQueue { SimulatedProcess.current?.mainOperationQueue ?? outsideMain }

    /// The main queue of code outside the simulation.
    private static let outsideMain = OperationQueue(main: ())

    /// The operations not yet finished.
    open var operations: [Operation] { executing + waiting }
    open var operationCount: Int { executing.count + waiting.count }

    /// Adds `operation`, which runs once its dependencies have finished.
    open func addOperation(_ operation: Operation) {
        operation.queue = self
        if let barrier, barrier !== operation, !barrier.isFinished { operation.addDependency(barrier) }
        waiting.append(operation)
        schedulePump()
    }

    /// Adds an operation of `block`.
    open func addOperation(_ block: @escaping @Sendable () -> Void) {
        addOperation(BlockOperation(block: block))
    }

    /// Adds `operations`; `wait` as ``waitUntilAllOperationsAreFinished(file:line:)``.
    open func addOperations(_ operations: [Operation], waitUntilFinished wait: Bool, file: StaticString = #fileID, line: UInt = #line) {
        for operation in operations { addOperation(operation) }
        if wait { waitUntilAllOperationsAreFinished(file: file, line: line) }
    }

    /// Adds `barrier`, which runs once every operation added before has finished, and before
    /// any added after starts.
    open func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        let operation = BlockOperation(block: barrier)
        for earlier in operations { operation.addDependency(earlier) }
        addOperation(operation)
        self.barrier = operation
    }

    /// Cancels every operation not finished.
    open func cancelAllOperations() {
        for operation in operations { operation.cancel() }
    }

    /// Returns once every operation has finished: at once if they have; otherwise the process
    /// crashes (nothing can run them while the app's code waits, in simulated time).
    open func waitUntilAllOperationsAreFinished(file: StaticString = #fileID, line: UInt = #line) {
        guard operationCount > 0, let process = SimulatedProcess.current else { return }
        process.reportBlockingWait("OperationQueue.waitUntilAllOperationsAreFinished() with operations left", file: file, line: line)
    }

    // MARK: Running

    /// Queues a start of the operations that can start, unless one is queued.
    func schedulePump() {
        guard !pumpQueued else { return }
        guard let process = SimulatedProcess.current else {
            pump()
            return
        }
        pumpQueued = true
        process.enqueue { [self] in
            pumpQueued = false
            pump()
        }
    }

    /// Starts the next operation that can start, as a piece of work of its own, then looks for
    /// more.
    private func pump() {
        guard !isSuspended else { return }
        let limit = maxConcurrentOperationCount < 0 ? Int.max : maxConcurrentOperationCount
        guard executing.count < limit else { return }
        var best: Int?
        for (index, operation) in waiting.enumerated() where operation.isReady || operation.isCancelled {
            if best == nil || operation.queuePriority > waiting[best!].queuePriority { best = index }
        }
        guard let index = best else { return }
        let operation = waiting.remove(at: index)
        executing.append(operation)
        operation.start()
        if !waiting.isEmpty { schedulePump() }
    }

    /// `operation` finished.
    func operationFinished(_ operation: Operation) {
        executing.removeAll { $0 === operation }
        waiting.removeAll { $0 === operation }
        if barrier === operation { barrier = nil }
        if !waiting.isEmpty { schedulePump() }
    }
}
