// One import is enough for a test target: the policy API and scenarios (BackgroundSim), the
// checker and its invariants (BackgroundSimChecking), and simulated time (SimKernel's
// SimInstant, SimDuration). `docs/ARCHITECTURE.md` lists the public API.
@_exported import BackgroundSim
@_exported import BackgroundSimChecking
@_exported import SimKernel
