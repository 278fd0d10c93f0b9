#!/usr/bin/env bash
# test_live_send.sh -- `sonde send`: commands on the receive channel
# (docs/protocol.md §9) to the fake target of test_live_lib.sh, which
# answers as the protocol says.  Through a running `sonde live --control`
# (the way to share a link that takes one reader) and directly over TCP:
# a filter changes what the stream carries from the reply on; PEEK returns
# the region's bytes; refusals (out of region, bad checksum, unsupported,
# wrong state, an application code) exit with 4; no reply exits with 3
# after the retries, each retry a new frame with the next SEQ; the frames
# on the wire are checked byte for byte, for Sonde and for QS targets, and
# the replies are read in protocol version 3 and (--proto-version 1) 1.
# Stopping, starting and resetting the target's counters (issues 7, 15):
# the records not made in between are counted once, apart from losses
# (stopped), and the reset is no loss.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py

# A scripted peer: accepts one TCP connection, records what it receives,
# and answers each frame with the bytes given (hex; "" = silence).
cat >"$WORK/peer.py" <<'PY'
import socket, sys, os, select, time
port_file, rx_file, answer = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3])
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0)); srv.listen(1)
open(port_file + ".tmp", "w").write(str(srv.getsockname()[1])); os.rename(port_file + ".tmp", port_file)
limit = 300 * float(os.environ.get("TEST_TIME_SCALE", "1"))  # only against a hang
srv.settimeout(limit); c, _ = srv.accept()
got = b""
end = time.time() + limit
while time.time() < end:
    r, _, _ = select.select([c], [], [], 0.1)
    if not r: continue
    d = c.recv(4096)
    if not d: break
    got += d
    open(rx_file, "wb").write(got)
    if answer and d.endswith(b"\x7e"): c.sendall(answer)
PY
peer() { # NAME ANSWER-HEX: starts a peer, sets $port
	rm -f "$WORK/$1.port"
	bg python3 "$WORK/peer.py" "$WORK/$1.port" "$WORK/$1.rx" "$2"
	wait_for -p $! test -s "$WORK/$1.port" || fail "peer $1 did not start"
	port=$(cat "$WORK/$1.port")
}
frame() { python3 -c "import sys; sys.path.insert(0, '$WORK'); import fake_target as f
print(f.frame($1, $2, bytes([$3])).hex())"; }
rx_hex() { python3 -c "print(open('$WORK/$1.rx','rb').read().hex())"; }

# send: expect STATUS, then the output's lines
expect() { # STATUS ARGS... -- checks the exit status, output in $WORK/out
	local want=$1 rc=0
	shift
	"$SONDE" send "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	[ "$rc" -eq "$want" ] || { cat "$WORK/out" "$WORK/err"; fail "sonde send $*: exit status $rc, expected $want"; }
}

# ---- through a live session ------------------------------------------------
# a protocol-version-3 target: its STOP makes records not made, counted
# apart from refused ones (stopped), in TARGET_STATS and DROPS
bg python3 "$FT" --listen "$WORK/port" --synth 0 --chunk 512 --delay 0.003 --log "$WORK/sent.bin"
wait_for -p $! test -s "$WORK/port" || fail "target did not start"
bg timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/port")" --proto sonde -w "$WORK/raw.bin" -q \
	--output /dev/null --control "$WORK/ctl" </dev/null 2>"$WORK/live.err"
live=$!
wait_for -p "$live" -l "$WORK/live.err" test -S "$WORK/ctl" || fail "no control socket"
L=(--link "unix:$WORK/ctl")

expect 0 "${L[@]}" glb-filter -COUNTER
grep -Eq "^CMD_STATUS seq=[0-9]+ cmd=GLB_FILTER status=OK$" "$WORK/out" || fail "glb-filter: $(cat "$WORK/out")"
seq_off=$(sed -E 's/.*seq=([0-9]+).*/\1/' "$WORK/out")
expect 0 "${L[@]}" loc-filter all -5
seq_loc=$(sed -E 's/.*seq=([0-9]+).*/\1/' "$WORK/out")
expect 0 "${L[@]}" glb-filter all
seq_on=$(sed -E 's/.*seq=([0-9]+).*/\1/' "$WORK/out")
expect 0 "${L[@]}" peek 0x20000000 8
grep -q "^PEEK_DATA addr=0x20000000 n=8: 01 04 07 0a 0d 10 13 16$" "$WORK/out" || fail "peek: $(cat "$WORK/out")"
grep -Eq "^CMD_STATUS seq=[0-9]+ cmd=PEEK status=OK$" "$WORK/out" || fail "peek status"
expect 4 "${L[@]}" peek 0x1ffffffc 8
grep -q "cmd=PEEK status=OUT_OF_REGION" "$WORK/out" || fail "out-of-region peek: $(cat "$WORK/out")"
expect 4 "${L[@]}" --bad-checksum stats
grep -q "status=BAD_CHECKSUM" "$WORK/out" || fail "bad checksum: $(cat "$WORK/out")"
expect 0 "${L[@]}" stats
grep -Eq "^TARGET_STATS records=[0-9]+ overwritten=0 refused=0 bytes=[0-9]+ stopped=0$" "$WORK/out" || fail "stats: $(cat "$WORK/out")"
expect 0 "${L[@]}" info
grep -q "^TARGET_INFO version=3 big_endian=false addr_size=4 mode=overwrite core=0 ts_size=0 ts_freq=1000000 buffer_size=4096 build_id=0x00005eed$" "$WORK/out" ||
	fail "info: $(cat "$WORK/out")"
grep -q "^DICT entries: 3$" "$WORK/out" || fail "info: dictionary"
expect 0 "${L[@]}" app 1 7 8 9
expect 4 "${L[@]}" app 2
grep -q "status=APP_0x81" "$WORK/out" || fail "app refusal: $(cat "$WORK/out")"
expect 4 "${L[@]}" poke 0x20000000 dead
grep -q "status=NOT_SUPPORTED" "$WORK/out" || fail "poke: $(cat "$WORK/out")"
expect 4 "${L[@]}" trigger
grep -q "status=BAD_STATE" "$WORK/out" || fail "trigger: $(cat "$WORK/out")"
# stop: records are not made (TARGET_STATS counts them as stopped, apart
# from refused: issue 15); start: their report comes before the next
# record; reset: the counters start from 0 again
expect 0 "${L[@]}" stop
stopped_some() { "$SONDE" send "${L[@]}" stats 2>/dev/null | grep -Eq " refused=0 bytes=[0-9]+ stopped=[1-9]"; }
wait_for -p "$live" stopped_some || fail "the stopped target counted nothing as stopped"
expect 0 "${L[@]}" start
expect 0 "${L[@]}" reset
expect 0 "${L[@]}" stats
grep -Eq "^TARGET_STATS records=[0-9]+ overwritten=0 refused=0 bytes=[0-9]+ stopped=0$" "$WORK/out" || fail "stats after reset: $(cat "$WORK/out")"
kill -INT "$live"
wait "$live" || true
# the reports in the stream: the records not made while stopped after START
# (reset count 0), the zeroed totals after RESET_CTRS (reset count 1); the
# summary counts the stopped ones once, apart from the losses, and nothing
# for the reset
stopped=$(python3 - "$WORK/raw.bin" "$WORK" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[2])
import fake_target
frames = fake_target.good_frames(open(sys.argv[1], "rb").read())
drops = [struct.unpack("<IIBI", f[2:15]) for f in frames if f[1] == 0x03]
assert len(drops) == 2 and drops[0][:3] == (0, 0, 0) and drops[0][3] > 0, drops
assert drops[1] == (0, 0, 1, 0), drops
print(drops[0][3])
PY
) || fail "the loss reports in the stream"
grep -q "^target drops           0 overwritten, 0 refused$" "$WORK/live.err" ||
	{ cat "$WORK/live.err"; fail "summary: 0 refused expected"; }
grep -q "^not recorded           $stopped (tracing stopped on purpose: not lost)$" "$WORK/live.err" ||
	{ cat "$WORK/live.err"; fail "summary: $stopped not recorded while stopped expected"; }

# The filters as the stream shows them: no COUNTER between the reply to
# '-COUNTER' and the reply to 'all', none of ISR 5's records after
# 'loc-filter all -5', and COUNTER records again after 'all'.
python3 - "$WORK/raw.bin" "$seq_off" "$seq_loc" "$seq_on" "$WORK" <<'PY' || fail "the stream does not show the filters"
import sys
sys.path.insert(0, sys.argv[5])
import fake_target
s_off, s_loc, s_on = (int(x) for x in sys.argv[2:5])
frames = fake_target.good_frames(open(sys.argv[1], "rb").read())
def reply(seq, cmd):  # CMD_STATUS: seq, cmd, status, then its timestamp field
    for i, f in enumerate(frames):
        if f[1] == 0x20 and f[2] == seq and f[3] == cmd: return i
    sys.exit("no CMD_STATUS for seq %d" % seq)
i_off, i_loc, i_on = reply(s_off, 2), reply(s_loc, 3), reply(s_on, 2)
ids = lambda a, b: [f[1] for f in frames[a + 1:b]]
assert 0x0F in ids(0, i_off), "COUNTER before the filter"
assert 0x0F not in ids(i_off, i_on), "COUNTER while filtered out"
assert 0x05 in ids(i_off, i_loc) and 0x05 not in ids(i_loc, len(frames)), "ISR 5 after loc-filter -5"
assert 0x0F in ids(i_on, len(frames)), "COUNTER after 'glb-filter all'"
assert 0x40 in ids(i_loc, len(frames)), "user records throughout"
print("filters: COUNTER off at frame %d, on at %d; ISR 5 off at %d" % (i_off, i_on, i_loc))
PY

# ---- directly over TCP: frames on the wire -------------------------------
# glb-filter 'none' then '+ISR_ENTER': bits 0x05 only; SEQ 5 as asked
peer p1 "$(frame 5 0x20 "5,2,0,0")"
expect 0 --link "tcp://127.0.0.1:$port" --seq 5 glb-filter none +ISR_ENTER
[ "$(rx_hex p1)" = "$(frame 5 2 "0x20,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0")" ] || fail "glb-filter frame: $(rx_hex p1)"
# peek with an 8-byte address and a reply with PEEK_DATA, then the status
# (their timestamp fields: 2 bytes, 1 byte)
peer p2 "$(frame 9 0x21 "0x10,0,0,0,0,0,0,0,2,0xaa,0x7e,0x05,0x80")$(frame 10 0x20 "7,0x0a,0,0x7e")"
expect 0 --link "tcp://127.0.0.1:$port" --seq 7 --addr-size 8 peek 0x10 2
[ "$(rx_hex p2)" = "$(frame 7 0x0a "0x10,0,0,0,0,0,0,0,2")" ] || fail "peek frame: $(rx_hex p2)"
grep -q "^PEEK_DATA addr=0x0000000000000010 n=2: aa 7e$" "$WORK/out" || fail "peek 8-byte address: $(cat "$WORK/out")"
# the same from a version-1 target (timestamps first), which says so only
# in a TARGET_INFO: --proto-version 1
peer p4 "$(frame 9 0x21 "0,0,0x10,0,0,0,0,0,0,0,2,0xaa,0x7e")$(frame 10 0x20 "0,0,7,0x0a,0")"
expect 0 --link "tcp://127.0.0.1:$port" --seq 7 --addr-size 8 --proto-version 1 peek 0x10 2
grep -q "^PEEK_DATA addr=0x0000000000000010 n=2: aa 7e$" "$WORK/out" || fail "peek, version 1: $(cat "$WORK/out")"
grep -q "^CMD_STATUS seq=7 cmd=PEEK status=OK$" "$WORK/out" || fail "peek status, version 1: $(cat "$WORK/out")"
# silence: two attempts, SEQ 200 and 201, then status 3
peer p3 ""
expect 3 --link "tcp://127.0.0.1:$port" --seq 200 --timeout 0.3 --retries 1 start
[ "$(rx_hex p3)" = "$(frame 200 4 "")$(frame 201 4 "")" ] || fail "retries: $(rx_hex p3)"
grep -q "no reply to START after 2 attempts" "$WORK/err" || fail "no-reply message: $(cat "$WORK/err")"
# QS-RX: TICK 0 with the QS sequence (1), acknowledged by QS_RX_STATUS (66)
peer q1 "$(frame 1 66 "3")"
expect 0 --link "tcp://127.0.0.1:$port" --proto qs tick
[ "$(rx_hex q1)" = "$(frame 1 3 "0")" ] || fail "qs tick frame: $(rx_hex q1)"
grep -q "^Trg-Ack  record 3$" "$WORK/out" || fail "qs ack: $(cat "$WORK/out")"
# QS COMMAND refused (0x80 | 1)
peer q2 "$(frame 1 66 "0x81")"
expect 4 --link "tcp://127.0.0.1:$port" --proto qs command 5 1 2 3
[ "$(rx_hex q2)" = "$(frame 1 1 "5,1,0,0,0,2,0,0,0,3,0,0,0")" ] || fail "qs command frame: $(rx_hex q2)"

# ---- usage and link errors -------------------------------------------------
expect 2 --link "tcp://127.0.0.1:1" frobnicate
grep -q "unknown command 'frobnicate'" "$WORK/err" || fail "unknown command message"
expect 2 --link "tcp://127.0.0.1:1" glb-filter -NOPE
grep -q "'-NOPE' is not a record id" "$WORK/err" || fail "bad filter message"
expect 2 stats
grep -q "which link" "$WORK/err" || fail "missing link message"
expect 2 --link - stats
port=$(free_port)
expect 3 --link "tcp://127.0.0.1:$port" --timeout 0.3 stats
grep -q "Connection refused" "$WORK/err" || fail "refused link message: $(cat "$WORK/err")"
echo "PASS"
