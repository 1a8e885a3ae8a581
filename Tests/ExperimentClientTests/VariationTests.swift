import ExperimentClient
import ExperimentCore
import Testing

/// `withVariation`: each element varied by its own experiment, in one chained expression.
@Suite struct VariationTests {
    struct ButtonStyle: Variable, Equatable {
        var tint = "#0a84ff"
        var label = "Buy"
        var showsBadge = false
    }

    @Test func variationsComposeInOrder() {
        let client = ExperimentClient(subject: Subject(userID: "u"))
        client.replaceSnapshot(with: Fixture.clientData([
            Fixture.experiment("theme", variants: [("x", [BucketRange(0, 10000)], .object(["color": .string("#34c759")]))]),
            Fixture.experiment("rollout", control: "off", variants: [("off", [], nil), ("on", [BucketRange(0, 10000)], nil)]),
        ]))
        let style = ButtonStyle()
            .withVariation(ThemeKey.self, client) { style, theme in style.tint = theme.color }
            .withVariation(Rollout.self, client) { style, on in style.showsBadge = on }
            .withVariation(Rollout.self, client) { style, on in style.label = on ? style.label + " now" : style.label }
        #expect(style == ButtonStyle(tint: "#34c759", label: "Buy now", showsBadge: true))
        // Without a snapshot every step sees its default: the design is unchanged.
        let plain = ExperimentClient()
        #expect(ButtonStyle().withVariation(ThemeKey.self, plain) { $0.tint = $1.color == "default" ? $0.tint : $1.color } == ButtonStyle())
        // Any value, conforming or not.
        #expect(client.vary(12, by: Rollout.self) { size, on in size += on ? 4 : 0 } == 16)
    }
}
