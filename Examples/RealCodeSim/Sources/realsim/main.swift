import BackgroundSim
import BackgroundSimCLI
import MessageSender

// The whole of bgsim, with the team's own background code in it as a policy and a preset.
var policies = PolicyRegistry.builtIn
try policies.register(.realSender)
BackgroundSimCLI(policies: policies, presets: [.realSender], toolName: "realsim").main()
