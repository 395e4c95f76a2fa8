import SimKernel

/// What the app draws from the battery while it works, by consumer: CPU while the work executor
/// is active, the radio's promotion, transfer and tail, and the fixed CPU cost of a background
/// launch or resume — and the events at which that changes by itself (a radio phase ending, the
/// launch overhead ending).
///
/// The system brings it up to date after every change (``update(executorActive:wantsRadio:…)``),
/// and the world passes ``power`` to the device's energy ledger.
struct AppEnergy {
    static let radioShareLabel = StreamLabel("system.radioShare")

    let parameters: EnergyParameters
    private(set) var radio: RadioModel
    /// Whether the app's work holds the radio in transfer.
    private(set) var transferring = false
    /// The network the current transfer uses; a new one means a new connection.
    private var transferPath = NetworkPath.offline
    private(set) var radioPhase = EventSlot()
    private var launchOverhead = EventSlot()
    /// Whether a transfer rides on a connection other traffic holds (no promotion, no tail).
    private var shareRandom: RandomStream
    /// What the app draws now, in watts.
    private(set) var power = AppPower()

    init(parameters: EnergyParameters, seed: UInt64) {
        self.parameters = parameters
        radio = RadioModel(parameters: parameters)
        shareRandom = RandomStream(seed: seed, label: Self.radioShareLabel)
    }

    /// Whether the radio is idle with nothing in flight or scheduled.
    var radioIsIdle: Bool { !transferring && radio.phase == .idle && !radioPhase.isScheduled }

    private var launchOverheadWatts: Double { launchOverhead.isScheduled ? parameters.cpuAwakeWatts : 0 }

    /// A background launch or resume costs a fixed time at CPU power.
    mutating func chargeLaunchOverhead(in simulation: inout Simulation<WorldEvent>) {
        precondition(parameters.wakeOverheadSeconds >= 0, "AppEnergy: a launch overhead of \(parameters.wakeOverheadSeconds) s")
        launchOverhead.cancel(in: &simulation)
        let end = simulation.now + .seconds(parameters.wakeOverheadSeconds)
        launchOverhead.set(.launchOverheadEnd, at: end, in: &simulation)
    }

    mutating func launchOverheadEnded() {
        launchOverhead.fired()
    }

    /// A radio phase (promotion or tail) ended by itself.
    mutating func radioPhaseEnded(at now: SimInstant) {
        precondition(radio.nextPhaseChange.map { $0 <= now } ?? false, "AppEnergy: a radio phase ended at \(now) that the radio did not end")
        radioPhase.fired()
        radio.advancePhase(at: now)
    }

    /// Nothing but the launch overhead draws power (the executor idle, the radio idle).
    mutating func setIdle() {
        power = AppPower(launchOverhead: launchOverheadWatts)
    }

    /// Ends or begins the app's transfer as the work requires, schedules the radio's next phase
    /// change, and sets ``power``.
    ///
    /// - Parameters:
    ///   - executorActive: The work executor is progressing.
    ///   - cpuShare: The share of the item in hand's remaining time spent computing; the CPU
    ///     draws ``EnergyParameters/cpuAwakeWatts`` for that share and
    ///     ``EnergyParameters/transferCPUWatts`` for the rest (waiting on the radio), applied
    ///     until the next change [Inf].
    ///   - wantsRadio: It is progressing on an item that transfers data, or the system's daemon
    ///     is carrying a transfer the app handed to a background URL session.
    ///   - daemonTransferring: The daemon is carrying such a transfer; it draws
    ///     ``EnergyParameters/transferCPUWatts`` of CPU, booked to the app [Inf].
    ///   - directions: Which directions the item in hand transfers; active power grows with the
    ///     throughput of those, taken from that item for the whole
    ///     transfer [Inf].
    /// - Returns: When data flows, if a transfer began (after the radio's promotion).
    mutating func update(executorActive: Bool, cpuShare: Double, wantsRadio: Bool, daemonTransferring: Bool = false,
                         path: NetworkPath, network: NetworkParameters,
                         directions: (upload: Bool, download: Bool),
                         in simulation: inout Simulation<WorldEvent>) -> SimInstant? {
        precondition(cpuShare >= 0 && cpuShare <= 1, "AppEnergy: a CPU share of \(cpuShare) of the item's time")
        let now = simulation.now
        if transferring && (!wantsRadio || transferPath != path) {
            radio.endTransfer(at: now)
            transferring = false
        }
        var flowing: SimInstant?
        if wantsRadio && !transferring {
            let throughput = network.throughput(on: path)
            let rides = shareRandom.chance(parameters.tailShareProbability)
            flowing = radio.beginTransfer(at: now, path: path,
                                          uplinkMbps: directions.upload ? throughput.uplinkMbps : 0,
                                          downlinkMbps: directions.download ? throughput.downlinkMbps : 0, ridesOtherTraffic: rides)
            transferring = true
            transferPath = path
        }
        radioPhase.set(.radioPhase, at: radio.nextPhaseChange, in: &simulation)
        let watts = radio.watts
        let cpu = (executorActive
            ? parameters.cpuAwakeWatts * cpuShare + parameters.transferCPUWatts * (1 - cpuShare)
            : 0) + (daemonTransferring ? parameters.transferCPUWatts : 0)
        power = AppPower(cpu: cpu,
                         radioPromotion: watts.promotion, radioActive: watts.active, radioTail: watts.tail,
                         launchOverhead: launchOverheadWatts)
        checkInvariantsIfEnabled()
        return flowing
    }
}
