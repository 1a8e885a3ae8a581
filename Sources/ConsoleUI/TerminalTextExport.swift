/// The console draws text with `SafeText`, `DisplayWidth` and `WordWrap`, which it shares with the CLI.
@_exported import TerminalText
