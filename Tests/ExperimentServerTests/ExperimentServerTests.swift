import Testing
@testable import ExperimentServer

@Suite struct ExperimentServerPlaceholderTests {
    @Test func targetBuilds() { #expect(String(describing: ExperimentServerNamespace.self) == "ExperimentServerNamespace") }
}
