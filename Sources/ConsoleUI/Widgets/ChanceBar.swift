import ExperimentResults

/// A chance to win as a bar of `width` cells with the number beside it: `███████░░░ 71.2 %`.
enum ChanceBar {
    static func render(_ chance: Double, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let filled = chance.isFinite ? max(0, min(width, Int((chance * Double(width)).rounded()))) : 0
        // The chance is already of moving the metric's better way: the verdict's own thresholds colour it.
        let style: CellStyle = switch MetricVerdict.effect(lift: nil, chanceToWin: chance, pValue: nil, lowerIsBetter: false) {
        case .better: .fg(.green)
        case .worse: .fg(.red)
        default: .plain
        }
        buffer.write(repeating: "█", count: filled, x: x, y: y, style: style)
        buffer.write(repeating: "░", count: width - filled, x: x + filled, y: y, style: Palette.dim)
        buffer.write(text(chance), x: x + width + 1, y: y, style: style)
    }

    /// The number: one decimal, `> 99.9 %` and `< 0.1 %` at the ends.
    static func text(_ chance: Double) -> String {
        ResultsFormat.chance(chance)
    }
}
