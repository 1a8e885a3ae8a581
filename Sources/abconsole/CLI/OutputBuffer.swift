#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered standard output: text is gathered and written in large blocks, every write checked.
///
/// The first failed write is kept in `failure` and everything after it is dropped, so a full disk
/// or a closed pipe ends the output at once; `runCommandLine` turns it into the exit status.
final class OutputBuffer {
    private var bytes: [UInt8] = []
    private let descriptor: Int32
    private let blockSize = 1 << 16
    /// The first write that failed, if any.
    private(set) var failure: StandardStreams.Failure?

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        bytes.reserveCapacity(blockSize * 2)
    }

    /// Appends `text` and a newline.
    func line(_ text: String) {
        write(text)
        bytes.append(0x0A)
    }

    /// Appends `text` as is.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
        if bytes.count >= blockSize { flush() }
    }

    /// Appends raw bytes.
    func write(bytes more: some Sequence<UInt8>) {
        bytes.append(contentsOf: more)
        if bytes.count >= blockSize { flush() }
    }

    /// Writes what is buffered (dropped once a write has failed).
    func flush() {
        guard !bytes.isEmpty else { return }
        defer { bytes.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        failure = bytes.withUnsafeBytes { raw -> StandardStreams.Failure? in
            do throws(StandardStreams.Failure) {
                try StandardStreams.write(raw, to: descriptor)
                return nil
            } catch {
                return error
            }
        }
    }
}
