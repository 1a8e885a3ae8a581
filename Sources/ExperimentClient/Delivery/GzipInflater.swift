#if canImport(CZlib)
import CZlib
import Foundation

/// The one file of ExperimentClient that calls zlib: inflates a gzip (or zlib-wrapped deflate)
/// body as its bytes arrive, into a buffer that may not grow past a cap.
///
/// Output goes 64 KiB at a time and the cap is checked before each piece is kept, so a gzip bomb
/// costs the cap and one piece, whatever it would inflate to.
final class GzipInflater {
    enum Failure: Error, Equatable {
        /// Keeping the next piece would pass the cap.
        case tooLarge
        /// zlib refused the bytes (its words).
        case corrupt(String)
    }

    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 64 << 10)
    private let started: Bool
    /// Whether the last compressed stream ended (more bytes after it start another gzip member).
    private(set) var isAtEnd = false

    init() {
        // 15 + 32: a 32 KiB window, gzip or zlib header detected from the first bytes.
        started = inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit {
        if started { inflateEnd(&stream) }
    }

    /// Inflates `input`, appending the result to `data` as long as it stays within `maxBytes`.
    func inflate(_ input: UnsafeRawBufferPointer, into data: inout Data, maxBytes: Int) throws(Failure) {
        guard started else { throw .corrupt("zlib could not start") }
        guard let base = input.baseAddress, !input.isEmpty else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        defer {
            stream.next_in = nil
            stream.avail_in = 0
        }
        while true {
            if isAtEnd {
                // Another gzip member follows the one that ended (RFC 1952 allows several).
                inflateReset(&stream)
                isAtEnd = false
            }
            let (status, produced) = output.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (status, buffer.count - Int(stream.avail_out))
            }
            stream.next_out = nil
            if produced > 0 {
                guard data.count + produced <= maxBytes else { throw .tooLarge }
                output.withUnsafeBufferPointer { data.append(UnsafeBufferPointer(rebasing: $0[0..<produced])) }
            }
            switch status {
            case Z_STREAM_END:
                isAtEnd = true
                if stream.avail_in == 0 { return }
            case Z_OK:
                // Done when all input is taken and the output did not fill (nothing left pending).
                if stream.avail_in == 0 && produced < output.count { return }
            case Z_BUF_ERROR:
                return
            default:
                throw .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
            }
        }
    }
}
#endif
