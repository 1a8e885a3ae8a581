import ExperimentResults

/// The results screen's keys: Tab the metric, b/f the engine, Enter reload, Esc cancel a load or go back.
enum ResultsScreen {
    static func handle(_ key: Key, _ intent: Intent?, _ app: inout AppState, _ rows: RowCache) -> [Effect] {
        guard case .results(let experimentKey)? = app.stack.last else { return [] }
        switch intent {
        case .nextMetric?:
            guard var results = app.results, let count = results.report?.metrics.count, count > 0 else { return [] }
            results.metric = (results.metric + 1) % count
            app.results = results
        case .bayesian?:
            switchEngine(to: .bayesian, &app)
        case .frequentist?:
            switchEngine(to: .frequentist(sequential: false), &app)
        case .reload?:
            return app.loadResults(of: experimentKey, force: true)
        case .cancel?:
            if let results = app.results, results.experimentKey == experimentKey, case .loading(let rows, _) = results.phase {
                app.results?.phase = .cancelled(rows: rows)
                app.message = .info("loading cancelled; Enter reads the logs again")
                return [.cancelResults(requestID: results.requestID)]
            }
            app.closeTop(rows)
        case .back?, .quit?:
            var effects: [Effect] = []
            if let results = app.results, results.isLoading {
                app.results?.phase = .cancelled(rows: 0)
                effects.append(.cancelResults(requestID: results.requestID))
            }
            app.closeTop(rows)
            return effects
        default:
            guard let intent else { return [] }
            return ConsoleUpdate.handleBrowsing(intent, &app, rows)
        }
        return []
    }

    private static func switchEngine(to engine: ResultsEngine, _ app: inout AppState) {
        guard var results = app.results else { return }
        results.engine = engine
        if let report = results.report { results.phase = .loaded(report.with(engine: engine)) }
        app.results = results
        app.message = .info(engine.isBayesian ? "Bayesian engine: chance to win and credible intervals" : "frequentist engine: p-values and confidence intervals")
    }
}
