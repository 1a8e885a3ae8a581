/// Which inference a comparison reports (SPEC §8; GrowthBook's `gbstats` 0.8 defaults).
public enum StatsEngine: Equatable, Sendable {
    /// Flat-prior Bayesian: chance to win and a 95 % credible interval. The default.
    case bayesian
    /// Welch t-test: two-sided p-value and a 95 % confidence interval; `sequential` switches to
    /// GrowthBook's always-valid confidence sequence (tuning parameter 5000).
    case frequentist(sequential: Bool)
}
