import Testing

@Suite("Determinism across processes")
struct CrossProcessDeterminismTests {
    static let flags = ["--pending", "500", "--events", "100000"]

    @Test("the same seed in two separate processes gives the same digest", arguments: [UInt64(1), 424_242])
    func sameSeedSameDigest(seed: UInt64) throws {
        let arguments = ["kernel-hold"] + Self.flags + ["--seed", "\(seed)"]
        let first = try ToolRunner.run("bgsim-bench", arguments)
        let second = try ToolRunner.run("bgsim-bench", arguments)
        #expect(first.status == 0, "\(first.standardError)")
        let digest = try ToolRunner.field("digest", in: first.lastLine)
        #expect(digest.count == 16)
        #expect(try ToolRunner.field("digest", in: second.lastLine) == digest,
                "replay: bgsim-bench \(arguments.joined(separator: " "))")
        #expect(try ToolRunner.field("events", in: first.lastLine) == "100000")
    }

    @Test("a different seed gives a different digest")
    func differentSeedDifferentDigest() throws {
        let one = try ToolRunner.run("bgsim-bench", ["kernel-hold"] + Self.flags + ["--seed", "1"])
        let two = try ToolRunner.run("bgsim-bench", ["kernel-hold"] + Self.flags + ["--seed", "2"])
        #expect(try ToolRunner.field("digest", in: one.lastLine) != ToolRunner.field("digest", in: two.lastLine))
    }

    @Test("the kernel fires exactly the events a bare binary heap fires")
    func kernelMatchesRawHeap() throws {
        let kernel = try ToolRunner.run("bgsim-bench", ["kernel-hold"] + Self.flags + ["--seed", "9"])
        let raw = try ToolRunner.run("bgsim-bench", ["raw-heap-hold"] + Self.flags + ["--seed", "9"])
        #expect(raw.status == 0)
        #expect(try ToolRunner.field("digest", in: kernel.lastLine) == ToolRunner.field("digest", in: raw.lastLine))
    }
}
