import BackgroundSim
import CommandLineSupport

/// `--simulate-launch ID@TIME` and `--simulate-expiration ID@TIME`: Xcode's background-task
/// debugger commands as flags, added to the scenario's `debugger` section.
///
/// `TIME` is the time since the simulation started: numbers with units, `d`, `h`, `m` or `s`
/// (`9.5h`, `570m`, `1d`, `20h10s`), or a bare number of hours. The identifier must be one the app
/// declares (`app.permittedIdentifiers`): on a device the debugger cannot launch a task the app
/// could not have registered, and a mistyped one would silently do nothing.
enum DebuggerFlags {
    static let launch = "simulate-launch", expiration = "simulate-expiration"

    /// The help text's lines for the two flags.
    static let help = """
          --simulate-launch ID@TIME
                             Xcode's _simulateLaunchForTaskWithIdentifier: for task ID at TIME since the start
                             (9.5h, 570m, 1d, 20h10s; a bare number is hours): the pending request for ID launches
                             at once, whatever iOS would decide (repeatable). docs/SCENARIOS.md, "Debugger commands".
          --simulate-expiration ID@TIME
                             Xcode's _simulateExpirationForTaskWithIdentifier: for task ID at TIME: its running
                             task expires (repeatable).
        """

    /// `scenario` with the commands the flags give appended to its `debugger` section.
    static func applying(_ flags: Flags, to scenario: Scenario) throws -> Scenario {
        var result = scenario
        for value in flags.strings(launch) {
            result.debugger.simulateLaunch.append(try command(value, flag: launch, scenario: scenario))
        }
        for value in flags.strings(expiration) {
            result.debugger.simulateExpiration.append(try command(value, flag: expiration, scenario: scenario))
        }
        for (flag, commands) in [(launch, result.debugger.simulateLaunch), (expiration, result.debugger.simulateExpiration)]
        where commands.count > DebuggerCommands.maximumEntries {
            throw UsageError("--\(flag): at most \(DebuggerCommands.maximumEntries) commands with the scenario's, got \(commands.count)")
        }
        return result
    }

    /// One `ID@TIME` value as a command.
    static func command(_ value: String, flag: String, scenario: Scenario) throws -> DebuggerCommands.Command {
        guard let at = value.lastIndex(of: "@") else {
            throw UsageError("--\(flag) expects IDENTIFIER@TIME (com.example.refresh@9.5h), got '\(value)'")
        }
        let identifier = String(value[..<at]), time = String(value[value.index(after: at)...])
        guard !identifier.isEmpty else { throw UsageError("--\(flag) '\(value)': the task identifier before '@' is empty") }
        let declared = scenario.app.permittedIdentifiers
        guard declared.contains(identifier) else {
            let hint = ScenarioLoader.closest(to: identifier, among: declared).map { "; did you mean '\($0)'?" }
                ?? (declared.isEmpty ? "; the scenario's app declares none" : "; declared: \(declared.joined(separator: ", "))")
            throw UsageError("--\(flag) '\(value)': '\(identifier)' is not one of the app's task identifiers (app.permittedIdentifiers)\(hint)")
        }
        guard let hours = hours(time), hours >= 0, hours <= 24_000_000 else {
            throw UsageError("--\(flag) '\(value)': expected a time since the start from 0 to 1000000d, as 9.5h, 570m, 1d or 20h10s, got '\(time)'")
        }
        return DebuggerCommands.Command(atHours: hours, identifier: identifier)
    }

    /// `text` as hours: one or more numbers each followed by a unit, `d`, `h`, `m` or `s`
    /// (`20h10s`, `1d9.5h`), or one bare number of hours.
    static func hours(_ text: String) -> Double? {
        let units: [Character: Double] = ["d": 24, "h": 1, "m": 1.0 / 60, "s": 1.0 / 3_600]
        func number(_ digits: Substring) -> Double? {
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return nil }
            return Double(digits).flatMap { $0.isFinite ? $0 : nil }
        }
        if let bare = number(Substring(text)) { return bare }
        var total = 0.0, digits = Substring()
        for character in text {
            if let unit = units[character] {
                guard let value = number(digits) else { return nil }
                total += value * unit
                digits = Substring()
            } else {
                digits.append(character)
            }
        }
        return digits.isEmpty && !text.isEmpty ? total : nil
    }
}
