import ExperimentCore

extension NewExperimentForm {
    /// A row of the form panel.
    private enum Row {
        case blank, footer, bar, legend
        case field(Field)
        case hint(String)
        case problem(String)
    }

    /// Where the fields start, after their labels.
    private static let fieldColumn = 14

    /// Draws the form with a live bar of the typed weights.
    static func render(_ form: NewExperimentForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let boxWidth = min(80, area.width)
        let layout = rows(form, width: boxWidth - 4)
        let rect = Box.centered(width: boxWidth, height: layout.count + 2, in: area)
        Box.render(rect, title: "New experiment (saved as a draft)", into: &buffer)
        let content = Box.content(of: rect)
        for (offset, row) in layout.fitting(content.height).enumerated() {
            draw(row, form, x: content.x, y: content.y + offset, width: content.width, into: &buffer)
        }
    }

    /// Every row in order; spacing, hints and the preview give way on short screens.
    private static func rows(_ form: NewExperimentForm, width: Int) -> RowLayout<Row> {
        var layout = RowLayout<Row>()
        layout.add(.blank, keep: .spacing)
        layout.add(.field(.key))
        layout.add(.hint("a-z, 0-9, _ . - · also the salt, so it cannot change later"), keep: .detail)
        layout.add(.blank, keep: .spacing)
        layout.add(.field(.type))
        layout.add(.blank, keep: .spacing)
        layout.add(.field(.variants))
        layout.add(.hint("e.g. control=50,treatment=50 · the first is the control"), keep: .detail)
        layout.add(.blank, keep: .spacing)
        layout.add(.field(.description))
        layout.add(.hint("optional: what the experiment tests"), keep: .detail)
        if case .success = parseVariants(form.variants.text, key: "") {
            layout.add(.blank, keep: .spacing)
            layout.add([.bar, .legend], keep: .detail)
        }
        if let problem = form.problem {
            layout.add(.blank, keep: .spacing)
            layout.add(WordWrap.lines("✗ " + SafeText.escaped(problem), width: width, maxLines: 3).map(Row.problem))
        }
        layout.add(.blank, keep: .spacing)
        layout.add(.footer, keep: .detail)
        return layout
    }

    private static func draw(_ row: Row, _ form: NewExperimentForm, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let fieldX = x + fieldColumn, fieldWidth = width - fieldColumn
        switch row {
        case .blank:
            break
        case .field(let field):
            let focused = form.focus == field
            if focused { buffer.write("▶", x: x, y: y, style: Palette.key) }
            buffer.write(label(field), x: x + 2, y: y, style: focused ? Palette.key : .plain)
            switch field {
            case .key: TextField.render(form.key, label: "", focused: focused, x: fieldX - 1, y: y, width: fieldWidth + 1, into: &buffer)
            case .variants: TextField.render(form.variants, label: "", focused: focused, x: fieldX - 1, y: y, width: fieldWidth + 1, into: &buffer)
            case .description: TextField.render(form.description, label: "", focused: focused, x: fieldX - 1, y: y, width: fieldWidth + 1, into: &buffer)
            case .type:
                let choice = "◀ \(form.type.rawValue) ▶"
                let used = buffer.write(choice, x: fieldX, y: y, maxWidth: fieldWidth, style: focused ? Palette.selected : .underline)
                buffer.write("buckets by \(form.type.rawValue) id · ←/→ switch", x: fieldX + used + 2, y: y,
                             maxWidth: fieldWidth - used - 2, style: Palette.dim)
            }
        case .hint(let text):
            buffer.write(text, x: fieldX, y: y, maxWidth: fieldWidth, style: Palette.dim)
        case .bar, .legend:
            guard case .success(let variants) = parseVariants(form.variants.text, key: "") else { return }
            guard case .legend = row else {
                return WeightBar.render(variants.map(\.weight), x: x, y: y, width: width, into: &buffer)
            }
            var column = x
            for (text, style) in WeightBar.legend(variants) where column < x + width {
                column += buffer.write(text, x: column, y: y, maxWidth: x + width - column, style: style) + 2
            }
        case .problem(let line):
            buffer.write(line, x: x, y: y, maxWidth: width, style: Palette.error)
        case .footer:
            buffer.write("Enter creates the draft; nobody is served until you start it (s)", x: x, y: y, maxWidth: width, style: Palette.dim)
        }
    }

    private static func label(_ field: Field) -> String {
        switch field {
        case .key: "key"
        case .type: "type"
        case .variants: "variants"
        case .description: "description"
        }
    }
}
