#!/usr/bin/env bash
# test_cli_errors.sh -- damaged streams through `sonde decode`, in protocol
# versions 2 and 1: every error on stderr with its byte offset and frame
# number (exact lines), the rest still decoded, status 1; -q and
# --max-diags; a bad version-2 timestamp field; an unsupported protocol
# version; input no decoder recognises; an empty input.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup

for VER in 1 2; do
	F=$TMP/bad$VER.bin
	: >"$F"
	off() { stat -c %s "$F"; }
	session 1000 >>"$F"
	tsync 500 0xffffffff >>"$F"             # frame 2, seq 2
	tf 0x0c 501 1 >>"$F"                    # frame 3, seq 3
	LAST_T=501
	o_bad=$(off)
	tf 0x0c 502 1 | tr '\001' '\041' >>"$F" # frame 4: a damaged byte
	LAST_T=502
	o_gap=$(off)
	SEQ=5
	tf 0x0c 503 1 >>"$F"                    # frame 5: seq 5 after 3
	tsync 504 1 >>"$F"                      # frame 6: 1 tick after frame 5
	LAST_T=504
	o_unk=$(off)
	sf 0x1F 1 2 3 >>"$F"                    # frame 7: unknown record id (v2: the time is
	o_mal=$(off)                            # unknown after it: it may have had a delta)
	tf 0x40 505 3 1 0 >>"$F"                # frame 8: U32 with 2 bytes
	tsync 506 1 >>"$F"                      # frame 9
	o_tail=$(off)
	tf 0x0c 507 1 | head -c 4 >>"$F"        # frame 10: cut short

	expect_rc 1 "$SONDE" decode "$F"
	[[ $(wc -l <"$ERR") == 5 ]] || { cat "$ERR"; fail "5 diagnostics expected"; }
	expect_line "$ERR" "$F: offset $o_bad, frame 4: bad-checksum: bad checksum: $(( o_gap - o_bad )) bytes discarded"
	expect_line "$ERR" "$F: offset $o_gap, frame 5: seq-gap: sequence gap: 1 frames lost (seq 5 after 3)"
	expect_line "$ERR" "$F: offset $o_unk, frame 7: unknown-record: unknown record id 0x1F (3 data bytes) skipped"
	expect_line "$ERR" "$F: offset $(( o_mal + 2 + (VER == 1 ? 2 : 0) )), frame 8: malformed: USER_0x40: argument 1: needs 4 bytes, 2 left"
	expect_line "$ERR" "$F: offset $o_tail, frame 10: truncated: input ends inside a frame: 4 bytes discarded"
	# decoded anyway: the MARKs around the damage, the malformed record
	expect_line "$OUT" "         503     0.503000000 MARK marker=1"
	expect_line "$OUT" "         505     0.505000000 USER_0x40 (malformed)"
	[[ $(grep -c ' MARK ' "$OUT") == 2 ]] || fail "2 MARKs expected"
	expect_line "$OUT" "         504     0.504000000 TIME_SYNC since_prev=1"
	expect_line "$OUT" "         506     0.506000000 TIME_SYNC since_prev=1"
done
# two streams: version 1's 2-byte timestamps are one byte more than version
# 2's 1-byte deltas, in each of the 4 whole timed records
[[ $(( $(stat -c %s "$TMP/bad1.bin") - $(stat -c %s "$TMP/bad2.bin") )) == 4 ]] || fail "stream sizes"

expect_rc 1 "$SONDE" decode -q "$F"
[[ -s $ERR ]] && fail "-q: stderr not empty"
expect_rc 1 "$SONDE" decode --max-diags 2 "$F"
[[ $(wc -l <"$ERR") == 3 ]] || fail "--max-diags 2: 3 lines expected"
expect_line "$ERR" "sonde decode: $F: 3 more diagnostics not shown (--max-diags)"
expect_rc 1 "$SONDE" decode -f jsonl "$F"
expect_has "$OUT" '"record":"USER_0x40","malformed":true}'

# a TIME_SYNC of 8 bytes (before since_prev) is malformed, and a break in
# time: the MARK after it is held and timed by the next good TIME_SYNC
{
	session 1000
	tsync 100 0xffffffff
	sf 2 $(le64 0x20000)                       # frame 3: no since_prev
	LAST_T=0x20000
	tf 0x0c 0x20010 1
	tsync 0x20020 0x10
} >"$TMP/short.bin"
o_short=$(( $(session 1000 | wc -c) + $(tsync 100 0xffffffff | wc -c) ))
expect_rc 1 "$SONDE" decode "$TMP/short.bin"
[[ $(wc -l <"$ERR") == 1 ]] || { cat "$ERR"; fail "short TIME_SYNC: 1 diagnostic expected"; }
expect_line "$ERR" "$TMP/short.bin: offset $(( o_short + 10 )), frame 3: malformed: TIME_SYNC: 8 data bytes, expected 12"
expect_line "$OUT" "      131088   131.088000000 MARK marker=1"

# a version-2 timestamp field with the invalid tag 1111xxxx: malformed, at
# its last byte; the MARK after it is held (its delta counts from a record
# whose time is lost) and timed by the next TIME_SYNC
VER=2
{
	session 1000
	tsync 100 0xffffffff
	sf 0x0c 1 0xf5                             # frame 3
	LAST_T=150
	tf 0x0c 170 1
	tsync 200 30
} >"$TMP/tag.bin"
o_tag=$(( $(session 1000 | wc -c) + $(tsync 100 0xffffffff | wc -c) ))
expect_rc 1 "$SONDE" decode "$TMP/tag.bin"
[[ $(wc -l <"$ERR") == 1 ]] || { cat "$ERR"; fail "bad tag: 1 diagnostic expected"; }
expect_line "$ERR" "$TMP/tag.bin: offset $(( o_tag + 3 )), frame 3: malformed: MARK: timestamp field: last byte 0xF5 has the invalid width tag 1111xxxx"
expect_line "$OUT" "         170     0.170000000 MARK marker=1"

# an unsupported version: one clear error, then nothing until a known one
{
	SEQ=0
	sf 0
	sf 1 4 2 4 0 0 0 $(le32 1000) $(le32 4096) $(le32 1)
	sf 2 $(le64 5) $(le32 0xffffffff)
	session 1000
} >"$TMP/v4.bin"
expect_rc 1 "$SONDE" decode "$TMP/v4.bin" --proto sonde
expect_line "$ERR" "$TMP/v4.bin: offset 6, frame 1: version: TARGET_INFO: protocol version 4 is not supported (this decoder knows versions 1 to 3); nothing is decoded until a TARGET_INFO of one of those"
[[ $(wc -l <"$OUT") == 2 ]] || fail "v4: only EMPTY and the known version's TARGET_INFO"

# nothing recognisable: usage error, the decoders' scores shown
head -c 3000 /dev/zero | tr '\0' '\125' >"$TMP/noise.bin"
expect_rc 2 "$SONDE" decode "$TMP/noise.bin"
expect_has "$ERR" "cannot tell the protocol: no decoder recognises the first 3000 bytes"
expect_has "$ERR" "use --proto NAME"
expect_rc 1 "$SONDE" decode --proto sonde "$TMP/noise.bin"
expect_has "$ERR" "offset 0, frame 0: truncated: input ends inside a frame: 3000 bytes discarded"

# empty input: nothing to say, status 0
: >"$TMP/empty.bin"
expect_rc 0 "$SONDE" decode "$TMP/empty.bin"
[[ -s $OUT || -s $ERR ]] && fail "empty input: no output expected"
echo ok
