import Foundation

extension FileSystem {
    /// Replaces `path` with `data` as durably and atomically as a store save (temp file, `fsync`,
    /// `rename`, directory `fsync`); an existing file keeps its mode, a new one gets `newMode`.
    ///
    /// The store's own rule decides what may be replaced (`kind`): a file this process may not
    /// write, or anything but a regular file, is refused before anything is created beside it.
    /// Returns false when the file already held exactly `data` (nothing is touched).
    package static func replaceAtomically(_ path: String, with data: Data, newMode: mode_t = 0o644) throws(Failure) -> Bool {
        try replaceAtomically(path, newMode: newMode, known: nil) { writer in
            data.withUnsafeBytes { writer.append($0.bindMemory(to: UInt8.self)) }
        }
    }

    /// `replaceAtomically(_:with:)` streaming what `write` gives; `known` is the file's current
    /// content when the caller holds it (read at `known.path`), so it is not read again. When `write`
    /// throws, nothing is replaced and its error is thrown.
    package static func replaceAtomically(_ path: String, newMode: mode_t = 0o644, known: (path: String, data: Data)?,
                                          write: (inout ByteWriter) throws(Failure) -> Void) throws(Failure) -> Bool {
        let target = resolvingLinks(path)
        switch kind(target) {
        case .missing, .regular(writable: true): break
        case .regular(writable: false): throw Failure(operation: "open", code: EACCES, detail: "permission denied: you may not write the file itself")
        case .other(let failure): throw failure
        }
        var original: Data?
        if let known, sameFile(path, known.path) { original = known.data } else { original = try read(target) }
        return try replaceAtomically(target, original: original, newMode: newMode, write: write)
    }

    /// Whether `path` and `other` name one existing file (through symlinks or hard links).
    package static func sameFile(_ path: String, _ other: String) -> Bool {
        guard let one = fingerprint(resolvingLinks(path)), let two = fingerprint(resolvingLinks(other)) else { return false }
        return one.device == two.device && one.inode == two.inode
    }
}
