import BackgroundSim
import Foundation
import SimKernel

// What the simulated frameworks ask of the system through the process: the device clock as
// `Date`s, the app's seeded stream, the task scheduler's registrations, and `UserDefaults`.

// MARK: The device clock, as `Date`s

extension SimulatedProcess {
    /// The date of the device-clock instant `instant` (``WallClock``).
    func date(of instant: SimInstant) -> Date {
        WallClock.date(of: instant, startSeconds: clockStartSeconds)
    }

    /// The device-clock instant of `date` (``WallClock``).
    func instant(of date: Date) -> SimInstant {
        WallClock.instant(of: date, startSeconds: clockStartSeconds)
    }

    /// The delay from the device clock's now until `date` (zero for a date in the past).
    func delay(until date: Date) -> SimDuration {
        WallClock.delay(until: date, from: state.clockReading, startSeconds: clockStartSeconds)
    }

    /// The device clock's now, as a `Date`.
    var now: Date { date(of: state.clockReading) }
}

// MARK: The app's seeded stream

extension SimulatedProcess {
    /// 64 bits from the app's seeded stream.
    func randomBits() -> UInt64 {
        guard case .bits(let bits) = call(.randomBits) else { return 0 }
        return bits
    }

    /// An integer in `range` from the app's seeded stream, by the kernel's portable algorithm.
    func randomInteger(in range: ClosedRange<Int>) -> Int {
        guard case .integer(let value) = call(.randomInteger(lower: range.lowerBound, upper: range.upperBound)) else {
            return range.lowerBound
        }
        return value
    }
}

// MARK: Task handlers

extension SimulatedProcess {
    /// Registers `handler` for the tasks of `identifier` (`BGTaskScheduler.register`): it runs
    /// in this process, as app code, when the system launches one. Returns false for an
    /// identifier the app does not permit; a registration after launch crashes the app.
    @discardableResult
    func register(taskIdentifier identifier: String, handler: @escaping (SystemTask) -> Void) -> Bool {
        let callback = callbacks.add(taskLaunch: { [unowned self] task in run { handler(task) } })
        guard case .bool(let registered) = call(.registerTask(identifier: identifier, handler: callback)) else { return false }
        return registered
    }
}

// MARK: UserDefaults

extension SimulatedProcess {
    /// The value the phone's store holds for `key` (`UserDefaults`).
    func storedValue(forKey key: String) -> PersistentStore.Value? {
        if let known = storedValues[key] { return known }
        guard case .value(let value) = call(.storedValue(key: key)) else { return nil }
        storedValues[key] = .some(value)
        return value
    }

    /// Stores `value` for `key` in the phone's store (removes it for `nil`).
    func store(_ value: PersistentStore.Value?, forKey key: String) {
        storedValues[key] = .some(value)
        call(.store(key: key, value: value))
    }
}
