#!/usr/bin/env bash
# End-to-end tests of the console over a store in git: the real `abconsole` and real git inside
# private tmux servers (scripts/e2e/tmux-lib.sh). A real repository per scenario, set up with
# `abconsole git-setup`; a real conflicted `git merge` settled on the console's conflicts screen.
# Ends with `e2e git: N passed, M failed`; exits 1 on any failure. ABCONSOLE_BIN overrides the binary.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source-path=SCRIPTDIR/../.. source=scripts/e2e/tmux-lib.sh
source "$ROOT/scripts/e2e/tmux-lib.sh"

BIN=${ABCONSOLE_BIN:-$ROOT/.build/debug/abconsole}
[[ -x "$BIN" ]] || (cd "$ROOT" && swift build) >&2 || { echo "e2e git: swift build failed" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
command -v tmux >/dev/null || { echo "e2e git: tmux is not installed" >&2; exit 2; }
command -v git >/dev/null || { echo "e2e git: git is not installed" >&2; exit 2; }

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=e2e GIT_AUTHOR_EMAIL=e2e@example.com GIT_COMMITTER_NAME=e2e GIT_COMMITTER_EMAIL=e2e@example.com
e2e_setup abconsole-e2e-git

REPO=""
cli() { (cd "$REPO" && "$BIN" --store experiments.json --operator e2e-cli "$@"); }
g() { git -C "$REPO" "$@"; }
console() {
    tmux_start "${SCENARIO:-git}" "cd '$REPO' && '$BIN' --store experiments.json --operator e2e-op $*" 110 32
    echo "$TMUX_TEST_DIR" >>"$SERVERS"
}

# A repository with one running experiment, set up by git-setup, and two branches that change
# its allocation differently: main ramps it, `theirs` pauses it; then `git merge theirs`.
conflicted_repo() {
    REPO=$(mktemp -d "$RUN_DIR/repo.XXXXXX")
    g init -q -b main
    cli create alpha --type user --variants control=50,treat=50 >/dev/null
    cli start alpha >/dev/null
    cli git-setup >/dev/null
    g add -A && g commit -q -m base
    g checkout -q -b theirs
    cli pause alpha >/dev/null
    cli whitelist add alpha user-1 treat --note qa >/dev/null
    g commit -q -am "pause alpha"
    g checkout -q main
    cli ramp alpha control=80 treat=20 >/dev/null
    g commit -q -am "ramp alpha"
    if g merge -q --no-edit theirs >/dev/null 2>&1; then fail "the merge should conflict"; fi
}

# The title shows the branch and CONFLICTED; the conflicts screen lists the allocation with BASE,
# OURS and THEIRS; → takes THEIRS; Enter writes and stages the store; after `git commit` the title
# says the branch alone, and a change through the CLI shows as uncommitted.
scenario_conflicts_screen() {
    conflicted_repo
    [[ $(g ls-files --stage -- experiments.json | wc -l) == 3 ]] || fail "git did not leave three stages"
    console
    tmux_wait_for "main · CONFLICTED" 8
    tmux_wait_for "Merge conflicts in the store (1)"
    tmux_wait_for "the allocation of \`alpha\` — take OURS"
    tmux_wait_for "BASE   running, control=50,treat=50"
    tmux_wait_for "OURS   running, control=80,treat=20"
    tmux_wait_for "THEIRS paused, control=50,treat=50"
    tmux_send Right
    tmux_wait_for "the allocation of \`alpha\` — take THEIRS"
    tmux_send Enter
    tmux_wait_for "settled 1 conflict (1 with THEIRS, each recorded in the history) and staged the store"
    [[ $(g ls-files --stage -- experiments.json | wc -l) == 1 ]] || fail "the store is not staged"
    cli show alpha --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["status"]=="paused" and [v["weight"] for v in d["variants"]]==[50,50] and len(d["whitelist"])==1 else 1)' \
        || fail "the settled store is not THEIRS's allocation with the merged whitelist"
    cli validate >/dev/null || fail "the settled store does not validate"
    g commit -q --no-edit
    tmux_wait_for " main · 1 experiments" 8
    cli set-description alpha "settled" >/dev/null
    tmux_wait_for "main · uncommitted" 8
    g commit -q -am "describe alpha"
    tmux_wait_for " main · 1 experiments" 8
    # --commit-changes: a change made in the console commits the store alone, with the operator.
    cli git-setup --commit-changes >/dev/null
    tmux_send s
    tmux_wait_for "Resume alpha?"
    tmux_send y
    _tmux_poll 8 committed_by_console || fail "the console's change was not committed: $(g log -1 --format=%B)"
    tmux_send q
    [[ $(tmux_wait_exit 5) == 0 ]] || fail "the console did not exit 0"
}

committed_by_console() {
    local message
    message=$(g log -1 --format=%B)
    [[ $message == "start alpha: paused → running"* && $message == *"Operator: e2e-op"* ]]
}

# A store merged without the driver (conflict markers in the JSON): the console does not open and
# names the way out, never a JSON syntax error; so does the CLI.
scenario_conflict_markers() {
    conflicted_repo
    g merge --abort
    g config --remove-section merge.abconsole
    if g merge -q --no-edit theirs >/dev/null 2>&1; then fail "the line merge should conflict"; fi
    grep -q '^<<<<<<<' "$REPO/experiments.json" || fail "git left no conflict markers"
    local out
    out=$(cli validate 2>&1) && fail "validate accepted a store with conflict markers"
    [[ $out == *"git conflict markers at line"*"abconsole merge base.json ours.json theirs.json"*"git checkout --ours"* ]] \
        || fail "the CLI message does not name the way out: $out"
    [[ $out != *"not valid JSON"* ]] || fail "the CLI calls it a JSON syntax error: $out"
    console
    tmux_wait_for "git conflict markers at line" 8
    tmux_wait_for "__EXIT:65__"
}

# A team: a bare origin and two clones set up with git-setup. Both ramp `alpha` and describe it
# differently; the second pushes first, so the first's `git pull` conflicts. The console opens the
# conflicts screen; THEIRS's allocation is taken, OURS's description kept; after `git commit` and
# `git push`, `abconsole history --json` in the other clone shows both choices by the settling operator.
scenario_pull_settled_on_screen() {
    local origin=$RUN_DIR/origin.git first=$RUN_DIR/first second=$RUN_DIR/second
    git init -q --bare -b main "$origin"
    git clone -q "$origin" "$first" 2>/dev/null
    REPO=$first
    cli create alpha --type user --variants control=50,treat=50 >/dev/null
    cli start alpha >/dev/null
    cli git-setup >/dev/null
    g add -A && g commit -q -m base && g push -q origin main
    git clone -q "$origin" "$second"
    REPO=$second
    cli git-setup >/dev/null
    cli ramp alpha control=70 treat=30 >/dev/null
    cli set-description alpha "second's words" >/dev/null
    g commit -q -am "second" && g push -q origin main
    REPO=$first
    g config pull.rebase false
    cli ramp alpha control=80 treat=20 >/dev/null
    cli set-description alpha "first's words" >/dev/null
    g commit -q -am "first"
    if g pull -q --no-edit >/dev/null 2>&1; then fail "the pull should conflict"; fi
    [[ $(g ls-files --stage -- experiments.json | wc -l) == 3 ]] || fail "git did not leave three stages"
    console
    tmux_wait_for "Merge conflicts in the store (2)" 8
    tmux_wait_for "the allocation of \`alpha\` — take OURS"
    tmux_send Right
    tmux_wait_for "the allocation of \`alpha\` — take THEIRS"
    tmux_send Enter
    tmux_wait_for "settled 2 conflicts (1 with THEIRS, each recorded in the history) and staged the store"
    g commit -q --no-edit && g push -q origin main
    tmux_send q
    [[ $(tmux_wait_exit 5) == 0 ]] || fail "the console did not exit 0"
    REPO=$second
    g pull -q --no-edit >/dev/null 2>&1 || fail "the second clone's pull failed"
    cli validate >/dev/null || fail "the merged store does not validate"
    cli history alpha --json | json_check '[[e["operator"], e["action"], e["before"], e["after"]] for e in d[-2:]] == [["e2e-op", "ramp", "control=80,treat=20", "control=70,treat=30"], ["e2e-op", "keep", "second'"'"'s words", "first'"'"'s words"]]'
    cli show alpha --json | json_check 'd["updated_by"] == "e2e-op" and [v["weight"] for v in d["variants"]] == [70, 30] and d["description"] == "first'"'"'s words"'
}

# git lists the store as conflicted but the driver did not merge it (the file is OURS's): the title
# bar says so instead of a bare CONFLICTED, the message log has the way out, and running it
# (`git checkout -m`) merges by meaning and opens the conflicts screen.
scenario_driver_did_not_merge() {
    conflicted_repo
    g merge --abort
    console
    tmux_wait_for " main · 1 experiments" 8
    if g -c merge.abconsole.driver=false merge -q --no-edit theirs >/dev/null 2>&1; then fail "the merge should conflict"; fi
    tmux_wait_for "experiments.json is conflicted but does not hold" 8
    tmux_send L
    tmux_wait_for 'run `abconsole git-setup`, then `git checkout'
    tmux_send Escape
    g checkout -m experiments.json
    tmux_wait_for "Merge conflicts in the store (1)" 8
}

SCENARIOS=(conflicts_screen conflict_markers pull_settled_on_screen driver_did_not_merge)
e2e_run "e2e git" "git " "${SCENARIOS[@]}"
