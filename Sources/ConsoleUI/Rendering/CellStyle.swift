/// How a cell is painted: optional colours (nil is the terminal's default) and attributes.
package struct CellStyle: Hashable, Sendable {
    package var foreground: TerminalColor?
    package var background: TerminalColor?
    package var bold: Bool
    package var reverse: Bool
    package var dim: Bool
    package var underline: Bool

    package init(
        foreground: TerminalColor? = nil,
        background: TerminalColor? = nil,
        bold: Bool = false,
        reverse: Bool = false,
        dim: Bool = false,
        underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
    }

    /// The terminal's default colours, no attributes.
    package static let plain = CellStyle()
    /// Bold text in default colours.
    package static let bold = CellStyle(bold: true)
    /// Reverse video in default colours; stays visible when colours are off (`NO_COLOR`).
    package static let reverse = CellStyle(reverse: true)
    /// Dim text in default colours.
    package static let dim = CellStyle(dim: true)
    /// Underlined text in default colours.
    package static let underline = CellStyle(underline: true)

    /// A plain style with the given foreground colour.
    package static func fg(_ color: TerminalColor) -> CellStyle { CellStyle(foreground: color) }
    /// A plain style with the given background colour.
    package static func bg(_ color: TerminalColor) -> CellStyle { CellStyle(background: color) }

    /// This style with the given foreground colour.
    package func fg(_ color: TerminalColor) -> CellStyle { with { $0.foreground = color } }
    /// This style with the given background colour.
    package func bg(_ color: TerminalColor) -> CellStyle { with { $0.background = color } }
    /// This style, bold.
    package var bolded: CellStyle { with { $0.bold = true } }
    /// This style, in reverse video.
    package var reversed: CellStyle { with { $0.reverse = true } }
    /// This style, dim.
    package var dimmed: CellStyle { with { $0.dim = true } }
    /// This style, underlined.
    package var underlined: CellStyle { with { $0.underline = true } }

    private func with(_ change: (inout CellStyle) -> Void) -> CellStyle {
        var copy = self
        change(&copy)
        return copy
    }
}
