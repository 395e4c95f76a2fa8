import BackgroundSim
import SimKernel
import SimulatedBackgroundTasks
import Testing

/// At each return to the foreground: an interval with an ID made from an object, a MetricKit
/// event, and an `os_signpost` on a disabled log (not recorded).
private final class SignpostingDelegate: UIApplicationDelegate, @unchecked Sendable {
    private let signposter = OSSignposter(subsystem: "com.example.signposts", category: "work")
    /// Kept alive: an object's ID is its own while it lives (a freed object's may be reused, as
    /// its address is on iOS).
    private var objects: [UIResponder] = []

    func applicationWillEnterForeground(_ application: UIApplication) {
        let object = UIResponder()
        objects.append(object)
        let id = signposter.makeSignpostID(from: object)
        print("same id for the same object: \(id == signposter.makeSignpostID(from: object))")
        let state = signposter.beginInterval("work", id: id)
        signposter.endInterval("work", state)
        mxSignpost(.event, log: MXMetricManager.makeLogHandle(category: "opens"), name: "opened")
        os_signpost(.event, log: .disabled, name: "hidden")
    }
}

@Suite("Signposts from the app's own code", .serialized)
struct SignpostTests {
    static func signposts(_ log: [SystemLogEntry]) -> [(SimInstant, AppSignpost)] {
        log.compactMap { if case .signpost(let signpost) = $0.event { ($0.time, signpost) } else { nil } }
    }

    @Test("OSSignposter and mxSignpost record their signposts at the simulated time, with IDs that are the same in every run; a disabled log records none")
    func recordedAndReproducible() throws {
        let first = try runAppCodeTimed("signposts", days: 3, isolation: .processPerLaunch) { SignpostingDelegate() }
        let second = try runAppCodeTimed("signposts", days: 3, isolation: .processPerLaunch) { SignpostingDelegate() }
        let marks = Self.signposts(first.log)
        let opens = first.log.filter { if case .willEnterForeground = $0.event { true } else { false } }
        #expect(!opens.isEmpty)
        #expect(marks.count == 3 * opens.count, "a begin, an end and an event per return")
        #expect(marks.allSatisfy { $0.1.name != "hidden" })
        #expect(marks.filter { $0.1.kind == .event }.allSatisfy { $0.1.category == "opens" && $0.1.name == "opened" && $0.1.id == 0 })
        let begins = marks.filter { $0.1.kind == .begin }, ends = marks.filter { $0.1.kind == .end }
        #expect(zip(begins, ends).allSatisfy { $0.0 == $1.0 && $0.1.id == $1.1.id && $0.1.id != 0 && $0.1.category == "work" })
        #expect(Set(begins.map(\.1.id)).count == begins.count, "a new live object, a new ID")
        #expect(marks.map { "\($0.0) \($0.1)" } == Self.signposts(second.log).map { "\($0.0) \($0.1)" })
        let lines = first.log.compactMap { if case .appOutput(let line) = $0.event { line } else { nil } }
        #expect(lines.count == opens.count && lines.allSatisfy { $0 == "same id for the same object: true" })
    }
}
