#!/usr/bin/env bash
# test_live_tcp.sh -- `sonde live` on TCP links: as a client of a server
# that replays a capture (in odd-sized chunks, so frames are split
# anywhere), and as a server (--listen) that a target connects to.  The raw
# file (-w) must be the capture byte for byte, and the decoded output the
# same as `sonde decode` of the capture, in text and in jsonl.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py

python3 "$FT" --append "$WORK/cap.bin" --synth 3000 --chunk 65536 --delay 0
"$SONDE" decode "$WORK/cap.bin" >"$WORK/ref.txt"
"$SONDE" decode "$WORK/cap.bin" --format jsonl >"$WORK/ref.jsonl"

# 1. client: the server sends 7-byte chunks, then closes; with
#    --reconnect-timeout 0 the end of the connection is the end of the trace
bg python3 "$FT" --listen "$WORK/port1" --replay "$WORK/cap.bin" --chunk 7 --delay 0.0005
wait_for -p $! test -s "$WORK/port1" || fail "server did not start"
rc=0
timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/port1")" --proto sonde -w "$WORK/raw1.bin" \
	--output "$WORK/out1.txt" --reconnect-timeout 0 </dev/null 2>"$WORK/err1.txt" || rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/err1.txt"; fail "client: exit status $rc"; }
cmp "$WORK/raw1.bin" "$WORK/cap.bin" || fail "client: raw file differs from the capture"
cmp "$WORK/out1.txt" "$WORK/ref.txt" || fail "client: decoded text differs from 'sonde decode'"
# the summary: the figures of 'sonde stats', with the link's name
"$SONDE" stats "$WORK/cap.bin" | sed -n '2,/^rates/p' >"$WORK/ref.stats"
sed -n '/^protocol/,/^rates/p' "$WORK/err1.txt" >"$WORK/got.stats"
cmp "$WORK/got.stats" "$WORK/ref.stats" || { diff "$WORK/got.stats" "$WORK/ref.stats"; fail "client: summary differs from 'sonde stats'"; }
grep -q "^input  *tcp://127.0.0.1:" "$WORK/err1.txt" || fail "client: summary does not name the link"
grep -q "^raw capture  *$WORK/raw1.bin, $(file_size "$WORK/cap.bin") bytes" "$WORK/err1.txt" ||
	fail "client: summary does not give the raw capture's size"
grep -q "connection closed by the peer" "$WORK/err1.txt" || fail "client: the end of the link was not reported"
# not a terminal: no status line (no carriage returns, no escapes)
if grep -q $'\r' "$WORK/err1.txt"; then fail "client: status line printed although stderr is not a terminal"; fi

# 2. --proto auto and jsonl, the whole capture in one chunk
bg python3 "$FT" --listen "$WORK/port2" --replay "$WORK/cap.bin" --chunk 100000 --delay 0
wait_for -p $! test -s "$WORK/port2" || fail "server 2 did not start"
timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/port2")" --format jsonl --reconnect-timeout 0 -q \
	</dev/null >"$WORK/out2.jsonl" 2>"$WORK/err2.txt" || { cat "$WORK/err2.txt"; fail "auto/jsonl: failed"; }
cmp "$WORK/out2.jsonl" "$WORK/ref.jsonl" || fail "auto/jsonl: output differs from 'sonde decode --format jsonl'"

# 3. server: sonde listens (--listen PORT binds 127.0.0.1), the target connects
port=$(free_port)
bg timeout -k 5 "$HANG" "$SONDE" live "$port" --listen --proto sonde -w "$WORK/raw3.bin" --output "$WORK/out3.txt" \
	--reconnect-timeout 0 </dev/null 2>"$WORK/err3.txt"
live=$!
wait_for -p "$live" -l "$WORK/err3.txt" python3 "$FT" --connect "$port" --replay "$WORK/cap.bin" --chunk 300 --delay 0.0005 ||
	fail "listen: the target could not connect"
rc=0
wait "$live" || rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/err3.txt"; fail "listen: exit status $rc"; }
cmp "$WORK/raw3.bin" "$WORK/cap.bin" || fail "listen: raw file differs from the capture"
cmp "$WORK/out3.txt" "$WORK/ref.txt" || fail "listen: decoded text differs"
grep -q "client 127.0.0.1:[0-9]* connected" "$WORK/err3.txt" || fail "listen: the client was not announced"

# 4. nobody listening and no reconnecting: an I/O error, said clearly
port=$(free_port)
rc=0
timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$port" --reconnect-timeout 0 </dev/null 2>"$WORK/err4.txt" || rc=$?
[ "$rc" -eq 3 ] || { cat "$WORK/err4.txt"; fail "refused connection: exit status $rc, expected 3"; }
grep -q "cannot connect to 127.0.0.1:$port: Connection refused" "$WORK/err4.txt" || { cat "$WORK/err4.txt"; fail "refused connection: message"; }

# 5. usage errors
rc=0; "$SONDE" live "tcp://127.0.0.1" 2>"$WORK/err5.txt" || rc=$?
[ "$rc" -eq 2 ] && grep -q "expected HOST:PORT" "$WORK/err5.txt" || fail "bad link: status $rc"
rc=0; "$SONDE" live "bogus://x" 2>"$WORK/err5.txt" || rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot tell what link" "$WORK/err5.txt" || fail "unknown link kind: status $rc"
echo "PASS"
