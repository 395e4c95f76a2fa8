import SimKernel

/// The whole simulated world, as one event handler: the device and its user, and the iOS model
/// running the app.
///
/// Device events go to the device first, then to the system, which reacts to what changed
/// (the app opened, the screen went off, the charger was unplugged); the system's own events go
/// to the system.
package struct World: EventHandler {
    package private(set) var device: Device
    package let system: SimulatedSystem
    /// Which device events the system wants to hear about, refreshed after every call into it.
    private var interest: DeviceEventInterest
    /// The app's power last passed to the device.
    private var appPower = AppPower()
    /// Sees each event and the world after it, when set (for trace builders and checkers); one
    /// branch when not.
    package var observer: ((WorldEvent, SimInstant, Device, SimulatedSystem) -> Void)?

    package init(device: Device, system: SimulatedSystem) {
        self.device = device
        self.system = system
        interest = system.interest
    }

    /// Schedules the device's first events and the system's fault events: call once, before
    /// the run.
    mutating func start(in simulation: inout Simulation<WorldEvent>) {
        device.start(in: &simulation)
        system.start(in: &simulation)
    }

    package mutating func handle(_ event: WorldEvent, in simulation: inout Simulation<WorldEvent>) {
        switch event {
        case .system(let event):
            system.handle(event, device: device, in: &simulation)
            afterSystemCall(in: &simulation)
        case .device(let event):
            device.handle(event, in: &simulation)
            if interest.concerns(event) {
                system.deviceDidHandle(event, device: device, in: &simulation)
                afterSystemCall(in: &simulation)
            }
        }
        observer?(event, simulation.now, device, system)
    }

    /// After a call into the system: only the system changes what interests it, and what the
    /// app draws, which goes to the device.
    private mutating func afterSystemCall(in simulation: inout Simulation<WorldEvent>) {
        interest = system.interest
        let power = system.appPower
        if power != appPower {
            appPower = power
            device.setAppPower(power, in: &simulation)
        }
    }
}
