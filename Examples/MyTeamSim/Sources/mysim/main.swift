import BackgroundSim
import BackgroundSimCLI
import UploadPolicy

// The whole of bgsim, with the team's policy and preset in it.
var policies = PolicyRegistry.builtIn
try policies.register(.myUpload)
BackgroundSimCLI(policies: policies, presets: [.myUpload], toolName: "mysim").main()
