import ExperimentClient
import ExperimentCore
import Foundation
import Testing

/// A payload reaches the app with its numbers as the store wrote them, from a store file and from a client export.
@Suite struct PayloadTextTests {
    /// The payload's text, as a key sees it.
    enum PayloadText: ExperimentKey {
        static let key = "sized"
        static let defaultValue = ""
        static func value(of variant: VariantContent) throws(VariantMappingError) -> String { variant.payload?.compactText ?? "" }
    }

    @Test func numbersKeepTheirText() throws {
        let payload = try #require(JSONValue(parsing: #"{"big":1.50e3,"list":[0.10,2],"size":1.0}"#))
        let experiment = Fixture.experiment("sized", variants: [("a", [BucketRange(0, 10000)], payload)])
        let export = Fixture.clientData([experiment])
        #expect(String(decoding: export, as: UTF8.self).contains(#"{"big":1.50e3,"list":[0.10,2],"size":1.0}"#))
        let client = ExperimentClient(subject: Subject(userID: "u1"))
        _ = client.replaceSnapshot(with: export)
        #expect(client.value(for: PayloadText.self) == #"{"big":1.50e3,"list":[0.10,2],"size":1.0}"#)
    }
}
