#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The standard output and error of the app's processes, captured: both go to a temporary file
/// that no name reaches, which ``take()`` empties, so that what the app's code writes — its
/// `print`s, a trap's message — reaches the run's log as `appOutput` lines, in order with its
/// calls, and never the tool's own output.
///
/// Made once in the fork server; every process it starts writes to the same file, one at a
/// time, and the server takes what a process that ended had not sent.
struct OutputCapture {
    private let descriptor: Int32

    /// Sends this OS process's standard output and error to a new temporary file, dropping what
    /// `stdout` held unwritten (the simulation's own output, copied in by the fork): standard
    /// output is then line-buffered, standard error unbuffered.
    init() {
        guard let file = tmpfile() else {
            fatalError("SimulatedBackgroundTasks: no temporary file for the app's output (errno \(errno))")
        }
        descriptor = fileno(file)
        let standardOutput = Self.standardOutput
        Self.discardUnwritten(standardOutput)
        _ = dup2(descriptor, 1)
        _ = dup2(descriptor, 2)
        setvbuf(standardOutput, nil, _IOLBF, 0)
    }

    /// What was written since the last call: the file's bytes, after which it is empty again.
    func take() -> [UInt8] {
        fflush(nil)
        let end = Int(lseek(descriptor, 0, SEEK_CUR))
        guard end > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: end)
        var read = 0
        while read < end {
            let result = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + read, end - read, off_t(read)) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { break }
            read += result
        }
        _ = ftruncate(descriptor, 0)
        _ = lseek(descriptor, 0, SEEK_SET)
        return Array(bytes[0..<read])
    }

    /// C's `stdout`, read through its symbol (Swift 6 refuses to read the C global directly).
    private static var standardOutput: UnsafeMutablePointer<FILE>? {
        dlsym(nil, "stdout")?.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self).pointee
    }

    /// Drops what `stream` holds unwritten, without writing it (glibc's `__fpurge`, looked up
    /// at run time: it is not in the C headers Swift imports); elsewhere, nothing.
    private static func discardUnwritten(_ stream: UnsafeMutablePointer<FILE>?) {
        typealias Purge = @convention(c) (UnsafeMutablePointer<FILE>?) -> Void
        guard let symbol = dlsym(nil, "__fpurge") else { return }
        unsafeBitCast(symbol, to: Purge.self)(stream)
    }
}
