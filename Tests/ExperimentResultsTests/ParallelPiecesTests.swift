import ParallelPieces
import Testing

/// `ParallelPieces`: pieces parsed on several threads come out whole and in order, and an error surfaces in its place.
struct ParallelPiecesTests {
    struct PieceFailed: Error, Equatable { let piece: Int }

    /// A small deterministic generator (the piece sizes and values of one seed are the same on every run).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Values cut into rounds of pieces of random sizes (some empty).
    static func rounds(seed: UInt64) -> [[[Int]]] {
        var random = Generator(state: seed)
        return (0..<(1 + random.next(6))).map { _ in
            (0..<(1 + random.next(12))).map { _ in (0..<random.next(40)).map { _ in random.next(1_000_000) } }
        }
    }

    @Test(arguments: 1...8)
    func roundsComeOutInOrder(threads: Int) throws {
        for seed in UInt64(1)...40 {
            let rounds = Self.rounds(seed: seed)
            var pieces = ParallelPieces<[Int], PieceFailed>()
            var applied: [Int] = []
            for round in rounds {
                try pieces.submit(round.count, threads: threads, parse: { index in round[index].map { $0 * 2 + 1 } }) { applied += $0 }
            }
            try pieces.finish { applied += $0 }
            #expect(applied == rounds.joined().joined().map { $0 * 2 + 1 }, "seed \(seed), \(threads) threads")
        }
    }

    @Test(arguments: 1...8)
    func aPieceErrorSurfacesAfterThePiecesBeforeIt(threads: Int) {
        for failing in 0..<10 {
            let round = (0..<10).map { [$0] }
            var applied: [Int] = []
            var pieces = ParallelPieces<[Int], PieceFailed>()
            #expect(throws: PieceFailed(piece: failing)) {
                try pieces.submit(round.count, threads: threads, parse: { (index) throws(PieceFailed) -> [Int] in
                    if index >= failing { throw PieceFailed(piece: index) }
                    return round[index]
                }) { applied += $0 }
                try pieces.finish { applied += $0 }
            }
            #expect(applied == Array(0..<failing), "\(threads) threads, piece \(failing) failing")
        }
    }

    @Test(arguments: 1...8)
    func anApplyErrorStopsAtItsPiece(threads: Int) {
        var applied: [Int] = []
        var pieces = ParallelPieces<Int, PieceFailed>()
        #expect(throws: PieceFailed(piece: 3)) {
            try pieces.submit(6, threads: threads, parse: { $0 }) { applied.append($0) }
            try pieces.submit(6, threads: threads, parse: { $0 + 6 }) { (piece) throws(PieceFailed) in
                if piece == 3 { throw PieceFailed(piece: piece) }
                applied.append(piece)
            }
        }
        #expect(applied == [0, 1, 2])
    }
}
