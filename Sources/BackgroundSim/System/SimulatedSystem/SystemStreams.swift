import SimKernel

/// The system's random streams for the current day, one per concern, each keyed by
/// (seed, label, day) so that a decision on one day never shifts another day's draws.
struct SystemStreams {
    static let launchLabel = StreamLabel("system.launch")
    static let jetsamLabel = StreamLabel("system.jetsam")
    static let expiryLabel = StreamLabel("system.expiry")
    static let appLabel = StreamLabel("app.random")
    static let continuedProcessingLabel = StreamLabel("system.continuedProcessing")

    let seed: UInt64
    /// The day the streams belong to.
    private(set) var day = Int.min
    /// The launch model's chances.
    var launch = RandomStream(seed: 0)
    /// When the suspended app is reclaimed.
    var jetsam = RandomStream(seed: 0)
    /// Early expiry of refresh tasks.
    var expiry = RandomStream(seed: 0)
    /// The app's own draws (``AppContext/randomUnit()``).
    var app = RandomStream(seed: 0)
    /// The user's cancels of continued-processing tasks.
    var continuedProcessing = RandomStream(seed: 0)

    init(seed: UInt64) {
        self.seed = seed
    }

    /// Starts `day`'s streams, unless they are already the current ones.
    mutating func use(day: Int) {
        guard day != self.day else { return }
        self.day = day
        let index = UInt64(bitPattern: Int64(day))
        launch = RandomStream(seed: seed, label: Self.launchLabel, index: index)
        jetsam = RandomStream(seed: seed, label: Self.jetsamLabel, index: index)
        expiry = RandomStream(seed: seed, label: Self.expiryLabel, index: index)
        app = RandomStream(seed: seed, label: Self.appLabel, index: index)
        continuedProcessing = RandomStream(seed: seed, label: Self.continuedProcessingLabel, index: index)
    }
}
