import SimKernel

/// The clock the device shows to apps: true time plus an offset that jumps when the user changes
/// the time, the network corrects it, or the user changes time zone.
///
/// The simulation runs on true time, which never jumps; only what apps *read* does. A policy that
/// stores "last run at" from the device clock and compares it later sees the jump, as on iOS.
package struct DeviceClock: Sendable, Equatable {
    /// The calendar that maps true time to the local date.
    package let calendar: SimCalendar
    /// How far the displayed clock is ahead of true local time.
    package private(set) var offset: SimDuration = .zero
    /// How many jumps have happened.
    package private(set) var jumpCount = 0

    package init(calendar: SimCalendar) {
        self.calendar = calendar
    }

    /// What the device clock shows at true time `instant`, as time since the simulation's start
    /// in the device's reckoning.
    package func reading(at instant: SimInstant) -> SimInstant { instant + offset }

    /// Moves the displayed clock by `amount` (negative: backwards).
    package mutating func jump(by amount: SimDuration) {
        offset = offset + amount
        jumpCount += 1
    }
}
