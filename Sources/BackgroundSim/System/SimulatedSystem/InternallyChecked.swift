/// A part of the iOS model that can verify its own structure: the checks in its
/// `+Invariants.swift`, run after every mutation when the package is built with
/// `SIMKERNEL_INTERNAL_CHECKS` (see `Package.swift`), and compiled away otherwise.
protocol InternallyChecked {
    /// Traps, with a message naming the part and what is wrong, unless its structure is
    /// consistent.
    func checkInvariants()
}

extension InternallyChecked {
    /// Runs ``checkInvariants()`` when the package is built with `SIMKERNEL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariantsIfEnabled() {
        #if SIMKERNEL_INTERNAL_CHECKS
        checkInvariants()
        #endif
    }
}
