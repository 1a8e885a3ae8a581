#if canImport(CZlib)
import Foundation

/// An answer's body as kept: its `Content-Encoding` undone (none, or gzip) and its size capped,
/// counted on the bytes kept (after inflation), as they arrive.
struct ResponseBody {
    enum Failure: Error, Equatable {
        /// The kept bytes would pass the cap.
        case tooLarge
        /// A content coding the client did not ask for (it asks for gzip and takes none).
        case unsupportedEncoding(String)
        /// The compressed bytes are no valid gzip (zlib's words).
        case corrupt(String)
        /// The body ended inside its compressed stream.
        case truncatedEncoding
    }

    /// The codings the client takes, as the `Accept-Encoding` it sends says.
    static let acceptEncoding = "gzip"

    private(set) var data = Data()
    let maxBytes: Int
    private let inflater: GzipInflater?
    private var sawInput = false

    /// A body sent with `contentEncoding` (the header's values), `declaredLength` bytes on the wire when known.
    init(contentEncoding: [String], maxBytes: Int, declaredLength: Int?) throws(Failure) {
        let codings = contentEncoding.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces.lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        switch codings {
        case []:
            inflater = nil
            // Room for the whole declared body at once (never past the cap).
            if let declaredLength, declaredLength > 0 { data.reserveCapacity(min(declaredLength, maxBytes)) }
        case ["gzip"], ["x-gzip"], ["deflate"]:
            inflater = GzipInflater()
        default:
            throw .unsupportedEncoding(codings.joined(separator: ", "))
        }
        self.maxBytes = maxBytes
    }

    /// Keeps `bytes` (inflated when compressed).
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard !bytes.isEmpty else { return }
        sawInput = true
        guard let inflater else {
            guard data.count + bytes.count <= maxBytes else { throw .tooLarge }
            data.append(contentsOf: bytes)
            return
        }
        do {
            try inflater.inflate(bytes, into: &data, maxBytes: maxBytes)
        } catch {
            switch error {
            case .tooLarge: throw .tooLarge
            case .corrupt(let reason): throw .corrupt(reason)
            }
        }
    }

    /// The body, once the answer ended: a compressed one must have reached its stream's end.
    func finished() throws(Failure) -> Data {
        if let inflater, sawInput, !inflater.isAtEnd { throw .truncatedEncoding }
        return data
    }
}
#endif
