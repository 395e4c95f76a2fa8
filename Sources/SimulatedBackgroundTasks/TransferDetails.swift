import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the app's side keeps of a background session's task in the system's transfer daemon,
/// so that a later process can rebuild the task object, as iOS hands it to a relaunched app:
/// its request (URL, method, headers and body), whether it downloads, a download's answer, and
/// its description. The daemon holds it as bytes (``BackgroundTransfer/details``).
struct TransferDetails {
    let request: URLRequest
    let isDownload: Bool
    /// What a download downloads.
    let body: Data
    let taskDescription: String?

    init(request: URLRequest, isDownload: Bool, body: Data, taskDescription: String?) {
        self.request = request
        self.isDownload = isDownload
        self.body = body
        self.taskDescription = taskDescription
    }

    /// The details as bytes.
    var encoded: [UInt8] {
        var writer = WireWriter()
        writer.write(request.url?.absoluteString) { $0.write($1) }
        writer.write(request.httpMethod) { $0.write($1) }
        writer.write((request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }) { writer, header in
            writer.write(header.key)
            writer.write(header.value)
        }
        writer.write(request.httpBody.map { Array($0) }) { $0.write($1) }
        writer.write(isDownload)
        writer.write(Array(body))
        writer.write(taskDescription) { $0.write($1) }
        return writer.bytes
    }

    /// The details `encoded` gave.
    init(_ bytes: [UInt8]) {
        var reader = WireReader(bytes)
        let url = reader.readOptional { $0.readString() }.flatMap(URL.init(string:)) ?? URL(fileURLWithPath: "/")
        var request = URLRequest(url: url)
        request.httpMethod = reader.readOptional { $0.readString() }
        for (name, value) in reader.readArray({ ($0.readString(), $0.readString()) }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = reader.readOptional { Data($0.readBytes()) }
        self.request = request
        isDownload = reader.readBool()
        body = Data(reader.readBytes())
        taskDescription = reader.readOptional { $0.readString() }
    }
}
