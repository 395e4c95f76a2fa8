/// How this module was compiled, for tests whose size depends on it.
package enum BuildConfiguration {
    /// Whether the module was compiled optimised: a debug build checks every part of the
    /// model's invariants after every mutation (`SIMKERNEL_INTERNAL_CHECKS`, Package.swift) and
    /// runs about ten times slower.
    package static let isOptimized: Bool = {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }()
}
