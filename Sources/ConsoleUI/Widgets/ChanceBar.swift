import ExperimentResults

/// A chance to win as a bar of `width` cells with the number beside it: `███████░░░ 71.2 %`.
enum ChanceBar {
    static func render(_ chance: Double, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let filled = chance.isFinite ? max(0, min(width, Int((chance * Double(width)).rounded()))) : 0
        let style: CellStyle = chance >= 0.95 ? .fg(.green) : chance <= 0.05 ? .fg(.red) : .plain
        buffer.write(repeating: "█", count: filled, x: x, y: y, style: style)
        buffer.write(repeating: "░", count: width - filled, x: x + filled, y: y, style: Palette.dim)
        buffer.write(text(chance), x: x + width + 1, y: y, style: style)
    }

    /// The number: one decimal, `> 99.9 %` and `< 0.1 %` at the ends.
    static func text(_ chance: Double) -> String {
        ResultsFormat.chance(chance)
    }
}
