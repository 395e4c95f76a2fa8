/// The version of BackgroundSim and `bgsim`.
///
/// Sweep result lines carry it in their fingerprints, so results computed by another version are
/// recomputed rather than mixed with this one's.
public enum BackgroundSimVersion {
    /// The version, as `bgsim version` prints it.
    public static let string = "0.5.0"
}
