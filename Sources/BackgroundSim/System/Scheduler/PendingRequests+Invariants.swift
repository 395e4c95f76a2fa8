extension PendingRequests: InternallyChecked {
    /// Traps unless every kind is within its limit and no identifier is pending twice.
    func checkInvariants() {
        for kind in [TaskRequest.Kind.appRefresh, .processing] {
            precondition(count(of: kind) <= Self.limit(of: kind), "PendingRequests: \(count(of: kind)) \(kind.name) requests pending")
        }
        for (index, entry) in entries.enumerated() {
            precondition(!entries[..<index].contains { $0.request.identifier == entry.request.identifier },
                         "PendingRequests: \(entry.request.identifier) pending twice")
        }
    }
}
