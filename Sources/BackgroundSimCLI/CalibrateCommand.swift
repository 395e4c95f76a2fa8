import BackgroundSim
import BackgroundSimLab
import CommandLineSupport

/// `bgsim calibrate FILE…`: the launch model fitted to field logs.
enum CalibrateCommand {
    static let usage = """
        USAGE: bgsim calibrate FILE...
        """

    static func run(_ arguments: ArraySlice<String>, _ context: CLIContext) throws -> Int32 {
        let flags = try Flags(arguments, known: ["jobs"], allowsPositional: true)
        var records: [FieldLogRecord] = []
        for path in flags.positional { records += try FieldLogFormat.read(path: path) }
        let ordered = records.enumerated().sorted { ($0.element.device, $0.element.time, $0.offset) < ($1.element.device, $1.element.time, $1.offset) }
            .map(\.element)
        let calibration = try LaunchCalibration.run(ordered, base: Scenario(), jobs: try flags.integer("jobs", default: Replications.defaultJobs, in: 1...1_024))
        print(calibration.summary)
        return 0
    }
}
