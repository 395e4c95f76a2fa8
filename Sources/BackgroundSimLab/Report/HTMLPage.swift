/// The shell of every HTML report: one self-contained, well-formed XHTML file with its
/// stylesheet inline, no scripts and no external assets.
package enum HTMLPage {
    /// Series colours: the Okabe–Ito palette, distinguishable with the common colour-vision
    /// deficiencies.
    package static let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]

    /// A grey for marks that are context rather than a series of their own.
    package static let neutral = "#8a8a8a"

    /// A light grey for marks that must stay behind the data, such as the intervals of a
    /// scatter of dots.
    package static let faint = "#c4c4c4"

    /// Near-black, for the one mark a chart is about (a tuning's chosen configuration), set apart
    /// from the series and from ``neutral`` context.
    package static let emphasis = "#1a1a1a"

    /// The colour of the `index`-th series.
    package static func color(_ index: Int) -> String { palette[index % palette.count] }

    /// The stylesheet. It holds none of `<`, `>`, `&` and `"`, so it reads the same to an XML
    /// parser, which decodes entities in `<style>`, and to an HTML parser, which does not.
    package static let stylesheet = """
        body { font-family: -apple-system, BlinkMacSystemFont, Segoe UI, Helvetica, Arial, sans-serif; color: #1d1d1f;
               max-width: 820px; margin: 2em auto; padding: 0 1em; line-height: 1.45; }
        h1 { font-size: 1.6em; margin-bottom: 0.2em; }
        h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
        p.setup, p.note, figcaption { color: #555; font-size: 0.92em; }
        table { border-collapse: collapse; font-size: 0.9em; margin: 0.8em 0; }
        th, td { padding: 0.3em 0.7em; border-bottom: 1px solid #e5e5e5; text-align: right; vertical-align: top; }
        th:first-child, td:first-child, th.text, td.text { text-align: left; }
        th { background: #f5f5f7; }
        code { font-family: SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; background: #f5f5f7; padding: 0.1em 0.3em; }
        pre { font-family: SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.85em; background: #f5f5f7; padding: 0.6em; white-space: pre-wrap; overflow-wrap: anywhere; }
        ul.verdicts li { margin: 0.25em 0; }
        .better { color: #1a7f37; } .worse { color: #c0392b; } .perhapsBetter { color: #5a9a68; } .perhapsWorse { color: #c0705f; } .equivalent { color: #1f5fa8; } .inconclusive, .notApplicable, .perhapsDifferent { color: #666; }
        .recommendation { font-weight: 600; padding: 0.6em 0.8em; border-left: 4px solid #1f5fa8; background: #f3f6fb; }
        .recommendation.tentative { border-left-color: #b7950b; }
        figure { margin: 1.2em 0; }
        svg { max-width: 100%; height: auto; }
        svg text { font-family: inherit; fill: #333; }
        svg .legend { font-size: 12px; } svg .tick { font-size: 11px; fill: #555; } svg .axis-title { font-size: 12px; }
        svg .grid { stroke: #e6e6e6; stroke-width: 1; } svg .axis { stroke: #888; stroke-width: 1; }
        """

    /// The complete document: `title` in the head and as the heading, then `body`.
    package static func document(title: String, body: Markup) -> String {
        var page = Markup()
        page.open("html", [("xmlns", "http://www.w3.org/1999/xhtml"), ("lang", "en")])
        page.newline()
        page.open("head")
        page.empty("meta", [("charset", "utf-8")])
        page.empty("meta", [("name", "viewport"), ("content", "width=device-width, initial-scale=1")])
        page.empty("meta", [("name", "generator"), ("content", "BackgroundSim")])
        page.element("title", [], title)
        page.element("style", [], stylesheet)
        page.close("head")
        page.newline()
        page.open("body")
        page.element("h1", [], title)
        page.newline()
        page.append(body)
        page.close("body")
        page.newline()
        page.close("html")
        return "<!DOCTYPE html>\n" + page.text + "\n"
    }

    /// A line naming the command that made the report, so a reader can run it again.
    package static func madeWith(_ command: String) -> Markup {
        var line = Markup()
        line.open("p", [("class", "setup")])
        line.element("span", [], "Made with ")
        line.element("code", [], command)
        line.close("p")
        return line
    }

    /// A figure: the chart's SVG under a heading, with a caption saying how to read it.
    package static func figure(id: String, heading: String, chart: Markup, caption: String) -> Markup {
        var figure = Markup()
        figure.element("h2", [("id", id)], heading)
        figure.open("figure", [("class", "chart"), ("id", id + "-chart")])
        figure.append(chart)
        figure.element("figcaption", [], caption)
        figure.close("figure")
        figure.newline()
        return figure
    }

    /// A table cell: its text, and optionally a class and an inline style.
    package struct Cell {
        var text: String
        var className: String?
        var style: String?

        package init(_ text: String, className: String? = nil, style: String? = nil) {
            self.text = text
            self.className = className
            self.style = style
        }
    }

    /// A table with a header row; a heading over a column of text (its first row's cell has the
    /// class `text`) is left-aligned like the column.
    package static func table(header: [String], rows: [[Cell]]) -> Markup {
        var table = Markup()
        table.open("table")
        table.open("thead")
        table.open("tr")
        // A heading aligns as its column does: left over text, right over numbers.
        let textColumns = Set(rows.first?.indices.filter { rows.first![$0].className?.split(separator: " ").contains("text") == true } ?? [])
        for (column, title) in header.enumerated() { table.element("th", textColumns.contains(column) ? [("class", "text")] : [], title) }
        table.close("tr")
        table.close("thead")
        table.open("tbody")
        for row in rows {
            table.open("tr")
            for cell in row {
                let attributes = [cell.className.map { ("class", $0) }, cell.style.map { ("style", $0) }].compactMap { $0 }
                table.element("td", attributes, cell.text)
            }
            table.close("tr")
            table.newline()
        }
        table.close("tbody")
        table.close("table")
        table.newline()
        return table
    }
}
