#!/usr/bin/env bash
# test_miniprof_capture.sh -- `sonde miniprof capture` against the device
# simulator: the raw bytes saved with -w are exactly the session's packets
# and decode again to exactly the live output; the calls reach the text,
# jsonl, profile, folded and perfetto outputs; records in entry order give
# the same profile as in completion order; the timer wraps; Ctrl-C ends a
# capture cleanly.  The simulator sends a fixed burst after START, so what
# is captured does not depend on --duration or on timing.
set -u
. "$(dirname "$0")/test_miniprof_lib.sh"
mp_setup

# The session: METADATA (36 bytes), ACK (8), 4 PROFILE_DATA of 20 records
# (8 + 3 + 280 = 291 each), ACK (8), STATUS (18).
SESSION_BYTES=$((36 + 8 + 4 * 291 + 8 + 18))

mp_sim_start
expect_rc 0 "$SONDE" miniprof --link "$PTY" capture --duration 0.2 -w "$W/raw.bin"
expect_empty "$ERR"
cp "$OUT" "$W/live.txt"
[[ $(stat -c %s "$W/raw.bin") == "$SESSION_BYTES" ]] || mp_fail "raw.bin: $(stat -c %s "$W/raw.bin") bytes, expected $SESSION_BYTES"
# every packet where it should be, with a good CRC and its end marker
for p in "0 03 28" "36 01 0" "44 05 283" "335 05 283" "626 05 283" "917 05 283" "1208 01 0" "1216 04 10"; do
	set -- $p
	[[ $(mp_hex "$W/raw.bin" "$1" 3) == "aa 55 $2" ]] || mp_fail "packet at $1: $(mp_hex "$W/raw.bin" "$1" 5)"
	[[ $(mp_le16 "$W/raw.bin" $(($1 + 3))) == $(printf '%04x' "$3") ]] || mp_fail "length at $1"
	[[ $(mp_le16 "$W/raw.bin" $(($1 + 5 + $3))) == $(mp_crc16 "$W/raw.bin" "$1" $((5 + $3))) ]] || mp_fail "CRC at $1"
	[[ $(mp_hex "$W/raw.bin" $(($1 + 7 + $3)) 1) == 0a ]] || mp_fail "end marker at $1"
done
# the live output
expect_line "$W/live.txt" '           -               - METADATA mcu_clock_hz=168000000 timer_freq=1000000 elf_build_id=0xdeadbeef fw_version="v1.0.0"'
expect_line "$W/live.txt" '           -               - STATUS is_profiling=false buffer_overflows=0 records_captured=80 buffer_usage_percent=0'
[[ $(grep -c ' ACK$' "$W/live.txt") == 2 ]] || mp_fail "expected 2 ACK lines"
[[ $(grep -c ' CALL_ENTER ' "$W/live.txt") == 80 ]] || mp_fail "expected 80 calls entered"
[[ $(grep -c ' CALL_EXIT ' "$W/live.txt") == 80 ]] || mp_fail "expected 80 calls exited"
# calls come out in time order
grep ' CALL_' "$W/live.txt" | awk '$1 < last { exit 1 } { last = $1 }' || mp_fail "calls out of time order"
# decoding the raw file again gives the same output, with or without --proto
expect_rc 0 "$SONDE" decode --proto miniprof "$W/raw.bin"
cmp -s "$OUT" "$W/live.txt" || mp_fail "decoding raw.bin differs from the live output"
expect_rc 0 "$SONDE" decode "$W/raw.bin"
cmp -s "$OUT" "$W/live.txt" || mp_fail "decoding raw.bin with --proto auto differs"
echo "ok: capture, raw bytes, decode again"

# ---- other outputs ------------------------------------------------------------------------
# (the simulator goes on with new calls: these captures differ from the first)
expect_rc 0 "$SONDE" miniprof --link "$PTY" capture --duration 0.1 --format jsonl
[[ $(grep -c '"kind":"func_enter"' "$OUT") == 80 ]] || mp_fail "jsonl: expected 80 func_enter"
grep -q '"kind":"info","rec_id":3,"record":"METADATA"' "$OUT" || mp_fail "jsonl: no METADATA"
expect_rc 0 "$SONDE" miniprof --link "$PTY" capture --duration 0.1 --format perfetto --output "$W/trace.pb"
[[ -s $W/trace.pb ]] || mp_fail "perfetto: empty trace"
mp_sim_stop

# the first capture of a fresh simulator again, straight to a profile: the
# same as the profile of the first raw file
mp_sim_start
expect_rc 0 "$SONDE" miniprof --link "$PTY" capture --duration 0.1 --format profile --output "$W/profile.txt"
expect_empty "$OUT"
expect_empty "$ERR"
grep -q '^0x8000100 *10 ' "$W/profile.txt" || { cat "$W/profile.txt"; mp_fail "profile: main_loop should be called 10 times"; }
expect_rc 0 "$SONDE" decode --proto miniprof --format profile "$W/raw.bin"
cmp -s "$OUT" "$W/profile.txt" || mp_fail "the profile of raw.bin differs from the live one"
expect_rc 0 "$SONDE" decode --proto miniprof --format folded "$W/raw.bin"
cp "$OUT" "$W/folded.txt"
grep -q '^No task;0x8000100;0x' "$W/folded.txt" || mp_fail "folded: no stack under main_loop"
echo "ok: jsonl, perfetto, profile, folded"
mp_sim_stop

# ---- entry order: the same calls, in the same order -------------------------------------
# The 80 records of a burst end inside an iteration of main_loop, and which
# of its calls they hold depends on the order; up to that iteration the two
# orders give exactly the same events.
mp_sim_start --entry-order
expect_rc 0 "$SONDE" miniprof --link "$PTY" capture --duration 0.1 -w "$W/raw3.bin"
expect_empty "$ERR"
cp "$OUT" "$W/entry.txt"
cmp -s "$W/raw3.bin" "$W/raw.bin" && mp_fail "entry order: the raw bytes should differ"
cut=$(grep ' CALL_ENTER func=0x8000100 depth=1 ' "$W/entry.txt" | tail -1 | awk '{ print $1 }')
awk -v c="$cut" '/ CALL_/ && $1 < c' "$W/live.txt" >"$W/calls.completion"
awk -v c="$cut" '/ CALL_/ && $1 < c' "$W/entry.txt" >"$W/calls.entry"
[[ $(wc -l <"$W/calls.entry") -ge 120 ]] || mp_fail "entry order: too few calls compared"
cmp -s "$W/calls.completion" "$W/calls.entry" || { diff "$W/calls.completion" "$W/calls.entry" | head; mp_fail "entry order: the calls differ"; }
echo "ok: entry order"
mp_sim_stop

# ---- the 32-bit microsecond timer wraps during the capture ------------------------------
mp_sim_start --start-time 4294966000
expect_rc 0 "$SONDE" miniprof --link "$PTY" capture --duration 0.1
grep ' CALL_' "$OUT" | awk '$1 < last { exit 1 } { last = $1 }' || mp_fail "wrap: calls out of time order"
grep -q '^ *4294966000 .* CALL_ENTER ' "$OUT" || mp_fail "wrap: first call not at 4294966000"
[[ $(grep ' CALL_' "$OUT" | tail -1 | awk '{ print ($1 > 4294967296) }') == 1 ]] || mp_fail "wrap: the time did not go past 2^32"
echo "ok: timer wrap"
mp_sim_stop

# ---- Ctrl-C ends a capture with STOP and GET_STATUS ----------------------------------------
mp_sim_start
"$SONDE" miniprof --link "$PTY" capture -w "$W/raw4.bin" >"$OUT" 2>"$ERR" &
CAP=$!
MP_PIDS+=("$CAP")
wait_for -p "$CAP" -l "$ERR" eval '[[ -e $W/raw4.bin && $(stat -c %s "$W/raw4.bin") -ge $((36 + 8 + 4 * 291)) ]]' ||
	mp_fail "SIGINT: the capture did not get going"
kill -INT "$CAP"
wait "$CAP"
rc=$?
[[ $rc == 0 ]] || { cat "$ERR"; mp_fail "capture ended by SIGINT: exit status $rc"; }
[[ $(stat -c %s "$W/raw4.bin") == "$SESSION_BYTES" ]] || mp_fail "SIGINT: raw4.bin has $(stat -c %s "$W/raw4.bin") bytes"
[[ $(grep -c ' ACK$' "$OUT") == 2 ]] || mp_fail "SIGINT: expected the ACK of STOP"
grep -q ' STATUS is_profiling=false ' "$OUT" || mp_fail "SIGINT: no final STATUS"
echo "ok: Ctrl-C"
