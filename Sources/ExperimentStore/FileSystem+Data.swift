import Foundation

extension FileSystem {
    /// Replaces `path` with `data` as durably and atomically as a store save (temp file, `fsync`,
    /// `rename`, directory `fsync`); an existing file keeps its mode, a new one gets `newMode`.
    ///
    /// Returns false when the file already held exactly `data` (nothing is touched).
    package static func replaceAtomically(_ path: String, with data: Data, newMode: mode_t = 0o644) throws(Failure) -> Bool {
        let target = resolvingLinks(path)
        let original = try read(target)
        return try replaceAtomically(target, original: original, newMode: newMode) { writer in
            data.withUnsafeBytes { writer.append($0.bindMemory(to: UInt8.self)) }
        }
    }
}
