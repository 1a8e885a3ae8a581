import ExperimentCore

/// A stacked bar of an experiment's weights: one coloured glyph run per variant, `·` for unallocated.
enum WeightBar {
    /// Draws `weights` (in variant order) across `width` columns at (x, y).
    static func render(_ weights: [Weight], x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        guard width > 0 else { return }
        var column = x
        var cumulative = 0
        for (index, weight) in weights.enumerated() {
            let start = cumulative * width / Weight.bucketCount
            cumulative += weight.buckets
            var end = cumulative * width / Weight.bucketCount
            if weight.buckets > 0, end == start { end = start + 1 }
            let cells = max(0, min(end, width) - (column - x))
            buffer.write(repeating: Palette.variantGlyph(index), count: cells, x: column, y: y, style: Palette.variantStyle(index))
            column += cells
        }
        let rest = width - (column - x)
        if rest > 0 { buffer.write(repeating: Palette.unallocatedGlyph, count: rest, x: column, y: y, style: Palette.dim) }
    }

    /// The weights as numbers in variant order, e.g. `90/10` or `40/40/20` (percent).
    static func numbers(_ weights: [Weight]) -> String {
        weights.map(\.description).joined(separator: "/")
    }

    /// A legend such as `█ control 50 %  ▓ treatment 50 %  · unallocated 0 %`.
    static func legend(_ variants: [(name: String, weight: Weight)]) -> [(text: String, style: CellStyle)] {
        var parts = variants.enumerated().map { index, variant in
            ("\(Palette.variantGlyph(index)) \(variant.name) \(variant.weight) %", Palette.variantStyle(index))
        }
        let total = variants.reduce(0) { $0 + $1.weight.buckets }
        if total < Weight.bucketCount {
            parts.append(("\(Palette.unallocatedGlyph) unallocated \(Weight(buckets: Weight.bucketCount - total)) %", Palette.dim))
        }
        return parts
    }
}
