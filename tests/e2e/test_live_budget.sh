#!/usr/bin/env bash
# test_live_budget.sh -- the link-budget check of `sonde live` (docs/live.md
# section 3).  The fake target reports overwritten records (DROPS, with the
# matching sequence gaps) while it sends far more than the declared rate
# can carry (--baud 100000, 8N1: ~10.0 kB/s): sonde warns that the link is
# the bottleneck, with the figures it measured and the target reported.
# With a rate that carries the stream (--baud 12000000) it does not warn,
# and the summary gives the average use.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py

run() { # BAUD NAME
	rm -f "$WORK/port"
	# 9000 events: about 290 kB, 2.8 s at this pace -- more than the budget check's 2-s window
	bg python3 "$FT" --listen "$WORK/port" --synth 9000 --drops 50 --chunk 2048 --delay 0.02
	wait_for -p $! test -s "$WORK/port" || fail "$2: target did not start"
	timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/port")" --proto sonde --baud "$1" --output /dev/null \
		--reconnect-timeout 0 </dev/null 2>"$WORK/$2.err" || true
}
run 100000 slow
re="100000 baud carries ~10.0 kB/s; the link ran at [0-9.]+ kB/s \([0-9]+%\); [0-9]+% of the target's records were dropped on the target \(DROPS: [0-9]+ of [0-9]+\): the link is the bottleneck"
grep -Eq "^sonde live: warning: $re$" "$WORK/slow.err" || { cat "$WORK/slow.err"; fail "no bottleneck warning"; }
grep -Eq "^link budget warning  *$re$" "$WORK/slow.err" || fail "summary: no budget warning"
grep -Eq "^target drops  *[1-9][0-9]* overwritten, 0 refused$" "$WORK/slow.err" || fail "summary: target drops"
run 12000000 fast
if grep -q "warning:" "$WORK/fast.err"; then cat "$WORK/fast.err"; fail "warning although the link carries the stream"; fi
grep -Eq "^link budget  *12000000 baud carries ~1200.0 kB/s; the link ran at [0-9.]+ kB/s on average \([0-9]+%\); [1-9][0-9]* records dropped on the target$" \
	"$WORK/fast.err" || { cat "$WORK/fast.err"; fail "summary: link budget"; }
echo "PASS"
