#!/usr/bin/env bash
# test_live_sigint.sh -- Ctrl-C in the middle of a fast stream.  After
# SIGINT (and, in a second run, SIGTERM) `sonde live` finishes its outputs
# and prints the summary; the raw file holds every byte it received: it is
# exactly the first N bytes of what the target sent, N being the byte count
# of the summary; the decoded output is `sonde decode` of the raw file; and
# a JSON output is complete (every line parses).  A stop the user asked
# for is not a damaged stream: the frame in flight when it came is counted
# ("cut by the stop", its bytes in the byte count) but is no 'truncated'
# diagnostic, and the exit status is 0 (TCP on loopback loses nothing).
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py

run() { # SIGNAL NAME
	local sig=$1 name=$2 rc=0
	rm -f "$WORK/port"
	bg python3 "$FT" --listen "$WORK/port" --synth 0 --chunk 4096 --delay 0.0005 --log "$WORK/sent-$name.bin"
	local srv=$!
	wait_for -p "$srv" test -s "$WORK/port" || fail "$name: server did not start"
	bg timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/port")" --proto sonde -w "$WORK/raw-$name.bin" \
		--format jsonl --output "$WORK/out-$name.jsonl" </dev/null 2>"$WORK/err-$name.txt"
	local live=$!
	wait_for -p "$srv" -p "$live" -l "$WORK/err-$name.txt" size_at_least "$WORK/raw-$name.bin" 200000 || fail "$name: no data"
	kill "-$sig" "$live"
	wait "$live" || rc=$?
	kill "$srv" 2>/dev/null || true
	wait "$srv" 2>/dev/null || true
	[ "$rc" -eq 0 ] || { cat "$WORK/err-$name.txt"; fail "$name: exit status $rc (a stop asked for is not an error)"; }
	! grep -q "truncated" "$WORK/err-$name.txt" || { cat "$WORK/err-$name.txt"; fail "$name: the frame cut by the stop was called an error"; }
	grep -q "^diagnostics  *0$" "$WORK/err-$name.txt" || { cat "$WORK/err-$name.txt"; fail "$name: diagnostics"; }
	local n
	n=$(file_size "$WORK/raw-$name.bin")
	grep -q "^bytes  *$n$" "$WORK/err-$name.txt" || { cat "$WORK/err-$name.txt"; fail "$name: summary does not count the $n bytes of the raw file"; }
	grep -q "^raw capture .*, $n bytes$" "$WORK/err-$name.txt" || fail "$name: summary: raw capture"
	cmp -n "$n" "$WORK/raw-$name.bin" "$WORK/sent-$name.bin" || fail "$name: raw file is not what the target sent"
	[ "$(file_size "$WORK/sent-$name.bin")" -ge "$n" ] || fail "$name: raw file longer than what was sent"
	# the raw file ends where the stop cut it: a 'truncated' frame for decode
	# exactly when the summary said "cut by the stop"
	local drc=0
	"$SONDE" decode "$WORK/raw-$name.bin" --format jsonl >"$WORK/ref-$name.jsonl" 2>"$WORK/derr-$name.txt" || drc=$?
	if grep -q "^cut by the stop " "$WORK/err-$name.txt"; then
		grep -q "truncated" "$WORK/derr-$name.txt" || fail "$name: a cut frame that decode does not see"
	else
		[ "$drc" -eq 0 ] || { cat "$WORK/derr-$name.txt"; fail "$name: decode of the raw file: status $drc"; }
	fi
	cmp "$WORK/out-$name.jsonl" "$WORK/ref-$name.jsonl" || fail "$name: output differs from 'sonde decode' of the raw file"
	python3 -c "import json,sys
for l in open(sys.argv[1]): json.loads(l)" "$WORK/out-$name.jsonl" || fail "$name: JSON output is incomplete"
	grep -q ": stopping" "$WORK/err-$name.txt" || fail "$name: the signal was not acknowledged"
}
run INT sigint
run TERM sigterm
echo "PASS"
