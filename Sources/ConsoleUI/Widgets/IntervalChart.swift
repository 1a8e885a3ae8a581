import ExperimentResults

/// Lifts with their intervals drawn on one horizontal scale around a zero line (`│`), one row per variant.
///
/// The scale spans every interval and zero, so rows compare at a glance: `━━━●━━━` is an interval
/// with its lift; the control sits on the zero line as `◆`. An interval wholly right of zero is
/// green, wholly left red, across zero plain.
struct IntervalChart {
    let lower: Double
    let upper: Double
    let width: Int

    /// A scale for `intervals` (nil ones ignored) over `width` columns, zero always inside.
    init(_ intervals: [Interval?], width: Int) {
        var low = 0.0, high = 0.0
        for interval in intervals.compactMap({ $0 }) where interval.lower.isFinite && interval.upper.isFinite {
            low = min(low, interval.lower)
            high = max(high, interval.upper)
        }
        if high - low < 1e-9 { (low, high) = (-0.1, 0.1) }
        let pad = (high - low) * 0.05
        lower = low - pad
        upper = high + pad
        self.width = max(width, 3)
    }

    /// The column (0..<width) of `value`.
    func column(_ value: Double) -> Int {
        let position = (value - lower) / (upper - lower) * Double(width - 1)
        // Bounds near the ends of the Double range make the span infinite: the ends, never a trap.
        guard position.isFinite else { return position > 0 ? width - 1 : 0 }
        return max(0, min(width - 1, Int(position.rounded())))
    }

    /// Draws one row at (x, y): the zero line, and the interval with its lift when given, else the control's mark.
    func render(interval: Interval?, lift: Double?, isControl: Bool, x: Int, y: Int, into buffer: inout ScreenBuffer) {
        buffer.write(repeating: "·", count: width, x: x, y: y, style: Palette.dim)
        let zero = column(0)
        buffer.write("│", x: x + zero, y: y, style: Palette.dim)
        if isControl {
            buffer.write("◆", x: x + zero, y: y, style: .bold)
            return
        }
        guard let interval, let lift else { return }
        let style: CellStyle = interval.lower > 0 ? .fg(.green) : interval.upper < 0 ? .fg(.red) : .plain
        let start = column(interval.lower), end = column(interval.upper)
        buffer.write(repeating: "━", count: end - start + 1, x: x + start, y: y, style: style)
        buffer.write("●", x: x + column(lift), y: y, style: style.bolded)
    }

    /// The axis under the rows: the lower bound, 0 and the upper bound as lifts; `0` always, a bound
    /// only where it leaves room around the `0` (zero near an edge hides that edge's bound).
    func renderAxis(x: Int, y: Int, into buffer: inout ScreenBuffer) {
        let left = ResultsFormat.lift(lower), right = ResultsFormat.lift(upper)
        let zero = column(0)
        if left.count < zero { buffer.write(left, x: x, y: y, style: Palette.dim) }
        buffer.write("0", x: x + zero, y: y, style: Palette.dim)
        if width - right.count > zero + 1 { buffer.write(right, x: x + width - right.count, y: y, style: Palette.dim) }
    }
}
