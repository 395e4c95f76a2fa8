@testable import BackgroundSimCLI
import Testing

@Suite("A team's tool calls itself by its own name")
struct ToolNameTests {
    @Test("help texts and messages name the tool: every 'bgsim' command word becomes the team's name; bgsim-bench and file names stay")
    func named() {
        let context = CLIContext(policies: .builtIn, extraPresets: [], toolName: "mysim")
        #expect(context.named("USAGE: bgsim run (--preset NAME)\nRun 'bgsim help run'; `bgsim compare` or bgsim: x")
                == "USAGE: mysim run (--preset NAME)\nRun 'mysim help run'; `mysim compare` or mysim: x")
        #expect(context.named("bgsim-bench kernel-hold; out/bgsim-failure-a-seed1.json; .bgsim/ x_bgsim y")
                == "bgsim-bench kernel-hold; out/bgsim-failure-a-seed1.json; .bgsim/ x_bgsim y")
        let plain = CLIContext(policies: .builtIn, extraPresets: [], toolName: "bgsim")
        #expect(plain.named("USAGE: bgsim run") == "USAGE: bgsim run")
    }

    @Test("every subcommand's help, as a team's tool prints it, names the team's tool and never bgsim as a command")
    func everyHelp() {
        let context = CLIContext(policies: .builtIn, extraPresets: [], toolName: "mysim")
        let texts = [BackgroundSimCLI.usage] + BackgroundSimCLI.subcommands(context).values.map(\.usage)
        for text in texts.map(context.named) {
            #expect(!text.contains("bgsim ") && !text.contains("'bgsim") && !text.contains("`bgsim"), "\(text.prefix(80))")
            #expect(text.contains("mysim"))
        }
    }
}
