import BackgroundSim
import BackgroundSimLab

/// A field log's launches as the `replay` launch model's input (``ReplayedLaunches``): each
/// device's `taskLaunched` records at hours since the local midnight of its first record, and
/// the scenario fragment `bgsim fieldlog --replay` writes.
package enum FieldLogReplay {
    /// The launches of every device in `records` (sorted by device, then time), or of the one
    /// named `device`; `nil` if there is no such device.
    package static func launches(_ records: [FieldLogRecord], device: String? = nil) -> ReplayedLaunches? {
        var replay = ReplayedLaunches()
        for slice in FieldLogFormat.devices(records) where device == nil || slice.first?.device == device {
            if let launches = self.device(slice) { replay.devices.append(launches) }
        }
        return replay.devices.isEmpty ? nil : replay
    }

    /// One device's launches, from its records sorted by time, at hours since the local midnight
    /// of its first record; `nil` for no records.
    package static func device(_ records: some Collection<FieldLogRecord>) -> ReplayedLaunches.Device? {
        guard let first = records.first else { return nil }
        let origin = Double(first.time.date.daysSinceEpoch) * 86_400
        let launches = records.compactMap { record -> ReplayedLaunches.Launch? in
            guard record.event == .taskLaunched, let kind = record.kind else { return nil }
            return ReplayedLaunches.Launch(atHours: ((record.time.seconds - origin) / 3_600 * 1e6).rounded() / 1e6,
                                           kind: kind == .refresh ? .refresh : .processing)
        }
        return ReplayedLaunches.Device(id: first.device, launches: launches)
    }

    /// A scenario fragment that replays `replay`: `system.launchModel` `replay` and the launches.
    package static func fragment(_ replay: ReplayedLaunches, sources: [String]) -> JSONValue {
        let launches = replay.devices.reduce(0) { $0 + $1.launches.count }
        let files = sources.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", ")
        let description = "The system's launch decisions replayed from field logs (\(files)): \(launches) launches on "
            + "\(replay.devices.count) device\(replay.devices.count == 1 ? "" : "s")"
            + (replay.devices.count > 1 ? ", one device per seed" : "") + ", at hours since the local midnight of each device's first record "
            + "(so a scenario starting at 00:00 keeps the hour of day). Written by bgsim fieldlog --replay (BackgroundSim \(BackgroundSimVersion.string))."
        let devices = replay.devices.map { device -> JSONValue in
            .object([("id", .string(device.id)), ("launches", .array(device.launches.map { launch in
                .object([("atHours", .number(launch.atHours)), ("kind", .string(launch.kind.rawValue))])
            }))])
        }
        return .object([
            ("name", .string("replay")),
            ("description", .string(description)),
            ("system", .object([("launchModel", .string("replay")), ("replay", .object([("devices", .array(devices))]))])),
        ])
    }
}
