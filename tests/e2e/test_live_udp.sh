#!/usr/bin/env bash
# test_live_udp.sh -- `sonde live udp://127.0.0.1:PORT`: a target sends its
# trace in datagrams; every byte that arrived is in the raw file and
# decoded as `sonde decode` decodes the same bytes; SIGINT ends the session
# with the summary and status 0.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py

python3 "$FT" --append "$WORK/cap.bin" --synth 2000 --chunk 65536 --delay 0
"$SONDE" decode "$WORK/cap.bin" >"$WORK/ref.txt"
size=$(file_size "$WORK/cap.bin")

udp_bound() { ! python3 -c "import socket,sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('127.0.0.1', $1))" 2>/dev/null; }

port=$(free_port)
bg timeout -k 5 "$HANG" "$SONDE" live "udp://127.0.0.1:$port" --proto sonde -w "$WORK/raw.bin" --output "$WORK/out.txt" \
	</dev/null 2>"$WORK/err.txt"
live=$!
wait_for -p "$live" -l "$WORK/err.txt" udp_bound "$port" || fail "sonde live does not listen on udp port $port"
# 512-byte datagrams, paced so that the local socket buffer never overflows
python3 "$FT" --udp "$port" --replay "$WORK/cap.bin" --chunk 512 --delay 0.001 --log "$WORK/sent.bin"
wait_for -p "$live" -l "$WORK/err.txt" size_at_least "$WORK/raw.bin" "$size" || fail "only $(file_size "$WORK/raw.bin") of $size bytes arrived"
kill -INT "$live"
rc=0
wait "$live" || rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/err.txt"; fail "exit status $rc after SIGINT"; }
cmp "$WORK/raw.bin" "$WORK/cap.bin" || fail "raw file differs from what was sent"
cmp "$WORK/out.txt" "$WORK/ref.txt" || fail "decoded text differs from 'sonde decode'"
grep -q "datagrams from 127.0.0.1:" "$WORK/err.txt" || fail "the sender was not announced"
grep -q "Interrupt: stopping" "$WORK/err.txt" || fail "SIGINT was not acknowledged"
grep -q "^bytes  *$size$" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "summary: bytes"; }
echo "PASS"
