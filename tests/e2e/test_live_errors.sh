#!/usr/bin/env bash
# test_live_errors.sh -- a wrong device or port is said at once, with what
# is retried, how often and for how long (docs/live.md section 2, "Lost
# links"); then that it is still down, then that sonde gives up, with
# status 3 and no figures of a session that never was.  Before, `sonde
# live serial:/dev/ttyNOPE` said one line and then nothing for 31 s before
# printing all-zero figures, and `sonde live /dev/ttyNOPE` said "cannot
# tell what link".
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup

# expect_lines FILE REGEX...: FILE's lines are exactly these, in order
expect_lines() {
	local f=$1 i=0 line
	shift
	while IFS= read -r line; do
		[ "$i" -lt $# ] || { cat "$f"; fail "$f: surplus line: $line"; }
		i=$((i + 1))
		[[ $line =~ ^${!i}$ ]] || { cat "$f"; fail "$f: line $i: expected /${!i}/"; }
	done <"$f"
	[ "$i" -eq $# ] || { cat "$f"; fail "$f: $i lines, expected $#"; }
}
PLAN='retrying every 0\.1 to 2 s for up to'
NODEV="no such device '/dev/ttyNOPE' \(serial ports found: [^)]*\)"

# 1. a device that does not exist, retried for 30 s: said at once, while
#    sonde keeps trying; stopped by the user: status 3, no figures
bg "$SONDE" live serial:/dev/ttyNOPE </dev/null >"$WORK/out1" 2>"$WORK/err1"
pid=$!
wait_for -p "$pid" has_text "$WORK/err1" "no such device" || { cat "$WORK/err1"; fail "no message"; }
gone "$pid" && fail "gave up at once instead of retrying"
stop_within INT "$pid" 5
[ "$STOP_RC" -eq 3 ] || { cat "$WORK/err1"; fail "status $STOP_RC after Ctrl-C, expected 3"; }
expect_lines "$WORK/err1" \
	"sonde live: /dev/ttyNOPE: $NODEV; $PLAN 30 s \(--reconnect-timeout; Ctrl-C stops\)" \
	"sonde live: Interrupt: stopping" \
	"sonde live: /dev/ttyNOPE: stopped before the link came up \($NODEV\)"
[ ! -s "$WORK/out1" ] || fail "output from a link that never came up"

# 2. a tty's path alone is a serial link too; not retried: at once
rc=0
"$SONDE" live /dev/ttyNOPE --reconnect-timeout 0 </dev/null 2>"$WORK/err2" || rc=$?
[ "$rc" -eq 3 ] || fail "bare path: status $rc"
expect_lines "$WORK/err2" "sonde live: /dev/ttyNOPE: $NODEV \(not retried: --reconnect-timeout 0\)"

# 3. a TCP port nobody listens on, retried for 6 s: the reason, the plan,
#    a note when it is still down after 5 s (said at the next attempt: 5 or
#    6 s, more on a loaded machine), and the end (6 s or, loaded, later)
port=$(free_port)
rc=0
"$SONDE" live "tcp://127.0.0.1:$port" --reconnect-timeout 6 </dev/null 2>"$WORK/err3" || rc=$?
[ "$rc" -eq 3 ] || { cat "$WORK/err3"; fail "tcp: status $rc"; }
REFUSED="cannot connect to 127\.0\.0\.1:$port: Connection refused \(nothing listens on that port\)"
expect_lines "$WORK/err3" \
	"sonde live: tcp://127\.0\.0\.1:$port: $REFUSED; $PLAN 6 s \(--reconnect-timeout; Ctrl-C stops\)" \
	"sonde live: tcp://127\.0\.0\.1:$port: still down after ([5-9]|[1-9][0-9]+) s \([0-9]+ attempts\): $REFUSED; $PLAN 6 s.*" \
	"sonde live: tcp://127\.0\.0\.1:$port: $REFUSED; giving up after ([6-9]|[1-9][0-9]+)\.[0-9] s \([0-9]+ attempts\)"

# 4. a path that is neither a file nor a device
rc=0
"$SONDE" live "$WORK/nosuch.bin" </dev/null 2>"$WORK/err4" || rc=$?
[ "$rc" -eq 3 ] || fail "missing file: status $rc"
expect_lines "$WORK/err4" "sonde live: no such file or device: '$WORK/nosuch.bin' \(a link is serial:DEVICE.*\)"

# 5. a server that comes after sonde started: connected, and said after how long
port=$(free_port)
bg "$SONDE" live "tcp://127.0.0.1:$port" --proto sonde -w "$WORK/raw5" </dev/null >/dev/null 2>"$WORK/err5"
pid=$!
wait_for -p "$pid" -l "$WORK/err5" has_text "$WORK/err5" "Connection refused" || fail "late server: no message"
python3 "$WORK/fake_target.py" --listen "$WORK/p5" --port "$port" --synth 50 --chunk 512 --delay 0 --log "$WORK/sent5"
wait_for -p "$pid" -l "$WORK/err5" size_at_least "$WORK/raw5" "$(file_size "$WORK/sent5")" || fail "late server: data missing"
stop_within INT "$pid" 5
[ "$STOP_RC" -le 1 ] || { cat "$WORK/err5"; fail "late server: status $STOP_RC"; }
grep -Eq "^sonde live: tcp://127\.0\.0\.1:$port: connected after [0-9.]+ s \([0-9]+ failed attempts?\)$" "$WORK/err5" ||
	{ cat "$WORK/err5"; fail "late server: the connection is not reported"; }

# 6. sonde send to a missing device: named, status 3
rc=0
"$SONDE" send --link serial:/dev/ttyNOPE --timeout 0.3 stats 2>"$WORK/err6" || rc=$?
[ "$rc" -eq 3 ] || fail "send: status $rc"
expect_lines "$WORK/err6" "sonde send: /dev/ttyNOPE: $NODEV"

# 7. "serial:" and a path outside /dev/ that does not exist: an error at
#    once (one line, no plan, no "giving up after"), for live (status 3,
#    as case 4) and send (2: send takes a link it cannot parse for a usage
#    error)
MISSING="no such file or device: '$WORK/nosuch-tty' \(only a device under /dev/ is waited for\)"
rc=0
"$SONDE" live "serial:$WORK/nosuch-tty:9600" </dev/null >"$WORK/out7" 2>"$WORK/err7" || rc=$?
[ "$rc" -eq 3 ] || { cat "$WORK/err7"; fail "serial: outside /dev: status $rc"; }
expect_lines "$WORK/err7" "sonde live: $MISSING"
rc=0
"$SONDE" send --link "serial:$WORK/nosuch-tty" stats 2>"$WORK/err8" || rc=$?
[ "$rc" -eq 2 ] || { cat "$WORK/err8"; fail "send: outside /dev: status $rc"; }
expect_lines "$WORK/err8" "sonde send: $MISSING"
echo "PASS"
