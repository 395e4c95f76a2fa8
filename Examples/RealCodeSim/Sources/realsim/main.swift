import BackgroundSim
import BackgroundSimCLI
import CoverDropSending
import FeedRefresh
import InboxSync
import MessageSender
import PhotoUploads
import ZashiSync

// The whole of bgsim, with the team's own background code in it as a policy and a preset.
var policies = PolicyRegistry.builtIn
try policies.register(.realSender)
try policies.register(.coverDropSending)
try policies.register(.zashiSync)
try policies.register(.photoUploads)
try policies.register(.inboxSync)
try policies.register(.feedRefresh)
BackgroundSimCLI(policies: policies, presets: [.realSender, .coverDropSending(), .zashiSync(), .photoUploads, .inboxSync, .feedRefresh], toolName: "realsim").main()
