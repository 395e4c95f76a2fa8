// A file that imports this module instead of Apple's frameworks gets Foundation with it, and
// in place of Foundation's and the standard library's: this module's `UserDefaults` (per
// simulated device), `NotificationCenter` and `URLSession` (per simulated process), `ProcessInfo`
// (the scenario's launch environment and arguments),
// `URLSessionConfiguration` and the session task and delegate types, `Date()`,
// `Calendar.current` and `TimeZone.current` on the simulated clock (SimulatedDate.swift), and
// the random-number functions on the app's seeded stream (SimulatedRandom.swift): a module's own
// declarations shadow those it re-exports and those of the standard library. It gets
// SimulatedConcurrency's exact `Task.sleep(for:)` and `Task.sleep(nanoseconds:)` the same way.
// (A file that imports Foundation as well finds both and calls `UserDefaults.standard`
// ambiguous: import this module alone in the simulator's branch; docs/RUN-YOUR-OWN-CODE.md.)
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
@_exported import SimulatedConcurrency
