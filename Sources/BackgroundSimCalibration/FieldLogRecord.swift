import BackgroundSim
import BackgroundSimLab

/// A local date and time as a field log writes it, `"YYYY-MM-DDTHH:MM:SS"` with optional
/// fractional seconds: the wall-clock time where the phone was, and, if the text ends with one
/// (`Z`, `+HH:MM`, `-HHMM`), that clock's offset from UTC.
///
/// Records are ordered by their instant (``instantMilliseconds``): the local time less the
/// offset, or the local time where no offset is given. A log whose times give offsets stays in
/// order across a clock set back — the repeated hour when summer time ends, a flight west —
/// which a log of local times alone cannot (its records from the two passes through the same
/// hours interleave).
package struct LocalTimestamp: Sendable, Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00 local time, to the millisecond.
    package var milliseconds: Int64
    /// The clock's offset from UTC in minutes (east positive), if the text gave one.
    package var utcOffsetMinutes: Int16?

    package init(milliseconds: Int64, utcOffsetMinutes: Int16? = nil) {
        self.milliseconds = milliseconds
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    package init(date: CivilDate, secondsSinceMidnight seconds: Double) {
        milliseconds = Int64(date.daysSinceEpoch) * 86_400_000 + Int64((seconds * 1_000).rounded())
    }

    /// Seconds since 1970-01-01T00:00:00 local.
    package var seconds: Double { Double(milliseconds) / 1_000 }
    /// The local date.
    package var date: CivilDate { CivilDate(daysSinceEpoch: Int((milliseconds - (milliseconds % 86_400_000 + 86_400_000) % 86_400_000) / 86_400_000)) }
    /// Seconds since local midnight.
    package var secondsSinceMidnight: Double { Double((milliseconds % 86_400_000 + 86_400_000) % 86_400_000) / 1_000 }
    /// The local hour, 0 … 23.
    package var hour: Int { Int(secondsSinceMidnight / 3_600) }

    /// Milliseconds since 1970-01-01T00:00:00 UTC where an offset is given; the local ones where
    /// not.
    package var instantMilliseconds: Int64 { milliseconds - Int64(utcOffsetMinutes ?? 0) * 60_000 }

    /// The same instant on the clock `offset` minutes from UTC; unchanged where either offset
    /// is unknown.
    package func onClock(utcOffsetMinutes offset: Int16?) -> LocalTimestamp {
        guard let own = utcOffsetMinutes, let offset else { return self }
        return LocalTimestamp(milliseconds: milliseconds + Int64(offset - own) * 60_000, utcOffsetMinutes: offset)
    }

    /// In order of the instant, then of the local time (the same instant on two clocks).
    package static func < (a: LocalTimestamp, b: LocalTimestamp) -> Bool {
        (a.instantMilliseconds, a.milliseconds) < (b.instantMilliseconds, b.milliseconds)
    }

    /// The largest offset from UTC a clock may have, in minutes: 14 hours (UTC+14, the Line
    /// Islands; UTC−12 is the other end).
    static let largestOffsetMinutes = 14 * 60

    /// Parses `"YYYY-MM-DDTHH:MM:SS"` (a space for `T`, `.fff` after the seconds, and an offset
    /// from UTC after those — `Z`, `+HH:MM` or `+HHMM`, `-` for west — accepted); `nil` if
    /// malformed, not a real date and time, or an offset beyond ±14 hours. (Byte by byte: a log
    /// has a timestamp on every line.)
    package init?(parsing text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private static func parse(_ all: UnsafeBufferPointer<UInt8>) -> LocalTimestamp? {
        guard let (length, offset) = utcOffset(all) else { return nil }
        guard var parsed = parseLocal(UnsafeBufferPointer(rebasing: all[..<length])) else { return nil }
        parsed.utcOffsetMinutes = offset
        return parsed
    }

    /// Where the local time in `bytes` ends, and the offset from UTC after it (`nil` if none);
    /// `nil` if an offset is malformed.
    private static func utcOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> (length: Int, offset: Int16?)? {
        let count = bytes.count
        guard count > 19 else { return (count, nil) }
        if bytes[count - 1] == UInt8(ascii: "Z") { return (count - 1, 0) }
        func digits(_ range: Range<Int>) -> Int? { decimal(bytes, range) }
        func sign(_ index: Int) -> Int? {
            guard index >= 19 else { return nil }
            return bytes[index] == UInt8(ascii: "+") ? 1 : bytes[index] == UInt8(ascii: "-") ? -1 : nil
        }
        let start: Int, hours: Int?, minutes: Int?
        if count >= 25, bytes[count - 3] == UInt8(ascii: ":"), sign(count - 6) != nil {
            (start, hours, minutes) = (count - 6, digits(count - 5 ..< count - 3), digits(count - 2 ..< count))
        } else if count >= 24, sign(count - 5) != nil {
            (start, hours, minutes) = (count - 5, digits(count - 4 ..< count - 2), digits(count - 2 ..< count))
        } else {
            return (count, nil)
        }
        guard let direction = sign(start), let hours, let minutes, minutes < 60, hours * 60 + minutes <= largestOffsetMinutes else { return nil }
        return (start, Int16(direction * (hours * 60 + minutes)))
    }

    /// The decimal number the ASCII digits `bytes[range]` write; `nil` if one is not a digit.
    private static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            guard bytes[index] >= 48 && bytes[index] <= 57 else { return nil }
            value = value * 10 + Int(bytes[index] - 48)
        }
        return value
    }

    private static func parseLocal(_ bytes: UnsafeBufferPointer<UInt8>) -> LocalTimestamp? {
        guard bytes.count >= 19, bytes.count <= 29 else { return nil }
        func number(_ range: Range<Int>) -> Int? { decimal(bytes, range) }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let date = CivilDate(year: year, month: month, day: day),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if bytes.count > 19 {
            // The fraction as Double parses it, so that every digit rounds as it always has.
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 20, number(20..<bytes.count) != nil,
                  let value = Double("0" + String(decoding: UnsafeBufferPointer(rebasing: bytes[19...]), as: UTF8.self)) else { return nil }
            fraction = value
        }
        return LocalTimestamp(date: date, secondsSinceMidnight: Double(hour * 3_600 + minute * 60 + second) + fraction)
    }

    /// `"YYYY-MM-DDTHH:MM:SS"`, with `.fff` when there are milliseconds and `±HH:MM` when the
    /// offset from UTC is known.
    package var text: String { localText + (utcOffsetMinutes.map(Self.offsetText) ?? "") }

    /// `+HH:MM` or `-HH:MM` for an offset of `minutes`.
    private static func offsetText(_ minutes: Int16) -> String {
        let size = abs(Int(minutes))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return (minutes < 0 ? "-" : "+") + two(size / 60) + ":" + two(size % 60)
    }

    private var localText: String {
        let ms = Int((milliseconds % 86_400_000 + 86_400_000) % 86_400_000)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = "\(two(ms / 3_600_000)):\(two(ms / 60_000 % 60)):\(two(ms / 1_000 % 60))"
        let fraction = ms % 1_000 == 0 ? "" : "." + String(String(ms % 1_000 + 1_000).dropFirst())
        return "\(date.description)T\(clock)\(fraction)"
    }
}

/// One record of a field log: something that happened to an app's background work on one
/// device, with the device's state at that moment where the app knows it.
package struct FieldLogRecord: Sendable, Equatable {
    /// What happened.
    package enum Event: String, Sendable, CaseIterable {
        /// The app came to the foreground (`sceneWillEnterForeground`): the user opened it.
        case appForeground
        /// The app went to the background (`sceneDidEnterBackground`).
        case appBackground
        /// `BGTaskScheduler.submit(_:)` accepted a request.
        case taskSubmitted
        /// A launch handler ran for a task.
        case taskLaunched
        /// The app called `setTaskCompleted(success:)`.
        case taskCompleted
        /// The task's expiration handler ran.
        case taskExpired
    }

    /// A task request's kind, as the log writes it.
    package enum Kind: String, Sendable, CaseIterable {
        case refresh, processing
    }

    /// The network path, as `NWPathMonitor` reports it.
    package enum Network: String, Sendable, CaseIterable {
        case wifi, cellular, none
    }

    /// An anonymous, stable identifier of the device (or install); never the user's.
    package var device: String
    package var time: LocalTimestamp
    package var event: Event
    /// The task identifier (task events).
    package var identifier: String?
    /// The request's kind (task events; required for `taskSubmitted` and `taskLaunched`).
    package var kind: Kind?
    /// `earliestBeginDate`, local (`taskSubmitted`; absent for none).
    package var earliestBegin: LocalTimestamp?
    /// The request's requirements (`taskSubmitted` of a processing request).
    package var requiresNetwork: Bool?
    package var requiresExternalPower: Bool?
    /// The success passed to `setTaskCompleted(success:)` (`taskCompleted`).
    package var success: Bool?
    /// The device's state at the record, where known: charging or full on power
    /// (`UIDevice.batteryState` `.charging` or `.full`), the network path, and the battery level
    /// in percent (`UIDevice.batteryLevel × 100`).
    package var charging: Bool?
    package var network: Network?
    package var batteryPercent: Double?
    /// When the phone last started, local: the `kern.boottime` sysctl (not `systemUptime`,
    /// which stops while the phone sleeps). A later boot than the previous record's says the
    /// phone was off, or restarting and then locked, in between.
    package var bootTime: LocalTimestamp?
    /// Whether the phone was unlocked at the record: `UIApplication.isProtectedDataAvailable`,
    /// which turns false about 10 s after the phone locks (when it asks for the passcode at
    /// once) and true when it is unlocked [A] (Apple Platform Security, "Data Protection
    /// classes"). True says the phone was in use.
    package var protectedDataAvailable: Bool?
    /// Whether this is the app's first launch since it was installed: the app found no value
    /// of its own in `UserDefaults` yet (which deleting the app erases). A device whose log
    /// begins with such a record was logged from install; any other had a history before its
    /// log began, which calibration does not see and integrates out (docs/CALIBRATION.md).
    package var firstLaunch: Bool?

    package init(device: String, time: LocalTimestamp, event: Event, identifier: String? = nil, kind: Kind? = nil,
                earliestBegin: LocalTimestamp? = nil, requiresNetwork: Bool? = nil, requiresExternalPower: Bool? = nil,
                success: Bool? = nil, charging: Bool? = nil, network: Network? = nil, batteryPercent: Double? = nil,
                bootTime: LocalTimestamp? = nil, protectedDataAvailable: Bool? = nil, firstLaunch: Bool? = nil) {
        self.device = device
        self.time = time
        self.event = event
        self.identifier = identifier
        self.kind = kind
        self.earliestBegin = earliestBegin
        self.requiresNetwork = requiresNetwork
        self.requiresExternalPower = requiresExternalPower
        self.success = success
        self.charging = charging
        self.network = network
        self.batteryPercent = batteryPercent
        self.bootTime = bootTime
        self.protectedDataAvailable = protectedDataAvailable
        self.firstLaunch = firstLaunch
    }
}
