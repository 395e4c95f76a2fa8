@testable import BackgroundSim
import SimKernel

/// Runs a scenario while recording every fired event and the battery after each.
struct RecordedRun {
    struct Sample {
        var time: SimInstant
        var netWatts: Double
        var energyJoules: Double
    }

    var records: [TraceRecord] = []
    var samples: [Sample] = []
    var device: Device
    var digest: TraceDigest

    init(_ scenario: Scenario = Scenario(), seed: UInt64 = 1, days: Int) throws {
        let setup = try RunSetup(scenario: scenario, seed: seed)
        final class Sink { var records: [TraceRecord] = [] }
        let sink = Sink()
        var simulation = setup.simulation
        simulation.tracer = { sink.records.append($0) }
        let battery = setup.world.device.battery
        var recorder = Recorder(world: setup.world)
        recorder.samples.append(Sample(time: .start, netWatts: battery.netWatts, energyJoules: battery.energyJoules))
        try simulation.run(until: .start + .days(days), handler: &recorder)
        var finished = recorder.world.device
        finished.advance(to: .start + .days(days))
        self.device = finished
        records = sink.records
        samples = recorder.samples
        digest = simulation.digest
    }

    struct Recorder: EventHandler {
        var world: World
        var samples: [Sample] = []

        mutating func handle(_ event: WorldEvent, in simulation: inout Simulation<WorldEvent>) {
            world.handle(event, in: &simulation)
            // The battery's energy is current as of its last update, which system events do not move.
            let battery = world.device.battery
            samples.append(Sample(time: battery.updated, netWatts: battery.netWatts, energyJoules: battery.energyJoules))
        }
    }

    /// The records of the given kinds.
    func records(ofKinds kinds: Set<UInt32>) -> [TraceRecord] {
        records.filter { kinds.contains($0.kind) }
    }
}

/// Trace kind codes of the device's own timelines (user, charger, network).
enum DeviceKinds {
    static let user: Set<UInt32> = [DeviceEvent.sessionStart.traceKind, DeviceEvent.sessionEnd.traceKind]
    static let charging: Set<UInt32> = [DeviceEvent.plugIn(overnight: true).traceKind, DeviceEvent.unplug.traceKind]
    static let network: Set<UInt32> = [DeviceEvent.networkChange(.leaveHome).traceKind]
}
