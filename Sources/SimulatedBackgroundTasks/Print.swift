// In a file that imports this module, these shadow the standard library's: what the app's
// code prints is a line of the simulated device's log (the run's `appOutput` events, in order
// with everything else the app does), never the tool's own output. Outside the simulated app's
// code they print as the standard library's do.

/// `print`: in the app's code, to the simulated device's log.
public func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    write(items.map { String(describing: $0) }.joined(separator: separator) + terminator)
}

/// `debugPrint`: in the app's code, to the simulated device's log.
public func debugPrint(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    write(items.map { String(reflecting: $0) }.joined(separator: separator) + terminator)
}

/// Writes `text` to the device's log from the app's code, or to standard output elsewhere.
private func write(_ text: String) {
    guard let process = SimulatedProcess.current else {
        Swift.print(text, terminator: "")
        return
    }
    process.services.write(output: text)
}
