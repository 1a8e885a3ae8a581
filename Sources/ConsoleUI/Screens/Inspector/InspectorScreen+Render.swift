import ExperimentCore

extension InspectorScreen {
    /// Rows the bucket strip section takes at the bottom.
    static let stripHeight = 6

    /// Draws the id fields, the decision table (the same decisions as `abconsole inspect`), and the
    /// bucket strip of the selected experiment.
    static func render(_ value: InspectorScreen, _ app: AppState, rows cache: RowCache, into buffer: inout ScreenBuffer, area: Rect) {
        let x = area.x + 1, width = area.width - 2
        let half = (width - 3) / 2
        TextField.render(value.userID, label: "user id", focused: value.focus == .user, x: x, y: area.y, width: half, into: &buffer)
        TextField.render(value.deviceID, label: "device id", focused: value.focus == .device, x: x + half + 3, y: area.y, width: width - half - 3, into: &buffer)
        if let problem = value.problem {
            buffer.write(SafeText.escaped(problem), x: x, y: area.y + 2, maxWidth: width, style: Palette.error)
            return
        }
        guard let subject = value.subject else {
            let lines = ["Type a user id and/or a device id, then Enter: the table shows what every experiment",
                         "serves that subject and why (the same decision as `abconsole inspect`)."]
            for (offset, line) in lines.enumerated() {
                buffer.write(line, x: x, y: area.y + 2 + offset, maxWidth: width, style: Palette.dim)
            }
            return
        }
        let asked = "inspecting user \(describe(subject.userID)) · device \(describe(subject.deviceID))"
        let used = buffer.write(asked, x: x, y: area.y + 1, maxWidth: width, style: Palette.dim)
        if subject != value.typedSubject, width - used > 30 {
            buffer.write("  (edited: Enter runs again)", x: x + used, y: area.y + 1, maxWidth: width - used, style: Palette.status(.paused))
        }
        let decisions = cache.decisions(app.snapshot, subject: subject)
        let experiments = decisions.compactMap { app.snapshot.experiments[$0.experiment] }
        guard !decisions.isEmpty, experiments.count == decisions.count else {
            buffer.write("the store has no experiments yet", x: x, y: area.y + 3, maxWidth: width, style: Palette.dim)
            return
        }
        let selected = value.selectedKey.flatMap { key in decisions.firstIndex { $0.experiment == key } } ?? 0
        let table = Rect(x: area.x, y: area.y + 3, width: area.width, height: area.height - 3 - stripHeight)
        renderTable(decisions, experiments, selected: selected, focused: value.focus == .table, area: table, into: &buffer)
        let strip = Rect(x: area.x, y: table.maxY + 1, width: area.width, height: stripHeight - 1)
        renderStrip(experiments[selected], decisions[selected], area: strip, into: &buffer)
    }

    private static func describe(_ id: String?) -> String {
        id.map { "`\(SafeText.escaped($0))`" } ?? "—"
    }

    /// Column widths of the decision table between the experiment key and the payload.
    private static let columns = [("TYPE", 7), ("STATUS", 9), ("VARIANT", 20), ("REASON", 13), ("BUCKET", 6)]

    /// The decision table: the key as wide as the longest (the payload of the served variant takes
    /// the rest when 10 columns are left, else the key does), the selected row marked.
    private static func renderTable(_ decisions: [Decision], _ experiments: [Experiment], selected: Int, focused: Bool,
                                    area: Rect, into buffer: inout ScreenBuffer) {
        let fixed = columns.reduce(0) { $0 + $1.1 + 1 }
        let longest = max(10, experiments.reduce(0) { max($0, DisplayWidth.of(SafeText.escaped($1.key))) })
        let payloadWidth = area.width - 2 - fixed - longest - 1 >= 10 ? area.width - 2 - fixed - longest - 1 : 0
        let keyWidth = payloadWidth > 0 ? longest : max(10, area.width - 2 - fixed)
        let titles = [("EXPERIMENT", keyWidth)] + columns + (payloadWidth > 0 ? [("PAYLOAD", payloadWidth)] : [])
        var x = area.x + 1
        for (title, size) in titles {
            buffer.write(title, x: x, y: area.y, maxWidth: size, style: Palette.header)
            x += size + 1
        }
        let rows = area.inset(top: 1)
        let first = Scrolling.firstRow(selected: selected, count: decisions.count, visible: rows.height)
        for row in first..<min(decisions.count, first + rows.height) {
            let decision = decisions[row], experiment = experiments[row]
            let y = rows.y + row - first
            let variantIndex = experiment.variants.firstIndex { $0.name == decision.variant }
            let payload = variantIndex.flatMap { experiment.variants[$0].payload?.compactText } ?? "—"
            let cells: [(String, Int, CellStyle)] = [
                (SafeText.escaped(decision.experiment), keyWidth, row == selected ? Palette.selected.bolded : .bold),
                (decision.type.rawValue, 7, .plain),
                (experiment.status.rawValue, 9, Palette.status(experiment.status)),
                ((variantIndex.map { "\(Palette.variantGlyph($0)) " } ?? "") + SafeText.escaped(decision.variant), 20, variantIndex.map(Palette.variantStyle) ?? .plain),
                (decision.reason.rawValue, 13, Palette.key),
                (decision.bucket.map(String.init) ?? "—", 6, .plain),
                (SafeText.escaped(payload), payloadWidth, Palette.dim),
            ]
            x = area.x + 1
            for (text, size, style) in cells where size > 0 {
                buffer.write(text, x: x, y: y, maxWidth: size, style: style)
                x += size + 1
            }
            if row == selected { buffer.write(focused ? "▶" : "▷", x: area.x, y: y, style: Palette.key) }
        }
    }

    /// The selected experiment: a title with the served payload, the strip, the marker with "bucket N of 10000", the legend, and why.
    private static func renderStrip(_ experiment: Experiment, _ decision: Decision, area: Rect, into buffer: inout ScreenBuffer) {
        guard area.height >= 4 else { return }
        let x = area.x + 1, width = area.width - 2
        let payload = experiment.variants.first { $0.name == decision.variant }?.payload.map { " · payload \($0.compactText)" } ?? ""
        buffer.write(SafeText.escaped("\(experiment.key)\(payload) · buckets 0–9999 · salt `\(experiment.salt)`"),
                     x: x, y: area.y, maxWidth: width, style: .bold)
        BucketStrip.render(experiment, bucket: decision.bucket, x: area.x, y: area.y + 1, width: area.width, into: &buffer)
        if let bucket = decision.bucket {
            BucketStrip.renderMarker(bucket: bucket, label: "bucket \(bucket) of \(Weight.bucketCount)", x: area.x, y: area.y + 2, width: area.width, into: &buffer)
        }
        var column = x
        for part in WeightBar.legend(experiment.variants.map { (name: $0.name, weight: $0.weight) }) where column < area.maxX - 1 {
            column += buffer.write(SafeText.escaped(part.text), x: column, y: area.y + 3, maxWidth: area.maxX - 1 - column, style: part.style) + 2
        }
        if area.height >= 5 {
            buffer.write(SafeText.escaped(explanation(experiment, decision)), x: x, y: area.y + 4, maxWidth: width)
        }
    }

    /// Why the subject gets what it gets, in words.
    static func explanation(_ experiment: Experiment, _ decision: Decision) -> String {
        let variant = "`\(decision.variant)`"
        switch decision.reason {
        case .resolved: return "resolved: everyone gets the winner \(variant); buckets no longer matter"
        case .paused: return "paused (kill switch): everyone gets the control \(variant), whitelisted subjects too"
        case .noSubject: return "no \(experiment.type.rawValue) id given: this experiment buckets by \(experiment.type.rawValue) id, so it serves the control \(variant)"
        case .whitelisted:
            let entry = decision.subject.flatMap(experiment.whitelistEntry)
            let who = entry.map { " by \($0.addedBy)" + ($0.note.isEmpty ? "" : " (\($0.note))") } ?? ""
            return "whitelisted into \(variant)\(who); the bucket is ignored"
        case .draft: return "draft: not served yet, so it gets the control \(variant) (whitelisted subjects excepted)"
        case .bucketed: return "bucket \(decision.bucket.map(String.init) ?? "?") is owned by \(variant)"
        case .notEnrolled: return "bucket \(decision.bucket.map(String.init) ?? "?") is unallocated: the subject is not enrolled and gets the control \(variant)"
        }
    }
}
