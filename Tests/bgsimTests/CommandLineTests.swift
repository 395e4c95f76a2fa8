import Testing

@Suite("Command-line tools")
struct CommandLineTests {
    @Test("bgsim --help describes the tool and exits 0")
    func help() throws {
        for flag in ["--help", "-h", "help"] {
            let output = try ToolRunner.run("bgsim", [flag])
            #expect(output.status == 0)
            #expect(output.standardOutput.contains("USAGE: bgsim"))
        }
    }

    @Test("bgsim --version prints the version")
    func version() throws {
        let output = try ToolRunner.run("bgsim", ["--version"])
        #expect(output.status == 0)
        #expect(output.standardOutput.hasPrefix("bgsim "))
    }

    @Test("an unknown bgsim subcommand is a usage error: message on stderr, exit 2")
    func unknownSubcommand() throws {
        let output = try ToolRunner.run("bgsim", ["frobnicate"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("unknown subcommand 'frobnicate'"))
        #expect(output.standardOutput.isEmpty)
    }

    @Test("bad bgsim-bench input is a usage error naming the problem, exit 2", arguments: [
        (["nonesuch"], "unknown benchmark 'nonesuch'"),
        (["kernel-hold", "--events", "many"], "--events expects a whole number"),
        (["kernel-hold", "--pending", "0"], "--pending expects a whole number from 1"),
        (["kernel-hold", "--seed", "-1"], "--seed expects a whole number"),
        (["kernel-hold", "--frobs", "3"], "unknown flag '--frobs'"),
        (["kernel-hold", "--events"], "flag '--events' needs a value"),
        (["kernel-hold", "stray"], "unexpected argument 'stray'"),
    ])
    func benchUsageErrors(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("bgsim-bench", arguments)
        #expect(output.status == 2)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }

    @Test("bgsim-bench prints one JSON object with the contracted fields as its last line")
    func benchOutputContract() throws {
        let output = try ToolRunner.run("bgsim-bench", ["raw-heap-hold", "--pending", "10", "--events=1000"])
        #expect(output.status == 0)
        for key in ["benchmark", "pending", "events", "seconds", "eventsPerSecond", "digest"] {
            #expect(try !ToolRunner.field(key, in: output.lastLine).isEmpty, "missing \(key)")
        }
        #expect(try ToolRunner.field("benchmark", in: output.lastLine) == "raw-heap-hold")
    }
}
