#!/usr/bin/env bash
# test_live_follow.sh -- `sonde live file:PATH --follow`: a file that a
# logger keeps appending to is decoded as it grows; when it is truncated
# (a new capture started in the same file) reading starts over, and when it
# is replaced (rotated) the new file is read from its start.  The raw file
# holds every byte read, and the decoded text is what `sonde decode` gives
# for those bytes.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py

python3 "$FT" --append "$WORK/cap1.bin" --synth 1500 --chunk 65536 --delay 0
python3 "$FT" --append "$WORK/cap2.bin" --synth 700 --chunk 65536 --delay 0
python3 "$FT" --append "$WORK/cap3.bin" --synth 300 --chunk 65536 --delay 0
s1=$(file_size "$WORK/cap1.bin")
s2=$(file_size "$WORK/cap2.bin")
s3=$(file_size "$WORK/cap3.bin")
[ "$s2" -lt "$s1" ] || fail "setup: the second capture must be shorter than the first"

: >"$WORK/trace.bin"
bg timeout -k 5 "$HANG" "$SONDE" live "file:$WORK/trace.bin" --follow --proto sonde -w "$WORK/raw.bin" \
	--output "$WORK/out.txt" </dev/null 2>"$WORK/err.txt"
live=$!
# the logger appends in 1000-byte pieces
python3 "$FT" --append "$WORK/trace.bin" --replay "$WORK/cap1.bin" --chunk 1000 --delay 0.005
wait_for -p "$live" -l "$WORK/err.txt" size_at_least "$WORK/raw.bin" "$s1" || fail "growing file: $(file_size "$WORK/raw.bin") of $s1 bytes read"
# a new capture in the same file: truncated, then written again
: >"$WORK/trace.bin"
wait_for -p "$live" has_text "$WORK/err.txt" "was truncated" || { cat "$WORK/err.txt"; fail "truncation not detected"; }
python3 "$FT" --append "$WORK/trace.bin" --replay "$WORK/cap2.bin" --chunk 1000 --delay 0.002
wait_for -p "$live" -l "$WORK/err.txt" size_at_least "$WORK/raw.bin" $(( s1 + s2 )) || fail "after truncation: $(file_size "$WORK/raw.bin") bytes read"
# rotation: the file is renamed away and a new one takes its name
mv "$WORK/trace.bin" "$WORK/trace.bin.1"
python3 "$FT" --append "$WORK/trace.bin" --replay "$WORK/cap3.bin" --chunk 1000 --delay 0.002
wait_for -p "$live" -l "$WORK/err.txt" size_at_least "$WORK/raw.bin" $(( s1 + s2 + s3 )) || fail "after rotation: $(file_size "$WORK/raw.bin") bytes read"
kill -INT "$live"
rc=0
wait "$live" || rc=$?
[ "$rc" -le 1 ] || { cat "$WORK/err.txt"; fail "exit status $rc"; }
grep -q "was replaced: reading the new file from the start" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "rotation not reported"; }
cat "$WORK/cap1.bin" "$WORK/cap2.bin" "$WORK/cap3.bin" >"$WORK/all.bin"
cmp "$WORK/raw.bin" "$WORK/all.bin" || fail "raw file is not the three captures in order"
"$SONDE" decode "$WORK/all.bin" >"$WORK/ref.txt" 2>/dev/null || true
cmp "$WORK/out.txt" "$WORK/ref.txt" || fail "decoded text differs from 'sonde decode' of the same bytes"
[ "$(grep -c 'TARGET_INFO .*reset=true' "$WORK/out.txt")" -eq 3 ] || fail "three target starts expected in the output"
echo "PASS"
