import SimKernel

/// The radio energy of the app's transfers, after the per-wake model of docs/MODEL.md:
///
///     E_radio = P_promo·T_promo                                  (skipped if the radio is connected)
///             + T_xfer·(β + α_up·u + α_down·d)·m_signal·m_5G      (while transferring)
///             + P_tail·T_tail·m_5G                                 (cut short by a transfer within it)
///
/// The radio is a state machine — idle, promoting, active, tail — whose phases change at events:
/// ``beginTransfer(at:path:uplinkMbps:downlinkMbps:ridesOtherTraffic:)`` and ``endTransfer(at:)``
/// are called by the app's work, and ``nextPhaseChange`` tells the simulation when the promotion
/// or the tail ends by itself (then call ``advancePhase(at:)``). The current phase's power, split
/// into promotion, active and tail, goes to the ``EnergyLedger`` through ``applyWatts(to:)``, so
/// radio energy is integrated exactly like every other consumer.
///
/// A transfer that rides on a radio already connected by other traffic (probability
/// ``EnergyParameters/tailShareProbability``, drawn by the caller) pays neither promotion nor tail.
/// The signal multiplier applies to cellular only (it comes from Android modem measurements by signal strength).
package struct RadioModel: Sendable, Equatable {
    /// What the radio is doing.
    package enum Phase: Sendable, Equatable {
        case idle
        /// Connecting; data flows once the promotion ends.
        case promoting(until: SimInstant)
        /// Transferring.
        case active
        /// Lingering in the high-power tail after the last transfer.
        case tail(until: SimInstant)
    }

    package let parameters: EnergyParameters
    package private(set) var phase: Phase = .idle
    /// Transfers in progress (overlapping transfers share the radio).
    package private(set) var activeTransfers = 0
    /// The network of the current connection.
    private var path = NetworkPath.offline
    private var uplinkMbps = 0.0
    private var downlinkMbps = 0.0
    /// Whether the current connection belongs to other traffic (no promotion or tail for the app).
    private var ridesOtherTraffic = false

    package init(parameters: EnergyParameters) {
        self.parameters = parameters
    }

    /// Starts a transfer.
    ///
    /// - Returns: When data starts to flow: after the promotion if the radio was idle, at once
    ///   if it was connected or in its tail (the tail is shared), or if the transfer rides on
    ///   other traffic.
    @discardableResult
    package mutating func beginTransfer(
        at instant: SimInstant, path: NetworkPath, uplinkMbps: Double, downlinkMbps: Double, ridesOtherTraffic: Bool
    ) -> SimInstant {
        precondition(path.isSatisfied, "RadioModel: a transfer needs a network")
        activeTransfers += 1
        self.uplinkMbps = uplinkMbps
        self.downlinkMbps = downlinkMbps
        switch phase {
        case .promoting(let until):
            return until
        case .active:
            return instant
        case .tail:
            self.path = path
            phase = .active
            return instant
        case .idle:
            self.path = path
            self.ridesOtherTraffic = ridesOtherTraffic
            if ridesOtherTraffic {
                phase = .active
                return instant
            }
            let until = instant + .seconds(promotionSeconds(path))
            phase = .promoting(until: until)
            return until
        }
    }

    /// Ends a transfer; the last one to end starts the tail.
    package mutating func endTransfer(at instant: SimInstant) {
        precondition(activeTransfers > 0, "RadioModel: endTransfer without a transfer")
        activeTransfers -= 1
        guard activeTransfers == 0 else { return }
        if ridesOtherTraffic {
            phase = .idle
            ridesOtherTraffic = false
        } else {
            phase = .tail(until: instant + .seconds(tailSeconds(path)))
        }
    }

    /// When the radio will change phase by itself (the end of a promotion or a tail), if ever.
    package var nextPhaseChange: SimInstant? {
        switch phase {
        case .promoting(let until), .tail(let until): until
        case .idle, .active: nil
        }
    }

    /// Moves past a promotion or tail that has ended by `instant`.
    package mutating func advancePhase(at instant: SimInstant) {
        switch phase {
        case .promoting(let until) where until <= instant:
            phase = activeTransfers > 0 ? .active : .tail(until: instant + .seconds(tailSeconds(path)))
        case .tail(let until) where until <= instant:
            phase = .idle
        default:
            break
        }
    }

    /// The power of the current phase, split by component, in watts.
    package var watts: (promotion: Double, active: Double, tail: Double) {
        switch phase {
        case .idle: (0, 0, 0)
        case .promoting: (promotionWatts(path), 0, 0)
        case .active: (0, activeWatts(path, uplinkMbps: uplinkMbps, downlinkMbps: downlinkMbps), 0)
        case .tail: (0, 0, tailWatts(path))
        }
    }

    /// Sets the app's radio consumers in `ledger` to the current phase's power.
    package func applyWatts(to ledger: inout EnergyLedger) {
        let current = watts
        ledger.setWatts(current.promotion, for: .appRadioPromotion)
        ledger.setWatts(current.active, for: .appRadioActive)
        ledger.setWatts(current.tail, for: .appRadioTail)
    }

    // MARK: Per-technology constants

    func promotionSeconds(_ path: NetworkPath) -> Double {
        path.interface == .wifi ? parameters.wifi.promotionSeconds : parameters.lte.promotionSeconds
    }

    func promotionWatts(_ path: NetworkPath) -> Double {
        path.interface == .wifi ? parameters.wifi.promotionWatts : parameters.lte.promotionWatts
    }

    func tailSeconds(_ path: NetworkPath) -> Double {
        if path.interface == .wifi { return parameters.wifi.tailSeconds }
        return path.technology == .fiveG ? parameters.fiveGTailSeconds : parameters.lte.tailSeconds
    }

    func tailWatts(_ path: NetworkPath) -> Double {
        if path.interface == .wifi { return parameters.wifi.tailWatts }
        return parameters.lte.tailWatts * fiveGMultiplier(path)
    }

    func activeWatts(_ path: NetworkPath, uplinkMbps: Double, downlinkMbps: Double) -> Double {
        if path.interface == .wifi {
            let wifi = parameters.wifi
            return wifi.activeBaseWatts + (wifi.uplinkMilliwattsPerMbps * uplinkMbps + wifi.downlinkMilliwattsPerMbps * downlinkMbps) / 1_000
        }
        let lte = parameters.lte
        let base = lte.activeBaseWatts + (lte.uplinkMilliwattsPerMbps * uplinkMbps + lte.downlinkMilliwattsPerMbps * downlinkMbps) / 1_000
        let signal = switch path.signal {
        case .good: 1.0
        case .medium: parameters.mediumSignalPowerMultiplier
        case .poor: parameters.poorSignalPowerMultiplier
        }
        return base * signal * fiveGMultiplier(path)
    }

    func fiveGMultiplier(_ path: NetworkPath) -> Double {
        path.interface == .cellular && path.technology == .fiveG ? parameters.fiveGPowerMultiplier : 1
    }
}
