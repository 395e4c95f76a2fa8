import Synchronization

/// Work a library of this package asks to do as a tool starts, while the tool's process has one
/// thread: SimulatedBackgroundTasks forks there the broker from which every run's app processes
/// are started (a process forked while other threads run may copy a lock one of them holds, and
/// hang on it). `BackgroundSimCLI.main()` runs the hooks with the tool's registry before anything
/// else.
package enum ToolStart {
    private static let hooks = Mutex<[@Sendable (PolicyRegistry) -> Void]>([])
    private static let keys = Mutex<Set<String>>([])

    /// Adds `hook` under `key`, once: a second call with the same key does nothing.
    package static func add(key: String, _ hook: @escaping @Sendable (PolicyRegistry) -> Void) {
        guard keys.withLock({ $0.insert(key).inserted }) else { return }
        hooks.withLock { $0.append(hook) }
    }

    /// Runs every hook with `policies`, the tool's registry.
    package static func run(policies: PolicyRegistry) {
        for hook in hooks.withLock({ $0 }) { hook(policies) }
    }
}
