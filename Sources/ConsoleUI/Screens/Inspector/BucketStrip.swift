import ExperimentCore

/// The 0..9999 bucket space on one line: each column glyphed and coloured by the variant owning
/// that slice (`·` unallocated), and on the line below `▲` at the subject's bucket.
enum BucketStrip {
    /// The variant index owning each bucket, -1 when unallocated.
    static func owners(_ experiment: Experiment) -> [Int] {
        var owners = [Int](repeating: -1, count: Weight.bucketCount)
        for (index, variant) in experiment.variants.enumerated() {
            for range in variant.ranges where range.start >= 0 && range.end <= Weight.bucketCount && range.start < range.end {
                for bucket in range.start..<range.end { owners[bucket] = index }
            }
        }
        return owners
    }

    /// The column of `bucket` in a strip `width` columns wide.
    static func column(of bucket: Int, width: Int) -> Int {
        min(width - 1, max(0, bucket * width / Weight.bucketCount))
    }

    /// Draws the strip at (x, y) over `width` columns; the column holding `bucket` shows that bucket's owner.
    static func render(_ experiment: Experiment, bucket: Int?, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        guard width > 0 else { return }
        let owners = owners(experiment)
        let marked = bucket.map { column(of: $0, width: width) }
        for column in 0..<width {
            let start = column * Weight.bucketCount / width
            let end = max(start + 1, (column + 1) * Weight.bucketCount / width)
            let owner = column == marked ? bucket.map { owners[$0] } ?? -1 : owners[(start + end - 1) / 2]
            if owner >= 0 {
                buffer.write(String(Palette.variantGlyph(owner)), x: x + column, y: y, style: Palette.variantStyle(owner))
            } else {
                buffer.write(String(Palette.unallocatedGlyph), x: x + column, y: y, style: Palette.dim)
            }
        }
    }

    /// Draws `▲` under the subject's bucket and `label` beside it (right of it when it fits, else left).
    static func renderMarker(bucket: Int, label: String, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        guard width > 0 else { return }
        let column = column(of: bucket, width: width)
        buffer.write("▲", x: x + column, y: y, style: Palette.key)
        let labelWidth = DisplayWidth.of(label)
        if column + 2 + labelWidth <= width {
            buffer.write(label, x: x + column + 2, y: y, maxWidth: width - column - 2, style: Palette.key)
        } else {
            let start = max(0, column - 1 - labelWidth)
            buffer.write(label, x: x + start, y: y, maxWidth: column - 1 - start, style: Palette.key)
        }
    }
}
