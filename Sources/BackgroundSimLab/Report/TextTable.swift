import BackgroundSim

/// A plain-text table whose columns are as wide as their widest cell, with two spaces between
/// columns: nothing is cut and no two columns touch, whatever the names and numbers.
package enum TextTable {
    /// The lines of a table: `header` then `rows`, each row as many cells as the header (missing
    /// cells are empty). The last column is not padded.
    package static func render(header: [String], rows: [[String]]) -> [String] {
        let columns = header.count
        let widths = (0..<columns).map { column in
            ([header] + rows).map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for column in 0..<columns {
                let cell = column < cells.count ? cells[column] : ""
                text += column == columns - 1 ? cell : cell.column(widths[column] + 2)
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        return [line(header)] + rows.map(line)
    }
}
