#!/usr/bin/env bash
# End-to-end tests of the interactive console: the real `abconsole` inside private tmux servers.
#
# Each scenario gets its own directory, a copy of sample-data/experiments.json and its own tmux
# server; waits poll the pane (scripts/e2e/tmux-lib.sh), nothing sleeps for a fixed time.
# Prints one line per scenario and ends with `e2e: N passed, M failed`; exits 1 on any failure.
# ABCONSOLE_BIN overrides the binary (default .build/debug/abconsole, built when missing);
# E2E_ONLY="ramp resize" runs only those scenarios; E2E_TRACE=1 prints a timed trace of each.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source-path=SCRIPTDIR/../.. source=scripts/e2e/tmux-lib.sh
source "$ROOT/scripts/e2e/tmux-lib.sh"

BIN=${ABCONSOLE_BIN:-$ROOT/.build/debug/abconsole}
if [[ ! -x "$BIN" ]]; then
    if [[ -n "${ABCONSOLE_BIN:-}" ]]; then
        echo "e2e: ABCONSOLE_BIN=$BIN is not an executable" >&2
        exit 2
    fi
    (cd "$ROOT" && swift build) >&2 || { echo "e2e: swift build failed" >&2; exit 2; }
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
command -v tmux >/dev/null || { echo "e2e: tmux is not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "e2e: python3 is not installed" >&2; exit 2; }

SAMPLE=$ROOT/sample-data/experiments.json
e2e_setup abconsole-e2e

# --- helpers used inside scenarios (each scenario runs in a subshell with `set -e`) ---------------

STORE=""

# Gives the scenario a fresh copy of the sample store.
new_store() {
    local dir
    dir=$(mktemp -d "$RUN_DIR/store.XXXXXX")
    cp "$SAMPLE" "$dir/experiments.json"
    STORE=$dir/experiments.json
}

# Starts `abconsole` (extra arguments appended) on the scenario's store and waits for the list.
start_console() {
    new_store
    console_command "'$BIN' --store '$STORE' --operator e2e-op $*"
    tmux_wait_for "8 experiments · rev"
}

# Starts an arbitrary command in a fresh tmux server and records the server for cleanup.
console_command() {
    tmux_start "${SCENARIO:-e2e}" "$1" "${2:-100}" "${3:-30}"
    echo "$TMUX_TEST_DIR" >>"$SERVERS"
}

# The CLI on the scenario's store, as another operator.
cli() {
    "$BIN" --store "$STORE" --operator e2e-cli "$@"
}

_screen_lacks() {
    ! screen 2>/dev/null | grep -qF -- "$1"
}

_screen_lacks_match_of() {
    ! screen 2>/dev/null | grep -qE -- "$1"
}

# Waits until TEXT is no longer on the screen.
wait_gone() {
    local text=$1 timeout=${2:-5}
    _tmux_poll "$timeout" _screen_lacks "$text" || _tmux_fail "\"$text\" did not go away within ${timeout}s"
}

_screen_matches() {
    screen 2>/dev/null | grep -qE -- "$1"
}

# Waits until a line of the screen matches the extended regular expression PATTERN.
wait_match() {
    local pattern=$1 timeout=${2:-5}
    _tmux_poll "$timeout" _screen_matches "$pattern" || _tmux_fail "nothing matched /$pattern/ within ${timeout}s"
}

# Waits until no line of the screen matches PATTERN.
wait_no_match() {
    local pattern=$1 timeout=${2:-5}
    _tmux_poll "$timeout" _screen_lacks_match_of "$pattern" || _tmux_fail "/$pattern/ still matched after ${timeout}s"
}

# Filters the list down to KEY, keeps the filter, and opens the experiment.
open_experiment() {
    local key=$1
    tmux_send /
    tmux_wait_for "/▏"
    tmux_send_text "$key"
    tmux_wait_for "/$key▏"
    tmux_send Enter
    tmux_wait_for "filter: $key"
    tmux_send Enter
    tmux_wait_for " abconsole › $key "
    tmux_wait_for "RECENT CHANGES"
}

# --- scenarios ------------------------------------------------------------------------------------

# Open, filter with `/`, keep the filter, open the experiment, go back, quit with q (exit 0).
scenario_open_filter_detail() {
    start_console
    tmux_wait_for "▶account_add_funds"
    tmux_wait_for "Enter open  / filter"
    tmux_send /
    tmux_wait_for "Enter keep  Esc clear"
    tmux_send_text pay
    tmux_wait_for "/pay▏"
    wait_gone "account_add_funds"
    tmux_wait_for "▶paywall_type"
    tmux_send Enter
    tmux_wait_for "filter: pay"
    tmux_send Enter
    tmux_wait_for " abconsole › paywall_type "
    tmux_wait_for "paywall_type  draft  user-level · revision 4"
    tmux_wait_for "a (control)"
    tmux_send Escape
    tmux_wait_for "filter: pay"
    tmux_send Escape
    tmux_wait_for "▶paywall_type"
    tmux_wait_for "account_add_funds"
    tmux_send q
    expect_exit 0
}

# Ramp 50/50 → 70/30 in the ramp editor and confirm; the store and the history show it.
scenario_ramp() {
    start_console
    open_experiment account_add_funds
    tmux_send r
    tmux_wait_for "Enter review"
    tmux_send_text 70
    tmux_wait_for "70"
    tmux_send Tab
    tmux_send_text 30
    tmux_wait_for "30"
    # The live preview: the share of subjects that will switch variant, from the core.
    tmux_wait_for "20 % of subjects switch variant"
    tmux_send Enter
    tmux_wait_for "n/Esc go back"
    wait_match "control +50 % → 70 %"
    wait_match "account_view +50 % → 30 %"
    tmux_send y
    wait_gone "n/Esc go back"
    wait_gone "Enter review"
    tmux_wait_for "ramped \`account_add_funds\` to control=70,account_view=30"
    wait_match "control \(control\) +70 %"
    cli show account_add_funds --json | json_check \
        '[(v["name"], v["weight"]) for v in d["variants"]] == [("control", 70), ("account_view", 30)]'
    cli history account_add_funds --json | json_check \
        'd[-1]["operator"] == "e2e-op" and d[-1]["action"] == "ramp" and d[-1]["experiment"] == "account_add_funds"'
    tmux_send q
    tmux_send q
    expect_exit 0
}

# `A` sets a ramp plan (step 1 applies at once), then pauses and clears it; the store and the detail show it.
scenario_plan() {
    start_console
    open_experiment account_add_funds
    tmux_send A
    tmux_wait_for "Ramp plan of account_add_funds"
    tmux_wait_for "now: no ramp plan"
    tmux_send Tab
    tmux_send_text "account_view=60 account_view=100"
    tmux_wait_for "account_view=60 account_view=100"
    tmux_send Tab
    tmux_send_text 2d
    tmux_send Tab
    tmux_send_text 500
    tmux_send Enter
    wait_gone "Ramp plan of account_add_funds"
    tmux_wait_for "RAMP PLAN  active · step 1 of 2 · hold 2d · ≥ 500 subjects"
    cli show account_add_funds --json | json_check \
        'd["plan"]["step"] == 1 and d["plan"]["hold_seconds"] == 172800 and [v["weight"] for v in d["variants"]] == [40, 60]'
    tmux_send A
    tmux_wait_for "[set]  pause   clear"
    tmux_send Right
    tmux_wait_for "[pause]"
    tmux_send Enter
    tmux_wait_for "RAMP PLAN  paused"
    tmux_send A
    tmux_wait_for "[set]  resume   clear"
    tmux_send Left
    tmux_wait_for "[clear]"
    tmux_send Enter
    wait_gone "RAMP PLAN"
    cli show account_add_funds --json | json_check '"plan" not in d or d["plan"] is None'
    cli history account_add_funds --json | json_check \
        '[e["action"] for e in d[-2:]] == ["plan_pause", "plan_clear"] and d[-1]["operator"] == "e2e-op"'
    tmux_send q
    tmux_send q
    expect_exit 0
}

# Add a whitelist entry through the form, then remove it after `y`.
scenario_whitelist() {
    start_console
    open_experiment account_add_funds
    tmux_send w
    tmux_wait_for "a add"
    tmux_wait_for "emp-1001"
    tmux_send a
    tmux_wait_for "Enter save"
    # Sorts before the two existing subjects, so it is the first row afterwards.
    tmux_send_text "a-e2e-subject"
    tmux_wait_for "a-e2e-subject"
    tmux_send Tab
    tmux_send_text account_view
    tmux_send Tab
    tmux_send_text "added by e2e"
    tmux_wait_for "added by e2e"
    tmux_send Enter
    wait_gone "Enter save"
    wait_match "^[ ▶]a-e2e-subject +. account_view +added by e2e +e2e-op "
    cli whitelist list account_add_funds --json | json_check \
        'any(e["subject"] == "a-e2e-subject" and e["variant"] == "account_view" and e["note"] == "added by e2e" and e["added_by"] == "e2e-op" for e in d) and len(d) == 3'
    tmux_send g
    tmux_send d
    tmux_wait_for "n/Esc go back"
    tmux_wait_for "a-e2e-subject"
    tmux_send y
    wait_gone "n/Esc go back"
    tmux_wait_for "removed \`a-e2e-subject\`"
    wait_no_match "^[ ▶]a-e2e-subject "
    cli whitelist list account_add_funds --json | json_check \
        'sorted(e["subject"] for e in d) == ["emp-1001", "emp-1002"]'
    tmux_send Escape
    tmux_wait_for "RECENT CHANGES"
    tmux_send q
    tmux_wait_for "▶account_add_funds"
    tmux_send q
    expect_exit 0
}

# Resolve with the winner chosen by → and the key typed as the confirmation.
scenario_resolve() {
    start_console
    open_experiment account_add_funds
    tmux_send R
    tmux_wait_for "Enter save"
    tmux_wait_for "irreversible"
    tmux_send Right
    wait_match "◀ . account_view ▶"
    tmux_send Tab
    tmux_send_text account_add_funds
    tmux_send Enter
    wait_gone "Enter save"
    tmux_wait_for "account_add_funds  resolved"
    cli show account_add_funds --json | json_check 'd["status"] == "resolved" and d["winner"] == "account_view"'
    tmux_wait_for "winner    account_view — served to everyone, forever"
    cli history account_add_funds --json | json_check \
        'd[-1]["operator"] == "e2e-op" and d[-1]["action"] == "resolve"'
    tmux_send q
    tmux_send q
    expect_exit 0
}

# Inspect a subject: every experiment's variant on the screen is the one `abconsole inspect` gives.
scenario_inspect() {
    start_console
    tmux_send i
    tmux_wait_for "Enter inspect"
    tmux_wait_for " abconsole › inspector "
    tmux_send_text user-42
    tmux_wait_for "user-42"
    tmux_send Tab
    tmux_send_text device-7f3a
    tmux_wait_for "device-7f3a"
    tmux_send Enter
    tmux_wait_for "purchase_but"
    tmux_wait_for "discount_20"
    local shown expected
    shown=$(screen)
    expected=$(cli inspect --user user-42 --device device-7f3a --json)
    SHOWN=$shown python3 -c '
import json, os, re, sys
screen = os.environ["SHOWN"].splitlines()
bad = []
for row in json.load(sys.stdin):
    prefix = row["experiment"][:12]
    lines = [l for l in screen if prefix in l]
    word = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(row["variant"]) + r"(?![A-Za-z0-9_])")
    if not any(word.search(l.split(prefix, 1)[1]) for l in lines):
        bad.append("%s: expected variant %s, rows %r" % (row["experiment"], row["variant"], lines))
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
' <<<"$expected" || fail "the inspector disagrees with abconsole inspect --json"
    # Enter on a row opens that experiment; Esc returns to the table.
    tmux_send G
    tmux_send Enter
    tmux_wait_for " abconsole › purchase_button_color"
    tmux_send Escape
    tmux_wait_for " abconsole › inspector "
    tmux_send Escape
    tmux_wait_for " abconsole › experiments "
    # The ids stay for the next `i`.
    tmux_send i
    tmux_wait_for "user id user-42"
    tmux_wait_for "device id device-7f3a"
    tmux_send Escape
    tmux_wait_for " abconsole › experiments "
    tmux_send q
    expect_exit 0
}

# `?` opens the help overlay from the keybinding table; Esc closes it.
scenario_help() {
    start_console
    tmux_send '?'
    tmux_wait_for "Help — keys"
    tmux_wait_for "Esc closes · j/k scroll · / searches"
    tmux_wait_for "filter by key, status, type or description"
    tmux_wait_for "Esc/q/? close"
    tmux_send Escape
    wait_gone "Help — keys"
    tmux_wait_for "Enter open  / filter"
    open_experiment onboarding_flow
    tmux_send '?'
    tmux_wait_for "Help — keys"
    tmux_wait_for "pause (kill switch)"
    tmux_send q
    wait_gone "Help — keys"
    tmux_wait_for "RECENT CHANGES"
    tmux_send q
    tmux_send q
    expect_exit 0
}

# At 80×24 the help overlay scrolls: PgDn reaches `q` and Ctrl-C, G reaches `i`; `/` finds a key.
scenario_help_80x24() {
    new_store
    console_command "'$BIN' --store '$STORE' --operator e2e-op" 80 24
    tmux_wait_for "8 experiments · rev"
    tmux_send '?'
    tmux_wait_for "Help — keys"
    tmux_wait_for "1–17 of"
    _screen_lacks "quit from anywhere" || fail "Ctrl-C fits without scrolling; this scenario no longer proves the scroll"
    tmux_send PageDown
    tmux_wait_for "q          quit"
    tmux_wait_for "Ctrl-C     quit from anywhere (exit 130)"
    tmux_send G
    tmux_wait_for "i          inspect a subject"
    tmux_send g
    tmux_wait_for "1–17 of"
    wait_gone "quit from anywhere"
    tmux_send /
    tmux_wait_for "/▏"
    tmux_send_text "exit 130"
    tmux_send Enter
    tmux_wait_for "“exit 130”: 1 match"
    tmux_wait_for "Ctrl-C     quit from anywhere (exit 130)"
    tmux_send q
    wait_gone "Help — keys"
    tmux_send q
    expect_exit 0
}

# Resizing redraws at once and keeps every key whole at 120, 80 and 200 columns (the bar, the
# operator and the description come and go by breakpoints); below 60×16 the console says it is too
# small, and recovers.
scenario_resize() {
    start_console
    tmux_wait_for "2026-06-03 08:00 UTC maria.pm"
    tmux_resize 120 30
    tmux_wait_for "purchase_button_color  user   running  40/40/20 ████████"
    tmux_wait_for " cash_projection_banner user"
    tmux_resize 80 24
    tmux_wait_for " cash_projection_banner user   running  0/10"
    tmux_wait_for " purchase_button_color  user   running  40/40/20      0     2026-08-20 08:05 UTC"
    wait_gone "maria.pm"
    tmux_resize 200 30
    tmux_wait_for " cash_projection_banner user"
    tmux_wait_for "DESCRIPTION"
    tmux_wait_for "Colour of the 'Buy' button on the product page"
    tmux_resize 50 12
    tmux_wait_for "terminal too small (need 60×16)"
    tmux_resize 100 30
    tmux_wait_for "2026-06-03 08:00 UTC maria.pm"
    wait_gone "terminal too small"
    tmux_send q
    expect_exit 0
}

# Another operator pauses an experiment from the CLI; the open console shows it within ~1.5 s,
# keeping the selection.
scenario_external_change() {
    start_console
    tmux_send j
    tmux_wait_for "▶app_color_scheme"
    cli pause account_add_funds >/dev/null
    wait_match "^ account_add_funds +user +paused " 1.5
    tmux_wait_for "the store changed on disk"
    tmux_wait_for "▶app_color_scheme"
    tmux_send q
    expect_exit 0
}

# Holds the store's lock from another process (flock) until release_lock; waits until it is held.
hold_lock() {
    rm -f "$RUN_DIR/lock-held" "$RUN_DIR/lock-release"
    flock "$STORE.lock" sh -c ': >"$1"; while [ ! -e "$2" ]; do sleep 0.02; done' sh "$RUN_DIR/lock-held" "$RUN_DIR/lock-release" &
    _tmux_poll 5 test -e "$RUN_DIR/lock-held" || fail "flock did not take the lock"
}

release_lock() {
    : >"$RUN_DIR/lock-release"
    wait
}

# A save while another process holds the lock: the status counts the wait, help and navigation
# still work, the save lands once the lock is free; a second one is given up with Esc.
scenario_held_lock() {
    start_console
    hold_lock
    tmux_send p
    tmux_wait_for "Pause account_add_funds?"
    tmux_send y
    tmux_wait_for "saving the change to \`account_add_funds\`: waiting for another writer's lock, 0 s of 10 s"
    tmux_wait_for "Esc give up"
    wait_match "waiting for another writer's lock, [1-9] s of 10 s" 3
    tmux_send '?'
    tmux_wait_for "While a job runs"
    tmux_send Escape
    wait_gone "Help — keys"
    tmux_send j
    tmux_wait_for "▶app_color_scheme"
    cmp -s "$STORE" "$SAMPLE" || fail "the store changed while another process held the lock"
    release_lock
    tmux_wait_for "paused \`account_add_funds\`"
    wait_match "^ account_add_funds +user +paused "
    cli show account_add_funds --json | json_check 'd["status"] == "paused"'

    hold_lock
    tmux_send p
    tmux_wait_for "Pause app_color_scheme?"
    tmux_send y
    tmux_wait_for "waiting for another writer's lock"
    tmux_send Escape
    tmux_wait_for "gave up: stopped saving the change to \`app_color_scheme\` before it changed anything"
    tmux_wait_for "Pause app_color_scheme?"
    tmux_send n
    wait_gone "Pause app_color_scheme?"
    release_lock
    cli show app_color_scheme --json | json_check 'd["status"] == "running"'
    tmux_send q
    expect_exit 0
}

# Ctrl-C quits from a screen deep in the console with 130, and the terminal is restored.
scenario_ctrl_c() {
    new_store
    console_command "'$BIN' --store '$STORE' --operator e2e-op; code=\$?; stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo; (exit \$code)"
    tmux_wait_for "8 experiments · rev"
    open_experiment app_color_scheme
    tmux_send '?'
    tmux_wait_for "Help — keys"
    tmux_send C-c
    expect_exit 130
    [[ "$(_tmux display-message -p -t "$TMUX_TEST_NAME" '#{alternate_on}')" == 0 ]] || fail "still on the alternate screen"
    tmux_capture | grep -qx "icanon echo *" || fail "the terminal modes were not restored (want icanon and echo)"
}

# SIGTERM closes the console with 143 and restores the terminal.
scenario_sigterm() {
    new_store
    local pidfile=$RUN_DIR/sigterm.pid
    console_command "sh -c 'echo \$\$ >\"$pidfile\"; exec \"$BIN\" --store \"$STORE\" --operator e2e-op'"
    tmux_wait_for "8 experiments · rev"
    kill -TERM "$(cat "$pidfile")"
    expect_exit 143
    [[ "$(_tmux display-message -p -t "$TMUX_TEST_NAME" '#{alternate_on}')" == 0 ]] || fail "still on the alternate screen"
}

# NO_COLOR: no colour on the screen, the status still reads as a word.
scenario_no_color() {
    new_store
    console_command "NO_COLOR=1 '$BIN' --store '$STORE' --operator e2e-op"
    tmux_wait_for "8 experiments · rev"
    tmux_wait_for "onboarding_flow        device paused   50/50"
    ! _tmux capture-pane -p -e -t "$TMUX_TEST_NAME" | grep -qE $'\e\\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38|48)(;[0-9;]*)?m' \
        || fail "colours drawn although NO_COLOR is set"
    _tmux capture-pane -p -e -t "$TMUX_TEST_NAME" | grep -qE $'\e\\[([0-9;]*;)?7(;[0-9;]*)?m' || fail "no reverse video for the selection"
    tmux_send q
    expect_exit 0
}

# --read-only: the title says so, write keys explain why they are off, the file does not change.
scenario_read_only() {
    start_console --read-only
    tmux_wait_for "8 experiments · rev 34 · READ-ONLY"
    tmux_send s
    tmux_wait_for "read-only console (opened with --read-only): cannot start"
    open_experiment onboarding_flow
    tmux_send p
    tmux_wait_for "cannot pause"
    tmux_send r
    tmux_wait_for "cannot ramp"
    cmp -s "$STORE" "$SAMPLE" || fail "the store changed in a read-only console"
    tmux_send q
    tmux_send q
    expect_exit 0
}

# stdin not a terminal: one clear line on stderr, exit 64, and nothing drawn.
scenario_not_a_tty() {
    new_store
    local code=0
    "$BIN" --store "$STORE" --operator e2e-op </dev/null >"$RUN_DIR/notty.out" 2>"$RUN_DIR/notty.err" || code=$?
    [[ $code == 64 ]] || fail "exit code $code, expected 64"
    [[ ! -s "$RUN_DIR/notty.out" ]] || fail "printed on stdout: $(cat "$RUN_DIR/notty.out")"
    [[ $(wc -l <"$RUN_DIR/notty.err") == 1 ]] || fail "stderr is not one line: $(cat "$RUN_DIR/notty.err")"
    grep -qx "abconsole: standard input is not a terminal: .*" "$RUN_DIR/notty.err" || fail "unclear error: $(cat "$RUN_DIR/notty.err")"
    ! grep -q $'\e' "$RUN_DIR/notty.err" || fail "escape sequences on stderr"
}

# `abconsole demo --keep` works on a scratch copy of the sample store and says where it is on exit
# (without --keep the copy is removed: see the process test DemoTests).
scenario_demo() {
    local scratch
    scratch=$(mktemp -d "$RUN_DIR/demo.XXXXXX")
    console_command "cd '$scratch' && TMPDIR='$scratch' '$BIN' demo --keep --operator e2e-op"
    tmux_wait_for "8 experiments · rev 34"
    tmux_wait_for "$scratch/"
    tmux_send q
    expect_exit 0
    local copy
    copy=$(tmux_capture | sed -n 's/^demo store kept at //p' | tail -n 1)
    [[ -n "$copy" ]] || fail "no \"demo store kept at\" line"
    [[ "$copy" == "$scratch"/* ]] || fail "the copy $copy is not in TMPDIR"
    cmp -s "$copy" "$SAMPLE" || fail "the demo copy differs from the sample store"
    cmp -s "$(dirname "$copy")/events/exposures.jsonl" "$ROOT/sample-data/events/exposures.jsonl" || fail "the demo has no copy of the sample events"
}

# `e` opens the selected experiment's results from events/ beside the store (read off the render
# loop): the numbers, Tab to the next metric, f/b the engine; the mismatch banner; R shows the verdict.
scenario_results() {
    start_console
    cp -R "$ROOT/sample-data/events" "$(dirname "$STORE")/events"
    tmux_send e
    tmux_wait_for "account_add_funds › results"
    tmux_wait_for "2,700 analysed"
    wait_match "account_view +1,363 +217 +15\.92 % +\+60\.0 %"
    tmux_wait_for "CHANCE TO WIN"
    wait_match "account_view .*█ > 99\.9 %"
    tmux_send Tab
    tmux_wait_for "MEAN"
    tmux_send f
    tmux_wait_for "P-VALUE"
    tmux_send b
    tmux_wait_for "CHANCE TO WIN"
    tmux_send Escape
    wait_gone "› results"
    tmux_send j j j
    tmux_send e
    tmux_wait_for "ebook_promotion › results"
    tmux_wait_for "sample-ratio mismatch (p < 0.0001)"
    tmux_send R
    tmux_wait_for "irreversible"
    wait_match "newsletter +\+0\.3 % · 50\.8 % to win"
    tmux_send Escape
    wait_gone "irreversible"
    tmux_send q
    wait_gone "› results"
    tmux_send q
    expect_exit 0
}

# `e` with the conversions log a FIFO: refused at once in words (no thread left waiting on the
# open), the console still answering.
scenario_results_hostile() {
    start_console
    cp -R "$ROOT/sample-data/events" "$(dirname "$STORE")/events"
    rm "$(dirname "$STORE")/events/conversions.jsonl"
    mkfifo "$(dirname "$STORE")/events/conversions.jsonl"
    tmux_send e
    tmux_wait_for "it is a FIFO"
    _screen_lacks "giving up" || fail "still waiting on the FIFO"
    tmux_send Escape
    tmux_send q
    expect_exit 0
}

# Edit inside a field with Home/←/Delete (the description), and the ramp editor's refused weight is
# replaced, not appended to, by what is typed next (`33.335` then `50` gives `50`, not `33.33550`).
scenario_text_editing() {
    start_console
    open_experiment cash_projection_banner
    tmux_send E
    tmux_wait_for "Description of cash_projection_banner"
    tmux_send End
    tmux_send_text "!"
    tmux_wait_for "on the home screen!▏"
    tmux_send Home
    tmux_wait_for "description ▏Show the 30-day"
    tmux_send Delete
    tmux_wait_for "description ▏how the 30-day"
    tmux_send_text "Do s"
    tmux_wait_for "description Do s▏how the 30-day"
    tmux_send Left
    tmux_wait_for "description Do ▏show the 30-day"
    tmux_send Enter
    tmux_wait_for "changed the description of \`cash_projection_banner\`"
    cli show cash_projection_banner --json | json_check \
        'd["description"] == "Do show the 30-day cash projection banner on the home screen!"'
    tmux_send r
    tmux_wait_for "Enter review"
    tmux_send_text 33.335
    tmux_wait_for "33.335▏"
    tmux_send Enter
    tmux_wait_for "cannot review"
    tmux_send_text 50
    tmux_wait_for " 50▏"
    wait_gone "33.33550"
    tmux_send Escape
    wait_gone "Enter review"
    tmux_send q
    tmux_send q
    expect_exit 0
}

# `M` on the detail screen: the goal, its direction and the guardrails typed into the form are what
# `show --json` reads back, the history says `set_metrics`, and the detail shows them.
scenario_metrics() {
    start_console
    open_experiment account_add_funds
    tmux_wait_for "metrics   —"
    tmux_send M
    tmux_wait_for "Metrics of account_add_funds"
    tmux_send_text refund_rate
    tmux_wait_for "refund_rate▏"
    tmux_send Tab
    tmux_send Right
    tmux_wait_for "lower is better"
    tmux_send Tab
    tmux_send_text "latency_ms:decrease, purchase"
    tmux_wait_for "purchase▏"
    tmux_send Enter
    tmux_wait_for "now judges its variants by goal refund_rate:decrease"
    tmux_wait_for "metrics   goal refund_rate:decrease; guardrails latency_ms:decrease, purchase"
    cli show account_add_funds --json | json_check \
        'd["metrics"] == {"goal": {"metric": "refund_rate", "direction": "decrease"}, "guardrails": [{"metric": "latency_ms", "direction": "decrease"}, {"metric": "purchase", "direction": "increase"}]}'
    cli history account_add_funds | grep -q "e2e-op .*set_metrics .*∅ → goal refund_rate:decrease" || fail "no set_metrics line in the history"
    tmux_send q
    tmux_send q
    expect_exit 0
}

# --- runner ---------------------------------------------------------------------------------------

# SPEC §12: a guardrail no conversion names has no data; the results screen names it (a tab and a
# banner, as the CLI lists it) and the resolve form resolves only on a second Enter, recorded as forced.
scenario_guardrail_no_data() {
    start_console
    cp -R "$ROOT/sample-data/events" "$(dirname "$STORE")/events"
    cli set-metrics account_add_funds --goal add_funds --guardrail refnd:decrease >/dev/null || fail "set-metrics failed"
    tmux_wait_for "the store changed on disk"
    tmux_send e
    tmux_wait_for "account_add_funds › results"
    tmux_wait_for "⚠ guardrail \`refnd\` has no data"
    wait_match "METRIC .* refnd "
    tmux_send R
    tmux_wait_for "irreversible"
    tmux_send Tab
    tmux_send_text account_add_funds
    tmux_send Enter
    tmux_wait_for "✗ guardrail refnd: no data; Enter"
    cli show account_add_funds --json | json_check 'd["status"] == "running"'
    tmux_send Enter
    wait_gone "irreversible"
    cli show account_add_funds --json | json_check 'd["status"] == "resolved" and d["winner"] == "account_view"'
    cli history account_add_funds --json | json_check \
        'd[-1]["operator"] == "e2e-op" and d[-1]["after"] == "resolved winner=account_view (forced past: guardrail refnd: no data)"'
    tmux_send q
    wait_gone "› results"
    tmux_send q
    expect_exit 0
}

SCENARIOS=(open_filter_detail ramp plan text_editing metrics whitelist resolve guardrail_no_data inspect help help_80x24 resize external_change held_lock ctrl_c sigterm no_color read_only not_a_tty demo results results_hostile)
e2e_run "e2e" "" "${SCENARIOS[@]}"
