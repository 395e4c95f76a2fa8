import SimKernel

/// A piecewise-constant rate over one local day, for drawing the arrivals of a non-homogeneous
/// Poisson process by inverting its cumulative rate.
///
/// Pieces are stored in reusable arrays, so building a day's intensity does not allocate once the
/// arrays have reached their size.
struct DayIntensity {
    /// Start of each piece, nanoseconds since the simulation start; the last entry ends the day.
    private(set) var boundaries: [Int64] = []
    /// Arrivals per second in each piece.
    private(set) var rates: [Double] = []

    /// Empties the intensity, keeping its storage.
    mutating func reset(startingAt start: SimInstant) {
        boundaries.removeAll(keepingCapacity: true)
        rates.removeAll(keepingCapacity: true)
        boundaries.append(start.nanosecondsSinceStart)
    }

    /// Appends a piece that runs until `end` at `rate` arrivals per second.
    mutating func append(until end: SimInstant, rate: Double) {
        precondition(!boundaries.isEmpty, "DayIntensity: a piece appended before reset(startingAt:)")
        precondition(rate >= 0 && rate.isFinite, "DayIntensity: a rate of \(rate) per second")
        let endNanoseconds = end.nanosecondsSinceStart
        guard endNanoseconds > boundaries[boundaries.count - 1] else { return }
        boundaries.append(endNanoseconds)
        rates.append(rate)
    }

    /// Where the day ends.
    var end: SimInstant { SimInstant(nanosecondsSinceStart: boundaries[boundaries.count - 1]) }

    /// Multiplies every rate by `factor`.
    mutating func scale(by factor: Double) {
        precondition(factor >= 0 && factor.isFinite, "DayIntensity: rates scaled by \(factor)")
        for index in rates.indices { rates[index] *= factor }
    }

    /// ∫ rate dt over the day (expected arrivals).
    var integral: Double {
        var total = 0.0
        for index in rates.indices {
            total += rates[index] * Double(boundaries[index + 1] - boundaries[index]) * 1e-9
        }
        return total
    }

    /// ∫ rate² dt over the day, in arrivals² per second.
    var integralOfSquare: Double {
        var total = 0.0
        for index in rates.indices {
            total += rates[index] * rates[index] * Double(boundaries[index + 1] - boundaries[index]) * 1e-9
        }
        return total
    }

    /// The time at which the cumulative rate, counted from `start`, reaches `mass`; `nil` if the
    /// day ends first.
    ///
    /// With `mass` drawn from Exp(1), this is the next arrival after `start`.
    func time(after start: SimInstant, accumulating mass: Double) -> SimInstant? {
        precondition(mass >= 0, "DayIntensity: a mass of \(mass) to accumulate")
        assert(boundaries.count == rates.count + 1, "DayIntensity: \(boundaries.count) boundaries for \(rates.count) pieces")
        var remaining = mass
        var position = start.nanosecondsSinceStart
        guard var piece = pieceIndex(containing: position) else { return nil }
        while piece < rates.count {
            let pieceEnd = boundaries[piece + 1]
            let rate = rates[piece]
            if rate > 0 {
                let available = rate * Double(pieceEnd - position) * 1e-9
                if available >= remaining {
                    let offset = (remaining / rate * 1e9).rounded(.up)
                    return SimInstant(nanosecondsSinceStart: Swift.min(pieceEnd, position + Int64(offset)))
                }
                remaining -= available
            }
            position = pieceEnd
            piece += 1
        }
        return nil
    }

    /// The index of the piece that contains `position`, or `nil` if it is outside the day.
    private func pieceIndex(containing position: Int64) -> Int? {
        guard position >= boundaries[0], position < boundaries[boundaries.count - 1] else { return nil }
        var low = 0
        var high = rates.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if boundaries[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
