@testable import abconsole
import Foundation
import Testing

/// The options each command declares (`Flag`, `Option`) drive its help, its completion and what its handler reads.
@Suite struct OptionDeclarationTests {
    @Test(arguments: commandTable.map(\.name))
    func everyDeclaredOptionIsInHelpAndCompletion(_ name: String) throws {
        let command = try #require(commandTable.first { $0.name == name })
        let words = name.split(separator: " ").map(String.init)
        let help = CLI.run(words + ["--help"])
        #expect(help.code == 0, "\(help.stderr)")
        let completion = CLI.run(["__complete"] + words + ["--"])
        #expect(completion.code == 0, "\(completion.stderr)")
        let completed = Set(completion.lines.map { String($0.prefix { $0 != "\t" }) })
        for option in options(of: command) {
            #expect(help.lines.contains { $0.hasPrefix("  \(option.synopsis) ") }, "`\(name) --help` lacks \(option.synopsis)")
            #expect(completed.contains(option.name), "completion of `\(name)` lacks \(option.name)")
        }
    }

    @Test func aRepeatableOptionKeepsItsOrder() throws {
        let words = ["results", "e", "--metric", "revenue", "--metric=clicks", "--json", "--metric", "add_to_cart"]
        guard case .command(_, let arguments) = try parseCommandLine(words, commands: commandTable) else {
            Issue.record("`\(words.joined(separator: " "))` is not a command line")
            return
        }
        #expect(arguments.all(ResultsCommand.metric) == ["revenue", "clicks", "add_to_cart"])
        #expect(arguments[ResultsCommand.metric] == "add_to_cart")
        #expect(arguments[CommonOptions.json])
        #expect(!arguments[ResultsCommand.cuped])
        #expect(arguments.all(ResultsCommand.evidence.exposures).isEmpty)
    }

    @Test func aCommandsOwnOptionAndTheGlobalOfTheSameNameAreReadApart() throws {
        let words = ["--operator", "alice", "history", "--operator", "bob"]
        guard case .command(_, let arguments) = try parseCommandLine(words, commands: commandTable) else {
            Issue.record("`\(words.joined(separator: " "))` is not a command line")
            return
        }
        #expect(arguments[GlobalOptions.operatorName] == "alice")
        #expect(arguments[HistoryCommand.operatorName] == "bob")
        guard case .command(_, let listed) = try parseCommandLine(["list", "--operator", "carol"], commands: commandTable) else {
            Issue.record("`list --operator carol` is not a command line")
            return
        }
        #expect(listed[GlobalOptions.operatorName] == "carol", "a command that does not declare --operator leaves it global")
    }
}
