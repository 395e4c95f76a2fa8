import Foundation

/// How the package's fuzzers run, from the environment, so that CI can run them bigger than the
/// unit suite does, on a seed it prints, and learn which input a trap or a hang was on:
///
/// - `BGSIM_FUZZ_SEED`: the seed every fuzzer derives its stream from (default 2026, the unit
///   suite's);
/// - `BGSIM_FUZZ_SCALE`: how many times its unit-suite size each fuzzer tries (default 1);
/// - `BGSIM_FUZZ_JOURNAL`: a file each fuzzer writes every input to just before trying it, so
///   that after a crash or a hang it holds the input that caused it;
/// - `BGSIM_FUZZ_MEMORY_BYTES`: the address space a fuzzed `bgsim` process may use (through
///   `prlimit`), so that an input that would exhaust memory fails instead.
///
/// Package-visible test support: the library itself never reads them.
package enum FuzzSettings {
    private static func value(_ name: String) -> String? { ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 } }

    /// The fuzzers' root seed.
    package static var seed: UInt64 { value("BGSIM_FUZZ_SEED").flatMap(UInt64.init) ?? 2_026 }

    /// How many inputs a fuzzer whose unit-suite size is `base` tries.
    package static func inputs(_ base: Int) -> Int { base * Swift.max(1, value("BGSIM_FUZZ_SCALE").flatMap(Int.init) ?? 1) }

    /// The address-space limit for a fuzzed process, if set.
    package static var memoryBytes: Int? { value("BGSIM_FUZZ_MEMORY_BYTES").flatMap(Int.init) }

    /// Notes that fuzzer `fuzzer` is about to try `input` (described as text), in the journal
    /// if one is set.
    package static func trying(_ fuzzer: String, _ number: Int, _ input: @autoclosure () -> String) {
        guard let journal = value("BGSIM_FUZZ_JOURNAL") else { return }
        let text = "fuzzer \(fuzzer), input \(number), seed \(seed):\n\(input())\n"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: journal))
    }

    /// The line a fuzzer prints when it is done: its name, how many inputs and the seed.
    package static func summary(_ fuzzer: String, inputs: Int, _ outcome: String) -> String {
        "fuzz \(fuzzer): \(inputs) inputs, seed \(seed); \(outcome)"
    }
}
