import BackgroundSim
@testable import BackgroundSimCalibration
import Foundation
import SimKernel
import Testing

/// Seeded fuzzers over what calibration reads: field logs (duplicated, reordered, cut, with
/// CR LF endings, with a field changed, with a first line that is JSON but not an object) and
/// MetricKit payloads (spans and durations from the plausible to the impossible). Each input is
/// read or refused with a ``ScenarioError``; what is read keeps the format's promises.
@Suite("Field-log and MetricKit fuzzers")
struct FieldLogFuzzTests {
    /// A mutation of a log's lines, drawn from `random`.
    static func mutate(_ lines: [String], _ random: inout RandomStream) -> (lines: [String], crlf: Bool) {
        var lines = lines
        let crlf = random.chance(1, outOf: 4)
        for _ in 0..<random.int(in: 1...4) {
            guard !lines.isEmpty else { break }
            let index = random.int(in: 0..<lines.count)
            switch random.int(in: 0..<8) {
            case 0: lines.append(lines[index])                                       // a record uploaded twice
            case 1: lines.insert(contentsOf: lines[index..<Swift.min(lines.count, index + 20)], at: index)   // a batch twice
            case 2: lines.swapAt(index, random.int(in: 0..<lines.count))               // out of order
            case 3: lines[index] = String(lines[index].prefix(random.int(in: 0..<lines[index].count)))   // cut short
            case 4: lines[index] = lines[index].replacingOccurrences(of: "true", with: "maybe")
            case 5: lines[index] = lines[index].replacingOccurrences(of: "\"time\":\"2026", with: "\"time\":\"2026-13")
            case 6: lines.insert(["[1, 2]", "null", "\"x\"", "", "   "][random.int(in: 0..<5)], at: 0)
            default: lines[index] = lines[index].replacingOccurrences(of: "batteryPercent\":", with: "batteryPercent\":-")
            }
        }
        return (lines, crlf)
    }

    @Test("200 mutated field logs are each read or refused with a message; a read log has no exact duplicate and is sorted by device and time")
    func fieldLogs() throws {
        let scenario = try #require(Presets.scenario(named: "coverdrop-shipped"))
        var records: [FieldLogRecord] = []
        for seed in UInt64(1)...3 { records += try FieldLogRecorder.run(scenario, seed: seed, days: 5, device: "d\(seed)").records }
        let clean = FieldLogFormat.jsonLines(records).split(separator: "\n").map(String.init)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-fieldlog-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = RandomStream(seed: FuzzSettings.seed, label: StreamLabel("fuzz.fieldLogs"))
        var outcomes = (read: 0, refused: 0)
        let logs = FuzzSettings.inputs(200)
        for index in 0..<logs {
            let (lines, crlf) = Self.mutate(clean, &random)
            let path = directory.appendingPathComponent("log\(index).jsonl").path
            let text = lines.joined(separator: crlf ? "\r\n" : "\n").appending(crlf ? "\r\n" : "\n")
            FuzzSettings.trying("field logs", index, text)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            do {
                let log = try FieldLogFormat.load(paths: [path])
                outcomes.read += 1
                #expect(zip(log.records, log.records.dropFirst()).allSatisfy { ($0.device, $0.time) <= ($1.device, $1.time) }, "log \(index)")
                for (offset, record) in log.records.enumerated() {
                    let sameMoment = log.records[offset...].prefix { $0.device == record.device && $0.time == record.time }
                    #expect(sameMoment.filter { $0 == record }.count == 1, "log \(index): a duplicate survived")
                }
                #expect(log.records.count + log.duplicatesDropped <= lines.count, "log \(index)")
            } catch {
                outcomes.refused += 1
                #expect(error.description.contains("log\(index).jsonl"), "log \(index): \(error)")
                #expect(!error.description.contains("\r"), "log \(index): a raw carriage return in \(error)")
            }
        }
        print(FuzzSettings.summary("field logs", inputs: logs, "\(outcomes.read) read, \(outcomes.refused) refused"))
        // Both kinds happen, or the fuzzer tests nothing.
        #expect(outcomes.read > 20 && outcomes.refused > 20, "\(outcomes)")
    }

    @Test("300 drawn MetricKit payloads are each read or refused; a read one spans at most 25 h and holds no more running time than its span")
    func metricKitPayloads() {
        var random = RandomStream(seed: FuzzSettings.seed, label: StreamLabel("fuzz.metricKit"))
        let spans = ["2026-01-05 00:00:00 +0000", "2026-01-06 00:00:00 +0000", "2026-01-06 01:00:00 +0000", "2026-01-06 01:00:01 +0000",
                     "2026-01-07 00:00:00 +0000", "9999-12-31 00:00:00 +0000", "0001-01-01 00:00:00 +0000", "2026-01-05 12:00:00 -0500"]
        let durations = ["\"0 sec\"", "\"347 sec\"", "\"1,456 sec\"", "\"1.5 min\"", "\"24 hr\"", "\"13 hr\"", "\"100 hr\"", "\"1e300 sec\"",
                         "\"-3 sec\"", "\"830 ms\"", "86400", "86401", "-1", "\"秒\"", "null"]
        var read = 0
        let payloads = FuzzSettings.inputs(300)
        for index in 0..<payloads {
            let begin = spans[random.int(in: 0..<spans.count)], end = spans[random.int(in: 0..<spans.count)]
            var times: [String] = []
            for key in ["cumulativeBackgroundTime", "cumulativeForegroundTime"] where random.chance(2, outOf: 3) {
                times.append("\"\(key)\": \(durations[random.int(in: 0..<durations.count)])")
            }
            let text = "{\"timeStampBegin\": \"\(begin)\", \"timeStampEnd\": \"\(end)\", \"applicationTimeMetrics\": {\(times.joined(separator: ", "))}}"
            FuzzSettings.trying("MetricKit payloads", index, text)
            do {
                let parsed = try MetricKitPayload.parse(text, source: "p\(index)")
                read += 1
                for payload in parsed {
                    #expect(payload.days > 0 && payload.days <= 25.0 / 24, "p\(index): \(text)")
                    #expect((payload.backgroundSeconds ?? 0) + (payload.foregroundSeconds ?? 0) <= payload.days * 86_400 + 1e-6, "p\(index): \(text)")
                }
            } catch {
                #expect(error.description.hasPrefix("p\(index)"), "\(error)")
            }
        }
        print(FuzzSettings.summary("MetricKit payloads", inputs: payloads, "\(read) read"))
        #expect(read > payloads / 30 && read < payloads * 29 / 30, "\(read) of \(payloads) read")
    }
}
