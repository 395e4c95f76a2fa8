import SimKernel
import Testing

@Suite("Run loop")
struct RunLoopTests {
    @Test("run(until:) fires events up to and including the deadline, then stops the clock there")
    func runUntilDeadline() throws {
        var simulation = Simulation<Probe>()
        for second in [1, 2, 3, 4] {
            simulation.schedule(.mark(second), at: .start + .seconds(second))
        }
        var recorder = Recorder()
        try simulation.run(until: .start + .seconds(3), handler: &recorder)
        #expect(recorder.fired == [1, 2, 3])
        #expect(simulation.now == .start + .seconds(3))
        try simulation.run(for: .milliseconds(500), handler: &recorder)
        #expect(simulation.now == .start + .milliseconds(3_500))
        #expect(recorder.fired == [1, 2, 3])
        try simulation.run(until: .distantFuture, handler: &recorder)
        #expect(recorder.fired == [1, 2, 3, 4])
        #expect(simulation.now == .start + .seconds(4), "running to the distant future stops at the last event")
        #expect(simulation.firedEventCount == 4)
    }

    @Test("a zero-delay loop stops at the per-instant limit with a readable message")
    func zeroDelayLoop() {
        var simulation = Simulation<Probe>(limits: RunLimits(maxEventsPerInstant: 1_000))
        simulation.schedule(.loop(delay: 0), at: .start + .seconds(5))
        var recorder = Recorder()
        #expect {
            try simulation.run(until: .start + .days(1), handler: &recorder)
        } throws: { error in
            guard let error = error as? SimulationError else { return false }
            let message = String(describing: error)
            return error.isInstantLimit
                && message.contains("0d 00:00:05.000")
                && message.contains("'loop'")
                && message.contains("zero delay")
        }
        #expect(simulation.firedEventCount == 1_001)
        #expect(simulation.now == .start + .seconds(5))
    }

    @Test("a run stops at the total event limit")
    func totalEventLimit() {
        var simulation = Simulation<Probe>(limits: RunLimits(maxEvents: 500))
        simulation.schedule(.loop(delay: 1), at: .start)
        var recorder = Recorder()
        #expect {
            try simulation.run(until: .distantFuture, handler: &recorder)
        } throws: { error in
            (error as? SimulationError)?.isEventLimit == true
                && String(describing: error).contains("more than 500 events")
        }
        #expect(simulation.firedEventCount == 501)
    }

    @Test("an event that advances the clock resets the per-instant count")
    func perInstantCountResets() throws {
        var simulation = Simulation<Probe>(limits: RunLimits(maxEventsPerInstant: 3))
        for label in 0..<3 {
            simulation.schedule(.mark(label), at: .start + .seconds(1))
            simulation.schedule(.mark(label + 10), at: .start + .seconds(2))
        }
        var recorder = Recorder()
        try simulation.run(until: .distantFuture, handler: &recorder)
        #expect(recorder.fired.count == 6)
    }

    @Test("scheduling in the past is a programmer error that traps")
    func schedulingInThePastTraps() async {
        await #expect(processExitsWith: .failure) {
            var simulation = Simulation<Probe>()
            var recorder = Recorder()
            try? simulation.run(until: .start + .seconds(10), handler: &recorder)
            simulation.schedule(.mark(1), at: .start + .seconds(5))
        }
    }

    @Test("a negative delay is a programmer error that traps")
    func negativeDelayTraps() async {
        await #expect(processExitsWith: .failure) {
            var simulation = Simulation<Probe>()
            simulation.schedule(.mark(1), after: .seconds(-1))
        }
    }
}

@Suite("Stopping a run")
struct StopTests {
    @Test("stop() ends the run after the current event and keeps the rest pending")
    func stopEndsRun() throws {
        var simulation = Simulation<Probe>()
        for second in 1...5 {
            simulation.schedule(.mark(second), at: .start + .seconds(second))
        }
        var recorder = Recorder()
        recorder.onEvent = { event, simulation in
            if event == .mark(2) { simulation.stop() }
        }
        try simulation.run(until: .start + .days(1), handler: &recorder)
        #expect(recorder.fired == [1, 2])
        #expect(simulation.now == .start + .seconds(2), "the clock stays at the stopping event")
        #expect(simulation.pendingEventCount == 3)
        recorder.onEvent = nil
        try simulation.run(until: .start + .days(1), handler: &recorder)
        #expect(recorder.fired == [1, 2, 3, 4, 5], "a stop applies to one run only")
        #expect(simulation.now == .start + .days(1))
    }
}
