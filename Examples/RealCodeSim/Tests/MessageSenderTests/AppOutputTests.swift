import Foundation
import Testing

/// What the app's own code prints is the device's log, never the tool's output.
@Suite("The app's output and the tool's", .serialized)
struct AppOutputTests {
    /// Runs the built `realsim` (beside the test bundle) with `arguments`: its exit status,
    /// standard output and standard error.
    static func realsim(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let directory = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
            ?? Bundle.main.bundleURL
        let process = Process()
        process.executableURL = directory.appendingPathComponent("realsim")
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both before waiting, so that neither pipe fills.
        let errorData = LockedData()
        let reader = Thread { errorData.value = error.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errorData.value == nil { usleep(1_000) }
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData.value!, as: UTF8.self))
    }

    final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Data?
        var value: Data? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    @Test("run --format json of app code that prints (the inbox service logs every sync) parses, with no app line in it")
    func jsonParses() throws {
        for extra in [[], ["--seeds", "3"]] {
            let run = try Self.realsim(["run", "--preset", "inbox-real", "--days", "14", "--format", "json"] + extra)
            #expect(run.status == 0, "\(run.error)")
            let document = try JSONSerialization.jsonObject(with: Data(run.output.utf8))
            #expect(document is [String: Any])
            #expect(!run.output.contains("syncing the inbox"))
            #expect(!run.error.contains("syncing the inbox"))
        }
    }

    @Test("--app-output shows the app's lines on standard error, each after its simulated time; the report is unchanged")
    func appOutputFlag() throws {
        let plain = try Self.realsim(["run", "--preset", "inbox-real", "--days", "14", "--format", "json"])
        let shown = try Self.realsim(["run", "--preset", "inbox-real", "--days", "14", "--format", "json", "--app-output"])
        #expect(shown.status == 0)
        #expect(shown.output == plain.output)
        let lines = shown.error.split(separator: "\n")
        #expect(lines.count >= 10)
        #expect(lines.allSatisfy { $0.range(of: #"^\d+d \d\d:\d\d:\d\d\.\d+  "#, options: .regularExpression) != nil }, "\(lines.prefix(3))")
        #expect(lines.contains { $0.hasSuffix("com.example.inbox sync info: start-up: syncing the inbox") })
        let refused = try Self.realsim(["run", "--preset", "inbox-real", "--seeds", "2", "--app-output"])
        #expect(refused.status == 2)
    }
}
