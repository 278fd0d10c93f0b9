#!/usr/bin/env bash
# test_miniprof_faults.sh -- faults injected by the device simulator, seen
# through `sonde miniprof capture`: a wrong CRC, packets cut short (in the
# middle of the burst and just before the STOP's ACK), garbage on the line,
# buffer overflows, another PROFILE_DATA version, a refused START, an
# unanswered STOP.  Each report is checked exactly, offsets and frames
# included; the CRCs in the messages are recomputed here from the raw bytes;
# the rest of the session is still decoded; decoding the raw file again
# gives the same reports.
set -u
. "$(dirname "$0")/test_miniprof_lib.sh"
mp_setup

# The session without faults: METADATA @0 (frame 0), ACK @36 (1),
# PROFILE_DATA @44, @335, @626, @917 (frames 2-5, 291 bytes, 20 records
# each), ACK @1208 (6), STATUS @1216 (7).

# capture OPTIONS...: a capture against a fresh simulator with these faults;
# output in $OUT/$ERR (status in $RC), raw bytes in $W/raw.bin.  Answers
# are awaited $TIMEOUT ms: long, so that a loaded machine never turns a
# slow answer into a missing one; shorter only where one never comes.
TIMEOUT=10000
capture() {
	mp_sim_start "$@"
	"$SONDE" miniprof --link "$PTY" capture --duration 0.1 --timeout "$TIMEOUT" -w "$W/raw.bin" >"$OUT" 2>"$ERR"
	RC=$?
	mp_sim_stop
}
calls() { grep -c ' CALL_ENTER ' "$OUT"; }
# the same reports and output when the raw file is decoded again
redecode() {
	"$SONDE" decode --proto miniprof "$W/raw.bin" >"$W/re.out" 2>"$W/re.err"
	cmp -s "$W/re.out" "$OUT" || mp_fail "$1: decoding raw.bin gives another output"
	sed "s|^$PTY: |$W/raw.bin: |" "$ERR" | grep -v '^sonde miniprof: ' | cmp -s - "$W/re.err" \
		|| { cat "$ERR" "$W/re.err"; mp_fail "$1: decoding raw.bin gives other reports"; }
}

# ---- a wrong CRC on the second PROFILE_DATA ------------------------------------------------
capture --crc-error 1
[[ $RC == 1 ]] || mp_fail "crc: exit status $RC, expected 1"
got=$(mp_le16 "$W/raw.bin" $((335 + 288)))
want=$(mp_crc16 "$W/raw.bin" 335 288)
[[ $got != "$want" ]] || mp_fail "crc: the simulator did not damage the CRC"
expect_line "$ERR" "$PTY: offset 335, frame 3: bad-checksum: PROFILE_DATA packet: CRC 0x$got received, 0x$want computed: packet discarded (291 bytes)"
expect_lines "$ERR" 1
[[ $(calls) == 60 ]] || mp_fail "crc: expected the 60 calls of the good packets, got $(calls)"
grep -q ' STATUS is_profiling=false buffer_overflows=0 records_captured=80 ' "$OUT" || mp_fail "crc: no STATUS"
redecode crc
echo "ok: bad CRC"

# ---- packets cut short ---------------------------------------------------------------------
capture --partial 2
[[ $RC == 1 ]] || mp_fail "partial: exit status $RC"
expect_line "$ERR" "$PTY: offset 626, frame 4: truncated: PROFILE_DATA packet cut short after 145 of 291 bytes: a new packet starts at offset 771"
expect_lines "$ERR" 1
[[ $(calls) == 60 ]] || mp_fail "partial: expected 60 calls, got $(calls)"
[[ $(stat -c %s "$W/raw.bin") == $((1234 - 146)) ]] || mp_fail "partial: raw.bin size"
redecode partial

# the last packet of the burst, cut short by the ACK of STOP_PROFILING
capture --partial 3
[[ $RC == 1 ]] || mp_fail "partial 3: exit status $RC"
expect_line "$ERR" "$PTY: offset 917, frame 5: truncated: PROFILE_DATA packet cut short after 145 of 291 bytes: a new packet starts at offset 1062"
expect_lines "$ERR" 1
[[ $(grep -c ' ACK$' "$OUT") == 2 ]] || mp_fail "partial 3: the ACK of STOP was lost"
grep -q ' STATUS ' "$OUT" || mp_fail "partial 3: no STATUS"
redecode "partial 3"
echo "ok: cut short"

# ---- garbage before the first PROFILE_DATA -------------------------------------------------
capture --garbage 0
[[ $RC == 1 ]] || mp_fail "garbage: exit status $RC"
expect_line "$ERR" "$PTY: offset 44, frame 2: garbage: 7 bytes skipped: not part of any packet"
expect_lines "$ERR" 1
[[ $(calls) == 80 ]] || mp_fail "garbage: expected all 80 calls, got $(calls)"
redecode garbage
echo "ok: garbage"

# ---- all at once, in order -------------------------------------------------------------------
capture --crc-error 0 --garbage 1 --partial 2
[[ $RC == 1 ]] || mp_fail "all: exit status $RC"
got=$(mp_le16 "$W/raw.bin" $((44 + 288)))
want=$(mp_crc16 "$W/raw.bin" 44 288)
expect_line "$ERR" "$PTY: offset 44, frame 2: bad-checksum: PROFILE_DATA packet: CRC 0x$got received, 0x$want computed: packet discarded (291 bytes)"
expect_line "$ERR" "$PTY: offset 335, frame 3: garbage: 7 bytes skipped: not part of any packet"
expect_line "$ERR" "$PTY: offset 633, frame 4: truncated: PROFILE_DATA packet cut short after 145 of 291 bytes: a new packet starts at offset 778"
expect_lines "$ERR" 3
[[ $(calls) == 40 ]] || mp_fail "all: expected 40 calls, got $(calls)"
redecode all

# garbage right after a packet cut short belongs to the cut packet's bytes
capture --partial 2 --garbage 3
expect_line "$ERR" "$PTY: offset 626, frame 4: truncated: PROFILE_DATA packet cut short after 152 of 291 bytes: a new packet starts at offset 778"
expect_lines "$ERR" 1
echo "ok: several faults"

# ---- buffer overflows reported by the device ----------------------------------------------------
capture --overflows 3
[[ $RC == 0 ]] || mp_fail "overflows: exit status $RC"
expect_line "$ERR" 'sonde miniprof: warning: the device reports 3 buffer overflows: profile records were lost (raise the baud rate or instrument fewer functions)'
expect_lines "$ERR" 1
expect_line "$OUT" '           -               - STATUS is_profiling=false buffer_overflows=3 records_captured=80 buffer_usage_percent=0'
expect_line "$OUT" '           -               - OVERFLOW refused_total=3 overwritten_total=0 new_overflows=3'
"$SONDE" decode --proto miniprof --format jsonl "$W/raw.bin" >"$W/j" || mp_fail "overflows: jsonl"
grep -q '"kind":"drops".*"refused_total":3' "$W/j" || { grep drops "$W/j"; mp_fail "overflows: no drops event"; }
echo "ok: buffer overflows"

# ---- a PROFILE_DATA version this decoder does not read -------------------------------------------
capture --profile-version 2
[[ $RC == 1 ]] || mp_fail "version: exit status $RC"
for off in 44 335 626 917; do
	f=$(((off - 44) / 291 + 2))
	expect_line "$ERR" "$PTY: offset $off, frame $f: version: PROFILE_DATA version 2 is not supported (only version 1): header skipped"
	expect_line "$ERR" "$PTY: offset $((off + 2)), frame $((f + 1)): garbage: 289 bytes skipped: not part of any packet"
done
expect_lines "$ERR" 8
[[ $(calls) == 0 ]] || mp_fail "version: calls decoded"
grep -q ' STATUS ' "$OUT" || mp_fail "version: no STATUS"
echo "ok: other version refused"

# ---- a refused START, an unanswered STOP ----------------------------------------------------------
capture --nack start
[[ $RC == 1 ]] || mp_fail "nack: exit status $RC"
expect_line "$ERR" 'sonde miniprof: the device refused START_PROFILING (NACK)'
expect_lines "$ERR" 1
expect_line "$OUT" '           -               - NACK'
[[ $(calls) == 0 ]] || mp_fail "nack: calls decoded"

TIMEOUT=2000 # STOP is never answered; GET_STATUS after it is, within this
capture --mute stop
[[ $RC == 3 ]] || mp_fail "mute stop: exit status $RC"
expect_line "$ERR" "sonde miniprof: no answer to STOP_PROFILING from $PTY within 2000 ms"
expect_lines "$ERR" 1
[[ $(calls) == 80 ]] || mp_fail "mute stop: expected the 80 calls"
grep -q ' STATUS is_profiling=true ' "$OUT" || mp_fail "mute stop: the final STATUS is still asked for"
echo "ok: NACK and no answer"
