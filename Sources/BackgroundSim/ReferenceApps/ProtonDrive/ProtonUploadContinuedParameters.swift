/// The parameters of ``ProtonUploadContinued``: Proton Drive's photo uploads in an iOS 26
/// continued-processing task, a door the app does not use (ProtonDriveApps/ios-drive at
/// `97efc13`) [Inf].
public struct ProtonUploadContinuedParameters: PolicyParameters {
    /// The defaults.
    public init() {}

    /// The wildcard identifier the app permits and registers; each request's identifier adds a
    /// number to its prefix. Default "ch.protonmail.drive.upload.*" [Inf].
    public var wildcardIdentifier = "ch.protonmail.drive.upload.*"

    /// The request's submission strategy. Default `queue` (Apple's default) [A].
    public var strategy = ContinuedProcessingTaskRequest.SubmissionStrategy.queue

    public func validate(_ v: inout ParameterValidator) {
        v.require(wildcardIdentifier.hasSuffix(".*") && wildcardIdentifier.count > 2, "wildcardIdentifier",
                  "expected an identifier ending in \".*\"")
    }
}

extension ContinuedProcessingTaskRequest.SubmissionStrategy: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        switch name {
        case "queue": self = .queue
        case "fail": self = .fail
        default:
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected one of \"queue\", \"fail\", got \"\(name)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self == .queue ? "queue" : "fail")
    }
}
