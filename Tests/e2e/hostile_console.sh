#!/usr/bin/env bash
# End-to-end tests of the console against hostile input: the real `abconsole` inside private tmux
# servers (scripts/e2e/tmux-lib.sh), one scenario per kind of input that once broke it.
#
# Prints one line per scenario and ends with `e2e-hostile: N passed, M failed`; exits 1 on any
# failure. ABCONSOLE_BIN overrides the binary (default .build/debug/abconsole); E2E_ONLY="clock"
# runs only those scenarios.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source-path=SCRIPTDIR/../.. source=scripts/e2e/tmux-lib.sh
source "$ROOT/scripts/e2e/tmux-lib.sh"

BIN=${ABCONSOLE_BIN:-$ROOT/.build/debug/abconsole}
[[ -x "$BIN" ]] || { echo "e2e-hostile: $BIN is not built (swift build)" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
command -v tmux >/dev/null || { echo "e2e-hostile: tmux is not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "e2e-hostile: python3 is not installed" >&2; exit 2; }

e2e_setup abconsole-e2e-hostile

STORE=""

# A fresh copy of the sample store and its event logs.
new_store() {
    local dir
    dir=$(mktemp -d "$RUN_DIR/store.XXXXXX")
    cp "$ROOT/sample-data/experiments.json" "$dir/experiments.json"
    cp -R "$ROOT/sample-data/events" "$dir/events"
    STORE=$dir/experiments.json
}

# Starts CMD (a shell snippet) in a fresh tmux server of WIDTH × HEIGHT.
console_command() {
    tmux_start "${SCENARIO:-e2e}" "$1" "${2:-100}" "${3:-30}"
    echo "$TMUX_TEST_DIR" >>"$SERVERS"
}

cli() { "$BIN" --store "$STORE" --operator e2e-cli "$@"; }

# --- scenarios ------------------------------------------------------------------------------------

# The console runs on ABCONSOLE_NOW like every subcommand: its pause is stamped with that time, and
# its results window ends there, so the results screen and `abconsole results` show the same count.
scenario_clock() {
    new_store
    local now=2026-06-10T00:00:00Z analysed
    analysed=$(ABCONSOLE_NOW=$now cli results account_add_funds --json \
        | python3 -c 'import json,sys; print("{:,}".format(json.load(sys.stdin)["subjects"]["analysed"]))')
    [[ -n "$analysed" && "$analysed" != "2,700" ]] || fail "the fixed clock should cut the window (got $analysed)"
    console_command "ABCONSOLE_NOW=$now '$BIN' --store '$STORE' --operator e2e-op"
    tmux_wait_for "8 experiments · rev"
    tmux_send e
    tmux_wait_for "account_add_funds › results"
    tmux_wait_for "$analysed analysed"
    tmux_send Escape
    tmux_send p
    tmux_wait_for "y apply"
    tmux_send y
    tmux_wait_for "paused \`account_add_funds\`"
    cli history account_add_funds --json | json_check \
        'd[-1]["action"] == "pause" and d[-1]["at"] == "2026-06-10T00:00:00Z"'
    tmux_send q
    expect_exit 0
}

# A ZWJ family (👨‍👩‍👧), a skin tone (👍🏽) and a flag (🇫🇷) in a description, at 80×24: each cluster
# is drawn as its first emoji in its two columns, no joiner is drawn, the text after it stays in
# place, and leaving the screen leaves nothing of it behind.
scenario_zwj() {
    new_store
    cli set-description account_add_funds $'Family \U1F468\u200D\U1F469\u200D\U1F467 here, then \U1F44D\U1F3FD and \U1F1EB\U1F1F7 flag, end' >/dev/null
    console_command "'$BIN' --store '$STORE' --operator e2e-op" 80 24
    tmux_wait_for "8 experiments · rev"
    local before after
    before=$(screen)
    tmux_send Enter
    tmux_wait_for "RECENT CHANGES"
    screen | grep -qF $'Family \U1F468 here, then \U1F44D and \U1F1EB  flag, end' || fail "the description is not drawn cluster by cluster"
    ! screen | grep -q $'\u200D' || fail "a joiner (U+200D) was drawn"
    # Every line is as wide as the pane says: the right half of each wide cell is where tmux put it.
    screen | python3 -c '
import sys, unicodedata
def width(ch):
    if unicodedata.combining(ch) or ch in "\u200d\ufe0f": return 0
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1
bad = [l for l in sys.stdin.read().split("\n") if sum(width(c) for c in l) > 80]
sys.exit(1 if bad else 0)' || fail "a line is wider than the pane"
    tmux_send Escape
    tmux_wait_for "▶account_add_funds"
    after=$(screen)
    [[ "$before" == "$after" ]] || fail "the list kept characters of the detail screen"
    tmux_send q
    expect_exit 0
}

# At 80 columns a whitelist of 123,456 entries shows its six digits, and a 64-character key (made
# by another operator while the console is open) is shown whole: the other columns give way.
scenario_list_columns() {
    new_store
    python3 -c 'print("\n".join(f"bulk-{i},control" for i in range(123456)))' >"$RUN_DIR/bulk.csv"
    cli whitelist import account_add_funds "$RUN_DIR/bulk.csv" >/dev/null
    console_command "'$BIN' --store '$STORE' --operator e2e-op" 80 24
    tmux_wait_for "8 experiments · rev"
    screen | grep -qE '^▶account_add_funds +user +running +50/50 +123458 ' || fail "the whitelist count is cut"
    local key=k123456789012345678901234567890123456789012345678901234567890123
    cli create "$key" --type user --variants a=50,b=50 >/dev/null
    tmux_wait_for "9 experiments · rev"
    screen | grep -qE "^ $key +draft *\$" || fail "the 64-character key is cut"
    tmux_send q
    expect_exit 0
}

# The results screen over a log whose last line a logger is still writing: the numbers, and a note.
scenario_partial_line() {
    new_store
    local log
    log=$(dirname "$STORE")/events/exposures.jsonl
    head -c -30 "$log" >"$log.part" && mv "$log.part" "$log"
    console_command "'$BIN' --store '$STORE' --operator e2e-op" 120 30
    tmux_wait_for "8 experiments · rev"
    tmux_send e
    tmux_wait_for "account_add_funds › results"
    tmux_wait_for "exposures.jsonl:11801: the last line is incomplete (being"
    tmux_wait_for "written?) and was ignored: field \`variant\`: a string is not closed on its line"
    tmux_wait_for "CHANCE TO WIN"
    tmux_send q
    tmux_send q
    expect_exit 0
}

# --- runner ---------------------------------------------------------------------------------------

SCENARIOS=(clock zwj list_columns partial_line)
e2e_run "e2e-hostile" "" "${SCENARIOS[@]}"
