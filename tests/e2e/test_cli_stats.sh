#!/usr/bin/env bash
# test_cli_stats.sh -- `sonde stats` on a generated stream whose figures are
# known: records per type, checksum errors, a sequence gap split by a DROPS
# into target and link losses, resyncs and bytes discarded, time span and
# rates over the trace's own time.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup

F=$TMP/s.bin
{
	session 1000
	sf 4 8 $(le32 1) $(strz tick)                      # DICT MARKER 1
	sf 2 $(le64 1000) $(le32 0xffffffff)               # TIME_SYNC
	for i in 0 1 2 3 4 5 6 7 8 9; do sf 0x0c $(le16 $(( 1000 + i * 100 ))) 1; done
	skip_seq 5                                         # 5 frames lost ...
	sf 0x0c $(le16 2000) 1
	sf 2 $(le64 2100) $(le32 100)                      # the loss report: TIME_SYNC, DROPS
	sf 3 $(le16 2100) $(le32 3) $(le32 2)              # ... 3 overwritten: 2 lost on the link
	sf 0x0c $(le16 2200) 1
	printf '\001\002\003\176'                          # line noise: a bad 4-byte frame
	sf 0x0c $(le16 2300) 1
	sf 2 $(le64 2400) $(le32 100)
	sf 0x0c $(le16 2400) 1
} >"$F"
bytes=$(stat -c %s "$F")

expect_rc 1 "$SONDE" stats "$F"
expect_line "$OUT" "input                  $F"
expect_line "$OUT" "protocol               sonde"
expect_line "$OUT" "bytes                  $bytes"
expect_line "$OUT" "frames                 22"
expect_line "$OUT" "records                21"
expect_line "$OUT" "  EMPTY                1          (id 0x00)"
expect_line "$OUT" "  TARGET_INFO          1          (id 0x01)"
expect_line "$OUT" "  TIME_SYNC            3          (id 0x02)"
expect_line "$OUT" "  DROPS                1          (id 0x03)"
expect_line "$OUT" "  DICT                 1          (id 0x04)"
expect_line "$OUT" "  MARK                 14         (id 0x0C)"
expect_line "$OUT" "checksum errors        1"
expect_line "$OUT" "sequence gaps          1 (5 frames lost)"
expect_line "$OUT" "target drops           3 overwritten, 2 refused"
expect_line "$OUT" "link-lost frames       2"
expect_line "$OUT" "unexplained lost       0"
expect_line "$OUT" "resyncs                1 (4 bytes discarded)"
expect_line "$OUT" "diagnostics            2"
expect_line "$OUT" "  bad-checksum         1"
expect_line "$OUT" "  seq-gap              1"
expect_line "$OUT" "estimated times        0"
expect_line "$OUT" "time span              1400 ticks (1.400000000 s at 1000 Hz)"
tenths=$(( bytes * 10000 / 1400 ))
expect_line "$OUT" "rates                  15.0 records/s, $(( tenths / 10 )).$(( tenths % 10 )) bytes/s"
[[ $(grep -c . "$ERR") == 2 ]] || fail "2 diagnostics on stderr expected"

# the same figures from stdin and into a file
expect_rc 1 "$SONDE" stats -q - <"$F"
expect_line "$OUT" "frames                 22"
expect_line "$OUT" "input                  <stdin>"
[[ -s $ERR ]] && fail "-q: stderr not empty"
expect_rc 1 "$SONDE" stats -q "$F" --output "$TMP/st.txt"
expect_line "$TMP/st.txt" "link-lost frames       2"

# no tick frequency: span in ticks only
{ sf 2 $(le64 10) $(le32 0xffffffff); sf 0x0c $(le16 20) 1; sf 0x0c $(le16 30) 1; } >"$TMP/nofreq.bin"
expect_rc 0 "$SONDE" stats --proto sonde "$TMP/nofreq.bin"
expect_line "$OUT" "time span              20 ticks (tick frequency unknown)"
expect_line "$OUT" "rates                  n/a (tick frequency unknown)"
expect_rc 0 "$SONDE" stats --proto sonde -o ts_freq=10 "$TMP/nofreq.bin"
expect_line "$OUT" "time span              20 ticks (2.000000000 s at 10 Hz)"
expect_line "$OUT" "rates                  1.5 records/s, $(( $(stat -c %s "$TMP/nofreq.bin") / 2 )).$(( $(stat -c %s "$TMP/nofreq.bin") * 5 % 10 )) bytes/s"
echo ok
