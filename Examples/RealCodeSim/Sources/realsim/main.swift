import BackgroundSim
import BackgroundSimCLI
import CoverDropSending
import MessageSender
import ZashiSync

// The whole of bgsim, with the team's own background code in it as a policy and a preset.
var policies = PolicyRegistry.builtIn
try policies.register(.realSender)
try policies.register(.coverDropSending)
try policies.register(.zashiSync)
BackgroundSimCLI(policies: policies, presets: [.realSender, .coverDropSending(), .zashiSync()], toolName: "realsim").main()
