import Foundation

/// Buffered standard output: text is gathered and written in large blocks.
final class OutputBuffer {
    private var bytes: [UInt8] = []
    private let handle: FileHandle
    private let blockSize = 1 << 16

    init(handle: FileHandle = .standardOutput) {
        self.handle = handle
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

    /// Writes what is buffered.
    func flush() {
        guard !bytes.isEmpty else { return }
        try? handle.write(contentsOf: bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
