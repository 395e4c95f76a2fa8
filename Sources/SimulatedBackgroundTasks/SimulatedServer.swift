import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SimKernel

/// What the servers the app's code talks to answer: the body of the response to each request,
/// made when the request starts. Its bytes are downloaded through the simulated phone's network
/// after the request's body is uploaded (``URLSession``). The default answers every request
/// with an empty body.
///
///     // A chain that grows a block (1 kB) every 75 s: the tip's height, or the blocks asked for.
///     let lightwalletd = SimulatedServer { request, sinceStart in
///         let tip = Int(sinceStart.nanoseconds / 75_000_000_000)
///         if request.url?.path == "/latest" { return Data(String(tip).utf8) }
///         return Data(count: 1_000 * blockCount(request))
///     }
public struct SimulatedServer: Sendable {
    /// The response body to `request`, made `sinceStart` after the simulation began.
    public var respond: @Sendable (_ request: URLRequest, _ sinceStart: SimDuration) -> Data

    /// A server that answers with `respond`.
    public init(respond: @escaping @Sendable (_ request: URLRequest, _ sinceStart: SimDuration) -> Data) {
        self.respond = respond
    }

    /// Empty responses.
    public static let empty = SimulatedServer { _, _ in Data() }
}
