import Dispatch
import Foundation
import SimKernel

/// `DispatchQueue`, in a file that imports this module: in the app's simulated code, a queue's
/// blocks are work on the process's simulated executor, first in, first out with the jobs of
/// Swift concurrency — the main queue, the global queues and the app's own (serial or
/// concurrent) alike, one block at a time on the simulation's thread, in the order they were
/// queued; `asyncAfter` runs a block at a simulated instant. Outside the app's simulated code it
/// is Dispatch's own queue.
///
/// `sync` runs its block at once, as the calling thread would; `sync` onto a queue whose block
/// is running (the main queue, from a callback of the system's) would deadlock on iOS, and here
/// crashes the process with the file and line of the call (``CrashReason/blockingWait``).
/// Simplifications [Inf]: a concurrent queue runs one block at a time; a Swift task's job is on
/// no queue, so `DispatchQueue.main.sync` from a `Task` runs inline.
open class DispatchQueue: @unchecked Sendable {
    /// `DispatchQueue.Attributes`.
    public typealias Attributes = Dispatch.DispatchQueue.Attributes
    /// `DispatchQueue.AutoreleaseFrequency`.
    public typealias AutoreleaseFrequency = Dispatch.DispatchQueue.AutoreleaseFrequency

    /// The queue's label.
    public let label: String
    /// Dispatch's own queue, for work outside the app's simulated code.
    private let dispatch: Dispatch.DispatchQueue

    private init(label: String, dispatch: Dispatch.DispatchQueue) {
        self.label = label
        self.dispatch = dispatch
    }

    /// A queue of the app's own.
    public convenience init(label: String, qos: DispatchQoS = .unspecified, attributes: Attributes = [],
                            autoreleaseFrequency: AutoreleaseFrequency = .inherit, target: DispatchQueue? = nil) {
        self.init(label: label, dispatch: Dispatch.DispatchQueue(label: label, qos: qos, attributes: attributes,
                                                                 autoreleaseFrequency: autoreleaseFrequency, target: target?.dispatch))
    }

    /// The main queue.
    public static let main = DispatchQueue(label: "com.apple.main-thread", dispatch: .main)

    private static let globals: [DispatchQueue] = [DispatchQoS.QoSClass.background, .utility, .default, .userInitiated, .userInteractive,
                                                   .unspecified].map { qos in
        DispatchQueue(label: "com.apple.root.\(qos)-qos", dispatch: .global(qos: qos))
    }

    /// A global concurrent queue.
    public class func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue {
        switch qos {
        case .background: globals[0]
        case .utility: globals[1]
        case .default: globals[2]
        case .userInitiated: globals[3]
        case .userInteractive: globals[4]
        default: globals[5]
        }
    }

    // MARK: Asynchronous work

    /// Runs `work` after the work already queued; with `group`, as one of the group's.
    open func async(group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
                    execute work: @escaping @Sendable @convention(block) () -> Void) {
        guard let process = SimulatedProcess.current else {
            dispatch.async(group: group?.dispatch, qos: qos, flags: flags, execute: work)
            return
        }
        group?.enter()
        process.enqueue { [self] in
            process.execute(on: self, work)
            group?.leave()
        }
    }

    /// Runs `workItem` after the work already queued.
    open func async(execute workItem: DispatchWorkItem) {
        guard let process = SimulatedProcess.current else {
            dispatch.async(execute: workItem.dispatch)
            return
        }
        process.enqueue { [self] in process.execute(on: self) { workItem.perform() } }
    }

    /// Runs `work` at `deadline`, of simulated time in the app's code.
    open func asyncAfter(deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
                         execute work: @escaping @Sendable @convention(block) () -> Void) {
        guard let process = SimulatedProcess.current else {
            dispatch.asyncAfter(deadline: deadline.dispatch, qos: qos, flags: flags, execute: work)
            return
        }
        guard deadline != .distantFuture else { return }
        process.schedule(after: deadline.delayFromNow) { [self] in process.execute(on: self, work) }
    }

    /// Runs `workItem` at `deadline`.
    open func asyncAfter(deadline: DispatchTime, execute workItem: DispatchWorkItem) {
        guard let process = SimulatedProcess.current else {
            dispatch.asyncAfter(deadline: deadline.dispatch, execute: workItem.dispatch)
            return
        }
        guard deadline != .distantFuture else { return }
        process.schedule(after: deadline.delayFromNow) { [self] in process.execute(on: self) { workItem.perform() } }
    }

    /// Runs `work` at the wall time `wallDeadline`, on the simulated phone's clock in the app's code.
    open func asyncAfter(wallDeadline: DispatchWallTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
                         execute work: @escaping @Sendable @convention(block) () -> Void) {
        guard let process = SimulatedProcess.current else {
            dispatch.asyncAfter(wallDeadline: .now() + .nanoseconds(Int(clamping: wallDeadline.delayFromNow.nanoseconds)), qos: qos,
                                flags: flags, execute: work)
            return
        }
        guard wallDeadline != .distantFuture else { return }
        process.schedule(after: wallDeadline.delayFromNow) { [self] in process.execute(on: self, work) }
    }

    // MARK: Synchronous work

    /// Runs `work` now and returns what it returns.
    open func sync<T>(execute work: () throws -> T, file: StaticString = #fileID, line: UInt = #line) rethrows -> T {
        try sync(flags: [], execute: work, file: file, line: line)
    }

    /// Runs `work` now and returns what it returns.
    open func sync<T>(flags: DispatchWorkItemFlags, execute work: () throws -> T, file: StaticString = #fileID, line: UInt = #line) rethrows -> T {
        guard let process = SimulatedProcess.current else { return try dispatch.sync(flags: flags, execute: work) }
        if process.executingQueues.contains(where: { $0 === self }) {
            process.reportBlockingWait("DispatchQueue(\"\(label)\").sync onto the queue it runs on", file: file, line: line)
        }
        return try process.execute(on: self, work)
    }

    /// Runs `workItem` now.
    open func sync(execute workItem: DispatchWorkItem, file: StaticString = #fileID, line: UInt = #line) {
        sync(flags: [], execute: { workItem.perform() }, file: file, line: line)
    }

    /// Runs `work` for each of `iterations`, here one after another.
    open class func concurrentPerform(iterations: Int, execute work: @Sendable (Int) -> Void) {
        guard SimulatedProcess.current != nil else {
            Dispatch.DispatchQueue.concurrentPerform(iterations: iterations, execute: work)
            return
        }
        for iteration in 0..<iterations { work(iteration) }
    }
}

/// `dispatchPrecondition(condition:)`: traps when the condition on the running queue fails.
public func dispatchPrecondition(condition: @autoclosure () -> DispatchPredicate, file: StaticString = #fileID, line: UInt = #line) {
    guard let process = SimulatedProcess.current else { return }
    switch condition() {
    case .onQueue(let queue), .onQueueAsBarrier(let queue):
        precondition(process.executingQueues.last === queue, "dispatchPrecondition: not on \(queue.label)", file: file, line: line)
    case .notOnQueue(let queue):
        precondition(process.executingQueues.last !== queue, "dispatchPrecondition: on \(queue.label)", file: file, line: line)
    }
}

/// `DispatchPredicate`.
public enum DispatchPredicate {
    case onQueue(DispatchQueue)
    case onQueueAsBarrier(DispatchQueue)
    case notOnQueue(DispatchQueue)
}
