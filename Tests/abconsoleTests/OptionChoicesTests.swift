import Foundation
import Testing
@testable import abconsole

/// Declared choices are the parser's to enforce: a value outside them is a usage error (64) naming
/// the option and the allowed values, for every option of the command table that declares some.
@Suite struct OptionChoicesTests {
    /// One case per option with choices: the words of a line that is valid but for `value` given to `option`.
    struct Case: CustomTestStringConvertible, Sendable {
        let command: String
        let option: String
        let choices: [String]
        let words: [String]
        var testDescription: String { "\(command) \(option)" }
    }

    /// `command`'s words with its required positionals and required options filled with acceptable values, then `option value`.
    static func line(_ command: CommandSpec, _ option: String, _ value: String) -> [String] {
        var words = command.name.split(separator: " ").map(String.init)
        for argument in command.arguments where argument.arity == .required || argument.arity == .variadicAtLeastOne {
            words.append(argument.choices.first ?? "word")
        }
        for required in command.options where required.required && required.name != option {
            words += [required.name, required.choices.first ?? "a=100"]
        }
        return words + [option, value]
    }

    static let cases: [Case] = commandTable.flatMap { command in
        options(of: command).filter { !$0.choices.isEmpty }.map { option in
            Case(command: command.name, option: option.name, choices: option.choices, words: line(command, option.name, "bogus-value"))
        }
    }

    @Test func theTableDeclaresChoices() {
        // list --status, create --type, export --format and --values, results --engine at least.
        #expect(Self.cases.count >= 5, "\(Self.cases.map(\.testDescription))")
    }

    @Test(arguments: cases)
    func theParserRefusesAValueOutsideTheChoices(_ refusal: Case) throws {
        do {
            let result = try parseCommandLine(refusal.words, commands: commandTable)
            Issue.record("`\(refusal.words.joined(separator: " "))` parsed: \(result)")
        } catch {
            #expect(error.code == .usage)
            #expect(error.message.hasPrefix("\(refusal.option) must be "), "\(error.message)")
            #expect(error.message.contains("not `bogus-value`"), "\(error.message)")
            for choice in refusal.choices { #expect(error.message.contains(choice), "\(error.message) lacks \(choice)") }
            #expect(error.command?.name == refusal.command, "the usage line of the command follows")
        }
    }

    @Test(arguments: cases)
    func theParserAcceptsEveryDeclaredChoice(_ accepted: Case) throws {
        let command = try #require(commandTable.first { $0.name == accepted.command })
        for choice in accepted.choices {
            let words = Self.line(command, accepted.option, choice)
            guard case .command(let parsed, let arguments) = try parseCommandLine(words, commands: commandTable) else {
                Issue.record("`\(words.joined(separator: " "))` is not a command line")
                continue
            }
            #expect(parsed.name == accepted.command)
            let spec = try #require(options(of: command).first { $0.name == accepted.option })
            #expect(arguments[Option(spec)] == choice)
        }
    }

    @Test func aNearMissIsAnsweredWithTheNearestChoice() throws {
        #expect(throws: CLIError.self) { try parseCommandLine(["results", "e", "--engine", "frequntist"], commands: commandTable) }
        do {
            _ = try parseCommandLine(["export", "--format", "growthbok"], commands: commandTable)
            Issue.record("--format growthbok parsed")
        } catch {
            #expect(error.message == "--format must be growthbook or client, not `growthbok`; did you mean `growthbook`?")
        }
    }

    @Test func helpWinsOverAValueOutsideTheChoices() throws {
        guard case .help = try parseCommandLine(["list", "--status", "live", "--help"], commands: commandTable) else {
            Issue.record("--help did not win")
            return
        }
    }

    /// The accessor `required` stands on this: no command runs without its required positionals.
    @Test func theParserRefusesAMissingRequiredPositional() {
        for command in commandTable where command.arguments.contains(where: { $0.arity == .required || $0.arity == .variadicAtLeastOne }) {
            let words = command.name.split(separator: " ").map(String.init)
            #expect(throws: CLIError.self, "\(command.name)") { try parseCommandLine(words, commands: commandTable) }
        }
    }

    @Test(arguments: cases)
    func theRealProcessRefusesAValueOutsideTheChoicesAndWritesNothing(_ refusal: Case) throws {
        let sandbox = try Fixture.sandbox()
        let result = sandbox.refused(refusal.words, code: 64, "\(refusal.option) must be ")
        #expect(result.stderr.contains("not `bogus-value`"), "\(result.stderr)")
        for choice in refusal.choices { #expect(result.stderr.contains(choice), "\(result.stderr)") }
    }
}
