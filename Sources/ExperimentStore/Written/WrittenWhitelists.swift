import ExperimentCore
import Foundation

/// A store file read for an export: the validated snapshot with every whitelist left in the file,
/// and each experiment's entries read back from their lines when the export writes them.
///
/// The file is read as a merge reads it (`WrittenStore`: validated, every entry checked, none kept),
/// so an export of a million entries never holds them as values. In the writer's form a subject or
/// variant is the bytes between its quotes, with no escape in them, so those bytes are the string's UTF-8.
package struct WrittenWhitelists {
    private let store: WrittenStore

    /// The store with every experiment's whitelist empty (its entries are in the file).
    package var snapshot: StoreSnapshot { store.snapshot }

    /// The store at `path`; nil when it is not a valid store all in the writer's form (the caller then
    /// reads it whole with `StoreFile.load`, which decides and explains).
    package init?(path: String) {
        guard let store = WrittenStore(path: path) else { return nil }
        self.store = store
    }

    /// Whether experiment `key` whitelists any subject (its entries in the file).
    package func hasEntries(of key: String) -> Bool {
        !(store.spans[key]?.entries.isEmpty ?? true)
    }

    /// The file's bytes are no longer the writer's form: it was changed in place while read.
    package struct Changed: Error {}

    /// Calls `body` with the subject and the variant of each of `key`'s whitelist entries as UTF-8, in
    /// subject order (the file's), releasing the file's pages behind; nothing for an unknown key.
    package func forEachEntry(of key: String,
                              _ body: (_ subject: UnsafeBufferPointer<UInt8>, _ variant: UnsafeBufferPointer<UInt8>) -> Void) throws(Changed) {
        guard let entries = store.spans[key]?.entries, !entries.isEmpty else { return }
        let complete = store.data.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lines = WrittenEntryLines(bytes, entries: entries)
            var count = 0
            while lines.offset < entries.upperBound {
                guard let line = lines.nextLine(), let (subject, variant) = Self.subjectAndVariant(bytes, line) else { return false }
                body(UnsafeBufferPointer(rebasing: bytes[subject]), UnsafeBufferPointer(rebasing: bytes[variant]))
                count += 1
                if count % 65_536 == 0 { store.file.release(before: line.lowerBound) }
            }
            return true
        }
        store.file.release(before: entries.upperBound)
        guard complete else { throw Changed() }
    }

    /// Where the subject and the variant of the entry line `line` are, found from its end:
    /// `…, "subject": "S", "variant": "V"}`, where no string holds a quote; nil when the line is not so.
    private static func subjectAndVariant(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> (Range<Int>, Range<Int>)? {
        guard let base = bytes.baseAddress, line.count > beforeVariant.count + beforeSubject.count + 2,
              base[line.upperBound - 1] == UInt8(ascii: "}"), base[line.upperBound - 2] == quote,
              let opening = lastQuote(base, before: line.upperBound - 2, after: line.lowerBound) else { return nil }
        let subjectEnd = opening + 1 - beforeVariant.count
        guard subjectEnd > line.lowerBound, memcmp(base + subjectEnd, beforeVariant, beforeVariant.count) == 0,
              let subjectOpening = lastQuote(base, before: subjectEnd, after: line.lowerBound) else { return nil }
        let subjectStart = subjectOpening + 1
        guard subjectStart - beforeSubject.count >= line.lowerBound,
              memcmp(base + subjectStart - beforeSubject.count, beforeSubject, beforeSubject.count) == 0 else { return nil }
        return (subjectStart..<subjectEnd, opening + 1..<line.upperBound - 2)
    }

    /// The position of the last quote before `end` and after `start`; nil when there is none.
    private static func lastQuote(_ base: UnsafePointer<UInt8>, before end: Int, after start: Int) -> Int? {
        var position = end - 1
        while position > start {
            if base[position] == quote { return position }
            position -= 1
        }
        return nil
    }

    private static let quote = UInt8(ascii: "\"")

    /// What lies before a subject's bytes in an entry's line.
    private static let beforeSubject = Array(", \"subject\": \"".utf8)

    /// What lies between a subject's bytes and its variant's in an entry's line.
    private static let beforeVariant = Array("\", \"variant\": \"".utf8)
}
