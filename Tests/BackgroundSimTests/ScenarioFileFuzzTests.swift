@testable import BackgroundSim
import SimKernel
import Testing

/// A seeded fuzzer over scenario files: 1,200 mutations of real scenario documents (every
/// policy's full document, every preset's, `{}`), from wrong values and types to unknown keys,
/// huge fault lists, deep nesting and cut or corrupted text. Each file must be refused with a
/// ``ScenarioError`` that names the file and, for every problem after the text parsed, a field
/// path — or load and run a day. A trap or a hang would end or stall this test; any other error
/// is recorded. The counts are printed, so that CI's log shows what the fuzzer covered.
@Suite("Scenario file fuzzer")
struct ScenarioFileFuzzTests {
    static let files = 1_200

    /// Documents to mutate.
    static var corpus: [String] {
        let policies = PolicyRegistry.builtIn.definitions.map { ScenarioFuzzTests.base(policy: $0) }
        let presets = Presets.all.compactMap { Presets.scenario(named: $0.name) }
        return (policies + presets).map { JSONWriter.pretty(ScenarioLoader.document(of: $0)) } + ["{}"]
    }

    static let values: [JSONValue] = [
        .number(0), .number(-1), .number(0.5), .number(2.5), .number(24), .number(601), .number(1_441),
        .number(50.000_000_05), .number(100_000), .number(1e19), .number(1e300), .number(-1e300), .number(1e-300),
        .number(9_007_199_254_740_992),   // 2⁵³: past it, whole numbers are no longer all representable
        .string(""), .string("x"), .string("23:00"), .string("+7:00"),
        .string("25:61"), .string("2026-13-40"), .string("+026-01-05"), .string("iPhone 15"), .string("daily"),
        .string("coverdrop-designed"), .bool(true), .bool(false), .null, .array([]), .object([]),
        .array([.number(1), .number(2)]), .object([("a", .number(1))]),
    ]

    static let strangeKeys = ["capacityMilliampHourz", "policies", "x", "sessionsPerDay", "name", "", "parameters", "policy"]

    /// A mutator drawing from a labelled stream: the same files on every run.
    struct Mutator {
        var random: RandomStream

        mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(max(1, n))) }

        /// Every object and array node's path in `document`, with the node.
        func nodes(_ value: JSONValue, _ path: [ScenarioFuzzTests.PathComponent] = []) -> [([ScenarioFuzzTests.PathComponent], JSONValue)] {
            var result = [(path, value)]
            switch value {
            case .object(let members):
                for member in members { result += nodes(member.value, path + [.key(member.key)]) }
            case .array(let elements):
                for (index, element) in elements.enumerated() { result += nodes(element, path + [.index(index)]) }
            default: break
            }
            return result
        }

        /// One structural change to `document`.
        mutating func mutate(_ document: JSONValue) -> JSONValue {
            let all = nodes(document)
            let (path, node) = pick(all)
            switch below(6) {
            case 0, 1:      // a value of another type or out of range
                return ScenarioFuzzTests.setting(pick(ScenarioFileFuzzTests.values), at: path[...], in: document)
            case 2:         // a key removed
                guard case .object(var members) = node, !members.isEmpty else { return document }
                members.remove(at: below(members.count))
                return ScenarioFuzzTests.setting(.object(members), at: path[...], in: document)
            case 3:         // an unknown or misplaced key, or a misspelt one
                guard case .object(var members) = node else { return document }
                if !members.isEmpty && random.chance(0.5) {
                    let index = below(members.count)
                    members[index].key = String(members[index].key.dropLast()) + "z"
                } else {
                    members.append((pick(ScenarioFileFuzzTests.strangeKeys), pick(ScenarioFileFuzzTests.values)))
                }
                return ScenarioFuzzTests.setting(.object(members), at: path[...], in: document)
            case 4:         // an array's first element repeated: up to a thousand fault windows and more
                guard case .array(let elements) = node, let first = elements.first else { return document }
                let copies = pick([2, 50, 1_000, 1_001, 3_000])
                return ScenarioFuzzTests.setting(.array(Array(repeating: first, count: copies)), at: path[...], in: document)
            default:        // a fault of each kind with extreme windows
                let flap = JSONValue.object([("fromHours", pick([.number(0), .number(-1), .number(1e6)])),
                                             ("toHours", pick([.number(24), .number(72), .number(24_000_000)])),
                                             ("offSeconds", pick([.number(1), .number(0), .number(3_600)])),
                                             ("onSeconds", pick([.number(1), .number(60)]))])
                return ScenarioFuzzTests.setting(.object([("networkFlaps", .array(Array(repeating: flap, count: pick(Self.flapCopies))))]),
                                                 at: [.key("faults")], in: document)
            }
        }

        /// How many copies of an extreme flap window a mutation writes. 40 windows of 1 s off and
        /// 60 s on make 110,000 events in a day (400 made this test the suite's second longest in
        /// a debug build, where the internal checks are on).
        static let flapCopies = [1, 10, 40]

        /// One textual change: cut, a byte changed or inserted, deep nesting, a huge number.
        mutating func corrupt(_ text: String) -> String {
            var bytes = Array(text.utf8)
            switch below(5) {
            case 0:
                return String(decoding: bytes.prefix(below(bytes.count)), as: UTF8.self)
            case 1:
                bytes[below(bytes.count)] = pick(Array("{}[]\",:0-e.\\ \u{0}\u{7f}".utf8) + [0xff, 0xc3])
                return String(decoding: bytes, as: UTF8.self)
            case 2:
                bytes.insert(pick(Array("{}[]\",:".utf8)), at: below(bytes.count))
                return String(decoding: bytes, as: UTF8.self)
            case 3:
                let depth = pick([10, 600, 100_000])
                return String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            default:
                return text.replacingOccurrences(of: "0", with: pick(["1e999", "123456789012345678901234567890", "-0", "NaN", "0x10"]))
            }
        }
    }

    /// The scenarios fragments are laid over.
    static let fragmentBases = ["coverdrop-push", "proton-upload-urlsession", "zashi-shipped"].map { Presets.scenario(named: $0)! }

    @Test("1,200 mutated scenario files: each runs a day or is refused naming the file and every field, never traps or hangs; the same texts as fragments over presets run or are refused naming the fragment")
    func fuzz() throws {
        var mutator = Mutator(random: RandomStream(seed: FuzzSettings.seed, label: StreamLabel("fuzz.scenarioFiles")))
        let corpus = Self.corpus
        var ran = 0, refused = 0, unparsable = 0
        var fragments = (ran: 0, refused: 0)
        var paths = Set<String>()
        let files = FuzzSettings.inputs(Self.files)
        for number in 0..<files {
            let source = "fuzz-\(number).json"
            var text = mutator.pick(corpus)
            if mutator.random.chance(0.8), let document = try? JSONParser.parse(text) {
                var mutated = document
                for _ in 0...mutator.below(3) { mutated = mutator.mutate(mutated) }
                text = JSONWriter.pretty(mutated)
            }
            if mutator.random.chance(0.2) { text = mutator.corrupt(text) }
            FuzzSettings.trying("scenario files", number, text)
            do {
                let scenario = try ScenarioLoader.decode(text, source: source)
                _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: 1)
                ran += 1
            } catch let error as ScenarioError {
                refused += 1
                #expect(error.description.contains(source), "\(source): \(error)")
                #expect(!error.issues.isEmpty, "\(source): \(error)")
                for issue in error.issues {
                    if issue.path.isEmpty {
                        // Only text that is not a JSON object has no field to name.
                        unparsable += 1
                        #expect(issue.message.contains("JSON") || issue.message.contains("object"), "\(source): \(issue)\n\(text.prefix(300))")
                    } else {
                        paths.insert(ScenarioLoader.genericPath(issue.path))
                    }
                }
            } catch {
                Issue.record("\(source): \(error)\n\(text.prefix(500))")
            }
            // The same text as a fragment laid over a preset (`--with`): it runs a day or is
            // refused naming the fragment.
            let fragmentSource = "fragment-\(number).json"
            FuzzSettings.trying("fragments", number, text)
            do {
                let scenario = try ScenarioLoader.overlay(text, source: fragmentSource, over: mutator.pick(Self.fragmentBases))
                _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: 1)
                fragments.ran += 1
            } catch let error as ScenarioError {
                fragments.refused += 1
                #expect(error.description.contains(fragmentSource) && !error.issues.isEmpty, "\(fragmentSource): \(error)")
            } catch {
                Issue.record("\(fragmentSource): \(error)\n\(text.prefix(500))")
            }
        }
        print(FuzzSettings.summary("scenario files", inputs: files,
                                   "\(ran) ran a day, \(refused) refused (\(unparsable) not JSON objects), \(paths.count) distinct field paths named"))
        print(FuzzSettings.summary("fragments", inputs: files, "\(fragments.ran) ran a day over a preset, \(fragments.refused) refused"))
        #expect(fragments.ran >= 100 && fragments.refused >= 300, "both outcomes exercised: \(fragments)")
        #expect(ran + refused == files)
        #expect(ran >= 100 && refused >= 500, "both outcomes exercised: \(ran) ran, \(refused) refused")
        #expect(paths.count >= 50, "\(paths.count) distinct paths")
    }
}
