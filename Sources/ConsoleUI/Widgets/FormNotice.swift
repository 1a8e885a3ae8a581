/// Long messages inside a form box: the error that kept the form open, word-wrapped.
enum FormNotice {
    /// Draws the current error message, if any, from `y` down to at most `maxY`; returns the rows used.
    @discardableResult
    static func render(_ message: StatusMessage?, x: Int, y: Int, width: Int, maxY: Int, into buffer: inout ScreenBuffer) -> Int {
        guard let message, message.isError else { return 0 }
        let lines = WordWrap.lines(SafeText.escaped(message.text), width: width)
        let shown = lines.prefix(max(0, maxY - y))
        for (offset, line) in shown.enumerated() {
            buffer.write(line, x: x, y: y + offset, maxWidth: width, style: Palette.error)
        }
        return shown.count
    }
}
