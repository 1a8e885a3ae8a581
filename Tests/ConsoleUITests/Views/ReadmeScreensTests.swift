import Foundation
import Testing
@testable import ConsoleUI

/// The console's screens in README.md and docs/console.md: captured here at 120 columns from sample-data
/// (events beside it, the clock fixed) as the snapshots `readme-*.txt`, and the documents' screen blocks
/// must be those files verbatim. After `RECORD_SNAPSHOTS=1 swift test --filter ReadmeScreensTests`,
/// `scripts/readme-screens` rewrites the blocks from the snapshot files.
@Suite struct ReadmeScreensTests {
    static let width = 120
    static let height = 30
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The documents that show screens (scripts/readme-screens rewrites the same ones).
    static let documents = ["README.md", "docs/console.md"]

    /// A story over the sample store with its event logs, sized 120×30 as the run loop would.
    static func story() throws -> StoryStore {
        let story = try ResultsStoryTests.storeWithEvents()
        story.session.resize(width: width, height: height)
        return story
    }

    /// Records or compares the story's screen as the snapshot `name`.
    static func capture(_ story: StoryStore, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        Snapshot.assert(story.screen(width: width, height: height), named: name, sourceLocation: sourceLocation)
    }

    @Test func theList() throws {
        let story = try Self.story()
        Self.capture(story, "readme-list")
    }

    @Test func theDetail() throws {
        let story = try Self.story()
        story.send(.character("j"), .enter)
        #expect(story.session.state.screen == .detail(key: "app_color_scheme"))
        Self.capture(story, "readme-detail")
    }

    @Test func theRampEditorWithItsPreview() throws {
        let story = try Self.story()
        story.send(.character("r"))
        story.session.type("70")
        story.send(.tab)
        story.session.type("30")
        #expect(story.screen(width: Self.width).contains { $0.contains("20 % of subjects switch variant") })
        Self.capture(story, "readme-ramp")
    }

    @Test func theResolveFormBesideTheEvidence() throws {
        let story = try Self.story()
        story.send(.character("R"))
        story.session.settle()
        story.send(.right, .tab)
        story.session.type("account_add")
        Self.capture(story, "readme-resolve")
    }

    @Test func theWhitelist() throws {
        let story = try Self.story()
        story.send(.character("j"), .character("j"), .character("j"), .character("w"))
        #expect(story.session.state.screen.experimentKey == "ebook_promotion")
        Self.capture(story, "readme-whitelist")
    }

    @Test func theSubjectInspector() throws {
        let story = try Self.story()
        story.send(.character("i"))
        story.session.type("partner-acme-01")
        story.send(.enter, .down, .down, .down)
        #expect(story.screen(width: Self.width).contains { $0.contains("whitelisted into `newsletter`") })
        Self.capture(story, "readme-inspector")
    }

    @Test func theResults() throws {
        let story = try Self.story()
        story.send(.character("e"))
        story.session.settle()
        #expect(story.session.state.results?.report != nil)
        Self.capture(story, "readme-results")
    }

    @Test func theHelpOverlay() throws {
        let story = try Self.story()
        story.send(.character("?"))
        Self.capture(story, "readme-help")
    }

    /// The documents' blocks `<!-- screen: NAME -->` … `<!-- /screen -->` are the snapshots, each shown once,
    /// and every `readme-*` snapshot is shown.
    @Test func documentScreenBlocksAreTheSnapshots() throws {
        guard !Snapshot.isRecording else { return }  // the files are being rewritten; scripts/readme-screens comes next
        var blocks: [(document: String, block: ReadmeScreenBlocks.Block)] = []
        for document in Self.documents {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            blocks += ReadmeScreenBlocks.parse(text).map { (document, $0) }
        }
        let recorded = try FileManager.default.contentsOfDirectory(atPath: Snapshot.directory.path)
            .filter { $0.hasPrefix("readme-") && $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }.sorted()
        let shown = blocks.map(\.block.name)
        #expect(Set(shown) == Set(recorded), "the documents' screen blocks and the readme-* snapshots name different screens")
        #expect(Set(shown).count == shown.count, "a screen is shown twice: \(shown)")
        for (document, block) in blocks {
            let file = Snapshot.directory.appendingPathComponent(block.name + ".txt")
            let expected = try #require(try? String(contentsOf: file, encoding: .utf8), "\(document) shows \(block.name), which has no snapshot")
            let wanted = "```text\n" + expected + "```\n"
            guard block.body != wanted else { continue }
            Issue.record(Comment(rawValue: "\(document)'s screen \(block.name) differs from its snapshot (run scripts/readme-screens):\n"
                + Snapshot.diff(expected: wanted, actual: block.body)))
        }
    }
}

/// The screen blocks of a document (README.md, docs/console.md): `<!-- screen: NAME -->` on its own line, a ```text fence, `<!-- /screen -->`.
enum ReadmeScreenBlocks {
    struct Block: Equatable {
        let name: String
        /// Everything between the two marker lines.
        let body: String
    }

    static func parse(_ text: String) -> [Block] {
        var blocks: [Block] = []
        var current: (name: String, lines: [Substring])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<!-- screen: "), line.hasSuffix(" -->") {
                current = (String(line.dropFirst("<!-- screen: ".count).dropLast(" -->".count)), [])
            } else if line == "<!-- /screen -->", let open = current {
                blocks.append(Block(name: open.name, body: open.lines.map { $0 + "\n" }.joined()))
                current = nil
            } else if current != nil {
                current?.lines.append(line)
            }
        }
        return blocks
    }
}
