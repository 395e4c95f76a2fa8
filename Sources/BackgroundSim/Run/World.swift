import SimKernel

/// The whole simulated world, as one event handler: for now the device and its user; the iOS
/// model and the app join it in later issues.
public struct World: EventHandler {
    public private(set) var device: Device

    public init(device: Device) {
        self.device = device
    }

    public mutating func handle(_ event: WorldEvent, in simulation: inout Simulation<WorldEvent>) {
        device.handle(event, in: &simulation)
    }
}
