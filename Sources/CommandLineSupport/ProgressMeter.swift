import Foundation

/// Progress on standard error for long commands: percent done, device-days per second and the
/// time left. On a terminal, one line redrawn at most five times a second; otherwise (a log, a
/// pipe, a batch job) a line every ``loggedEvery`` once the command has run that long, so short
/// runs stay silent and long ones show they are alive. Silenced by `--quiet`.
///
/// Safe to call from several threads (replications report from their workers).
public final class ProgressMeter: @unchecked Sendable {
    private let total: Int
    private let deviceDaysPerItem: Int
    private let label: String
    private let enabled: Bool
    /// Whether standard error is a terminal: redraw one line, rather than log lines.
    private let interactive: Bool
    /// How often a line is logged when standard error is not a terminal: 10 s.
    public static let loggedEvery = Duration.seconds(10)
    private let lock = NSLock()
    private var done = 0
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant?

    /// Whether standard error is a terminal.
    public static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// - Parameters:
    ///   - total: Items (runs) to do.
    ///   - deviceDaysPerItem: Simulated device-days in one item, for the rate; 0 for work that
    ///     simulates nothing (reading a log), which shows no rate.
    ///   - quiet: Never draw.
    public init(total: Int, deviceDaysPerItem: Int, label: String = "runs", quiet: Bool) {
        self.total = Swift.max(1, total)
        self.deviceDaysPerItem = deviceDaysPerItem
        self.label = label
        enabled = !quiet
        interactive = Self.standardErrorIsTerminal
        started = clock.now
    }

    /// One more item is done.
    public func advance() { advance(by: 1) }

    /// `count` more items are done.
    public func advance(by count: Int) {
        guard enabled, count > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        done = Swift.min(total, done + count)
        let now = clock.now
        if interactive {
            if let lastDrawn, now - lastDrawn < .milliseconds(200), done < total { return }
        } else {
            guard now - (lastDrawn ?? started) >= Self.loggedEvery else { return }
        }
        lastDrawn = now
        let elapsed = Self.seconds(now - started)
        let rate = elapsed > 0 ? Double(done * deviceDaysPerItem) / elapsed : 0
        let remaining = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
        let line = "[\(String(format: "%3d", done * 100 / total)) %] \(done)/\(total) \(label), "
            + (deviceDaysPerItem > 0 ? "\(Int(rate.rounded())) device-days/s, " : "") + "\(Self.clockText(remaining)) left"
        FileHandle.standardError.write(Data((interactive ? "\r" + line + "   " : line + "\n").utf8))
    }

    /// Ends the line, if one was drawn on a terminal.
    public func finish() {
        guard enabled, interactive else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    static func clockText(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
