/// Where the client sends exposures: a file, an analytics SDK, a queue. Called outside the client's
/// lock, possibly from several threads at once.
public protocol ExposureSink: Sendable {
    func record(_ exposure: Exposure)
}
