/// How a cell is painted: optional colours (nil is the terminal's default) and attributes.
public struct CellStyle: Hashable, Sendable {
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var bold: Bool
    public var reverse: Bool
    public var dim: Bool
    public var underline: Bool

    public init(
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
    public static let plain = CellStyle()
    /// Bold text in default colours.
    public static let bold = CellStyle(bold: true)
    /// Reverse video in default colours; stays visible when colours are off (`NO_COLOR`).
    public static let reverse = CellStyle(reverse: true)
    /// Dim text in default colours.
    public static let dim = CellStyle(dim: true)
    /// Underlined text in default colours.
    public static let underline = CellStyle(underline: true)

    /// A plain style with the given foreground colour.
    public static func fg(_ color: TerminalColor) -> CellStyle { CellStyle(foreground: color) }
    /// A plain style with the given background colour.
    public static func bg(_ color: TerminalColor) -> CellStyle { CellStyle(background: color) }

    /// This style with the given foreground colour.
    public func fg(_ color: TerminalColor) -> CellStyle { with { $0.foreground = color } }
    /// This style with the given background colour.
    public func bg(_ color: TerminalColor) -> CellStyle { with { $0.background = color } }
    /// This style, bold.
    public var bolded: CellStyle { with { $0.bold = true } }
    /// This style, in reverse video.
    public var reversed: CellStyle { with { $0.reverse = true } }
    /// This style, dim.
    public var dimmed: CellStyle { with { $0.dim = true } }
    /// This style, underlined.
    public var underlined: CellStyle { with { $0.underline = true } }

    private func with(_ change: (inout CellStyle) -> Void) -> CellStyle {
        var copy = self
        change(&copy)
        return copy
    }
}
