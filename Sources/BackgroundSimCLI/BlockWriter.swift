import CommandLineSupport
import Foundation

/// Text written to a file while a run goes, in blocks of 64 KiB, to a temporary file renamed
/// over the path by ``commit()``: memory holds one block however long the output, and the path
/// is never half-written. A write that fails does not stop the run; ``commit()`` reports it.
final class BlockWriter {
    private let file: Output.AtomicFileWriter
    private var buffer = ""
    private var failure: UsageError?
    /// The block size written at once.
    static let blockBytes = 1 << 16

    /// Opens the temporary file beside `path`.
    init(path: String) throws(UsageError) {
        file = try Output.AtomicFileWriter(path: path)
        buffer.reserveCapacity(Self.blockBytes + 1_024)
    }

    /// The path the output goes to.
    var path: String { file.path }

    /// Appends `text`.
    func append(_ text: String) {
        buffer += text
        if buffer.utf8.count >= Self.blockBytes { flush() }
    }

    /// Appends `bytes` after what is buffered.
    func append(_ bytes: Data) throws(UsageError) {
        flush()
        if let failure { throw failure }
        try file.write(bytes)
    }

    private func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, !buffer.isEmpty else { return }
        do { try file.write(buffer) } catch { failure = error }
    }

    /// Writes what is left and puts the file in place.
    func commit() throws(UsageError) {
        flush()
        if let failure { throw failure }
        try file.commit()
    }
}
