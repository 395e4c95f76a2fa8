// A file that imports this module instead of Apple's frameworks gets Foundation with it, and
// this module's `UserDefaults` and `NotificationCenter` — per simulated device — in place of
// Foundation's: a module's own declarations shadow those it re-exports. It gets
// SimulatedConcurrency's exact `Task.sleep(for:)` and `Task.sleep(nanoseconds:)` the same way. (A file that imports
// Foundation as well finds both and calls `UserDefaults.standard` ambiguous: import this module
// alone in the simulator's branch; docs/RUN-YOUR-OWN-CODE.md.)
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
@_exported import SimulatedConcurrency
