/// Turns a ``RunResult`` into the documents `bgsim run` prints: JSON (fields in `docs/OUTPUT.md`)
/// and a readable table.
package enum ReportFormatter {
    /// The report as one JSON document: `scenario`, `seed`, `days`, `digest`, `events`, `device`.
    package static func json(_ result: RunResult) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("scenario", .string(result.scenarioName)),
            ("seed", .string(String(result.seed))),
            ("days", .number(Double(result.days))),
            ("digest", .string(result.digest.description)),
            ("events", .number(Double(result.events))),
            ("device", result.device.json),
            ("os", result.os.osJSON),
            ("metricKit", result.os.metricKitJSON),
            ("work", result.work.json),
            ("energy", result.energy.json(result.work)),
        ]
        if let app = result.app.json { fields.append(("app", app)) }
        return .object(fields)
    }

    /// The report as an aligned plain-text table. Every label says whether its figure is a day's
    /// ("per day") or the whole run's ("in all").
    package static func table(_ result: RunResult) -> String {
        let d = result.device
        func hours(_ value: Double) -> String { fixed(value, 2) + " h" }
        func percent(_ value: Double) -> String { fixed(value * 100, 1) + " %" }
        let rows: [(String, String)] = [
            ("Screen on per day", hours(d.screenOnHoursPerDay)),
            ("Phone sessions per day", fixed(d.phoneSessionsPerDay, 1)),
            ("App sessions per day", fixed(d.appSessionsPerDay, 2)),
            ("Force-quits per day", fixed(d.forceQuitsPerDay, 2)),
            ("On the charger per day", hours(d.chargingHoursPerDay)),
            ("Wi-Fi / cellular / no service", "\(percent(d.wifiShare)) / \(percent(d.cellularShare)) / \(percent(d.offlineShare))"),
            ("Low Power Mode per day", hours(d.lowPowerModeHoursPerDay)),
            ("Battery drawn per day", fixed(d.batteryDrainPercentPerDay, 1) + " % of capacity"),
            ("Lowest battery level", fixed(d.minimumBatteryPercent, 1) + " %"),
            ("Flat battery (phone off)", "\(d.batteryDepletions) times, " + hours(d.hoursAtZeroBattery) + " in all"),
            ("Restarts in all (updates, inactivity)", "\(d.updateRestarts), \(d.inactivityReboots)"),
            ("Sessions missed (phone off)", fixed(d.missedSessionsPerDay, 2) + " per day"),
        ]
        let os = result.os
        let m = os.metrics
        var osRows: [(String, String)] = [
            ("Refresh launches per day", fixed(os.refreshLaunchesPerDay, 2)),
            ("Processing launches per day", fixed(os.processingLaunchesPerDay, 2)),
            ("Launches while charging", percent(os.launchesWhileChargingShare)),
            ("Expirations per day", fixed(os.expirationsPerDay, 2)),
            ("Background running per day", Format.significant(os.backgroundRunSecondsPerDay) + " s"),
            ("Submits in all (errors)", "\(m.submits) (\(m.submitErrorsByCode.total))"),
            ("Throttled launches in all", "\(m.throttledLaunches)"),
            ("Kills for overruns in all: time, CPU", "\(m.backgroundTaskAssertionTimeoutExits), \(m.cpuResourceLimitExits)"),
            ("Terminations for memory in all", "\(m.memoryPressureExits)"),
        ]
        // The other doors, when the app used them.
        if m.continuedProcessingLaunches > 0 {
            osRows.insert(("Continued processing per day", fixed(os.continuedProcessingLaunchesPerDay, 2)
                + " (in all: stalled \(m.expirations(.noProgress)), cancelled \(m.expirations(.userCancelled)))"), at: 2)
        }
        if m.sessionTransfersCreated > 0 {
            osRows.append(("URL session transfers in all (cancelled)", "\(m.sessionTransfersCreated) (\(m.sessionTransfersCancelled))"))
            osRows.append(("URL session relaunches in all (deferred)", "\(m.sessionRelaunches) (\(m.sessionRelaunchesDeferred))"))
        }
        if m.pushesSent > 0 {
            osRows.append(("Pushes sent / delivered in all", "\(m.pushesSent) / \(m.pushesDelivered)"))
            osRows.append(("Pushes coalesced, discarded, deferred in all", "\(m.pushesCoalesced), \(m.pushesDiscarded), \(m.pushesDeferred)"))
        }
        // Why requests waited: each kind's decisions, the most frequent reasons first.
        for (kind, label) in [(TaskRequest.Kind.appRefresh, "Refresh"), (.processing, "Processing")] {
            let decisions = m.launchDecisions
            guard decisions.decisions(kind) > 0 else { continue }
            let reasons = decisions.denials(kind).prefix(5).map { "\($0.denial.rawValue) \($0.count)" }
            osRows.append(("\(label) decisions in all", "launched \(decisions.launched(kind)); not: " + (reasons.isEmpty ? "none" : reasons.joined(separator: ", "))))
        }
        let width = (rows + osRows).map(\.0.count).max() ?? 0
        var lines = ["BackgroundSim — \(result.scenarioName), seed \(result.seed), \(result.days) days",
                     "digest \(result.digest), \(result.events) events", "", "Device"]
        for (label, value) in rows {
            lines.append("  " + label.column(width + 2) + value)
        }
        lines += ["", "iOS (the app's background work)"]
        for (label, value) in osRows {
            lines.append("  " + label.column(width + 2) + value)
        }
        let work = result.work
        if work.created > 0 || work.metrics.coverSent > 0 {
            let latency = work.metrics.latency, allItems = work.metrics.latencyOverAllItems
            func quantiles(_ histogram: LogHistogram) -> String {
                "p50 \(minutes(histogram.quantile(0.5))), p90 \(minutes(histogram.quantile(0.9))), p99 \(minutes(histogram.quantile(0.99)))"
            }
            var workRows: [(String, String)] = [
                ("Items created / completed in all", "\(work.created) / \(work.completed)"),
                ("Items failed in all (deadline, queue full)", "\(work.metrics.failedDeadline), \(work.metrics.failedQueueFull)"),
                ("Latency, all items", quantiles(allItems)),
                ("Latency, completed items", quantiles(latency)),
                ("App energy per day", Format.significant(result.energy.appJoulesPerDay) + " J"),
                ("App battery per day", Format.significant(result.energy.appBatteryPercentPerDay) + " % of capacity"),
            ]
            if work.metrics.coverSent + work.metrics.coverUnsent > 0 {
                workRows.insert(("Cover items sent / unsent in all", "\(work.metrics.coverSent) / \(work.metrics.coverUnsent)"), at: 2)
            }
            lines += ["", "Work"]
            for (label, value) in workRows {
                lines.append("  " + label.column(width + 2) + value)
            }
        }
        let app = result.app
        if !app.metrics.isEmpty {
            lines += ["", "The app's own metrics (signposts)"]
            for measure in app.measures {
                let value = measure.value(app).map { Format.significant($0) + (measure.unit.isEmpty ? "" : measure.unit.hasPrefix("/") ? measure.unit : " " + measure.unit) } ?? "n/a"
                lines.append("  " + measure.label.column(width + 2) + value)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A duration in seconds as minutes with one decimal.
    static func minutes(_ seconds: Double) -> String { fixed(seconds / 60, 1) + " min" }

    /// `value` with exactly `decimals` decimals, rounded half away from zero.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled) - whole * Int64(scale)
        var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }
}
