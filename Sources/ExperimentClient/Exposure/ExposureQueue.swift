import Foundation

/// The unsent exposures of an `HTTPExposureSink`, in order, mirrored in a JSON Lines file so they
/// survive the app's end. Not thread-safe: the sink holds its lock around every call.
///
/// A row is appended to the file before `append` returns; rows sent are removed by rewriting the
/// file atomically with the rest, so a crash leaves either the rows before or after a send.
struct ExposureQueue {
    let file: URL
    let capacity: Int
    private(set) var rows: [String] = []

    /// The queue kept in `file`; lines that are not JSON objects (a write cut short by a crash) or
    /// past `capacity` are left out and counted in `discarded`.
    init(file: URL, capacity: Int) {
        self.file = file
        self.capacity = capacity
        guard let data = try? Data(contentsOf: file) else { return }
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            if rows.count < capacity, (try? JSONSerialization.jsonObject(with: Data(line))) is [String: Any] {
                rows.append(String(decoding: line, as: UTF8.self))
            } else {
                discarded += 1
            }
        }
        if discarded > 0 { persist() }
    }

    /// Rows dropped when read back at launch.
    private(set) var discarded = 0

    var isFull: Bool { rows.count >= capacity }

    /// Adds `row` at the end, in memory and in the file; nil, or why the file did not take it
    /// (the row stays queued in memory all the same).
    mutating func append(_ row: String) -> String? {
        rows.append(row)
        let line = Array((row + "\n").utf8)
        do {
            let descriptor = try ClientFiles.openDescriptor(file.path, flags: ClientFiles.appendFlags, permissions: 0o600)
            defer { ClientFiles.closeDescriptor(descriptor) }
            return line.withUnsafeBytes { ClientFiles.writeAll($0, to: descriptor) }
        } catch {
            return error.reason
        }
    }

    /// Removes the first `count` rows (sent, or refused for good).
    mutating func removeFirst(_ count: Int) {
        rows.removeFirst(min(count, rows.count))
        persist()
    }

    /// Rewrites the file with the rows queued, atomically.
    private func persist() {
        let text = rows.isEmpty ? "" : rows.joined(separator: "\n") + "\n"
        try? Data(text.utf8).write(to: file, options: .atomic)
    }
}
