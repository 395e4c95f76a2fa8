extension PolicyParameters {
    /// The parameters' numbers with their defaults (``numberFields``), keyed by their path under
    /// `app.policy.parameters`.
    package static var numberRows: [NumberRow] {
        let defaults = Self()
        return numberFields.map {
            NumberRow(path: $0.key, unit: $0.unit, defaultValue: $0.value(in: defaults), valid: $0.valid,
                      plausible: $0.plausible, isWholeNumber: $0.isWholeNumber, isIOSModel: false)
        }
    }
}

extension PolicyRegistry {
    /// Every number of the registered policies' parameters, as the Markdown table
    /// docs/POLICIES.md prints (a test holds it to this): one row per number, the policies that
    /// share a parameters type named together, in the order they are registered.
    package var numberTable: String {
        var groups: [(names: [String], type: any PolicyParameters.Type)] = []
        for definition in definitions {
            if let index = groups.firstIndex(where: { ObjectIdentifier($0.type) == ObjectIdentifier(definition.parametersType) }) {
                groups[index].names.append(definition.name)
            } else {
                groups.append(([definition.name], definition.parametersType))
            }
        }
        let rows = groups.flatMap { group in
            group.type.numberRows.map { row in
                "| \(group.names.map { "`\($0)`" }.joined(separator: ", ")) | `\(row.path)` | \(row.unit) | "
                    + "\(NumberRow.format(row.defaultValue)) | \(NumberRow.format(row.valid)) | \(NumberRow.format(row.plausible)) |"
            }
        }
        return (["| policy | parameter | unit | default | valid | plausible |", "|---|---|---|---:|---|---|"] + rows)
            .joined(separator: "\n")
    }
}
