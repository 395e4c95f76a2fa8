extension SessionTransfers: InternallyChecked {
    /// Traps unless every transfer names a known session, each session's in-flight count is its
    /// transfers', counts are not negative, and a transfer progresses only if one is in hand.
    func checkInvariants() {
        precondition(unheard.count == sessions.count && inFlight.count == sessions.count, "SessionTransfers: counts per session")
        for session in sessions.indices {
            let flying = transfers.count { Int($0.session) == session }
            precondition(inFlight[session] == flying, "SessionTransfers: session \(session) counts \(inFlight[session]) in flight, has \(flying)")
            precondition(unheard[session] >= 0, "SessionTransfers: session \(session) has a negative unheard count")
        }
        precondition(transfers.allSatisfy { Int($0.session) < sessions.count }, "SessionTransfers: a transfer of an unknown session")
        precondition(activeSince == nil || current != nil, "SessionTransfers: progressing with no transfer in hand")
        precondition(current.map { $0 < transfers.count } ?? true, "SessionTransfers: the transfer in hand is past the end")
    }
}
