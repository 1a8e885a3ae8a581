/// One thing wrong with a store file, at a JSON path such as `$.experiments[2].variants[0].ranges`.
public struct StoreProblem: Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
