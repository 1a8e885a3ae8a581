import Testing
@testable import ConsoleUI

/// The table is the whole truth: every key dispatch accepts in a context is one `?` lists there.
@Suite("Key bindings: dispatch matches what help shows")
struct KeyBindingsTests {
    /// Every key the console can receive, but for typed text beyond a few letters.
    static let keys: [Key] = [.up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .enter, .escape, .tab, .backTab,
                              .backspace, .delete, .control("c"), .control("u"), .function(1)]
        + "?ijkgGqnrwRsHpadI/+-y".map(Key.character)

    @Test(arguments: BindingContext.allCases)
    func everyKeyThatActsIsListedInHelp(context: BindingContext) {
        let listed = Set((KeyBindings.all.filter { $0.context == context } + KeyBindings.globals(in: context)).flatMap(\.keys))
        for key in Self.keys where KeyBindings.intent(for: key, in: context) != nil {
            #expect(listed.contains(key), "\(key) acts in \(context) but `?` does not list it")
        }
    }

    @Test func ctrlCQuitsInEveryContext() {
        for context in BindingContext.allCases {
            #expect(KeyBindings.intent(for: .control("c"), in: context) == .forceQuit, "\(context)")
        }
    }

    @Test func textFieldsAndConfirmationsKeepTheirCharacters() {
        for context in [BindingContext.form, .inspector, .filter, .confirm] {
            #expect(KeyBindings.intent(for: .character("?"), in: context) == nil, "\(context)")
            #expect(KeyBindings.intent(for: .character("i"), in: context) == nil, "\(context)")
        }
        #expect(KeyBindings.intent(for: .character("?"), in: .rampEditor) == .help)
        #expect(KeyBindings.intent(for: .character("?"), in: .list) == .help)
    }
}
