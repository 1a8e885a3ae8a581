import ExperimentCore
/// The scrollable panel: every binding of the current context, then the global ones, from the table
/// (`?`), or the message log (`L`); it scrolls and `/` searches it.
enum HelpOverlay {
    static let width = 64
    /// The width of the key column.
    static let keyWidth = 10

    /// The panel's lines for `state` (the same in the update, for scrolling, and in the render).
    static func lines(_ state: AppState) -> [HelpLine] {
        switch state.help.page {
        case .keys: keyLines(state)
        case .messages: messageLines(state)
        }
    }

    private static func keyLines(_ state: AppState) -> [HelpLine] {
        let context = state.contentContext
        let facts = AvailabilityFacts(state)
        // A binding whose action does not apply now is dimmed, with the reason on the next lines.
        let room = max(10, contentWidth(state) - keyWidth - 1)
        func lines(_ binding: KeyBinding) -> [HelpLine] {
            let reason = binding.availability(facts).reason
            return [HelpLine(kind: .binding(reason: reason), key: binding.label, text: binding.help)]
                + (reason.map { WordWrap.lines("off: \(SafeText.escaped($0))", width: room).map { HelpLine(kind: .reason, text: $0) } } ?? [])
        }
        var result: [HelpLine] = [.heading(context.title)]
        result += KeyBindings.all.filter { $0.context == context }.flatMap(lines)
        if !state.jobs.isEmpty, state.overlay == nil {
            result += [.blank, .heading(BindingContext.job.title)]
            result += KeyBindings.all.filter { $0.context == .job }.flatMap(lines)
        }
        result += [.blank, .heading(BindingContext.global.title)]
        result += KeyBindings.globals(in: context).flatMap(lines)
        result += [.blank, .heading(BindingContext.help.title)]
        result += KeyBindings.all.filter { $0.context == .help }.flatMap(lines)
        return result
    }

    /// The logged messages, newest first, each wrapped whole under its time.
    private static func messageLines(_ state: AppState) -> [HelpLine] {
        guard !state.messageLog.isEmpty else { return [HelpLine(kind: .message(isError: false), text: "no messages yet")] }
        let room = max(10, contentWidth(state) - timeWidth - 1)
        var lines: [HelpLine] = []
        for entry in state.messageLog.reversed() {
            let wrapped = WordWrap.lines(SafeText.escaped(entry.message.text), width: room)
            for (index, text) in wrapped.enumerated() {
                lines.append(HelpLine(kind: .message(isError: entry.message.isError), key: index == 0 ? TimeLabel.utcClock(entry.at) : "", text: text))
            }
        }
        return lines
    }

    /// The width of a message's time column, `12:00:05 UTC`.
    private static let timeWidth = 12

    /// The panel's box in a terminal of the state's size.
    static func frame(_ state: AppState, lineCount: Int) -> Rect {
        Box.centered(width: width, height: lineCount + 5, in: body(state))
    }

    /// The screen area between the title bar and the status and help bars.
    private static func body(_ state: AppState) -> Rect {
        Rect(x: 0, y: 1, width: state.size.width, height: ConsoleView.bodyHeight(terminalHeight: state.size.height))
    }

    private static func contentWidth(_ state: AppState) -> Int {
        Box.content(of: Box.centered(width: width, height: 3, in: body(state))).width
    }

    /// How many lines the panel shows at once (its inside less the footer and the gap above it).
    static func visibleRows(_ state: AppState, lineCount: Int) -> Int {
        max(1, Box.content(of: frame(state, lineCount: lineCount)).height - 2)
    }

    static func render(_ state: AppState, into buffer: inout ScreenBuffer) {
        let lines = lines(state)
        let rect = frame(state, lineCount: lines.count)
        Box.render(rect, title: state.help.page == .keys ? "Help — keys" : "Messages — newest first", into: &buffer)
        let content = Box.content(of: rect)
        let visible = visibleRows(state, lineCount: lines.count)
        let help = state.help
        let matches = Set(HelpState.matches(of: help.needle, in: lines))
        let first = min(help.top, max(0, lines.count - visible))
        for (offset, index) in (first..<min(lines.count, first + visible)).enumerated() {
            render(lines[index], match: matches.contains(index), current: help.current == index,
                   x: content.x, y: content.y + offset, width: content.width, into: &buffer)
        }
        renderFooter(help, lines: lines, first: first, visible: visible, matches: matches.count, content: content, into: &buffer)
    }

    private static func render(_ line: HelpLine, match: Bool, current: Bool, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let marked: (CellStyle) -> CellStyle = { current ? Palette.selected : match ? $0.underlined : $0 }
        switch line.kind {
        case .blank:
            break
        case .heading:
            buffer.write(line.text, x: x, y: y, maxWidth: width, style: marked(Palette.header))
        case .binding(let reason):
            let available = reason == nil
            buffer.write(line.key, x: x, y: y, maxWidth: keyWidth, style: marked(available ? Palette.key : Palette.dim))
            buffer.write(line.text, x: x + keyWidth + 1, y: y, maxWidth: width - keyWidth - 1, style: marked(available ? .plain : Palette.dim))
        case .reason:
            buffer.write(line.text, x: x + keyWidth + 1, y: y, maxWidth: width - keyWidth - 1, style: marked(Palette.dim))
        case .message(let isError):
            buffer.write(line.key, x: x, y: y, maxWidth: timeWidth, style: marked(Palette.dim))
            buffer.write(line.text, x: x + timeWidth + 1, y: y, maxWidth: width - timeWidth - 1,
                         style: marked(isError ? Palette.error : .plain))
        }
    }

    /// The last line: the search being typed or its matches, else how to close, scroll and search, and where it is.
    private static func renderFooter(_ help: HelpState, lines: [HelpLine], first: Int, visible: Int, matches: Int,
                                     content: Rect, into buffer: inout ScreenBuffer) {
        let y = content.maxY - 1
        let position = lines.count > visible ? "\(first + 1)–\(min(lines.count, first + visible)) of \(lines.count)" : ""
        let room = content.width - DisplayWidth.of(position) - 1
        if help.isSearching {
            let used = buffer.write("/", x: content.x, y: y, style: Palette.key)
            buffer.write(SafeText.escaped(help.needle) + "▏", x: content.x + used, y: y, maxWidth: room - used, style: .underline)
        } else if !help.needle.isEmpty {
            let text = matches == 0 ? "no match for “\(SafeText.escaped(help.needle))” · / searches again"
                : "“\(SafeText.escaped(help.needle))”: \(matches) match\(matches == 1 ? "" : "es") · n/N next/previous"
            buffer.write(text, x: content.x, y: y, maxWidth: room, style: Palette.dim)
        } else {
            buffer.write("Esc closes · j/k scroll · / searches", x: content.x, y: y, maxWidth: room, style: Palette.dim)
        }
        buffer.write(position, x: content.maxX - DisplayWidth.of(position), y: y, style: Palette.dim)
    }
}
