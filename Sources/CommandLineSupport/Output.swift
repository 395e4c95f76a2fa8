import Foundation

/// Writing results: to standard output, to standard error, or atomically to a file.
public enum Output {
    /// Writes `text` to standard error, followed by a newline.
    public static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes `text` to `path` atomically: to a temporary file beside it, then renamed over it,
    /// so a reader never sees a half-written file.
    public static func write(_ text: String, toFile path: String) throws {
        let url = URL(fileURLWithPath: path)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
