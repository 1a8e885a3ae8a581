/// The completion scripts `abconsole completion bash|zsh|fish` prints.
///
/// Each is the same few lines: hand the words typed so far to `abconsole __complete` and offer
/// what it prints; when it prints nothing, complete file names. Everything the scripts offer
/// (commands, options, values, experiment keys) comes from the command table and the store.
enum CompletionScripts {
    /// The shells there is a script for.
    static let shells = ["bash", "zsh", "fish"]

    /// The script for `shell` (one of `shells`).
    static func script(for shell: String) -> String {
        switch shell {
        case "zsh": zsh
        case "fish": fish
        default: bash
        }
    }

    static let bash = #"""
    # bash completion for abconsole, printed by `abconsole completion bash`.
    # Load it in ~/.bashrc with:  source <(abconsole completion bash)
    _abconsole() {
        local cur="${COMP_WORDS[COMP_CWORD]}" line
        local -a candidates=()
        while IFS= read -r line; do
            [[ -n "$line" ]] && candidates+=("${line%%$'\t'*}")
        done < <("${COMP_WORDS[0]}" \#(Completion.hiddenCommand) "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
        local IFS=$'\n'
        COMPREPLY=($(compgen -W "${candidates[*]}" -- "$cur"))
    }
    complete -o default -F _abconsole abconsole
    """#

    static let zsh = #"""
    #compdef abconsole
    # zsh completion for abconsole, printed by `abconsole completion zsh`.
    # Load it in ~/.zshrc (after compinit) with:  source <(abconsole completion zsh)
    _abconsole() {
        local line value description
        local -a candidates
        for line in "${(@f)$("${words[1]}" \#(Completion.hiddenCommand) "${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
            [[ -z "$line" ]] && continue
            value="${line%%$'\t'*}"
            description=""
            [[ "$line" == *$'\t'* ]] && description="${line#*$'\t'}"
            candidates+=("${value//:/\\:}${description:+:$description}")
        done
        if (( ${#candidates} == 0 )); then
            _files
        else
            _describe -t values abconsole candidates
        fi
    }
    if [[ "${funcstack[1]}" == "_abconsole" ]]; then _abconsole "$@"; else compdef _abconsole abconsole; fi
    """#

    static let fish = #"""
    # fish completion for abconsole, printed by `abconsole completion fish`.
    # Load it with:  abconsole completion fish | source
    function __abconsole_complete
        set -l words (commandline -opc)
        command $words[1] \#(Completion.hiddenCommand) $words[2..-1] (commandline -ct) 2>/dev/null
    end
    complete -c abconsole -f -a '(__abconsole_complete)'
    complete -c abconsole -F -n 'not __abconsole_complete | string length -q'
    """#
}
