import BackgroundSim

/// The fingerprints that tie a sweep's result lines to what computed them.
///
/// A cell's fingerprint covers its resolved scenario (every parameter, defaults included, without
/// its name), the seeds, the days and the version of BackgroundSim; the sweep's covers the base
/// scenario as written, the axes, the seeds, the days and the version; both cover whether the
/// runs draw the model's uncertain numbers. Both are 64-bit FNV-1a
/// hashes of a canonical text, written as 16 hex digits. A resumed sweep recomputes a cell whose
/// line carries another fingerprint; `bgsim merge` refuses lines of another sweep.
package enum SweepFingerprint {
    /// The fingerprint of cell `index` of `definition`.
    package static func cell(_ index: Int, of definition: SweepDefinition, source: String) throws(ScenarioError) -> String {
        var scenario = try definition.scenario(ofCell: index, source: source)
        scenario.name = ""
        let document = JSONWriter.compact(ScenarioLoader.document(of: scenario))
        return hash([BackgroundSimVersion.string, document, seedsText(definition), String(definition.days)] + uncertaintyPart(definition))
    }

    /// A part only when the runs draw the model's uncertain numbers, so that other sweeps'
    /// fingerprints stay as they were.
    private static func uncertaintyPart(_ definition: SweepDefinition) -> [String] {
        definition.modelUncertainty == nil ? [] : ["model-uncertainty"]
    }

    /// The fingerprint of the whole sweep.
    package static func sweep(_ definition: SweepDefinition) -> String {
        let axes = definition.axes.map { "\($0.path)=\(JSONWriter.compact(.array($0.values)))" }.joined(separator: ";")
        return hash([BackgroundSimVersion.string, JSONWriter.compact(definition.base), axes, seedsText(definition), String(definition.days)]
                    + uncertaintyPart(definition))
    }

    private static func seedsText(_ definition: SweepDefinition) -> String {
        "\(definition.seeds.first ?? 0)+\(definition.seeds.count)"
    }

    /// FNV-1a over the parts' UTF-8 bytes, each part followed by a zero byte.
    static func hash(_ parts: [String]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 {
                value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            value = (value ^ 0) &* 0x0000_0100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
