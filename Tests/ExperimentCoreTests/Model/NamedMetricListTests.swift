import ExperimentCore
import Testing

/// The guardrail list the console's metrics form reads: comma-separated `M[:decrease]`, the CLI's parser per item.
@Suite struct NamedMetricListTests {
    @Test func readsCommaSeparatedMetricsWithTheirDirections() throws {
        #expect(try NamedMetric.parseList(" refund:decrease,latency_ms:decrease , purchase:increase,errors") == [
            NamedMetric(metric: "refund", direction: .decrease), NamedMetric(metric: "latency_ms", direction: .decrease),
            NamedMetric(metric: "purchase"), NamedMetric(metric: "errors"),
        ])
    }

    @Test func emptyItemsAreSkippedAndAnEmptyListIsNone() throws {
        #expect(try NamedMetric.parseList("") == [])
        #expect(try NamedMetric.parseList(" , ,") == [])
        #expect(try NamedMetric.parseList("a,,b") == [NamedMetric(metric: "a"), NamedMetric(metric: "b")])
    }

    @Test func listTextReadsBack() throws {
        let metrics = [NamedMetric(metric: "refund", direction: .decrease), NamedMetric(metric: "latency")]
        #expect(NamedMetric.listText(metrics) == "refund:decrease, latency")
        #expect(try NamedMetric.parseList(NamedMetric.listText(metrics)) == metrics)
    }

    /// SPEC §12: a direction other than increase/decrease is refused, not read as part of the name.
    @Test func aDirectionOtherThanIncreaseOrDecreaseIsRefused() {
        #expect(throws: MetricTextError("the direction after `:` in `purchase:sideways` must be increase or decrease, not `sideways`")) {
            try NamedMetric.parse("purchase:sideways")
        }
        #expect(throws: MetricTextError.self) { try NamedMetric.parse("purchase:") }
        #expect(throws: MetricTextError.self) { try NamedMetric.parse("a:b:decrease") }
    }

    /// One character set for every front: letters, digits, `_ . -`, a letter or digit first, at most 128.
    @Test func namesOutsideTheCharacterSetAreRefused() throws {
        for name in ["purchase", "add_funds", "page.view", "checkout-started", "Revenue_USD", "7day_retention", String(repeating: "m", count: 128)] {
            #expect(MetricName.problem(name) == nil, "\(name)")
            #expect(try NamedMetric.parse(name + ":decrease") == NamedMetric(metric: name, direction: .decrease))
        }
        for name in ["", " ", "a b", "a,b", "_x", "-x", ".x", "é", "a\u{7}b", "a/b", String(repeating: "m", count: 129)] {
            #expect(MetricName.problem(name) != nil, "\(name)")
        }
        #expect(MetricName.problem("a,b")?.contains("name each guardrail on its own") == true)
        #expect(MetricName.problem(" ") == "` ` is not a metric name: " + MetricName.rule)
        // The store keeps reading names an earlier rule let in; setting them again is refused.
        let legacy = ExperimentMetrics(goal: NamedMetric(metric: "a b"))
        #expect(legacy.problems.isEmpty)
        #expect(legacy.problemsToSet.map(\.message) == ["`a b` is not a metric name: " + MetricName.rule])
    }
}
