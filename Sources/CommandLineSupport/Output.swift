import Foundation

/// Writing results: to standard output, to standard error, or atomically to a file.
public enum Output {
    /// Writes `text` to standard error, followed by a newline.
    public static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes `text` to `path` atomically: to a temporary file beside it, then renamed over it,
    /// so a reader never sees a half-written file.
    ///
    /// - Throws: ``UsageError`` if `path` cannot take an output file (``checkDestination(_:for:)``)
    ///   or the write fails, with the path and the reason.
    public static func write(_ text: String, toFile path: String) throws(UsageError) {
        try checkDestination(path, for: "output")
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw UsageError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// A file written piece by piece, atomically: the pieces go to a temporary file beside
    /// `path`, renamed over it by ``commit()``; a writer dropped without a commit removes its
    /// temporary file, and `path` is never half-written. For output too large to hold in
    /// memory at once (a field log of thousands of phones).
    public final class AtomicFileWriter {
        public let path: String
        private let temporaryPath: String
        private var handle: FileHandle?

        /// Opens the temporary file beside `path`.
        ///
        /// - Throws: ``UsageError`` if `path` cannot take an output file or the file cannot be created.
        public init(path: String) throws(UsageError) {
            try checkDestination(path, for: "output")
            self.path = path
            TemporaryFiles.removeLeftovers(besides: path)
            temporaryPath = TemporaryFiles.path(for: path, suffix: "partial")
            TemporaryFiles.register(temporaryPath)
            guard FileManager.default.createFile(atPath: temporaryPath, contents: nil), let handle = FileHandle(forWritingAtPath: temporaryPath) else {
                TemporaryFiles.unregister(temporaryPath)
                throw UsageError("cannot write \(path): cannot create \(temporaryPath)")
            }
            self.handle = handle
        }

        /// Appends `text`.
        public func write(_ text: String) throws(UsageError) {
            try write(Data(text.utf8))
        }

        /// Appends `bytes`.
        public func write(_ bytes: Data) throws(UsageError) {
            guard let handle else { throw UsageError("cannot write \(path): already committed") }
            do { try handle.write(contentsOf: bytes) } catch {
                throw UsageError("cannot write \(path): \(error.localizedDescription)")
            }
        }

        /// Closes the file and renames it over `path`.
        public func commit() throws(UsageError) {
            guard let handle else { return }
            self.handle = nil
            defer { TemporaryFiles.unregister(temporaryPath) }
            do {
                try handle.close()
            } catch {
                try? FileManager.default.removeItem(atPath: temporaryPath)
                throw UsageError("cannot write \(path): \(error.localizedDescription)")
            }
            // rename(2) replaces an existing file atomically (FileManager's replaceItemAt failed
            // on Linux, and its fallback could lose the file it replaced).
            guard rename(temporaryPath, path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(atPath: temporaryPath)
                throw UsageError("cannot write \(path): \(reason)")
            }
        }

        deinit {
            if let handle {
                try? handle.close()
                try? FileManager.default.removeItem(atPath: temporaryPath)
                TemporaryFiles.unregister(temporaryPath)
            }
        }
    }

    /// Throws unless `path` can take an output file: its folder exists and is writable, and
    /// nothing is at `path` but a regular file. A directory, a device, a pipe or a symbolic link
    /// is refused, never replaced (the atomic write renames a new file over the path).
    ///
    /// - Parameter flag: How the path was given, for the message (`--output`).
    public static func checkDestination(_ path: String, for flag: String) throws(UsageError) {
        guard !path.isEmpty else { throw UsageError("\(flag) needs a file name; got an empty one") }
        let manager = FileManager.default
        // attributesOfItem does not follow a symbolic link: its type is the link's own.
        if let type = (try? manager.attributesOfItem(atPath: path))?[.type] as? FileAttributeType, type != .typeRegular {
            let what = switch type {
            case .typeDirectory: "a directory"
            case .typeSymbolicLink: "a symbolic link (give the file it points to)"
            case .typeCharacterSpecial, .typeBlockSpecial: "a device"
            case .typeSocket: "a socket"
            default: "not a regular file"
            }
            throw UsageError("\(flag) \(path): is \(what); expected a file to write")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("\(flag) \(path): the folder \(folder) does not exist (create it first)")
        }
        guard manager.isWritableFile(atPath: folder) else {
            throw UsageError("\(flag) \(path): cannot write in the folder \(folder)")
        }
    }

    /// Throws unless `path` is an existing directory one can write in.
    public static func checkDirectory(_ path: String, for flag: String) throws(UsageError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("\(flag) \(path): expected an existing directory")
        }
        guard FileManager.default.isWritableFile(atPath: path) else { throw UsageError("\(flag) \(path): cannot write in this directory") }
    }
}

extension Flags {
    /// Checks the output files given as any of `names` (``Output/checkDestination(_:for:)``):
    /// call before anything runs, so that a bad path costs nothing.
    public func checkOutputPaths(_ names: String...) throws(UsageError) {
        for name in names {
            if let path = string(name) { try Output.checkDestination(path, for: "--\(name)") }
        }
    }
}
