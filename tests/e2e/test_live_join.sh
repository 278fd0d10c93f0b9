#!/usr/bin/env bash
# test_live_join.sh -- `sonde live` joining a target that has been running:
# its stream has no TARGET_INFO (sent at the start, long ago), so there are
# no names and no times in seconds.  sonde notices (no TARGET_INFO in the
# first frames), says so and asks the target for INFO itself; from the
# reply on, records carry names and seconds.  On a link that cannot carry
# commands it says why it cannot ask.  A target that starts normally is
# not asked.  Before, nothing happened until the user pressed 'i'.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py

# 1. TCP: asked, answered, names and seconds from then on
bg python3 "$FT" --listen "$WORK/port" --synth 0 --joined --chunk 256 --delay 0.002
wait_for -p $! test -s "$WORK/port" || fail "target did not start"
bg "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/port")" --proto sonde --output "$WORK/out.txt" </dev/null 2>"$WORK/err.txt"
live=$!
wait_for -p "$live" has_text "$WORK/err.txt" "^<- INFO (seq [0-9]*): OK" || { cat "$WORK/err.txt"; fail "no INFO asked for and answered"; }
wait_for -p "$live" eval 'grep -A20 "TARGET_INFO" "$WORK/out.txt" | grep -q "ISR_ENTER isr=5(TICK)"' ||
	fail "no names after the TARGET_INFO"
stop_within INT "$live" 10
[ "$STOP_RC" -le 1 ] || { cat "$WORK/err.txt"; fail "exit status $STOP_RC"; }
grep -q "^sonde live: joined a running target (no TARGET_INFO in its first [0-9]* frames): asking it for INFO, for the names and the times in seconds$" \
	"$WORK/err.txt" || { cat "$WORK/err.txt"; fail "joining not said"; }
sent=$(sed -n 's/^-> INFO (seq \([0-9]*\))$/\1/p' "$WORK/err.txt")
[ -n "$sent" ] && grep -q "^<- INFO (seq $sent): OK$" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "INFO sent once, answered by its SEQ"; }
[ "$(grep -c '^-> INFO' "$WORK/err.txt")" -eq 1 ] || fail "INFO asked for more than once"
# before the reply: ticks without seconds and unnamed; after it: both
head -1 "$WORK/out.txt" | grep -Eq '^ +[0-9]+ +- ' || { head -3 "$WORK/out.txt"; fail "seconds known before TARGET_INFO?"; }
grep -m1 'ISR_ENTER' "$WORK/out.txt" | grep -q 'isr=5 ' || fail "a name known before the DICT?"
tail -1 "$WORK/out.txt" | grep -Eq '^ +[0-9]+ +[0-9]+\.[0-9]{9} ' || { tail -3 "$WORK/out.txt"; fail "no seconds after TARGET_INFO"; }

# 2. standard input cannot carry a command: said, with what helps
rc=0
python3 "$FT" --append /dev/stdout --synth 300 --joined --chunk 65536 --delay 0 |
	"$SONDE" live - --proto sonde >/dev/null 2>"$WORK/err2.txt" || rc=$?
[ "$rc" -le 1 ] || { cat "$WORK/err2.txt"; fail "stdin: exit status $rc"; }
grep -q "^sonde live: joined a running target (no TARGET_INFO in its first [0-9]* frames); <stdin> cannot carry commands: names and times in seconds stay unknown until a TARGET_INFO comes (-o ts_freq=HZ gives the seconds)$" \
	"$WORK/err2.txt" || { cat "$WORK/err2.txt"; fail "stdin: not said"; }

# 3. a target that starts while we listen: its TARGET_INFO comes first, nothing is asked
rm -f "$WORK/port"
bg python3 "$FT" --listen "$WORK/port" --synth 300 --chunk 256 --delay 0.001
wait_for -p $! test -s "$WORK/port" || fail "target 3 did not start"
"$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/port")" --proto sonde --reconnect-timeout 0 </dev/null >/dev/null 2>"$WORK/err3.txt" || true
if grep -q "joined\|-> INFO" "$WORK/err3.txt"; then cat "$WORK/err3.txt"; fail "a starting target was asked for INFO"; fi
echo "PASS"
