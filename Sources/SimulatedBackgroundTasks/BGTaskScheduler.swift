import BackgroundSim
import Dispatch
import Foundation
import SimKernel

/// `BGTaskScheduler`: registers the app's task handlers and submits its requests, on the
/// simulated device whose code is running.
///
/// `BGTaskScheduler.shared` is one object, as on iOS; each call reaches the simulated process
/// whose code makes it (many simulated phones may run at once, each on its own thread). A call
/// from outside the app's simulated code stops with a message.
open class BGTaskScheduler: @unchecked Sendable {
    /// The scheduler.
    public static let shared = BGTaskScheduler()

    init() {}

    /// `BGTaskScheduler.Error`: why a request was refused, with Apple's codes.
    ///
    ///     do { try BGTaskScheduler.shared.submit(request) }
    ///     catch BGTaskScheduler.Error.notPermitted { … }
    ///     catch let error as BGTaskScheduler.Error where error.code == .tooManyPendingTaskRequests { … }
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// Apple's codes (`BGTaskSchedulerErrorDomain`).
        public enum Code: Int, Sendable, Hashable {
            /// Background App Refresh is off, or the app cannot use background tasks.
            case unavailable = 1
            /// Too many requests of the kind are pending.
            case tooManyPendingTaskRequests = 2
            /// The identifier is not in the app's permitted identifiers, or its background mode is missing.
            case notPermitted = 3
            /// A continued-processing request that had to start at once could not.
            case immediateRunIneligible = 4

            /// `catch BGTaskScheduler.Error.notPermitted`.
            public static func ~= (code: Code, error: any Swift.Error) -> Bool {
                (error as? BGTaskScheduler.Error)?.code == code
            }
        }

        public let code: Code

        public init(_ code: Code) {
            self.code = code
        }

        public static var unavailable: Code { .unavailable }
        public static var tooManyPendingTaskRequests: Code { .tooManyPendingTaskRequests }
        public static var notPermitted: Code { .notPermitted }
        public static var immediateRunIneligible: Code { .immediateRunIneligible }

        public var description: String { "BGTaskScheduler.Error(\(code))" }
    }

    /// Registers `launchHandler` for the tasks of `identifier`. Allowed only while the app is
    /// finishing launching (a later registration crashes the app, as on iOS); returns false for
    /// an identifier the app does not permit. The handler runs on the simulation's thread, whatever
    /// `queue` is.
    @discardableResult
    open func register(forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
                       launchHandler: @escaping (BGTask) -> Void) -> Bool {
        let process = SimulatedProcess.required(by: "BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)")
        return process.register(taskIdentifier: identifier) { task in launchHandler(BGTask.make(task)) }
    }

    /// Submits `taskRequest`, replacing a pending request with the same identifier.
    ///
    /// - Throws: ``Error`` with Apple's code.
    open func submit(_ taskRequest: BGTaskRequest) throws {
        let process = SimulatedProcess.required(by: "BGTaskScheduler.submit(_:)")
        if let continued = taskRequest as? BGContinuedProcessingTaskRequest {
            try submit(continued, in: process)
            return
        }
        var request: TaskRequest
        switch taskRequest {
        case let processing as BGProcessingTaskRequest:
            request = .processing(identifier: processing.identifier, requiresExternalPower: processing.requiresExternalPower,
                                  requiresNetworkConnectivity: processing.requiresNetworkConnectivity)
        default:
            request = .appRefresh(identifier: taskRequest.identifier)
        }
        if let earliest = taskRequest.earliestBeginDate {
            request.earliestBeginDate = process.state.clockReading + process.delay(until: earliest)
        }
        try Self.throwRefusal(process.call(.submit(request)))
    }

    /// Throws the error for a refused submission.
    private static func throwRefusal(_ result: SystemCallResult) throws {
        if case .refusal(let code?) = result { throw Error(Error.Code(rawValue: code.rawValue) ?? .unavailable) }
    }

    /// Submits a continued-processing request: it starts once the calling code returns, or
    /// waits, or is refused, as its strategy says. Its `earliestBeginDate` is ignored.
    private func submit(_ taskRequest: BGContinuedProcessingTaskRequest, in process: SimulatedProcess) throws {
        // The simulated phone offers no resources beyond the default. Apple asks apps to check
        // `supportedResources` first and does not say what a request for more gets; we refuse
        // it as unavailable [Inf].
        guard Self.supportedResources.isSuperset(of: taskRequest.requiredResources) else { throw Error(.unavailable) }
        let request = ContinuedProcessingTaskRequest(identifier: taskRequest.identifier,
                                                     strategy: taskRequest.strategy == .fail ? .fail : .queue)
        try Self.throwRefusal(process.call(.submitContinued(request)))
    }

    /// The resources continued-processing tasks may require on this phone: none beyond the
    /// default (the simulation does not model background GPU work).
    open class var supportedResources: BGContinuedProcessingTaskRequest.Resources { .default }

    /// Cancels the pending request for `identifier`, if any.
    open func cancel(taskRequestWithIdentifier identifier: String) {
        SimulatedProcess.required(by: "BGTaskScheduler.cancel(taskRequestWithIdentifier:)").call(.cancelRequest(identifier: identifier))
    }

    /// Cancels every pending request.
    open func cancelAllTaskRequests() {
        SimulatedProcess.required(by: "BGTaskScheduler.cancelAllTaskRequests()").call(.cancelAllRequests)
    }

    /// Hands the pending requests to `completionHandler` (at once, on the simulation's thread).
    open func getPendingTaskRequests(completionHandler: @escaping ([BGTaskRequest]) -> Void) {
        completionHandler(pending(SimulatedProcess.required(by: "BGTaskScheduler.getPendingTaskRequests(completionHandler:)")))
    }

    /// The pending requests.
    open func pendingTaskRequests() async -> [BGTaskRequest] {
        pending(SimulatedProcess.required(by: "BGTaskScheduler.pendingTaskRequests()"))
    }

    private func pending(_ process: SimulatedProcess) -> [BGTaskRequest] {
        guard case .requests(let requests) = process.call(.pendingRequests) else { return [] }
        return requests.map { request in
            let copy: BGTaskRequest = switch request.kind {
            case .processing:
                { let processing = BGProcessingTaskRequest(identifier: request.identifier)
                  processing.requiresExternalPower = request.requiresExternalPower
                  processing.requiresNetworkConnectivity = request.requiresNetworkConnectivity
                  return processing }()
            default: BGAppRefreshTaskRequest(identifier: request.identifier)
            }
            copy.earliestBeginDate = request.earliestBeginDate.map { process.date(of: $0) }
            return copy
        }
    }
}
