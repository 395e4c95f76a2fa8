import BackgroundSim
import Foundation
@testable import BackgroundSimCalibration
import Testing

@Suite("Clock changes and travel in field logs")
struct ClockChangeTests {
    @Test("times may end with an offset from UTC (Z, ±HH:MM, ±HHMM), written back as ±HH:MM; offsets beyond 14 hours or with 60 minutes are refused")
    func offsets() throws {
        let summer = try #require(LocalTimestamp(parsing: "2026-10-25T01:30:00+01:00"))
        #expect(summer.utcOffsetMinutes == 60 && summer.hour == 1 && summer.text == "2026-10-25T01:30:00+01:00")
        #expect(LocalTimestamp(parsing: "2026-10-25T01:30:00Z")?.utcOffsetMinutes == 0)
        #expect(LocalTimestamp(parsing: "2026-10-25T01:30:00Z")?.text == "2026-10-25T01:30:00+00:00")
        #expect(LocalTimestamp(parsing: "2026-11-01T01:30:00.250-0700")?.text == "2026-11-01T01:30:00.250-07:00")
        #expect(LocalTimestamp(parsing: "2026-11-01T01:30:00+05:45")?.utcOffsetMinutes == 345)
        #expect(LocalTimestamp(parsing: "2026-11-01T01:30:00")?.utcOffsetMinutes == nil)
        for bad in ["2026-11-01T01:30:00+14:01", "2026-11-01T01:30:00-15:00", "2026-11-01T01:30:00+01:60", "2026-11-01T01:30:00+1:00",
                    "2026-11-01T01:30:00 +01:00", "2026-11-01T01:30:00+01", "2026-11-01T01:30:00ZZ"] {
            #expect(LocalTimestamp(parsing: bad) == nil, "\(bad)")
        }
        // One instant on two clocks: the same instant, and it orders by it.
        let winter = try #require(LocalTimestamp(parsing: "2026-10-25T01:10:00+00:00"))
        #expect(summer < winter && summer.instantMilliseconds + 40 * 60_000 == winter.instantMilliseconds)
        #expect(winter.onClock(utcOffsetMinutes: 60).text == "2026-10-25T02:10:00+01:00")
    }

    /// A record at `time` of `event`.
    static func line(_ time: String, _ event: String, device: String = "d") -> String {
        #"{"device": "\#(device)", "time": "\#(time)", "event": "\#(event)"}"#
    }

    @Test("summer time ending: records of the hour the clock repeats keep their order when the times give offsets, and read on the first record's clock; written without offsets they interleave")
    func fallBack() throws {
        let withOffsets = [Self.line("2026-10-25T01:10:00+01:00", "appForeground"), Self.line("2026-10-25T01:40:00+01:00", "appBackground"),
                           Self.line("2026-10-25T01:20:00+00:00", "appForeground"), Self.line("2026-10-25T01:30:00+00:00", "appBackground")]
        let read = try FieldLogFormat.parse(withOffsets.joined(separator: "\n"), source: "log")
        #expect(read.map(\.event) == [.appForeground, .appBackground, .appForeground, .appBackground])
        #expect(read.map(\.time.text) == ["2026-10-25T01:10:00+01:00", "2026-10-25T01:40:00+01:00",
                                          "2026-10-25T02:20:00+01:00", "2026-10-25T02:30:00+01:00"])
        // The same records with local times alone: the second pass through 01:00–02:00 falls inside the first.
        let local = withOffsets.map { $0.replacingOccurrences(of: "+01:00", with: "").replacingOccurrences(of: "+00:00", with: "") }
        let interleaved = try FieldLogFormat.parse(local.joined(separator: "\n"), source: "log")
        #expect(interleaved.map(\.event) == [.appForeground, .appForeground, .appBackground, .appBackground])
    }

    @Test("a phone that flies ten hours west on the fifth of its six days, its times written with offsets, reads exactly as the same log on one clock: the same records")
    func travelReadsAsOneClock() throws {
        let scenario = try #require(Presets.scenario(named: "coverdrop-shipped"))
        let records = try FieldLogRecorder.run(scenario, seed: 4, days: 6, device: "d").records
        // Noon of the fifth day.
        let landing = Int64(try #require(records.first).time.date.daysSinceEpoch + 4) * 86_400_000 + 12 * 3_600_000
        func travelled(_ time: LocalTimestamp) -> LocalTimestamp {
            // Before landing on the home clock (UTC+1), after it ten hours behind (UTC−9).
            let home = LocalTimestamp(milliseconds: time.milliseconds, utcOffsetMinutes: 60)
            return time.milliseconds < landing ? home : home.onClock(utcOffsetMinutes: -540)
        }
        let written = records.map { record in
            var record = record
            record.time = travelled(record.time)
            record.earliestBegin = record.earliestBegin.map(travelled)
            record.bootTime = record.bootTime.map { LocalTimestamp(milliseconds: $0.milliseconds, utcOffsetMinutes: 60) }
            if let boot = record.bootTime, record.time.milliseconds >= landing { record.bootTime = boot.onClock(utcOffsetMinutes: -540) }
            return record
        }
        #expect(written.contains { $0.time.utcOffsetMinutes == -540 } && written.contains { $0.time.utcOffsetMinutes == 60 })
        // Local times after landing run ten hours behind: written without offsets they would go back in time.
        #expect(zip(written, written.dropFirst()).contains { $1.time.milliseconds < $0.time.milliseconds })
        let read = try FieldLogFormat.parse(FieldLogFormat.jsonLines(written), source: "log.jsonl")
        let home = records.map { record in
            var record = record
            record.time.utcOffsetMinutes = 60
            record.earliestBegin?.utcOffsetMinutes = 60
            record.bootTime?.utcOffsetMinutes = 60
            return record
        }
        #expect(read == home)
    }

    @Test("the log's end, known from the first pass, is the latest record on its device's first clock, as calibration finds it from the histories: read in order, through the index, and through an index sorted outside memory")
    func logEndFromTheFirstPass() throws {
        // Device a flies west late on: its last record, 23:00 at UTC−9, is 09:00 the next day on
        // its first clock (UTC+1), after b's last at 08:30 (UTC+1).
        let lines = [Self.line("2026-03-01T08:00:00+01:00", "appForeground", device: "a"), Self.line("2026-03-01T20:00:00-09:00", "appBackground", device: "a"),
                     Self.line("2026-03-01T23:00:00-09:00", "appForeground", device: "a"), Self.line("2026-03-01T09:00:00+01:00", "appForeground", device: "b"),
                     Self.line("2026-03-02T08:30:00+01:00", "appBackground", device: "b")]
        let records = try FieldLogFormat.parse(lines.joined(separator: "\n"), source: "log")
        let fromHistories = try #require(DeviceHistory.histories(records).map(\.localEnd).max())
        let march2 = Double(try #require(CivilDate(year: 2026, month: 3, day: 2)).daysSinceEpoch) * 86_400
        #expect(fromHistories == march2 + 9 * 3_600)
        let inOrder = try FieldLogReader(text: lines.joined(separator: "\n"), source: "log", jobs: 1)
        let reversed = lines.reversed().joined(separator: "\n")
        let indexed = try FieldLogReader(text: reversed, source: "log", jobs: 1)
        let spilled = try FieldLogReader(text: reversed, source: "log", jobs: 1, notesInMemory: 1)
        #expect(inOrder.isStreaming && !indexed.isStreaming)
        #expect([inOrder.logEnd, indexed.logEnd, spilled.logEnd] == [fromHistories, fromHistories, fromHistories])
        #expect(try FieldLogReader(text: "", source: "log", jobs: 1).logEnd == -.infinity)
    }

    @Test("a device whose records give an offset from UTC in some times and not in others is refused at the first that differs, naming its line and field; so is a record whose times differ so")
    func mixedClocksRefused() {
        let text = [Self.line("2026-10-25T01:50:00+01:00", "appForeground"), Self.line("2026-10-25T01:55:00+01:00", "appBackground"),
                    Self.line("2026-10-25T02:05:00", "appForeground", device: "e"), Self.line("2026-10-25T02:20:00", "appForeground")]
            .joined(separator: "\n")
        #expect {
            _ = try FieldLogFormat.parse(text, source: "log")
        } throws: { error in
            "\(error)".contains("log:4: time: expected a time with an offset from UTC")
        }
        let record = #"{"device": "a", "time": "2026-01-05T07:00:00+01:00", "event": "appForeground", "bootTime": "2026-01-05T06:00:00"}"#
        #expect {
            _ = try FieldLogFormat.parse(record, source: "log")
        } throws: { error in
            "\(error)".contains("log:1: bootTime: expected a time with an offset from UTC")
        }
    }
}
