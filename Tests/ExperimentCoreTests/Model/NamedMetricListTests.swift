import ExperimentCore
import Testing

/// The guardrail list the console's metrics form reads: comma-separated `M[:decrease]`, the CLI's parser per item.
@Suite struct NamedMetricListTests {
    @Test func readsCommaSeparatedMetricsWithTheirDirections() {
        #expect(NamedMetric.parseList(" refund:decrease,latency_ms:decrease , purchase:increase,errors") == [
            NamedMetric(metric: "refund", direction: .decrease), NamedMetric(metric: "latency_ms", direction: .decrease),
            NamedMetric(metric: "purchase"), NamedMetric(metric: "errors"),
        ])
    }

    @Test func emptyItemsAreSkippedAndAnEmptyListIsNone() {
        #expect(NamedMetric.parseList("") == [])
        #expect(NamedMetric.parseList(" , ,") == [])
        #expect(NamedMetric.parseList("a,,b") == [NamedMetric(metric: "a"), NamedMetric(metric: "b")])
    }

    @Test func listTextReadsBack() {
        let metrics = [NamedMetric(metric: "refund", direction: .decrease), NamedMetric(metric: "latency")]
        #expect(NamedMetric.listText(metrics) == "refund:decrease, latency")
        #expect(NamedMetric.parseList(NamedMetric.listText(metrics)) == metrics)
    }
}
