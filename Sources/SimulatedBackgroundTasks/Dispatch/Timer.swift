import Foundation
import SimKernel

/// `Timer`, in a file that imports this module: in the app's simulated code, a timer fires at
/// simulated instants, on the process's executor. Like every timer of the app's, one that comes
/// due while the app is suspended fires when it next runs, once; a repeating timer is then
/// rescheduled for the next firing on its original grid that is still to come, as Apple
/// documents for `Timer` [A] ("If the firing time is delayed so far that it passes one or more of
/// the scheduled firing times, the timer is fired only once for that time period").
/// Block-based timers only (selector-based ones need the Objective-C runtime). Outside the
/// app's code, it never fires.
open class Timer: @unchecked Sendable {
    /// Seconds between firings of a repeating timer (0 for one that fires once).
    public let timeInterval: TimeInterval
    /// The slack the app allows (kept; the simulation fires on time).
    open var tolerance: TimeInterval = 0
    /// The app's own value.
    public let userInfo: Any?
    /// When the timer next fires.
    open var fireDate: Date
    /// Whether it has not been invalidated (and, for one that fires once, has not fired).
    open private(set) var isValid = true

    private let repeats: Bool
    private let block: @Sendable (Timer) -> Void
    private var scheduled: (process: SimulatedProcess, id: UInt64)?

    /// A timer that calls `block` after `interval` seconds (and every `interval` seconds, if it
    /// `repeats`) once it is added to a run loop.
    public init(timeInterval interval: TimeInterval, repeats: Bool, block: @escaping @Sendable (Timer) -> Void) {
        timeInterval = repeats ? Swift.max(interval, 0.0001) : 0
        self.repeats = repeats
        self.block = block
        userInfo = nil
        fireDate = Date(timeIntervalSinceNow: interval)
    }

    /// A timer that first fires at `date`.
    public init(fire date: Date, interval: TimeInterval, repeats: Bool, block: @escaping @Sendable (Timer) -> Void) {
        timeInterval = repeats ? Swift.max(interval, 0.0001) : 0
        self.repeats = repeats
        self.block = block
        userInfo = nil
        fireDate = date
    }

    /// A timer added to the current run loop at once.
    @discardableResult
    open class func scheduledTimer(withTimeInterval interval: TimeInterval, repeats: Bool,
                                   block: @escaping @Sendable (Timer) -> Void) -> Timer {
        let timer = Timer(timeInterval: interval, repeats: repeats, block: block)
        RunLoop.current.add(timer, forMode: .default)
        return timer
    }

    /// Calls the block now; a timer that fires once is then invalid.
    open func fire() {
        guard isValid else { return }
        block(self)
        if !repeats { invalidate() }
    }

    /// Stops the timer: it never fires again.
    open func invalidate() {
        isValid = false
        if let scheduled { scheduled.process.withdraw(scheduled.id) }
        scheduled = nil
    }

    /// Schedules the next firing in the app's process.
    func schedule() {
        guard isValid, let process = SimulatedProcess.current else { return }
        let delay = process.delay(until: fireDate)
        scheduled = process.schedule(after: delay) { [self] in
            scheduled = nil
            guard isValid else { return }
            block(self)
            guard repeats, isValid else {
                isValid = false
                return
            }
            fireDate = Self.nextFiring(after: fireDate, every: timeInterval, now: Date())
            schedule()
        }.map { (process, $0) }
    }
}

extension Timer {
    /// The first firing after `now` on the grid of `interval`s from `last`.
    static func nextFiring(after last: Date, every interval: TimeInterval, now: Date) -> Date {
        var next = last.addingTimeInterval(interval)
        if next <= now {
            let missed = (now.timeIntervalSince(next) / interval).rounded(.down) + 1
            next = next.addingTimeInterval(missed * interval)
        }
        return next
    }
}

/// `RunLoop`: where timers are added. In the app's simulated code, every run loop is the
/// process's executor.
open class RunLoop: @unchecked Sendable {
    /// `RunLoop.Mode`.
    public typealias Mode = Foundation.RunLoop.Mode

    private init() {}

    /// The main thread's run loop.
    public static let main = RunLoop()
    /// The calling thread's run loop.
    open class var current: RunLoop { main }

    /// Adds `timer`: it fires from now on.
    open func add(_ timer: Timer, forMode mode: Mode) {
        timer.schedule()
    }
}
