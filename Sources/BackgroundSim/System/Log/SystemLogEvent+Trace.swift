extension SystemLogEvent {
    /// The event's fields in a trace line after `"event"`, with the names and values documented
    /// in `docs/OUTPUT.md` (durations in seconds, serials and assertion ids as numbers).
    package var traceFields: [(String, JSONValue)] {
        switch self {
        case .launch(let reason), .resume(let reason):
            [("reason", .string(reason.name))]
        case .terminate(let reason):
            [("reason", .string(reason.rawValue))]
        case .forceQuit(let cleared):
            [("pendingCleared", .bool(cleared))]
        case .phoneStarted(let forceQuitCleared, let pendingCleared):
            [("forceQuitFlagCleared", .bool(forceQuitCleared)), ("pendingCleared", .bool(pendingCleared))]
        case .kill(let reason):
            if case .taskNotCompleted(let identifier, let serial) = reason {
                [("reason", .string(reason.name)), ("identifier", .string(identifier)), ("serial", .number(Double(serial)))]
            } else {
                [("reason", .string(reason.name))]
            }
        case .crash(let reason, let identifier):
            [("reason", .string(reason.rawValue)), ("identifier", .string(identifier))]
        case .appOutput(let line):
            [("line", .string(line))]
        case .signpost(let signpost):
            [("type", .string(signpost.kind.rawValue)), ("category", .string(signpost.category)), ("name", .string(signpost.name)),
             ("id", .number(Double(signpost.id)))]
        case .submit(let identifier, let kind, let earliestBeginIn):
            [("identifier", .string(identifier)), ("kind", .string(kind.name)), ("earliestBeginInSeconds", .number(earliestBeginIn.seconds))]
        case .submitError(let identifier, let error):
            [("identifier", .string(identifier)), ("error", .string(error.name))]
        case .cancel(let identifier):
            [("identifier", .string(identifier))]
        case .launchDecision(let identifier, let kind, let decision):
            switch decision {
            case .launched:
                [("identifier", .string(identifier)), ("kind", .string(kind.name)), ("outcome", .string("launched"))]
            case .notLaunched(let denial):
                [("identifier", .string(identifier)), ("kind", .string(kind.name)), ("outcome", .string("notLaunched")),
                 ("reason", .string(denial.rawValue))]
            }
        case .launchDeferred(let identifier, let kind, let next, let reason):
            [("identifier", .string(identifier)), ("kind", .string(kind.name)),
             ("nextEvaluationInSeconds", next.map { .number($0.seconds) } ?? .null), ("reason", .string(reason.rawValue))]
        case .taskLaunch(let identifier, let kind, let serial, let allotment):
            [("identifier", .string(identifier)), ("kind", .string(kind.name)), ("serial", .number(Double(serial))),
             ("allotmentSeconds", .number(allotment.seconds))]
        case .taskExpire(let identifier, let serial, let cause):
            [("identifier", .string(identifier)), ("serial", .number(Double(serial))), ("cause", .string(cause.rawValue))]
        case .taskCompleted(let identifier, let serial, let success):
            [("identifier", .string(identifier)), ("serial", .number(Double(serial))), ("success", .bool(success))]
        case .duplicateCompletion(let identifier, let serial), .taskActionCancelled(let identifier, let serial):
            [("identifier", .string(identifier)), ("serial", .number(Double(serial)))]
        case .simulatedLaunch(let identifier, let outcome), .simulatedExpiration(let identifier, let outcome):
            [("identifier", .string(identifier)), ("outcome", .string(outcome.rawValue))]
        case .continuedProcessingQueued(let identifier):
            [("identifier", .string(identifier))]
        case .continuedProcessingQueueCancelled(let count):
            [("count", .number(Double(count)))]
        case .sessionTransfersCreated(let session, let count, let discretionary, let startsIn):
            [("session", .string(session)), ("count", .number(Double(count))), ("discretionary", .bool(discretionary)),
             ("startsInSeconds", .number(startsIn.seconds))]
        case .sessionTransfersCancelled(let session, let count):
            [("session", .string(session)), ("count", .number(Double(count)))]
        case .sessionRelaunchDeferred(let session, let reason):
            [("session", .string(session)), ("reason", .string(reason.rawValue))]
        case .sessionEventsPending(let session), .handleSessionEvents(let session), .sessionCompletionHandlerCalled(let session),
             .sessionCompletionHandlerNotCalled(let session):
            [("session", .string(session))]
        case .pushDiscarded(let reason):
            [("reason", .string(reason.rawValue))]
        case .pushDeferred(let reason):
            [("reason", .string(reason.rawValue))]
        case .pushDelivered(let inBackground):
            [("inBackground", .bool(inBackground))]
        case .beginBackgroundTask(let id, let name):
            [("id", .number(Double(id.rawValue))), ("name", .string(name))]
        case .endBackgroundTask(let id), .backgroundTaskExpiring(let id):
            [("id", .number(Double(id.rawValue)))]
        case .workStart(let limit):
            limit.map { [("limit", .number(Double($0)))] } ?? []
        case .willEnterForeground, .didEnterBackground, .willTerminate, .suspend, .forceQuitFlagCleared,
             .cancelAll, .workStop, .workQueueEmpty, .workLimitReached, .pushReceived, .pushCoalesced,
             .pushCompletionHandlerCalled:
            []
        }
    }
}

extension SystemLogEntry {
    /// The entry as one trace line's object: `t`, `ns`, `source` ("system"), `event` and the
    /// event's fields.
    package var traceObject: JSONValue {
        .object([
            ("t", .string(time.description)),
            ("ns", .number(Double(time.nanosecondsSinceStart))),
            ("source", .string("system")),
            ("event", .string(event.kind.rawValue)),
        ] + event.traceFields)
    }
}
