#!/usr/bin/env bash
# test_live_screen.sh -- what a user sees of `sonde live` on a real terminal
# (tmux, read back with capture-pane) while tens of thousands of records a
# second scroll by: the figures stay on the second-to-last row and the
# latest message (a command's reply, the key help) on the last row, never
# scrolled away or erased, with the records scrolling above them; space
# pauses the records and shows them again; q ends the session and gives
# the whole screen back (the summary scrolls normally).  Before, every
# chunk erased the status line (redrawn every 500 ms) and replies scrolled
# away with the records.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux not found"; exit 77; }
live_setup
FT=$WORK/fake_target.py
TM=(tmux -L "sonde-test-$$" -f /dev/null)
ROWS=24
stop_tmux() { "${TM[@]}" kill-server 2>/dev/null || true; }
trap 'rc=$?; stop_tmux; (exit $rc); live_cleanup' EXIT

bg python3 "$FT" --listen "$WORK/port" --synth 0 --chunk 4096 --delay 0.001
wait_for -p $! test -s "$WORK/port" || fail "target did not start"
link="tcp://127.0.0.1:$(cat "$WORK/port")"
"${TM[@]}" new-session -d -x 120 -y "$ROWS" -s live \
	"env TERM=xterm '$SONDE' live '$link' --proto sonde; echo; echo EXIT=\$?; sleep 600"

screen() { "${TM[@]}" capture-pane -p -t live >"$WORK/screen"; }
row() { sed -n "$1p" "$WORK/screen"; } # 1-based
# shows ROW REGEX: the screen's row ROW matches REGEX (egrep) now
shows() { screen && row "$1" | grep -Eq -- "$2"; }
# stays ROW REGEX: ... and still does after records have scrolled by
stays() {
	local first
	shows "$1" "$2" || return 1
	first=$(sed -n "1,$((ROWS - 2))p" "$WORK/screen")
	wait_for eval '[ "$(screen; sed -n "1,$((ROWS - 2))p" "$WORK/screen")" != "$first" ]' ||
		fail "the records do not scroll"
	row "$1" | grep -Eq -- "$2" || { cat "$WORK/screen"; fail "row $1 lost /$2/ while records scrolled"; }
}
FIGURES="^tcp://127\.0\.0\.1:[0-9]+ up \| [0-9.]+ [kMG]?B/s [0-9]+ rec/s \| [0-9.]+ [kMG]?B [0-9]+ records \| errors 0 \| drops 0 target, 0 link"
RECORD="^ +[0-9]+ +[0-9.]+ (ISR_ENTER|ISR_EXIT|COUNTER|Packet|TIME_SYNC)"

# the figures, the key help below them, records above
wait_for shows $((ROWS - 1)) "$FIGURES" || { cat "$WORK/screen"; fail "no figures on row $((ROWS - 1))"; }
stays $((ROWS - 1)) "$FIGURES"
stays "$ROWS" "^keys: i info, s start/stop, t trigger, r readout, c reset counters, p stats, space pause, h help, q quit"
sed -n "1,$((ROWS - 2))p" "$WORK/screen" | grep -Eq "$RECORD" || { cat "$WORK/screen"; fail "no records above the status area"; }

# a command's reply stays readable while the records go on
"${TM[@]}" send-keys -t live p
REPLY="^<- STATS \(seq [0-9]+\): OK: TARGET_STATS records=[0-9]+ overwritten=0 refused=0 bytes=[0-9]+"
wait_for shows "$ROWS" "$REPLY" || { cat "$WORK/screen"; fail "the reply to 'p' is not shown"; }
stays "$ROWS" "$REPLY"
stays $((ROWS - 1)) "$FIGURES"

# space: the records stop scrolling, the figures say so; again: they go on
"${TM[@]}" send-keys -t live Space
wait_for shows $((ROWS - 1)) "^PAUSED, [0-9]+ lines not shown \| tcp://" || { cat "$WORK/screen"; fail "not paused"; }
wait_for shows $((ROWS - 1)) "^PAUSED, [1-9][0-9]* lines not shown" || fail "nothing held back while paused"
screen
frozen=$(sed -n "1,$((ROWS - 2))p" "$WORK/screen")
wait_for shows $((ROWS - 1)) "^PAUSED, [1-9][0-9]{3,} lines not shown" || fail "the pause does not count lines"
[ "$(sed -n "1,$((ROWS - 2))p" "$WORK/screen")" = "$frozen" ] || { cat "$WORK/screen"; fail "records scrolled while paused"; }
"${TM[@]}" send-keys -t live Space
wait_for shows "$ROWS" "^display resumed \([0-9]+ lines not shown\)" || { cat "$WORK/screen"; fail "not resumed"; }
wait_for stays $((ROWS - 1)) "$FIGURES" || { cat "$WORK/screen"; fail "no figures after the pause"; }

# q: the summary, then the whole screen scrolls again
"${TM[@]}" send-keys -t live q
wait_for eval 'screen; grep -q "^EXIT=0$" "$WORK/screen"' || { cat "$WORK/screen"; fail "the session did not end with status 0"; }
grep -Eq "^link +tcp://127\.0\.0\.1:[0-9]+, [0-9.]+ s, connected 1 time$" "$WORK/screen" || { cat "$WORK/screen"; fail "no summary"; }
[ "$(row "$ROWS")" = "" ] && row $((ROWS - 1)) | grep -q "^EXIT=0$" ||
	{ cat "$WORK/screen"; fail "the screen does not scroll as a whole after the session"; }
echo "PASS"
