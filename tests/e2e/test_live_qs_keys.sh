#!/usr/bin/env bash
# test_live_qs_keys.sh -- QSPY's console keys in `sonde live --proto qs` on a
# terminal (python's pty): a QS target model on TCP sends the DPP capture
# and records what it receives.  r, i, t, u send QS-RX RESET, INFO, TICK[0],
# TICK[1] (the model checks each frame: SEQ, record id, checksum); d saves
# the dictionaries as QSPY does (the file equals QSPY's for the capture);
# g opens a sequence diagram file and closes it; x quits.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
D=$SONDE_TESTDATA/qs
mkdir "$WORK/cwd"

# The target model: sends the capture once it is connected, then keeps the
# link open and writes every byte it receives to rx.bin.
cat >"$WORK/qs_target.py" <<'PY'
import socket, sys
cap, port_file, rx_file = sys.argv[1:4]
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
open(port_file + ".tmp", "w").write(str(srv.getsockname()[1]))
import os; os.rename(port_file + ".tmp", port_file)
c, _ = srv.accept()
c.sendall(open(cap, "rb").read())
with open(rx_file, "ab", buffering=0) as rx:
    while True:
        b = c.recv(4096)
        if not b:
            break
        rx.write(b)
PY
bg python3 "$WORK/qs_target.py" "$D/dpp_posix-qv_x86.bin" "$WORK/port" "$WORK/rx.bin"
wait_for -p $! test -s "$WORK/port" || fail "target did not start"
(cd "$WORK/cwd" && python3 - "$SONDE" "tcp://127.0.0.1:$(cat "$WORK/port")" "$WORK/screen.txt" "$WORK/rx.bin" <<'PY') || fail "keys: see above"
import os, sys, time
sys.path.insert(0, os.path.join(os.environ["SONDE_SRC"], "tests", "e2e"))
from pty_live import LIMIT as limit, PtyLive
sonde, link, screen_file, rx_file = sys.argv[1:5]
t = PtyLive([sonde, "live", link, "--proto", "qs", "-o", "qs.seq=?,Table_inst", "-o", "qs.seq_file=first.seq",
             "-o", "qs.dic_save=.", "--output", "/dev/null", "--no-show"], screen_file)
p, read_until, key, fail = t.proc, t.read_until, t.key, t.fail
def rx_frames(n):
    # the frames the target received, un-escaped, once there are n
    end = time.time() + limit
    while time.time() < end:
        data = open(rx_file, "rb").read() if os.path.exists(rx_file) else b""
        frames, cur, esc = [], bytearray(), False
        for b in data:
            if b == 0x7E:
                frames.append(bytes(cur)); cur = bytearray()
            elif esc:
                cur.append(b ^ 0x20); esc = False
            elif b == 0x7D:
                esc = True
            else:
                cur.append(b)
        if len(frames) >= n:
            return frames
        time.sleep(0.05)
    fail("the target received %d frames, want %d" % (len(frames), n))
if not read_until(rb"keys \(QSPY's\): r reset, i info, t tick 0, u tick 1, d save dictionaries"):
    fail("no QS key help")
# the capture has been decoded up to its QF_RUN once the dictionaries are saved (qs.dic_save)
end = time.time() + limit
while not os.path.exists("qspy261121_235543.dic") and time.time() < end and p.poll() is None:
    time.sleep(0.05)
if not os.path.exists("qspy261121_235543.dic"):
    fail("no dictionaries saved at QF_RUN")
key(b"i", rb"<USER-> Sending INFO to the Target Stat=OK")
key(b"t", rb"<USER-> Sending TICK-0 to the Target Stat=OK")
key(b"u", rb"<USER-> Sending TICK-1 to the Target Stat=OK")
key(b"r", rb"<USER-> Sending RESET to the Target Stat=OK")
key(b"d", rb"Dictionaries saved to File=qspy261121_235543\.dic")
key(b"g", rb"Sequence Output \[g\] File=OFF")
key(b"g", rb"Sequence Output \[g\] File=qspy\d{6}_\d{6}\.seq")
frames = rx_frames(4)
want = [(1, 0, b""), (2, 3, b"\x00"), (3, 3, b"\x01"), (4, 2, b"")]  # SEQ, record, payload
for f, (seq, rec, pl) in zip(frames, want):
    if f[0] != seq or f[1] != rec or f[2:-1] != pl or (sum(f) & 0xFF) != 0xFF:
        fail("frame %s, want SEQ %d record %d payload %s with its checksum" % (f.hex(), seq, rec, pl.hex()))
key(b"x", rb"records +\d+")
t.finish()
PY
cmp "$WORK/cwd/qspy261121_235543.dic" "$D/dpp_posix-qv_x86.dic" || fail "the saved .dic differs from QSPY's"
n=$(ls "$WORK"/cwd/qspy*.seq | wc -l)
[ "$n" = 1 ] || fail "want 1 .seq file opened by g, got $n"
for f in "$WORK"/cwd/first.seq "$WORK"/cwd/qspy*.seq; do
	[ "$(head -1 "$f")" = '-g ?,Table_inst' ] || fail "$f: no list line"
done
echo "QS keys: INFO, TICK-0, TICK-1, RESET received; dictionaries saved; sequence file closed and opened"
