import Foundation

/// Runs the package's built executables (`bgsim`, `bgsim-bench`) as separate processes.
///
/// `swift test` builds every product, and places the executables beside the test bundle.
enum ToolRunner {
    struct Output {
        var status: Int32
        /// Whether the process ended on a signal (a trap, or the timeout's kill) rather than exiting.
        var signalled = false
        /// Whether it was killed for running past its timeout.
        var timedOut = false
        var standardOutput: String
        var standardError: String

        /// The last non-empty line of standard output.
        var lastLine: String {
            standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        }
    }

    /// The build products directory: where the test bundle and the executables are.
    static var productsDirectory: URL {
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    /// A new, empty directory under the temporary directory, named `prefix-<UUID>`.
    static func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `tool` with `arguments` (and `input` on its standard input) and waits for it, or,
    /// with a `timeout`, kills it after that many seconds; in `directory` if given.
    ///
    /// With `memoryBytes`, the tool runs under `prlimit --as` (where the system has it): an input
    /// that would take more address space fails instead of exhausting the machine.
    static func run(_ tool: String, _ arguments: [String], input: String? = nil, timeout: Double? = nil,
                    memoryBytes: Int? = nil, in directory: URL? = nil) throws -> Output {
        let process = Process()
        if let directory { process.currentDirectoryURL = directory }
        let path = productsDirectory.appendingPathComponent(tool)
        if let memoryBytes, FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--as=\(memoryBytes)", path.path] + arguments
        } else {
            process.executableURL = path
            process.arguments = arguments
        }
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        let standardInput = Pipe()
        process.standardInput = standardInput
        try process.run()
        final class Flag: @unchecked Sendable { var value = false }
        let timedOut = Flag()
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [process] in
                if process.isRunning {
                    timedOut.value = true
                    // SIGKILL, not terminate()'s SIGTERM: a child started from a test thread
                    // may inherit a signal mask that blocks SIGTERM, and then never ends.
                    kill(process.processIdentifier, SIGKILL)
                }
            }
        }
        standardInput.fileHandleForWriting.write(Data((input ?? "").utf8))
        try standardInput.fileHandleForWriting.close()
        // Read before waiting, so a full pipe cannot block the child.
        let out = standardOutput.fileHandleForReading.readDataToEndOfFile()
        let err = standardError.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            signalled: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut.value,
            standardOutput: String(decoding: out, as: UTF8.self),
            standardError: String(decoding: err, as: UTF8.self)
        )
    }

    /// The value of `"key":"value"` or `"key":value` in a one-line JSON object.
    static func field(_ key: String, in json: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        guard let value = object?[key] else { return "" }
        return "\(value)"
    }
}
