#!/usr/bin/env bash
# test_live_faults.sh -- faults on a live TCP link (docs/reliability.md):
# the peer closes in the middle of a frame, sends garbage frames, stalls
# for STALL seconds, resets the connection.  Each time the raw file (-w) is
# byte for byte what the peer sent (its log; for a reset, the first bytes
# of it), the summary gives the figures of `sonde stats` of the raw file,
# the output is `sonde decode` of it, and the figures account for what the
# peer did: its good frames are the records, its garbage frames the
# checksum errors, a cut frame the one truncation.  Stops on SIGINT/SIGTERM
# are test_live_sigint.sh's and test_live_stop.sh's.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py
STALL=${FAULT_STALL_S:-2}

# session NAME FAULT-OPTIONS...: a synthesised stream with these faults, to
# a sonde live that ends when the peer goes away
session() {
	local name=$1
	shift
	rm -f "$WORK/port"
	bg python3 "$FT" --listen "$WORK/port" --synth 3000 --chunk 700 --delay 0.0005 --log "$WORK/$name.sent" \
		--report "$WORK/$name.json" "$@"
	local peer=$!
	wait_for -p "$peer" test -s "$WORK/port" || fail "$name: peer did not start"
	RC=0
	timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/port")" --proto sonde -w "$WORK/$name.raw" \
		--output "$WORK/$name.out" --reconnect-timeout 0 </dev/null 2>"$WORK/$name.err" || RC=$?
	wait_for -p "$peer" test -s "$WORK/$name.json" || fail "$name: no report from the peer"
}
report() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$WORK/$1.json" "$2"; }
flags() { python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(b"\x7e"))' "$1"; }

# 1. closed in the middle of a frame
session cut --cut-at 40000
check_capture cut "$WORK/cut.sent" "$WORK/cut.raw" "$WORK/cut.err" "$WORK/cut.out" 1
[ "$RC" -eq 1 ] || { cat "$WORK/cut.err"; fail "cut: exit status $RC (a truncated frame: 1)"; }
[ "$(figure "$WORK/cut.err" records)" -eq "$(flags "$WORK/cut.sent")" ] || fail "cut: records are not the peer's whole frames"
grep -q "^$(printf '%s' "tcp://127.0.0.1:[0-9]*"): offset [0-9]*, frame [0-9]*: truncated: input ends inside a frame: $(report cut cut_bytes) bytes discarded$" \
	"$WORK/cut.err" || { cat "$WORK/cut.err"; fail "cut: the cut frame is not reported"; }
grep -q "connection closed by the peer" "$WORK/cut.err" || fail "cut: the close is not reported"
echo "cut: $(file_size "$WORK/cut.raw") bytes, $(figure "$WORK/cut.err" records) records, the cut frame ($(report cut cut_bytes) bytes) reported"

# 2. garbage frames between the good ones
session garbage --garbage-every 5
check_capture garbage "$WORK/garbage.sent" "$WORK/garbage.raw" "$WORK/garbage.err" "$WORK/garbage.out" 1
g=$(report garbage garbage_frames)
[ "$g" -gt 10 ] || fail "garbage: only $g garbage frames sent"
[ "$(figure "$WORK/garbage.err" 'checksum errors')" -eq "$g" ] || { cat "$WORK/garbage.err"; fail "garbage: $g bad frames sent"; }
[ "$(figure "$WORK/garbage.err" records)" -eq $(( $(flags "$WORK/garbage.sent") - g )) ] || fail "garbage: records"
grep -q "^sequence gaps  *0 " "$WORK/garbage.err" || fail "garbage: a good frame was lost"
echo "garbage: $g bad frames sent, $g checksum errors, $(figure "$WORK/garbage.err" records) records"

# 3. a stall: nothing for STALL s, then the rest; no reconnection, nothing lost
session stall --stall-at 30000 --stall "$STALL"
check_capture stall "$WORK/stall.sent" "$WORK/stall.raw" "$WORK/stall.err" "$WORK/stall.out" 1
[ "$(report stall stalled)" != 0.0 ] || fail "stall: the peer did not stall"
[ "$RC" -eq 0 ] || { cat "$WORK/stall.err"; fail "stall: exit status $RC"; }
grep -q "connected 1 time$" "$WORK/stall.err" || fail "stall: the link was dropped"
[ "$(figure "$WORK/stall.err" records)" -eq "$(flags "$WORK/stall.sent")" ] || fail "stall: records"
echo "stall: ${STALL} s without a byte, then the rest: $(figure "$WORK/stall.err" records) records, clean"

# 4. a reset: what arrived before it is kept and accounted for
session reset --reset-at 40000
check_capture reset "$WORK/reset.sent" "$WORK/reset.raw" "$WORK/reset.err" "$WORK/reset.out" 0
[ "$(report reset reset)" = True ] || fail "reset: the peer did not reset"
grep -Eq "Connection reset by peer|connection closed by the peer" "$WORK/reset.err" || { cat "$WORK/reset.err"; fail "reset: not reported"; }
echo "reset: $(file_size "$WORK/reset.raw") of $(file_size "$WORK/reset.sent") bytes arrived before the reset, all saved and decoded"
echo "PASS"
