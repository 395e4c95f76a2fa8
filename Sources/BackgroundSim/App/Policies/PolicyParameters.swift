import SimKernel

/// Parameters of the reference policies, one section per policy; each defaults to its design
/// document's values (`seeds/`).
public struct PolicyParameters: Codable, Sendable, Equatable {
    /// The defaults.
    public init() {}

    public var protonUpload = ProtonUploadParameters()
    public var coverDrop = CoverDropParameters()
    public var zashiSync = ZashiSyncParameters()
    public var periodicDemo = PeriodicDemoParameters()
}

/// `ExtensionThenProcessingUpload` (Proton Drive, seeds/000 and 001).
public struct ProtonUploadParameters: Codable, Sendable, Equatable {
    public init() {}

    /// The processing task's identifier. Default "ch.protonmail.protondrive.photosProcessing" (seed 000).
    public var identifier = "ch.protonmail.protondrive.photosProcessing"

    /// Earliest begin of the processing task after the extension expires, and after each
    /// processing expiry, in minutes. Default 1 (seed 001: "The earliest processing task delay
    /// is set to 1 minute"); valid 0–1,440.
    public var reschedulingDelayMinutes: Double = 1

    /// Whether uploads restart when the user returns to the app while work is left. Default false
    /// (seed 001: "We don't try to restart when app transitions to foreground"; an open question
    /// there).
    public var restartOnForeground = false
}

/// `RefreshMessageSender` (the Guardian's CoverDrop, seeds/002).
public struct CoverDropParameters: Codable, Sendable, Equatable {
    public init() {}

    /// The refresh task's identifier. Default "com.theguardian.coverdrop.reference.refresh". [A]
    public var identifier = "com.theguardian.coverdrop.reference.refresh"

    /// Least time between two successful runs, in minutes (`minDurationBetweenBackgroundRunsInSecs`,
    /// one hour in production). Default 60; valid 0–1,440.
    public var minimumRunIntervalMinutes: Double = 60

    /// Most messages sent in one run ("up to a configured limit"). Default 5 [A]; valid 1–1,000.
    public var messagesPerRun = 5

    /// Bounds of the exponential delays, in minutes. Defaults 5 and 120 (seed 002); valid 0–1,440.
    public var minimumDelayMinutes: Double = 5
    public var maximumDelayMinutes: Double = 120

    /// Mean of the random exponential delay before a scheduled run, in minutes, before bounding.
    /// Default 30 [Inf] (the document says "exponential delay between 5-120 mins"); valid 1–1,440.
    public var meanDelayMinutes: Double = 30

    /// The failsafe's fixed part, in minutes ("10 mins delay + exponential delay"). Default 10.
    public var failsafeBaseMinutes: Double = 10
}

/// `ProcessingSync` (Zashi, seeds/004).
public struct ZashiSyncParameters: Codable, Sendable, Equatable {
    public init() {}

    /// The processing task's identifier. Default "co.electriccoin.zashi.sync". [A]
    public var identifier = "co.electriccoin.zashi.sync"

    /// `requiresExternalPower` ("optional, we require the iPhone to be connected to the power").
    /// Default true.
    public var requiresExternalPower = true

    /// `requiresNetworkConnectivity` ("required"). Default true.
    public var requiresNetworkConnectivity = true

    /// Sync only on Wi-Fi (the custom check before starting the synchronizer). Default true.
    public var requiresWifi = true

    /// Earliest begin of the next sync after scheduling, in minutes (the document's
    /// `<scheduledTime>`). Default 60 [Inf]; valid 0–10,080.
    public var scheduleDelayMinutes: Double = 60
}

/// `PeriodicRefreshDemo` (TestBGScheduler, seeds/003).
public struct PeriodicDemoParameters: Codable, Sendable, Equatable {
    public init() {}

    /// The refresh task's identifier. Default "com.Lmd64.TestBGScheduler.refresh" (seed 003).
    public var identifier = "com.Lmd64.TestBGScheduler.refresh"

    /// Earliest begin after backgrounding and between runs, in seconds. Default 60 (seed 003).
    public var intervalSeconds: Double = 60

    /// Operations per run, and the length of each, in seconds. Defaults 3 and 2 (seed 003).
    public var operations = 3
    public var operationSeconds: Double = 2
}
