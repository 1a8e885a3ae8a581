# shellcheck shell=bash
# Drives a terminal app inside a private tmux server, for end-to-end tests.
#
# Source this file, then per test:
#   tmux_start NAME CMD [WIDTH HEIGHT]   start CMD (a shell snippet) in a fresh 100x30 server
#   tmux_wait_for TEXT [TIMEOUT]         wait until TEXT is on the pane (default 5 s)
#   tmux_send KEYS...                    send-keys by name: Down Enter BSpace Escape C-c q
#   tmux_send_text TEXT                  send TEXT literally
#   tmux_capture [ARGS...]               print the pane and its history (-e keeps colours)
#   tmux_wait_exit [TIMEOUT]             wait for CMD to end; prints its exit code
#   tmux_resize WIDTH HEIGHT             resize the window (the app gets SIGWINCH)
#   tmux_stop                            kill the server and remove the test's directory
# and per suite: e2e_setup NAME (the run directory and its cleanup), then e2e_run LABEL PREFIX
# SCENARIO... (each scenario_NAME function run and counted; see below).
#
# Every test gets its own directory and socket, so tests never share a server. Waits poll
# every 40 ms until a deadline; nothing sleeps for a fixed time. CMD runs as
#   sh -c 'trap : INT; CMD; echo "__EXIT:$?__"'
# because tmux's pane exit status is unreliable on Debian; the trap keeps the shell alive
# when C-c reaches the whole foreground process group.

TMUX_LIB_POLL_SECONDS=0.04
TMUX_TEST_DIR=""
TMUX_TEST_NAME=""

_tmux() {
    env -u TMUX tmux -S "$TMUX_TEST_DIR/sock" -f "$TMUX_TEST_DIR/tmux.conf" "$@"
}

_tmux_now_ms() {
    if [[ -n "${EPOCHREALTIME:-}" ]]; then
        local now=${EPOCHREALTIME/[.,]/}
        echo $((now / 1000))
    else
        echo $(($(date +%s%N) / 1000000))
    fi
}

# Succeeds once COMMAND (evaluated repeatedly) succeeds, fails after TIMEOUT seconds.
_tmux_poll() {
    local timeout=$1
    shift
    local deadline
    deadline=$(($(_tmux_now_ms) + $(awk -v t="$timeout" 'BEGIN { printf "%d", t * 1000 }')))
    while true; do
        if "$@"; then
            return 0
        fi
        if (($(_tmux_now_ms) >= deadline)); then
            return 1
        fi
        sleep "$TMUX_LIB_POLL_SECONDS"
    done
}

_tmux_fail() {
    echo "tmux-lib: $1; the pane shows:" >&2
    _tmux_screen >&2 || true
    return 1
}

tmux_start() {
    local name=$1 command=$2 width=${3:-100} height=${4:-30}
    TMUX_TEST_NAME=$name
    TMUX_TEST_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tmux-e2e-$name.XXXXXX")
    printf '%s\n' \
        'set -g default-terminal tmux-256color' \
        'set -g remain-on-exit on' \
        'set -g history-limit 10000' \
        'set -g status off' >"$TMUX_TEST_DIR/tmux.conf"
    _tmux new-session -d -s "$name" -x "$width" -y "$height" \
        -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
        sh -c "trap : INT; $command; echo \"__EXIT:\$?__\""
}

# shellcheck disable=SC2120 # callers of the library pass options such as -e
tmux_capture() {
    _tmux capture-pane -p -J -S - -t "$TMUX_TEST_NAME" "$@"
}

# The pane and its history as plain text.
_tmux_screen() {
    _tmux capture-pane -p -J -S - -t "$TMUX_TEST_NAME"
}

_tmux_has_text() {
    _tmux_screen 2>/dev/null | grep -qF -- "$1"
}

tmux_wait_for() {
    local text=$1 timeout=${2:-5}
    _tmux_poll "$timeout" _tmux_has_text "$text" || _tmux_fail "\"$text\" did not appear within ${timeout}s"
}

tmux_send() {
    _tmux send-keys -t "$TMUX_TEST_NAME" "$@"
}

tmux_send_text() {
    _tmux send-keys -t "$TMUX_TEST_NAME" -l -- "$1"
}

_tmux_has_exit() {
    _tmux_screen 2>/dev/null | grep -qE '__EXIT:[0-9]+__'
}

tmux_wait_exit() {
    local timeout=${1:-5}
    _tmux_poll "$timeout" _tmux_has_exit || {
        _tmux_fail "the command did not exit within ${timeout}s"
        return 1
    }
    _tmux_screen | grep -oE '__EXIT:[0-9]+__' | tail -n 1 | tr -dc '0-9'
    echo
}

tmux_resize() {
    _tmux resize-window -t "$TMUX_TEST_NAME" -x "$1" -y "$2"
}

tmux_stop() {
    if [[ -n "$TMUX_TEST_DIR" && -d "$TMUX_TEST_DIR" ]]; then
        _tmux kill-server 2>/dev/null || true
        rm -rf -- "$TMUX_TEST_DIR"
    fi
    TMUX_TEST_DIR=""
    TMUX_TEST_NAME=""
}

# One suite's run directory (stores, tmux sockets) as RUN_DIR, with SERVERS listing every tmux
# server a scenario starts; on exit, even after a scenario failed half-way, the servers are killed
# and the files removed. NAME names the directory under $TMPDIR.
e2e_setup() {
    RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    SERVERS=$RUN_DIR/servers
    : >"$SERVERS"
    trap _e2e_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

_e2e_cleanup() {
    local dir
    while IFS= read -r dir; do
        [[ -S "$dir/sock" ]] && env -u TMUX tmux -S "$dir/sock" kill-server 2>/dev/null
        rm -rf -- "$dir"
    done <"$SERVERS"
    rm -rf -- "$RUN_DIR"
}

# Runs each scenario (the shell function scenario_NAME) in a subshell with `set -e`, its tmux server
# stopped after it, and its output kept in $RUN_DIR/NAME.log (shown when it fails). Prints one line
# per scenario (`ok` or `FAILED`, PREFIX before the name, its time) and ends with
# `LABEL: N passed, M failed`; fails when any failed. E2E_ONLY="a b" runs only those scenarios;
# E2E_TRACE=1 prints a timed trace of each.
e2e_run() {
    local label=$1 prefix=$2
    shift 2
    local name log begin code elapsed total passed=0 failed=0 started
    started=$(_tmux_now_ms)
    for name in "$@"; do
        [[ -n "${E2E_ONLY:-}" && " $E2E_ONLY " != *" $name "* ]] && continue
        log=$RUN_DIR/$name.log
        begin=$(_tmux_now_ms)
        (
            SCENARIO=${name//_/-}
            trap tmux_stop EXIT
            set -e
            if [[ -n "${E2E_TRACE:-}" ]]; then
                PS4='+ ${EPOCHREALTIME} '
                set -x
            fi
            "scenario_$name"
        ) >"$log" 2>&1
        code=$?
        [[ -n "${E2E_TRACE:-}" ]] && cat "$log" >&2
        elapsed=$(awk -v ms=$(($(_tmux_now_ms) - begin)) 'BEGIN { printf "%.2f", ms / 1000 }')
        if [[ $code == 0 ]]; then
            passed=$((passed + 1))
            echo "ok      $prefix$name (${elapsed}s)"
        else
            failed=$((failed + 1))
            echo "FAILED  $prefix$name (${elapsed}s)"
            sed 's/^/    /' "$log"
        fi
    done
    total=$(awk -v ms=$(($(_tmux_now_ms) - started)) 'BEGIN { printf "%.1f", ms / 1000 }')
    echo "$label: took ${total}s" >&2
    echo "$label: $passed passed, $failed failed"
    [[ $failed == 0 ]]
}

# --- helpers every suite's scenarios share -------------------------------------------------------

# The screen as it is now (no history: the console draws on the alternate screen).
screen() {
    _tmux capture-pane -p -t "$TMUX_TEST_NAME"
}

# Fails the scenario with MESSAGE, showing the pane when one is running.
fail() {
    echo "$1" >&2
    if [[ -n "$TMUX_TEST_DIR" ]]; then
        echo "the pane shows:" >&2
        screen >&2 || true
    fi
    return 1
}

# Waits for the console's exit marker; fails unless its exit code is EXPECTED.
expect_exit() {
    local expected=$1 code
    code=$(tmux_wait_exit 5)
    [[ "$code" == "$expected" ]] || fail "exit code $code, expected $expected"
}

# Evaluates a Python expression over the JSON on stdin (bound to `d`); fails when it is false.
json_check() {
    python3 -c '
import json, sys
d = json.load(sys.stdin)
ok = eval(sys.argv[1])
if not ok:
    print("JSON check failed: " + sys.argv[1], file=sys.stderr)
    print(json.dumps(d, indent=1)[:3000], file=sys.stderr)
sys.exit(0 if ok else 1)
' "$1"
}
