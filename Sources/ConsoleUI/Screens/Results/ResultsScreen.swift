import ExperimentResults

/// The results screen's keys: Tab the metric, b/f the engine, Enter reload, Esc cancel a load or go back.
enum ResultsScreen {
    /// Handles a key on the results of `experimentKey`; the screen's value is the results the console holds.
    static func handle(_ intent: Intent?, of experimentKey: String, _ results: inout ResultsState?, _ context: ScreenContext) -> ScreenReply {
        let current = results?.experimentKey == experimentKey ? results : nil
        switch intent {
        case .nextMetric?:
            guard var value = current, let count = value.report?.metrics.count, count > 0 else { return .none }
            value.metric = (value.metric + 1) % count
            results = value
        case .bayesian?:
            return switchEngine(to: .bayesian, &results)
        case .frequentist?:
            return switchEngine(to: .frequentist(sequential: false), &results)
        case .reload?:
            return .start(.readResults(experiment: experimentKey))
        case .cancel?:
            // `Esc` reaches here while loading only if the job is gone; a running read is given up before the screen sees the key.
            if let current, current.isLoading { return .giveUp(current.job) }
            return .close()
        case .back?, .quit?:
            return current.flatMap { $0.isLoading ? .giveUp($0.job, closing: true) : nil } ?? .close()
        default:
            return .browse(intent)
        }
        return .none
    }

    /// Recomputes the held totals with `engine`; the logs are not read again.
    private static func switchEngine(to engine: StatsEngine, _ results: inout ResultsState?) -> ScreenReply {
        guard var value = results else { return .none }
        value.engine = engine
        if let report = value.report { value.phase = .loaded(report.with(engine: engine)) }
        results = value
        return .show(.info(engine.isBayesian ? "Bayesian engine: chance to win and credible intervals" : "frequentist engine: p-values and confidence intervals"))
    }
}
