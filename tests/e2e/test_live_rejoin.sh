#!/usr/bin/env bash
# test_live_rejoin.sh -- loss accounting across a reconnection of `sonde
# live` (the decoder's rejoin; docs/protocol.md §2, §4 DROPS).  A capture
# of a target that loses 10 records to overwriting before every 100th
# event (each loss reported by DROPS) is sent by two servers on one port:
# the first from its start to the middle of a frame, the second from the
# middle of a later frame to the end -- a target that went on while the
# link was down.  The figures of live's summary are computed here from the
# capture, independently, by the rule of version 3: every DROPS names its
# own frame number and "oldest"; the reports after the break follow on from
# those before it (same target, same totals), so the break is bridged: of
# all frames missing below the last report's oldest, the target's total of
# overwritten frames were overwritten (those of the reports lost with the
# link included: the totals are cumulative) and the rest -- the frames sent
# while the link was down -- were lost on the link; nothing is
# unexplained, nothing counted twice.  The decoded events, DROPS included,
# are those of `sonde decode` of the bytes received (the raw capture): the
# rejoin changes nothing, but for one DROPS, the first after the break, which
# the single input shows with "unseen=" (the runs of 256 frames across the
# break that its sequence numbers hid: known there only from the frame
# numbers).
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
# the accounting of docs/protocol.md (version 3) over the good frames
# received, by frame number: the frames are numbered from 0 at the EMPTY
# (this capture has no loss of 256 or more but across the break, whose
# size the frame numbers of the reports tell)
got = frames[:ia] + frames[ib + 1:]
numbers, last, gaps, prev = set(), None, 0, None
fno = 0
for i, (_, f) in enumerate(frames):                     # numbers of the whole capture
    seq, rid = f[0], f[1]
    if i and rid != 0x00:
        fno += ((seq - frames[i - 1][1][0] - 1) & 0xFF) + 1
    if ia > i or i > ib:
        numbers.add(fno)
    if rid == 0x03 and (ia > i or i > ib):
        last = struct.unpack("<IIBIII", f[2:23])
for i, (_, f) in enumerate(got):
    seq = f[0]
    if prev is not None and f[1] != 0x00 and seq != (prev + 1) & 0xFF:
        gaps += 1
    prev = seq
over, oldest = last[0], last[5]
missing = sum(1 for n in range(oldest) if n not in numbers)
link, unexplained = missing - over, 0
print(A, B, over, link, unexplained, gaps)
PY
)
[ "$link" -gt 0 ] && [ "$over" -gt 0 ] || fail "the cut does not show what it should ($over, $link)"

bg python3 "$FT" --listen "$WORK/p1" --port "$port" --replay "$WORK/cap.bin" --count "$A" --chunk 500 --delay 0.001
wait_for -p $! test -s "$WORK/p1" || fail "server 1 did not start"
bg timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$port" --proto sonde -w "$WORK/raw.bin" --output "$WORK/out.txt" \
	--reconnect-timeout 30 </dev/null 2>"$WORK/err.txt"
live=$!
wait_for -p "$live" has_text "$WORK/err.txt" "reconnecting" || { cat "$WORK/err.txt"; fail "the end of link 1 was not reported"; }
size=$(stat -c %s "$WORK/cap.bin")
bg python3 "$FT" --listen "$WORK/p2" --port "$port" --replay "$WORK/cap.bin" --skip "$B" --chunk 500 --delay 0.001
wait_for -p "$live" has_text "$WORK/err.txt" "reconnected after" || { cat "$WORK/err.txt"; fail "no reconnection"; }
wait_for -p "$live" size_at_least "$WORK/raw.bin" $(( A + size - B )) || fail "the bytes of server 2 did not all arrive"
kill -INT "$live"
rc=0
wait "$live" || rc=$?
[ "$rc" -eq 1 ] || { cat "$WORK/err.txt"; fail "exit status $rc, expected 1 (the stream had gaps)"; }
{ head -c "$A" "$WORK/cap.bin"; tail -c +$(( B + 1 )) "$WORK/cap.bin"; } | cmp - "$WORK/raw.bin" ||
	fail "raw capture differs from what the servers sent"
"$SONDE" decode "$WORK/raw.bin" >"$WORK/ref.txt" 2>/dev/null || true
sed 's/ unseen=[0-9]*//' "$WORK/ref.txt" | cmp - "$WORK/out.txt" ||
	fail "decoded records differ from 'sonde decode' of the same bytes"
[ "$(diff "$WORK/out.txt" "$WORK/ref.txt" | grep -c '^<')" -eq 1 ] || fail "not exactly one DROPS differs"
[ "$(grep -c " DROPS .* unseen=" "$WORK/ref.txt")" -eq 1 ] || fail "no DROPS with unseen= in the single input"
grep -q "unexplained=" "$WORK/out.txt" && fail "a baseline DROPS: the break was not bridged"
for line in "target drops           $over overwritten, 0 refused" "link-lost frames       $link" \
	"unexplained lost       $unexplained"; do
	grep -qxF "$line" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "summary: '$line' expected"; }
done
grep -Eq "^sequence gaps +$gaps \(" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "summary: $gaps gaps expected"; }
echo "PASS: $over overwritten, $link lost on the link, $unexplained unexplained, $gaps gaps"
