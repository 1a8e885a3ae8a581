/// A correction of p-values for multiple comparisons (SPEC §12): Holm's step-down family-wise
/// correction, or Benjamini–Hochberg's false-discovery-rate one, as statsmodels' `multipletests`
/// (`holm`, `fdr_bh`) computes them.
public enum PValueCorrection: String, CaseIterable, Equatable, Sendable {
    case holm
    case benjaminiHochberg = "bh"

    /// `Holm` or `Benjamini–Hochberg`.
    public var name: String {
        switch self {
        case .holm: "Holm"
        case .benjaminiHochberg: "Benjamini–Hochberg"
        }
    }

    /// The adjusted p-values of `pValues`, in their order, each capped at 1.
    ///
    /// Holm: with p₍₁₎ ≤ … ≤ p₍ₘ₎, p̃₍ᵢ₎ = maxⱼ≤ᵢ min(1, (m − j + 1)·p₍ⱼ₎).
    /// Benjamini–Hochberg: p̃₍ᵢ₎ = minⱼ≥ᵢ min(1, m/j · p₍ⱼ₎).
    public func adjust(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] || (pValues[$0] == pValues[$1] && $0 < $1) }
        var adjusted = [Double](repeating: 1, count: m)
        switch self {
        case .holm:
            var running = 0.0
            for (rank, index) in order.enumerated() {
                running = max(running, min(1, Double(m - rank) * pValues[index]))
                adjusted[index] = running
            }
        case .benjaminiHochberg:
            var running = 1.0
            for (rank, index) in order.enumerated().reversed() {
                running = min(running, min(1, Double(m) / Double(rank + 1) * pValues[index]))
                adjusted[index] = running
            }
        }
        return adjusted
    }
}
