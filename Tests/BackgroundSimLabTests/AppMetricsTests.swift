@testable import BackgroundSim
@testable import BackgroundSimLab
import SimKernel
import Testing

/// The app's own metrics, from its signposts: the figures by hand, and every command's use of them.
@Suite("The app's own metrics")
struct AppMetricsTests {
    /// Queues an upload at each open by the user (the `upload` interval begins, once at a time)
    /// and sends it in a processing task on the charger, or also 20 s later in the foreground;
    /// marks its content updated in each refresh task, `refreshMinutes` after the last.
    final class Uploader: BackgroundPolicy {
        let inForeground: Bool
        let refreshMinutes: Int64
        init(inForeground: Bool, refreshMinutes: Int64 = 60) {
            self.inForeground = inForeground
            self.refreshMinutes = refreshMinutes
        }

        func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
            app.taskScheduler.register(forTaskWithIdentifier: "upload") { task in
                self.send(app)
                task.setTaskCompleted(success: true)
            }
            app.taskScheduler.register(forTaskWithIdentifier: "refresh") { task in
                app.signpost(.event, name: AppSignpost.contentUpdatedName)
                self.submitRefresh(app)
                task.setTaskCompleted(success: true)
            }
            if reason == .user { opened(app) }
            submitRefresh(app)
        }

        func willEnterForeground(_ app: AppContext) { opened(app) }

        func opened(_ app: AppContext) {
            guard !app.defaults.bool(forKey: "queued") else { return }
            app.defaults.set(true, forKey: "queued")
            app.signpost(.begin, name: "upload")
            try? app.taskScheduler.submit(.processing(identifier: "upload", requiresExternalPower: true, requiresNetworkConnectivity: true))
            if inForeground { _ = app.schedule(after: .seconds(20)) { self.send(app) } }
        }

        func send(_ app: AppContext) {
            guard app.defaults.bool(forKey: "queued") else { return }
            app.signpost(.end, name: "upload")
            app.defaults.set(false, forKey: "queued")
        }

        func submitRefresh(_ app: AppContext) {
            var request = TaskRequest.appRefresh(identifier: "refresh")
            request.earliestBeginDate = app.date + .minutes(refreshMinutes)
            try? app.taskScheduler.submit(request)
        }
    }

    static let declarations: [AppMetricDeclaration] = [
        .contentAge(marginMinutes: 30),
        .interval("upload", doneWithin: .hours(6), endsWithin: .hours(12), marginPoints: 5),
    ]

    static func scenario(inForeground: Bool, refreshMinutes: Int64 = 60) -> Scenario {
        var scenario = Presets.scenario(named: "device-only")!.running(inForeground ? "foreground" : "charger") {
            Uploader(inForeground: inForeground, refreshMinutes: refreshMinutes)
        }
        scenario.app.permittedIdentifiers = ["upload", "refresh"]
        scenario.app.metrics = declarations
        return scenario
    }

    @Test("by hand: content age from the last update (or the start) at each open; intervals paired by ID, in time, late, open")
    func byHand() {
        var metrics = AppMetrics(declarations: [.contentAge(), .interval("upload", doneWithin: .hours(6)), .event("sent")])
        let start = SimInstant.start
        func at(_ hours: Double, _ event: SystemLogEvent) { metrics.record(event, at: start + .hours(hours)) }
        at(0.5, .launch(reason: .user))                                   // age 0.5 h: from the start
        at(1, .signpost(AppSignpost(.event, name: "contentUpdated")))
        at(3, .willEnterForeground)                                        // age 2 h
        at(3, .launch(reason: .backgroundTask))                              // not an open
        at(0, .signpost(AppSignpost(.begin, name: "upload", id: 1)))
        at(5, .signpost(AppSignpost(.end, name: "upload", id: 1)))         // 5 h: in time
        at(1, .signpost(AppSignpost(.begin, name: "upload", id: 2)))
        at(8, .signpost(AppSignpost(.end, name: "upload", id: 2)))         // 7 h: late
        at(9, .signpost(AppSignpost(.end, name: "upload", id: 9)))         // no begin
        at(10, .signpost(AppSignpost(.begin, name: "upload", id: 3)))      // open 10 h at the end: late
        at(18, .signpost(AppSignpost(.begin, name: "upload", id: 4)))      // open 2 h at the end: unknown
        at(2, .signpost(AppSignpost(.event, name: "sent")))
        at(2, .signpost(AppSignpost(.event, name: "other")))
        metrics.finish(at: start + .hours(20))
        #expect(metrics.contentAgeAtOpen.count == 2)
        #expect(metrics.contentAgeAtOpen.minimum == 1_800 && metrics.contentAgeAtOpen.maximum == 7_200)
        let upload = metrics.intervals[1]
        #expect(upload.begun == 4 && upload.ended == 2 && upload.endedInTime == 1 && upload.unmatchedEnds == 1)
        #expect(upload.openAtEnd == 2 && upload.openAtEndLate == 1)
        #expect(upload.doneInTimePercent == 1.0 / 3 * 100)
        #expect(upload.durations.minimum == 5 * 3_600 && upload.durations.maximum == 7 * 3_600)
        #expect(metrics.counts == [1, 4, 1])
        #expect(metrics.signposts == 10)
        let report = AppReport(metrics: metrics, days: 2)
        #expect(report.perDay(2) == 0.5)
        #expect(AppMeasure.measures(for: metrics.declarations).map(\.key) == [
            "app.contentAgeAtOpenMinutes.p50", "app.contentAgeAtOpenMinutes.p90",
            "app.intervals.upload.doneInTimePercent", "app.intervals.upload.durationMinutes.p50",
            "app.intervals.upload.durationMinutes.p90", "app.intervals.upload.perDay", "app.events.sent.perDay",
        ])
    }

    @Test("every key a command compares is the path of a number in run's JSON")
    func keysAreJSONPaths() throws {
        let result = try SimulationRunner.run(scenario: Self.scenario(inForeground: true), seed: 1, days: 7)
        let json = ReportFormatter.json(result)
        for measure in result.app.measures {
            var value: JSONValue? = json
            for component in measure.key.split(separator: ".") { value = value?[String(component)] }
            guard case .number(let number)? = value else {
                Issue.record("\(measure.key) is not a number in the run's JSON: \(String(describing: value))")
                continue
            }
            let expected = try #require(measure.value(result.app))
            #expect(number == rounded(expected), "\(measure.key)")
        }
    }

    @Test("a declared interval metric gets a verdict at its declared margin in a comparison: uploads left to the charger are late")
    func comparisonVerdict() throws {
        let scenarios = [("foreground", Self.scenario(inForeground: true)), ("charger", Self.scenario(inForeground: false))]
        let comparison = try Comparison.run(scenarios, seeds: Array(1...12), days: 21, jobs: 2,
                                            metrics: ComparedMetric.standard(including: scenarios.map(\.1)))
        let row = try #require(comparison.rows.first { $0.metric.key == "app.intervals.upload.doneInTimePercent" })
        #expect(row.metric.margin == 5 && row.metric.unit == "%" && row.metric.better == .higher)
        #expect(row.summaries[0].mean > row.summaries[1].mean + 5, "\(row.summaries.map(\.mean))")
        #expect(row.tests[0].judgement == .worse, "\(row.tests[0].judgement)")
        let age = try #require(comparison.rows.first { $0.metric.key == "app.contentAgeAtOpenMinutes.p90" })
        #expect(age.metric.margin == 30 && age.metric.comparisonDefaultShare == nil)
    }

    @Test("a what-if holds the app's own metrics in every cell, the typical cell's equal to direct runs, in every format")
    func whatIf() throws {
        let grid = WhatIfGrid(dimensions: [WhatIfGrid.Dimension(name: "usage", levels: [
            .init(name: "typical", settings: []),
            .init(name: "weekly", settings: [("user.app.profile", .string("weekly"))]),
        ], typical: 0)])
        let scenario = Self.scenario(inForeground: false)
        let seeds: [UInt64] = [1, 2, 3]
        let study = try WhatIfStudy.run([("charger", scenario)], grid: grid, seeds: seeds, days: 7, jobs: 2)
        let keys = AppMeasure.measures(for: Self.declarations).map(\.key)
        #expect(study.metrics.map(\.key) == WhatIfStudy.standardMetrics.map(\.key) + keys)
        let direct = try Replications.run(scenario, seeds: seeds, days: 7, jobs: 1)
        for (index, metric) in study.metrics.enumerated() {
            #expect(study.summaries[0][0][index] == SampleSummary(direct.compactMap(metric.value)), "\(metric.key)")
        }
        let age = try #require(study.metrics.firstIndex { $0.key == "app.contentAgeAtOpenMinutes.p90" })
        #expect(study.summaries[0][0][age].count == 3 && study.summaries[0][1][age].count > 0)
        #expect(WhatIfFormatter.table(study).contains("content age at open, min, mean ± 95 % CI half-width; the app's own metric"))
        #expect(WhatIfFormatter.markdown(study).contains("content age at open (min), the app's own metric"))
        #expect(WhatIfFormatter.csv(study).contains(",app.contentAgeAtOpenMinutes.p90,min,"))
        guard case .array(let cells)? = WhatIfFormatter.json(study)["cells"] else { Issue.record("no cells in the JSON"); return }
        #expect(cells[0]["metrics"]?["app.contentAgeAtOpenMinutes.p90"] != nil)
        #expect(WhatIfReport.html(study).contains("id=\"grid-app-contentAgeAtOpenMinutes-p90\""))
    }

    @Test("without app.metrics a run has no app group and commands compare only the standard metrics")
    func undeclared() throws {
        var scenario = Self.scenario(inForeground: true)
        scenario.app.metrics = []
        let result = try SimulationRunner.run(scenario: scenario, seed: 1, days: 3)
        #expect(ReportFormatter.json(result)["app"] == nil)
        #expect(ComparedMetric.standard(including: [scenario]).count == ComparedMetric.standard.count)
    }

    @Test("bad declarations are refused with their paths")
    func validation() {
        var scenario = Self.scenario(inForeground: true)
        scenario.app.metrics = [.interval("up load"), .contentAge(), .contentAge(), AppMetricDeclaration(kind: .event),
                                AppMetricDeclaration(kind: .event, name: "x", doneWithinHours: 2)]
        let issues = scenario.validate().map(\.path)
        #expect(issues.contains("app.metrics[0].name"))
        #expect(issues.contains("app.metrics[2]"))
        #expect(issues.contains("app.metrics[3].name"))
        #expect(issues.contains("app.metrics[4].doneWithinHours"))
    }
}
