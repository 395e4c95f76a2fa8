import Dispatch
import Foundation

/// The hidden files a command writes beside its output before renaming them over it (an atomic
/// file's `.NAME.PID.partial`, a field log's `.NAME.PID.seed-N.spool`): removed when the command
/// is interrupted (SIGINT, SIGTERM, SIGHUP), and, when a later command writes beside the same
/// output, removed if the process that made them is gone (killed with SIGKILL, or by a crash).
///
/// A temporary file is named `.` + the output's name + `.` + the writing process's identifier +
/// `.` + a suffix, which is how a later command knows whose it is.
public enum TemporaryFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// The temporary file's path for `output`, with `suffix` (`partial`, `seed-3.spool`), of
    /// this process.
    public static func path(for output: String, suffix: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(suffix)").path
    }

    /// Notes `path` as this process's, to be removed if the command is interrupted; the first
    /// call sets up the interrupt handlers.
    public static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        if sources.isEmpty { installInterruptHandlers() }
        paths.insert(path)
    }

    /// `path` is gone (renamed over its output, or removed).
    public static func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.remove(path)
    }

    /// Removes the temporary files beside `output` whose process no longer runs: what a run
    /// killed before it could clean up left.
    public static func removeLeftovers(besides output: String) {
        let url = URL(fileURLWithPath: output)
        let prefix = ".\(url.lastPathComponent)."
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && (name.hasSuffix(".partial") || name.hasSuffix(".spool")) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0.isNumber }), pid > 0,
                  pid != ProcessInfo.processInfo.processIdentifier, kill(pid, 0) == -1, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// On SIGINT, SIGTERM or SIGHUP: removes every registered file, then ends the process as the
    /// signal would have (or exits with 128 + its number). The handlers run on a dispatch queue,
    /// not in the signal's context.
    private static func installInterruptHandlers() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                lock.lock()
                for path in paths { unlink(path) }
                paths.removeAll()
                lock.unlock()
                // Ended by the signal, as without the handler: to the process, not this thread
                // (a dispatch thread blocks signals); if every thread blocks it (a mask inherited
                // from the parent), by the shell's convention, 128 + the signal's number.
                signal(signalNumber, SIG_DFL)
                kill(getpid(), signalNumber)
                usleep(200_000)
                _exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
