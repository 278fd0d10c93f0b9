#!/usr/bin/env bash
# test_live_rejoin.sh -- loss accounting across a reconnection of `sonde
# live` (the decoder's rejoin; docs/protocol.md §2, §4 DROPS).  A capture
# of a target that loses 10 records to overwriting before every 100th
# event (each loss reported by DROPS) is sent by two servers on one port:
# the first from its start to the middle of a frame, the second from the
# middle of a later frame to the end -- a target that went on while the
# link was down.  The figures of live's summary are computed here from the
# capture, independently: the reports received before the break count
# (10 overwritten each); the sequence gap across the break is lost on the
# link; the gap before the first report after it is unexplained and that
# report is the new baseline; the later ones count; nothing is counted
# twice.  The decoded events are those of `sonde decode` of the bytes
# received (the raw capture) but for that one DROPS, a baseline here: the
# rejoin changes the accounting only.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py
port=$(free_port)

python3 "$FT" --append "$WORK/cap.bin" --synth 1500 --drops 100 --chunk 65536 --delay 0
read -r A B over link unexplained gaps < <(python3 - "$WORK/cap.bin" <<'PY'
import struct, sys
raw = open(sys.argv[1], "rb").read()
frames, buf, esc, start = [], bytearray(), False, 0   # (start, un-escaped bytes)
for i, b in enumerate(raw):
    if b == 0x7E:
        frames.append((start, bytes(buf)))
        buf, esc, start = bytearray(), False, i + 1
    elif b == 0x7D:
        esc = True
    else:
        buf.append(b ^ 0x20 if esc else b)
        esc = False
n = len(frames)
reports = [i for i, (_, f) in enumerate(frames) if f[1] == 0x03]
far = lambda i: all(abs(i - r) > 5 for r in reports)   # not next to a loss or its report
ia = next(i for i in range(n * 3 // 10, n) if far(i))
ib = next(i for i in range(n * 6 // 10, n) if far(i))
assert any(ia < r < ib for r in reports) and sum(r > ib for r in reports) >= 2
A, B = frames[ia][0] + 2, frames[ib][0] + 2            # both cut inside a frame
# the accounting of docs/protocol.md over the good frames received
over = link = unexplained = gaps = pending = 0
base, prev = None, None
for i, (_, f) in enumerate(frames[:ia] + frames[ib + 1:]):
    seq, rid = f[0], f[1]
    if i == ia:                                         # the first after the rejoin
        unexplained, pending, base = unexplained + pending, 0, None
    if prev is not None and rid != 0x00 and seq != (prev + 1) & 0xFF:
        gaps += 1
        if i == ia:
            link += (seq - prev - 1) & 0xFF
        else:
            pending += (seq - prev - 1) & 0xFF
    prev = seq
    if rid == 0x01 and f[3] & 2:                        # TARGET_INFO of a reset
        unexplained, pending, base = unexplained + pending, 0, 0
    if rid == 0x03:
        total = struct.unpack("<I", f[2:6])[0]
        if base is None:
            unexplained += pending
        else:
            target = min(total - base, pending)
            over, link = over + total - base, link + pending - target
        pending, base = 0, total
unexplained += pending
print(A, B, over, link, unexplained, gaps)
PY
)
[ "$link" -gt 0 ] && [ "$unexplained" -gt 0 ] || fail "the cut does not show what it should ($link, $unexplained)"

bg python3 "$FT" --listen "$WORK/p1" --port "$port" --replay "$WORK/cap.bin" --count "$A" --chunk 500 --delay 0.001
wait_for 10 test -s "$WORK/p1" || fail "server 1 did not start"
bg timeout -k 5 60 "$SONDE" live "tcp://127.0.0.1:$port" --proto sonde -w "$WORK/raw.bin" --output "$WORK/out.txt" \
	--reconnect-timeout 30 </dev/null 2>"$WORK/err.txt"
live=$!
wait_for 20 has_text "$WORK/err.txt" "reconnecting" || { cat "$WORK/err.txt"; fail "the end of link 1 was not reported"; }
size=$(stat -c %s "$WORK/cap.bin")
bg python3 "$FT" --listen "$WORK/p2" --port "$port" --replay "$WORK/cap.bin" --skip "$B" --chunk 500 --delay 0.001
wait_for 20 has_text "$WORK/err.txt" "reconnected after" || { cat "$WORK/err.txt"; fail "no reconnection"; }
wait_for 20 size_at_least "$WORK/raw.bin" $(( A + size - B )) || fail "the bytes of server 2 did not all arrive"
kill -INT "$live"
rc=0
wait "$live" || rc=$?
[ "$rc" -eq 1 ] || { cat "$WORK/err.txt"; fail "exit status $rc, expected 1 (the stream had gaps)"; }
{ head -c "$A" "$WORK/cap.bin"; tail -c +$(( B + 1 )) "$WORK/cap.bin"; } | cmp - "$WORK/raw.bin" ||
	fail "raw capture differs from what the servers sent"
"$SONDE" decode "$WORK/raw.bin" >"$WORK/ref.txt" 2>/dev/null || true
grep -v " DROPS " "$WORK/out.txt" >"$WORK/out.nodrops"
grep -v " DROPS " "$WORK/ref.txt" | cmp - "$WORK/out.nodrops" ||
	fail "decoded records differ from 'sonde decode' of the same bytes"
# the DROPS records too, but for the first after the rejoin: a baseline
# (unexplained=) where one input splits the gaps since the last report
[ "$(grep -c " DROPS " "$WORK/out.txt")" -eq "$(grep -c " DROPS " "$WORK/ref.txt")" ] || fail "DROPS records"
[ "$(diff "$WORK/out.txt" "$WORK/ref.txt" | grep -c '^<')" -eq 1 ] || fail "more than one DROPS differs"
[ "$(grep -c " DROPS .* unexplained=10$" "$WORK/out.txt")" -eq 1 ] || fail "no baseline DROPS after the rejoin"
for line in "target drops           $over overwritten, 0 refused" "link-lost frames       $link" \
	"unexplained lost       $unexplained"; do
	grep -qxF "$line" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "summary: '$line' expected"; }
done
grep -Eq "^sequence gaps +$gaps \(" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "summary: $gaps gaps expected"; }
echo "PASS: $over overwritten, $link lost on the link, $unexplained unexplained, $gaps gaps"
