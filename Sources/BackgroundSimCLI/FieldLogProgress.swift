import BackgroundSimCalibration
import CommandLineSupport

/// Progress of a read of field logs on standard error (``ProgressMeter``): the first pass in
/// MiB read and checked, then the runs of a device's consecutive lines summarised (one a device
/// in a log whose devices come in order). Silent with `--quiet`, and on a log read
/// in under ``ProgressMeter/loggedEvery`` when standard error is not a terminal.
final class FieldLogProgress {
    private static let mebibyte = 1 << 20
    private let quiet: Bool
    private var reading: ProgressMeter?
    private var devices: ProgressMeter?
    private var bytesRead = 0
    private var mebibytesShown = 0

    init(quiet: Bool) { self.quiet = quiet }

    /// Hears of one step of the read (``FieldLogReader/Step``).
    func step(_ step: FieldLogReader.Step) {
        switch step {
        case .bytes(let count, let total):
            let meter = reading ?? ProgressMeter(total: (total + Self.mebibyte - 1) / Self.mebibyte, deviceDaysPerItem: 0,
                                                 label: "MiB of the logs read", quiet: quiet)
            reading = meter
            bytesRead += count
            let shown = (bytesRead + Self.mebibyte - 1) / Self.mebibyte
            meter.advance(by: shown - mebibytesShown)
            mebibytesShown = shown
        case .device(let runs, let totalRuns):
            if devices == nil {
                reading?.finish()
                devices = ProgressMeter(total: totalRuns, deviceDaysPerItem: 0, label: "runs of a device's lines summarised", quiet: quiet)
            }
            devices?.advance(by: runs)
        }
    }

    /// Ends the last line drawn on a terminal.
    func finish() {
        if let devices { devices.finish() } else { reading?.finish() }
    }
}
