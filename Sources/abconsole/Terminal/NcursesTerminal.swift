import CNcurses
import ConsoleUI
import Glibc

/// The terminal driven through ncurses: the only code in the project that calls the C library.
///
/// It paints `ScreenBuffer` diffs with the wide-character API and turns input into `Key`s.
/// Keep it small and crash-free: a crash here leaves the user's terminal raw.
final class NcursesTerminal: TerminalDevice {
    private var screen: OpaquePointer?
    private let window: UnsafeMutablePointer<WINDOW>
    private let usesColor: Bool
    private let hasDefaultColors: Bool
    /// Colour pair numbers by (foreground, background), allocated on first use.
    private var colorPairs: [Int: Int16] = [:]
    /// What the screen shows now; nil forces a full repaint.
    private var lastDrawn: ScreenBuffer?

    private init(screen: OpaquePointer, window: UnsafeMutablePointer<WINDOW>, usesColor: Bool, hasDefaultColors: Bool) {
        self.screen = screen
        self.window = window
        self.usesColor = usesColor
        self.hasDefaultColors = hasDefaultColors
    }

    deinit {
        close()
    }

    /// Takes over the terminal, after checking that there is one to take.
    ///
    /// Installs the signal flag first, so that ncurses leaves SIGINT/SIGTERM/SIGHUP to us.
    static func open() throws(TerminalError) -> NcursesTerminal {
        guard isatty(STDIN_FILENO) == 1 else {
            throw .notATerminal("standard input is not a terminal: the console needs an interactive terminal (use the subcommands in scripts)")
        }
        guard isatty(STDOUT_FILENO) == 1 else {
            throw .notATerminal("standard output is not a terminal: the console needs an interactive terminal (use the subcommands in scripts)")
        }
        guard let term = environment("TERM") else {
            throw .notATerminal("TERM is not set: set it to your terminal's type, such as xterm-256color")
        }
        guard term != "dumb" else {
            throw .notATerminal("TERM is `dumb`, which cannot draw the console: run it in a terminal such as xterm-256color")
        }

        SignalFlag.install()
        setlocale(LC_ALL, "")
        if String(cString: cn_codeset()) != "UTF-8" {
            // A C/POSIX locale would garble every non-ASCII character; terminals today speak UTF-8.
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        guard let screen = newterm(nil, cn_stdout(), cn_stdin()) else {
            throw .cannotOpen("ncurses cannot start on terminal type `\(term)`: check that TERM names an installed terminfo entry")
        }
        guard let window = cn_stdscr() else {
            endwin()
            delscreen(screen)
            throw .cannotOpen("ncurses started on terminal type `\(term)` but gave no screen window")
        }

        cbreak()  // Ctrl-C stays SIGINT, handled through SignalFlag.
        noecho()
        nonl()
        keypad(window, true)
        leaveok(window, true)
        set_escdelay(25)
        curs_set(0)
        wtimeout(window, 100)

        var usesColor = false
        var hasDefaultColors = false
        if environment("NO_COLOR") == nil, has_colors() {
            usesColor = start_color() == OK
            hasDefaultColors = usesColor && use_default_colors() == OK
        }
        return NcursesTerminal(screen: screen, window: window, usesColor: usesColor, hasDefaultColors: hasDefaultColors)
    }

    /// The current size in cells; ncurses updates it on resize.
    var size: (width: Int, height: Int) {
        guard screen != nil else { return (0, 0) }
        return (Int(getmaxx(window)), Int(getmaxy(window)))
    }

    /// Paints what changed since the last draw (everything after a resize) and refreshes.
    func draw(_ buffer: ScreenBuffer) {
        guard screen != nil else { return }
        let size = self.size
        var previous = lastDrawn
        if previous == nil || buffer.width != size.width || buffer.height != size.height {
            werase(window)
            previous = nil
        }
        for run in buffer.changedRuns(since: previous) {
            let attributes = attributes(for: run.style)
            let pair = colorPair(for: run.style)
            for (offset, text) in run.texts.enumerated() where !text.isEmpty {
                let x = run.x + offset
                let isWide = buffer[x + 1, run.y].isContinuation
                put(text, x: x, y: run.y, isWide: isWide, attributes: attributes, pair: pair)
            }
        }
        wnoutrefresh(window)
        doupdate()
        // A buffer of another size than the window (a resize raced the render) is repainted in full next time.
        lastDrawn = buffer.width == size.width && buffer.height == size.height ? buffer : nil
    }

    /// The next key, or nil when none arrived within 100 ms.
    func readKey() -> Key? {
        guard screen != nil else { return nil }
        var code: wint_t = 0
        switch wget_wch(window, &code) {
        case KEY_CODE_YES:
            let key = Self.key(forCode: Int32(bitPattern: code))
            if key == .resize {
                lastDrawn = nil
            }
            return key
        case OK:
            return Self.key(forCharacter: code)
        default:
            return nil
        }
    }

    /// Restores the terminal; safe to call more than once.
    func close() {
        guard let screen else { return }
        self.screen = nil
        lastDrawn = nil
        endwin()
        delscreen(screen)
    }

    // MARK: - Painting

    /// Puts one cell so that the terminal's idea of its width matches the buffer's.
    ///
    /// Where the C library disagrees with `DisplayWidth` (e.g. "❤️" is 2 for us and 1 for
    /// `wcwidth`), the narrow form is drawn and a space fills the right half, so nothing
    /// after it shifts.
    ///
    /// A cell holds one spacing character and the marks that combine with it: ncurses handed
    /// several spacing characters in one cell (`👨‍👩‍👧`, a skin tone, a flag's second half) draws them
    /// all, and the terminal advances by each. So a sequence is drawn as its first character with
    /// the zero-width marks that follow it (`❤️` keeps its U+FE0F), up to the first joiner.
    private func put(_ text: String, x: Int, y: Int, isWide: Bool, attributes: attr_t, pair: Int16) {
        let scalars = Self.drawable(text)
        guard let first = scalars.first else { return }
        let libraryWidth = cn_wcwidth(first)
        var characters: [wchar_t]
        if libraryWidth <= 0 || (libraryWidth == 2 && !isWide) {
            characters = [Self.replacementCharacter]
        } else if libraryWidth == 1 && isWide {
            characters = [first]
        } else {
            characters = scalars
        }
        characters.append(0)
        if cn_put_cell(window, Int32(y), Int32(x), characters, attributes, pair) == ERR {
            _ = cn_put_cell(window, Int32(y), Int32(x), [Self.replacementCharacter, 0], attributes, pair)
        }
        if isWide && libraryWidth != 2 {
            _ = cn_put_cell(window, Int32(y), Int32(x + 1), [Self.space, 0], attributes, pair)
        }
    }

    /// The scalars of one cell ncurses can draw: the first, then the zero-width ones after it, up to a joiner (U+200D).
    private static func drawable(_ text: String) -> [wchar_t] {
        var scalars: [wchar_t] = []
        for scalar in text.unicodeScalars {
            let character = wchar_t(bitPattern: scalar.value)
            if !scalars.isEmpty {
                guard scalar.value != 0x200D, cn_wcwidth(character) == 0 else { break }
            }
            scalars.append(character)
            if scalars.count == Int(CCHARW_MAX) { break }
        }
        return scalars
    }

    private static let replacementCharacter = wchar_t(0xFFFD)
    private static let space = wchar_t(0x20)

    private func attributes(for style: CellStyle) -> attr_t {
        var attributes = cn_attr_normal()
        if style.bold { attributes |= cn_attr_bold() }
        if style.reverse { attributes |= cn_attr_reverse() }
        if style.dim { attributes |= cn_attr_dim() }
        if style.underline { attributes |= cn_attr_underline() }
        return attributes
    }

    /// The colour pair for the style's colours, allocating it on first use (0 when colours are off or run out).
    private func colorPair(for style: CellStyle) -> Int16 {
        guard usesColor, style.foreground != nil || style.background != nil else { return 0 }
        let key = Int(style.foreground?.rawValue ?? 8) * 9 + Int(style.background?.rawValue ?? 8)
        if let pair = colorPairs[key] {
            return pair
        }
        let candidate = colorPairs.values.filter { $0 > 0 }.count + 1
        var pair: Int16 = 0
        if candidate < Int(cn_color_pairs()), let number = Int16(exactly: candidate) {
            let foreground = style.foreground.map { Int16($0.rawValue) } ?? (hasDefaultColors ? -1 : Int16(COLOR_WHITE))
            let background = style.background.map { Int16($0.rawValue) } ?? (hasDefaultColors ? -1 : Int16(COLOR_BLACK))
            if init_pair(number, foreground, background) == OK {
                pair = number
            }
        }
        colorPairs[key] = pair
        return pair
    }

    // MARK: - Input

    private static func key(forCode code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case KEY_RESIZE: return .resize
        default:
            let number = code - cn_key_f(0)
            return (1...63).contains(number) ? .function(Int(number)) : nil
        }
    }

    private static func key(forCharacter code: wint_t) -> Key? {
        switch code {
        case 10, 13: return .enter
        case 27: return .escape
        case 9: return .tab
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(0x60 + code))))
        case 0...31, 0x80...0x9F: return nil
        default:
            return Unicode.Scalar(code).map { .character(Character($0)) }
        }
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let string = String(cString: value)
        return string.isEmpty ? nil : string
    }
}
