import BackgroundSim
import SimKernel

// Invariants for the other doors — background URL sessions, continued processing, silent
// pushes: a violation is a bug in the app's code for them.

/// Every time the system launches the app for a background URL session's events, the app calls
/// the completion handler before its time for them ends (`handleEventsForBackgroundURLSession`).
public struct SessionCompletionHandlerCalled: Invariant {
    public let name = "sessionCompletionHandlerCalled"

    public init() {}

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        if case .sessionCompletionHandlerNotCalled(let session) = entry.event {
            run.fail("never called the completion handler of handleEventsForBackgroundURLSession for \(session) "
                + "before its time ended; call it once the session's events are handled")
        }
    }
}

/// Every continued-processing task the app is given is completed exactly once
/// (`setTaskCompleted`), whether it finishes, stalls or is cancelled by the user — unless the
/// process ends first for a reason that is not the task's.
public struct ContinuedProcessingCompletedOnce: Invariant {
    public let name = "continuedProcessingCompletedOnce"
    /// Identifiers of continued-processing tasks launched, so that their completions can be told apart.
    private var continuedIdentifiers: [String] = []
    /// Continued-processing tasks launched and not completed.
    private var open: [(identifier: String, serial: UInt32)] = []

    public init() {}

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        switch entry.event {
        case .taskLaunch(let identifier, .continuedProcessing, let serial, _):
            if !continuedIdentifiers.contains(identifier) { continuedIdentifiers.append(identifier) }
            open.append((identifier, serial))
        case .taskCompleted(_, let serial, _):
            open.removeAll { $0.serial == serial }
        case .duplicateCompletion(let identifier, let serial) where continuedIdentifiers.contains(identifier):
            run.fail("setTaskCompleted called again on the continued-processing task \(identifier) (task \(serial))")
        case .kill(.taskNotCompleted(let identifier, let serial)) where open.contains(where: { $0.serial == serial }):
            run.fail("never completed the continued-processing task \(identifier) after the system expired it: killed")
        case .terminate:
            open.removeAll()
        default:
            break
        }
    }
}

/// The app finishes a silent push's work within the time the push gives it: it calls the
/// completion handler before the 30 s end, or the system terminates it.
public struct PushWorkWithinBudget: Invariant {
    public let name = "pushWorkWithinBudget"

    public init() {}

    public mutating func observe(_ entry: SystemLogEntry, in run: inout RunContext) {
        if case .kill(.pushNotCompleted) = entry.event {
            run.fail("worked on a silent push past its 30 s without calling the completion handler: terminated; "
                + "stop the work and call the handler before the time ends")
        }
    }
}
