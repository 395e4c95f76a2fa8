import BackgroundSim
import BackgroundSimLab

/// A field log's features as a text table or JSON.
package enum FieldLogFeaturesFormatter {
    /// The fade bins' names: "0–1 d", …, "14+ d".
    static let fadeLabels = DeviceLaunchSummary.fadeBins.map { bin in
        bin.to.isFinite ? "\(Format.significant(bin.from))–\(Format.significant(bin.to)) d" : "\(Format.significant(bin.from))+ d"
    }

    /// "3.2 (95 % CI 2.9–3.5)", "3.2" without an interval, or "n/a".
    static func text(_ estimate: FieldLogFeatures.Estimate, unit: String = "") -> String {
        guard let value = estimate.value else { return "n/a" }
        let suffix = unit.isEmpty ? "" : " " + unit
        guard let low = estimate.low, let high = estimate.high else { return Format.significant(value) + suffix }
        return "\(Format.significant(value))\(suffix) (95 % CI \(Format.significant(low))–\(Format.significant(high)))"
    }

    /// Per task kind: the devices and days, then one row per feature.
    package static func table(_ features: FieldLogFeatures, records: Int, duplicatesDropped: Int = 0) -> String {
        let dropped = duplicatesDropped == 0 ? "" : " (\(duplicatesDropped) exact duplicate\(duplicatesDropped == 1 ? "" : "s") left out)"
        var lines = ["Field log: \(records) record\(records == 1 ? "" : "s")\(dropped); intervals from \(FieldLogFeatures.resamples) bootstrap resamples of devices"]
        for kind in features.kinds {
            lines += ["", "\(kind.kind.rawValue): \(kind.devices) device\(kind.devices == 1 ? "" : "s"), \(Format.significant(kind.deviceDays)) device-days, \(kind.launches) launches"]
            var rows: [[String]] = [
                ["launches per day", text(kind.launchesPerDay)],
                ["delay after earliest begin, median", text(kind.delayMedianMinutes, unit: "min")],
                ["delay after earliest begin, p90", text(kind.delayP90Minutes, unit: "min")],
                ["spacing between launches, median", text(kind.spacingMedianMinutes, unit: "min")],
                ["share of launches on the charger", text(kind.chargingShare)],
            ]
            for (label, estimate) in zip(fadeLabels, kind.fading) {
                rows.append(["launches per day, last use \(label) ago", text(estimate)])
            }
            let peak = kind.hourShares.enumerated().sorted { ($0.element, -$0.offset) > ($1.element, -$1.offset) }.prefix(3)
            rows.append(["busiest hours (share of launches)", peak.map { "\($0.offset):00 \(Format.significant($0.element * 100)) %" }.joined(separator: ", ")])
            lines += TextTable.render(header: ["feature", "value"], rows: rows).map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    package static func json(_ features: FieldLogFeatures, records: Int, duplicatesDropped: Int = 0) -> JSONValue {
        func estimate(_ value: FieldLogFeatures.Estimate) -> JSONValue {
            .object([("value", value.value.map(JSONValue.number) ?? .null),
                     ("ci95", value.low.flatMap { low in value.high.map { .array([.number(low), .number($0)]) } } ?? .null)])
        }
        return .object([
            ("records", .number(Double(records))),
            ("duplicateRecordsLeftOut", .number(Double(duplicatesDropped))),
            ("bootstrapResamples", .number(Double(FieldLogFeatures.resamples))),
            ("kinds", .array(features.kinds.map { kind in
                .object([
                    ("kind", .string(kind.kind.rawValue)), ("devices", .number(Double(kind.devices))),
                    ("deviceDays", .number(kind.deviceDays)), ("launches", .number(Double(kind.launches))),
                    ("launchesPerDay", estimate(kind.launchesPerDay)),
                    ("hourShares", .array(kind.hourShares.map(JSONValue.number))),
                    ("delayMinutes", .object([("median", estimate(kind.delayMedianMinutes)), ("p90", estimate(kind.delayP90Minutes))])),
                    ("spacingMedianMinutes", estimate(kind.spacingMedianMinutes)),
                    ("chargingShare", estimate(kind.chargingShare)),
                    ("fading", .array(zip(fadeLabels, kind.fading).map { label, value in
                        .object([("sinceLastUse", .string(label)), ("launchesPerDay", estimate(value))])
                    })),
                ])
            })),
        ])
    }
}
