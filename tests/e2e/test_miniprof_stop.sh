#!/usr/bin/env bash
# test_miniprof_stop.sh -- SIGTERM ends `sonde miniprof capture` promptly
# even when the device never answers STOP_PROFILING and the output goes to
# a reader that stopped reading: STOP and GET_STATUS are still sent, their
# answers awaited 0.6 s after the signal at most, the output given up 0.4 s
# after it, and the raw file (-w) holds every byte received, which
# decodes.  And a metadata request to a device that never answers ends on
# SIGINT.  Exit status 128 + the signal; the times are printed.
set -u
. "$(dirname "$0")/test_miniprof_lib.sh"
. "$(dirname "$0")/test_live_lib.sh" # stalled_reader
mp_setup
LIMIT=5

# stop PID SIGNAL: signal PID, wait for its end (LIMIT s times
# TEST_TIME_SCALE at most: the promise is a second); sets RC, MS
stop() {
	stop_within "$2" "$1" "$LIMIT"
	RC=$STOP_RC
	MS=$STOP_MS
}

mp_sim_start --rate 400 --records 40 --mute stop
mkfifo "$W/out.fifo"
stalled_reader "$W/out.fifo" "$W/got" 20000
MP_PIDS+=($!)
"$SONDE" miniprof --link "$PTY" capture -w "$W/raw.bin" >"$W/out.fifo" 2>"$ERR" &
CAP=$!
MP_PIDS+=("$CAP")
wait_for -p "$CAP" size_at_least "$W/got" 20000 || { cat "$ERR"; mp_fail "capture: no output"; }
wait_for -p "$CAP" writing "$CAP" 1 || mp_fail "capture: not held up by its reader"
stop "$CAP" TERM
[[ $RC == 143 ]] || { cat "$ERR"; mp_fail "capture: exit status $RC, expected 143"; }
grep -q "^sonde miniprof: Terminated: stopped before the answer to STOP_PROFILING came$" "$ERR" ||
	{ cat "$ERR"; mp_fail "capture: the missing answer is not reported"; }
grep -q "write error: the reader did not take the last [0-9]* bytes within 0.4 s of the stop$" "$ERR" ||
	{ cat "$ERR"; mp_fail "capture: the cut output is not reported"; }
"$SONDE" decode --proto miniprof "$W/raw.bin" >"$W/ref.txt" 2>"$W/ref.err"
[[ $? -le 1 ]] || { cat "$W/ref.err"; mp_fail "capture: the raw file does not decode"; }
cmp -n 20000 "$W/got" "$W/ref.txt" || mp_fail "capture: output is not the decode of the raw file"
echo "ok: capture, device mute on STOP, stalled reader: SIGTERM ended it in $MS ms"
mp_sim_stop

mp_sim_start --mute metadata
"$SONDE" miniprof --link "$PTY" --timeout 60000 metadata >"$OUT" 2>"$ERR" &
CMD=$!
MP_PIDS+=("$CMD")
# the command waits once the simulator has seen it (-v would say; the pty
# has taken the 12 bytes once sonde's write returned: wait for the open)
wait_for -p "$CMD" holds_open "$CMD" "$PTY" || { cat "$ERR"; mp_fail "metadata: the device was not opened"; }
stop "$CMD" INT
[[ $RC == 130 ]] || { cat "$ERR"; mp_fail "metadata: exit status $RC, expected 130"; }
grep -q "^sonde miniprof: Interrupt: stopped before the answer to GET_METADATA came$" "$ERR" ||
	{ cat "$ERR"; mp_fail "metadata: the stop is not reported"; }
echo "ok: metadata, mute device: SIGINT ended it in $MS ms"
