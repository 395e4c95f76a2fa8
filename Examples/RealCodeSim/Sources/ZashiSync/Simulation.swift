// How the simulator runs the wallet: its server, a policy and presets. The only file of the
// module that knows about the simulator.
import BackgroundSim
import SimulatedBackgroundTasks

extension SimulatedServer {
    /// A light wallet server for a chain that grows a block every 75 s from the start, each
    /// 1 kB of compact block data (Zcash's block time; the block size is our inference): `/latest`
    /// answers the tip's height, `/blocks?from=A&to=B` the blocks' bytes.
    public static let lightwalletd = SimulatedServer { request, sinceStart in
        let tip = Int(sinceStart.nanoseconds / 75_000_000_000)
        guard let url = request.url, url.path == "/blocks",
              let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems,
              let from = query.first(where: { $0.name == "from" })?.value.flatMap(Int.init),
              let to = query.first(where: { $0.name == "to" })?.value.flatMap(Int.init) else {
            return Data(String(tip).utf8)
        }
        return Data(count: 1_000 * Swift.max(0, Swift.min(to, tip) - from + 1))
    }
}

extension PolicyDefinition {
    /// The Zashi-shaped sync code as a policy: a fresh app delegate at each process launch, its
    /// requests answered by ``SimulatedServer/lightwalletd``.
    public static let zashiSync = PolicyDefinition.appDelegate(
        name: "zashi-real", summary: "Wallet sync written the way Zashi's iOS code writes it, run unchanged.",
        taskIdentifiers: [ZashiAppDelegate.syncTaskId, ZashiAppDelegate.schedulerTaskId], server: .lightwalletd) { ZashiAppDelegate() }
}

extension Presets.Preset {
    /// The user and phone of the built-in `zashi-shipped` preset running `policy`: the
    /// Zashi-shaped code by default (its blocks come from its server, so the scenario's workload
    /// adds none), or a built-in policy to compare it with (the preset's blocks, with no CPU
    /// time: the simulator does not time the app's own computation, so neither side has it).
    public static func zashiSync(policy: PolicyConfiguration = PolicyConfiguration(.zashiSync)) -> Presets.Preset {
        var scenario = Presets.scenario(named: "zashi-shipped")!
        if policy.name == "zashi-real" {
            scenario.name = "zashi-real"
            scenario.work.arrivals = .none
        } else {
            scenario.name = "\(policy.name)-no-cpu"
            scenario.work.cpuMedianSeconds = 0
        }
        scenario.app.policy = policy
        return Presets.Preset(name: scenario.name, summary: "Zashi's user and phone with the Zashi-shaped sync code.", scenario: scenario)
    }
}
