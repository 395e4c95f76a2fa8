extension HeuristicLaunchModel: InternallyChecked {
    /// Traps unless the learnt use is 24 hours' counts, none negative or infinite, the total
    /// likewise; the bucket holds a number; the generosity is a share; and the last use is no
    /// later than the counts were last decayed (each use decays them to its instant).
    func checkInvariants() {
        precondition(usageByHour.count == 24, "HeuristicLaunchModel: \(usageByHour.count) hours of learnt use")
        precondition(usageByHour.allSatisfy { $0 >= 0 && $0.isFinite }, "HeuristicLaunchModel: an hour's learnt use is negative or infinite")
        precondition(decayedSessions >= 0 && decayedSessions.isFinite, "HeuristicLaunchModel: \(decayedSessions) sessions learnt")
        precondition(!refreshTokens.isNaN, "HeuristicLaunchModel: the refresh bucket holds NaN")
        precondition(generosity > 0 && generosity <= 1, "HeuristicLaunchModel: a generosity of \(generosity)")
        precondition(lastForeground.map { $0 <= usageDecayedAt } ?? true,
                     "HeuristicLaunchModel: the last use is after the counts were last decayed")
    }
}
