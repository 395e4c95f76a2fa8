import BackgroundSim
import BackgroundSimCalibration
import CommandLineSupport
import Foundation

/// Writes `bgsim run --field-log FILE` while the phones run: JSON lines, or CSV for a `.csv`
/// path, through a ``BlockWriter``, so memory stays flat however many phones and days, and the
/// path is never half-written.
///
/// Phones run in parallel, and the log is in seed order: each phone of a batch writes its
/// records to a spool file of its own beside the output (``Spool``), and the batch's spools are
/// copied into the log in seed order, then removed.
final class FieldLogWriter {
    private let output: BlockWriter
    private let csv: Bool

    /// Opens the log's temporary file beside `path` and writes the CSV header if it is one.
    init(path: String) throws(UsageError) {
        output = try BlockWriter(path: path)
        csv = path.hasSuffix(".csv")
        if csv { output.append(FieldLogFormat.csvHeader) }
    }

    /// Appends one record.
    func append(_ record: FieldLogRecord) {
        output.append(csv ? FieldLogFormat.csvLines([record]) : FieldLogFormat.jsonLines([record]))
    }

    /// A spool for one phone of a batch, named for `seed`.
    func spool(seed: UInt64) throws(UsageError) -> Spool {
        try Spool(log: output.path, seed: seed, csv: csv)
    }

    /// Appends a finished spool's records, then removes it.
    func append(_ spool: Spool) throws(UsageError) {
        try spool.copy { block throws(UsageError) in try output.append(block) }
    }

    /// Writes what is left and puts the log in place.
    func commit() throws(UsageError) {
        try output.commit()
    }

    /// One phone's records, written while it runs to a hidden file beside the log, to be copied
    /// into the log in seed order; removed when copied, or when dropped.
    final class Spool: @unchecked Sendable {
        private let path: String
        private var handle: FileHandle?
        private let csv: Bool
        private var buffer = ""
        private var failure: UsageError?

        fileprivate init(log: String, seed: UInt64, csv: Bool) throws(UsageError) {
            path = TemporaryFiles.path(for: log, suffix: "seed-\(seed).spool")
            TemporaryFiles.register(path)
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                TemporaryFiles.unregister(path)
                throw UsageError("cannot write \(log): cannot create \(path)")
            }
            self.handle = handle
            self.csv = csv
        }

        /// Appends one record (from the thread running the phone).
        func append(_ record: FieldLogRecord) {
            buffer += csv ? FieldLogFormat.csvLines([record]) : FieldLogFormat.jsonLines([record])
            if buffer.utf8.count >= BlockWriter.blockBytes { flush() }
        }

        private func flush() {
            defer { buffer.removeAll(keepingCapacity: true) }
            guard failure == nil, !buffer.isEmpty, let handle else { return }
            do { try handle.write(contentsOf: Data(buffer.utf8)) } catch {
                failure = UsageError("cannot write \(path): \(error.localizedDescription)")
            }
        }

        /// Hands the spool's bytes to `write` a mebibyte at a time, then removes the spool.
        fileprivate func copy(_ write: (Data) throws(UsageError) -> Void) throws(UsageError) {
            flush()
            if let failure { throw failure }
            try? handle?.close()
            handle = nil
            defer {
                try? FileManager.default.removeItem(atPath: path)
                TemporaryFiles.unregister(path)
            }
            guard let reader = FileHandle(forReadingAtPath: path) else { throw UsageError("cannot read back \(path)") }
            defer { try? reader.close() }
            while true {
                let block: Data?
                do { block = try reader.read(upToCount: 1 << 20) } catch {
                    throw UsageError("cannot read back \(path): \(error.localizedDescription)")
                }
                guard let block, !block.isEmpty else { return }
                try write(block)
            }
        }

        deinit {
            try? handle?.close()
            try? FileManager.default.removeItem(atPath: path)
            TemporaryFiles.unregister(path)
        }
    }
}
