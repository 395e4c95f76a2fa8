import Foundation
import Testing

/// "No floating point please", TigerBeetle-style: the simulation's sources must not call anything
/// that would make a run depend on the process, the platform or the wall clock.
@Suite("Source scan")
struct SourceScanTests {
    /// Calls forbidden in simulation code (ARCHITECTURE.md, determinism rules 1, 3 and 6).
    static let forbidden = [
        "SystemRandomNumberGenerator", ".random(", ".shuffled(", ".shuffle(", "Date()", "DispatchTime.now",
        "ContinuousClock", "SuspendingClock", "Hasher(", ".hashValue",
    ]

    /// Imports that would bring platform math or Foundation into the kernel.
    static let forbiddenInKernel = ["import Foundation", "import Glibc", "import Darwin", "import Musl", "import Dispatch"]

    /// The Swift files under `Sources/<module>`, with comment lines removed.
    func sources(of module: String) throws -> [(path: String, lines: [(number: Int, text: String)])] {
        let root = URL(fileURLWithPath: packageRoot()).appendingPathComponent("Sources/\(module)")
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, [(Int, String)])] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
                let trimmed = line.drop { $0 == " " }
                return trimmed.hasPrefix("//") ? nil : (index + 1, String(line))
            }
            files.append((url.path, lines))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test("simulation sources make no nondeterministic calls", arguments: ["SimKernel", "BackgroundSim"])
    func noNondeterministicCalls(module: String) throws {
        let files = try sources(of: module)
        if module == "SimKernel" { #expect(files.count > 10, "found the kernel's sources") }
        for file in files {
            for line in file.lines {
                for call in Self.forbidden where line.text.contains(call) {
                    Issue.record("\(file.path):\(line.number) uses \(call): \(line.text)")
                }
            }
        }
    }

    @Test("the kernel imports neither Foundation nor the platform's libm")
    func kernelImportsNothing() throws {
        for file in try sources(of: "SimKernel") {
            for line in file.lines {
                for module in Self.forbiddenInKernel where line.text.contains(module) {
                    Issue.record("\(file.path):\(line.number): \(line.text)")
                }
            }
        }
    }
}
