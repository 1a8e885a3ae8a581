#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ParallelPieces

/// The rows of one piece, parsed by one thread and returned as its own: the records it kept, each with
/// its line (counted from the piece's start), the bytes they keep, and the first error, which ends the piece.
private struct ParsedPiece<Record: Sendable>: Sendable {
    var records: [Record] = []
    var lines: [Int32] = []
    var arena: [UInt8] = []
    var lineCount = 0
    var rows = 0
    var error: EventError?
}

/// Turns one row (its fields, its line, the arena for the bytes the record keeps) into a record, or nil.
typealias RowParse<Record> = @Sendable (UnsafeMutableBufferPointer<FieldSlice>, Int, inout [UInt8]) throws(EventError) -> Record?

extension EventLog {
    /// Reads every row as `parse` turns it into a record (nil: nothing to keep) and hands the records to `apply` in file order.
    ///
    /// `parse` sees one row's fields, its line and an arena for the bytes the record keeps; it must
    /// decide from the row alone (threads call it at once, so what it captures is `Sendable`). `apply` sees each record with its line and
    /// that arena, one at a time and in file order, exactly as a single reader would call it: state
    /// lives there. With more than one thread the file is read in rounds of pieces cut at line
    /// boundaries; the threads parse one round while the records of the round before are applied.
    /// Errors come out as a single reader would meet them: the first in file order, with its line.
    /// `ahead` sees, on the applying thread, each record some `ParallelReader.lookahead` records before it
    /// is applied (when parsed in parallel): a hint to bring its memory into the cache, which must not change state.
    @discardableResult
    func forEachRecord<Record: Sendable>(progress: ReadProgress?, partialLastLine: Bool, parallelism: ReadParallelism,
                               parse: RowParse<Record>,
                               ahead: (Record) -> Void = { _ in },
                               apply: (Record, Int, UnsafeBufferPointer<UInt8>) throws(EventError) -> Void) throws(EventError) -> String? {
        if parallelism.threads > 1 {
            var reader = ParallelReader<Record>(log: self, parallelism: parallelism, progress: progress)
            if let outcome = try reader.run(partialLastLine: partialLastLine, parse: parse, ahead: ahead, apply: apply) { return outcome.note }
        }
        var arena: [UInt8] = []
        return try forEachRow(progress: progress, partialLastLine: partialLastLine) { (fields, line) throws(EventError) in
            arena.removeAll(keepingCapacity: true)
            guard let record = try parse(fields, line, &arena) else { return }
            try arena.withUnsafeBufferPointer { (bytes) throws(EventError) in try apply(record, line, bytes) }
        }
    }
}

/// The parallel side of `EventLog.forEachRecord`: a read buffer cut into pieces at line boundaries,
/// parsed by `ParallelPieces` (one round while the round before is applied), and the line count so far.
private struct ParallelReader<Record: Sendable> {
    /// What a finished reading returns (nil from `run`: the file is better read by one thread).
    struct Outcome { let note: String? }
    /// How many records ahead of the one applied `ahead` looks.
    static var lookahead: Int { 16 }

    let log: EventLog
    let parallelism: ReadParallelism
    let progress: ReadProgress?

    init(log: EventLog, parallelism: ReadParallelism, progress: ReadProgress?) {
        self.log = log
        self.parallelism = parallelism
        self.progress = progress
    }

    mutating func run(partialLastLine: Bool,
                      parse: RowParse<Record>,
                      ahead: (Record) -> Void,
                      apply: (Record, Int, UnsafeBufferPointer<UInt8>) throws(EventError) -> Void) throws(EventError) -> Outcome? {
        let path = log.path
        let descriptor = try EventFiles.openRegular(path)
        defer { EventFiles.closeLog(descriptor) }
        let pieces = parallelism.threads * 2
        var capacity = max(parallelism.pieceBytes * pieces, 64)
        // A small file is not worth the threads.
        guard let size = EventFiles.size(descriptor), size > capacity else { return nil }
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0
        var atEnd = false
        func fill() throws(EventError) {
            while filled < capacity, !atEnd {
                let count = try EventFiles.readChunk(descriptor, into: buffer + filled, capacity: capacity - filled, path: path)
                if count == 0 { atEnd = true }
                filled += count
            }
        }
        if progress?.isCancelled == true { throw .cancelled }
        try fill()
        var scanner = RowScanner(log)
        defer { scanner.free() }
        // The lines before the current round (the header and any blank lines before it, then each applied piece).
        var base = 0
        if log.format == .csv {
            var start = 0
            while true {
                // The header must end inside the first buffer; a file that does not is read by one thread.
                guard let newline = memchr(buffer + start, 0x0A, filled - start) else { return nil }
                let end = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                base += 1
                guard end - start <= LineReader.maxLineBytes else { throw LineReader.tooLong(path, base) }
                let line = LineReader.trimmed(UnsafeBufferPointer(start: buffer + start, count: end - start))
                start = end + 1
                if RowScanner.isBlank(line) { continue }
                try scanner.readHeader(line, number: base)
                break
            }
            filled -= start
            memmove(buffer, buffer + start, filled)
        }
        // One scanner per piece, kept from round to round (a scanner's scratch memory grows with long rows).
        let scanners = PieceScanners(scanner, count: pieces)
        defer { scanners.free() }
        var rounds = ParallelPieces<ParsedPiece<Record>, EventError>()
        var tooLongAfterPending = false
        var firstRound = true

        /// Applies one parsed piece: its records in order, then its first error.
        func applyPiece(_ piece: ParsedPiece<Record>) throws(EventError) {
            let lineBase = base
            try piece.arena.withUnsafeBufferPointer { (arena) throws(EventError) in
                // `ahead` in bursts (the next `lookahead` records at once), so that their cache misses overlap.
                let records = piece.records, distance = Self.lookahead
                for position in 0..<records.count {
                    if position % distance == 0 {
                        var later = position == 0 ? 0 : position + distance
                        let end = min(position + 2 * distance, records.count)
                        while later < end {
                            ahead(records[later])
                            later += 1
                        }
                    }
                    try apply(records[position], lineBase + Int(piece.lines[position]), arena)
                }
            }
            if let error = piece.error { throw Self.shifted(error, by: lineBase) }
            base += piece.lineCount
        }

        while true {
            // The next round: the whole lines in the buffer (growing it for a line longer than the buffer).
            var complete = 0
            while true {
                try fill()
                if let newline = Self.lastNewline(buffer, filled) {
                    complete = newline + 1
                    break
                }
                if atEnd || filled > LineReader.maxLineBytes { break }
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                grown.update(from: buffer, count: filled)
                buffer.deallocate()
                buffer = grown
                capacity *= 2
            }
            let rest = filled - complete
            var bounds = [0]
            for index in 1..<pieces {
                let target = max(complete * index / pieces, bounds[index - 1])
                if target >= complete {
                    bounds.append(complete)
                } else {
                    let newline = memchr(buffer + target, 0x0A, complete - target)
                    bounds.append(newline.map { buffer.distance(to: $0.assumingMemoryBound(to: UInt8.self)) + 1 } ?? complete)
                }
            }
            bounds.append(complete)
            let round = RoundBytes(base: UnsafePointer(buffer), bounds: bounds)
            let startsFile = firstRound && log.format == .jsonLines
            let progress = self.progress
            try rounds.submit(pieces, threads: parallelism.threads, parse: { index in
                scanners.withScanner(index) { scanner in
                    Self.parsePiece(round.piece(index), startsFile: startsFile && index == 0, scanner: &scanner, progress: progress, parse: parse)
                }
            }, apply: applyPiece)
            firstRound = false
            memmove(buffer, buffer + complete, rest)
            filled = rest
            if rest > LineReader.maxLineBytes {
                tooLongAfterPending = true
                break
            }
            if atEnd { break }
        }
        try rounds.finish(apply: applyPiece)
        if tooLongAfterPending { throw LineReader.tooLong(path, base + 1) }
        guard filled > 0 else { return Outcome(note: nil) }
        // The last line, without a newline: read as the single reader reads it.
        let number = base + 1
        let line = LineReader.trimmed(UnsafeBufferPointer(start: buffer, count: filled))
        if RowScanner.isBlank(line) { return Outcome(note: nil) }
        do throws(EventError) {
            try scanner.scan(line, number: number, atFileStart: number == 1 && log.format == .jsonLines)
            var arena: [UInt8] = []
            if let record = try parse(scanner.slices, number, &arena) {
                try arena.withUnsafeBufferPointer { (bytes) throws(EventError) in try apply(record, number, bytes) }
            }
            progress?.add(rows: 1)
        } catch {
            guard partialLastLine, case .malformed(_, let failed, let field, let reason) = error, failed == number else { throw error }
            return Outcome(note: EventLog.incompleteNote(path, number, field, reason))
        }
        return Outcome(note: nil)
    }

    /// Parses the whole lines of one piece (each ends with a newline) until the first error.
    private static func parsePiece(_ text: UnsafeBufferPointer<UInt8>, startsFile: Bool, scanner: inout RowScanner,
                                   progress: ReadProgress?, parse: RowParse<Record>) -> ParsedPiece<Record> {
        var piece = ParsedPiece<Record>()
        guard let base = text.baseAddress, !text.isEmpty else { return piece }
        if progress?.isCancelled == true {
            piece.error = .cancelled
            return piece
        }
        var start = 0
        var number = 0
        while start < text.count, let newline = memchr(base + start, 0x0A, text.count - start) {
            let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            number += 1
            defer { start = end + 1 }
            guard end - start <= LineReader.maxLineBytes else {
                piece.error = LineReader.tooLong(scanner.path, number)
                break
            }
            let line = LineReader.trimmed(UnsafeBufferPointer(start: base + start, count: end - start))
            if RowScanner.isBlank(line) { continue }
            do throws(EventError) {
                try scanner.scan(line, number: number, atFileStart: startsFile && number == 1)
                if let record = try parse(scanner.slices, number, &piece.arena) {
                    piece.records.append(record)
                    piece.lines.append(Int32(truncatingIfNeeded: number))
                }
                piece.rows += 1
            } catch {
                piece.error = error
                break
            }
        }
        piece.lineCount = number
        progress?.add(rows: piece.rows)
        return piece
    }

    /// The position of the last newline in the first `count` bytes of `buffer`.
    private static func lastNewline(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int? {
        var index = count - 1
        while index >= 0 {
            if buffer[index] == 0x0A { return index }
            index -= 1
        }
        return nil
    }

    /// `error` with its line moved on by `lines` (a piece counts its lines from its own start).
    private static func shifted(_ error: EventError, by lines: Int) -> EventError {
        guard case .malformed(let file, let line, let field, let reason) = error else { return error }
        return .malformed(file: file, line: line + lines, field: field, reason: reason)
    }
}

/// One round's read buffer, cut into pieces, as the parsing threads see it.
/// `@unchecked Sendable`: the bytes are only read, and the reader refills the buffer only after `submit` has returned (every piece parsed).
private struct RoundBytes: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
    let bounds: [Int]

    func piece(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + bounds[index], count: bounds[index + 1] - bounds[index])
    }
}

/// One row scanner per piece of a round, copies of the reader's (same header, memory of their own).
/// `@unchecked Sendable`: scanner `i` is used only by piece `i`'s parse, and rounds never overlap.
private final class PieceScanners: @unchecked Sendable {
    private let scanners: UnsafeMutableBufferPointer<RowScanner>

    init(_ scanner: RowScanner, count: Int) {
        scanners = .allocate(capacity: count)
        _ = scanners.initialize(from: (0..<count).map { _ in scanner.copy() })
    }

    func withScanner<Value>(_ index: Int, _ body: (inout RowScanner) -> Value) -> Value { body(&scanners[index]) }

    func free() {
        for scanner in scanners { scanner.free() }
        scanners.deinitialize().deallocate()
    }
}
