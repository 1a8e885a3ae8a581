import ExperimentCore

/// The console's colours and glyphs; every colour comes with a word or glyph so NO_COLOR still reads.
package enum Palette {
    /// Colours for variants by index, cycled.
    static let variantColors: [TerminalColor] = [.blue, .green, .magenta, .cyan, .yellow, .red]
    /// Fill glyphs for variants by index, cycled, so bars read without colour.
    static let variantGlyphs: [Character] = ["█", "▓", "▒", "░", "▚", "▞"]
    /// The glyph of unallocated buckets.
    static let unallocatedGlyph: Character = "·"

    static func variantStyle(_ index: Int) -> CellStyle { .fg(variantColors[index % variantColors.count]) }
    static func variantGlyph(_ index: Int) -> Character { variantGlyphs[index % variantGlyphs.count] }

    /// The style of a status word.
    static func status(_ status: ExperimentStatus) -> CellStyle {
        switch status {
        case .draft: .fg(.cyan)
        case .running: CellStyle.fg(.green).bolded
        case .paused: CellStyle.fg(.yellow).bolded
        case .resolved: .fg(.magenta)
        }
    }

    static let title = CellStyle.reverse.bolded
    static let selected = CellStyle.reverse
    /// A focused text field's text while it is all selected (the next typed character replaces it).
    static let selectedText = CellStyle.reverse.bolded.underlined
    static let header = CellStyle.bold.underlined
    static let error = CellStyle.fg(.red).bolded
    /// A warning that must not be missed (the results screen's sample-ratio and multiple-exposure banners).
    static let banner = CellStyle.fg(.red).bolded.reversed
    static let info = CellStyle.fg(.green)
    /// What changed under an open form or dialog.
    static let warning = CellStyle.fg(.yellow).bolded
    static let dim = CellStyle.dim
    static let key = CellStyle.bold
}
