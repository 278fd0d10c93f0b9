#!/usr/bin/env bash
# test_live_lib.sh -- helpers for the live-link tests (test_live_*.sh): a
# scratch directory whose processes are all killed on exit, free local
# ports, waits on conditions (wait_lib.sh: on progress, not the clock), and
# fake_target.py, a stand-in target that replays a capture or synthesises
# a Sonde stream (protocol version 2, or 1) with a working receive channel
# (docs/protocol.md §9) over TCP, UDP, a tty or a growing file, logging
# every byte it sent.
# The other test_live_*.sh source it; run on its own (as ctest does) it
# checks the fake target: its frames against the protocol's worked example,
# and its synthesised stream through `sonde decode`.
# SONDE_KEEP_FAILED=DIR: a failing test's scratch directory (its captures
# and logs) is copied to DIR/<test>-<pid> before it is removed, so that a
# rare failure in a loop can be decoded again afterwards.

SRC=${SONDE_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
source "$(dirname "${BASH_SOURCE[0]}")/wait_lib.sh" # wait_for, gone, $HANG
SONDE=${SONDE:-$SRC/build/host/sonde}
LIVE_PIDS=()

fail() {
	echo "FAIL: $*"
	exit 1
}

live_cleanup() {
	local rc=$? p
	for p in "${LIVE_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${LIVE_PIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	if [ "$rc" -ne 0 ] && [ -n "${SONDE_KEEP_FAILED:-}" ] && [ -n "${WORK:-}" ]; then
		mkdir -p "$SONDE_KEEP_FAILED" && cp -r "$WORK" "$SONDE_KEEP_FAILED/$(basename "$0" .sh)-$$" &&
			echo "kept: $SONDE_KEEP_FAILED/$(basename "$0" .sh)-$$"
	fi
	[ -z "${WORK:-}" ] || rm -rf "$WORK"
	exit "$rc"
}

# live_setup: $WORK, the cleanup trap, $WORK/fake_target.py
live_setup() {
	command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
	[ -x "$SONDE" ] || fail "\$SONDE ($SONDE) is not executable"
	WORK=$(mktemp -d)
	trap live_cleanup EXIT
	trap 'exit 143' TERM INT HUP  # so that the EXIT trap runs
	live_write_fake_target "$WORK/fake_target.py"
}

# bg CMD...: run in the background; its pid is in $! and killed on exit
bg() {
	"$@" &
	LIVE_PIDS+=($!)
}

# free_port: a TCP/UDP port on 127.0.0.1 that nothing listens on now
free_port() {
	python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

file_size() { stat -c %s "$1" 2>/dev/null || echo 0; }
# holds_open PID PATH: PID, or a child of it (the sonde `timeout` runs), has
# PATH (or what the symlink PATH points to) open
holds_open() {
	local want p
	want=$(readlink -f "$2")
	for p in "$1" $(pgrep -P "$1"); do
		for fd in /proc/"$p"/fd/*; do
			[ "$(readlink "$fd" 2>/dev/null)" = "$want" ] && return 0
		done
	done
	return 1
}

# listening PORT: something listens on 127.0.0.1:PORT (seen in /proc, not by
# connecting: a server with one client slot, QEMU's gdbstub or its serial
# port, would take the connection for the test's own)
listening() {
	grep -q "^ *[0-9]*: 0100007F:$(printf '%04X' "$1") 00000000:0000 0A" /proc/net/tcp
}

# stalled_reader FIFO FILE N: read N bytes from FIFO into FILE, then hold
# the FIFO open and read nothing more (a reader that stopped reading: a
# pager the user scrolls back in, a hung consumer).  Background; pid in $!.
stalled_reader() {
	bg python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
n, out = int(sys.argv[3]), open(sys.argv[2], "wb", buffering=0)
while n > 0:
    b = os.read(fd, min(n, 65536))
    if not b:
        break
    out.write(b)
    n -= len(b)
time.sleep(3600)' "$1" "$2" "$3"
}

# writing PID FD: PID is in write(2) to FD now and still 0.1 s later:
# blocked, its reader not taking what it writes
writing() {
	local nr fd rest
	read -r nr fd rest <"/proc/$1/syscall" 2>/dev/null || return 1
	[ "$nr" = 1 ] && [ "$fd" = "$(printf '0x%x' "$2")" ] || return 1
	sleep 0.1
	read -r nr fd rest <"/proc/$1/syscall" 2>/dev/null || return 1
	[ "$nr" = 1 ] && [ "$fd" = "$(printf '0x%x' "$2")" ]
}

# slow_reader FIFO FILE: read FIFO into FILE at about 50 kB/s to its end
slow_reader() {
	bg python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
out = open(sys.argv[2], "wb", buffering=0)
while True:
    b = os.read(fd, 1024)
    if not b:
        break
    out.write(b)
    time.sleep(0.02)' "$1" "$2"
}

# check_capture NAME SENT RAW ERR OUT EXACT: what a `sonde live` session
# kept against what the peer sent (its log SENT): the raw file RAW holds the
# same bytes (EXACT=1), or their first bytes (EXACT=0: a reset may lose
# what was in flight); the figures of its summary (in ERR, from 'protocol'
# to 'rates') are those of `sonde stats` of the raw file, frame for frame;
# its output OUT is `sonde decode` of the raw file.
check_capture() {
	local name=$1 sent=$2 raw=$3 err=$4 out=$5 exact=$6 n
	n=$(file_size "$raw")
	if [ "$exact" = 1 ]; then
		cmp "$raw" "$sent" || fail "$name: the raw file is not what the peer sent"
	else
		cmp -n "$n" "$raw" "$sent" || fail "$name: the raw file is not the first bytes the peer sent"
		[ "$(file_size "$sent")" -ge "$n" ] || fail "$name: the raw file is longer than what the peer sent"
	fi
	"$SONDE" stats "$raw" --proto sonde 2>/dev/null | sed -n '/^protocol/,/^rates/p' >"$raw.stats" || true
	sed -n '/^protocol/,/^rates/p' "$err" >"$raw.live-stats"
	cmp -s "$raw.live-stats" "$raw.stats" ||
		{ diff "$raw.live-stats" "$raw.stats"; fail "$name: the summary is not the figures of the raw file"; }
	"$SONDE" decode "$raw" --proto sonde >"$raw.ref" 2>/dev/null || true
	cmp "$out" "$raw.ref" || fail "$name: the output is not 'sonde decode' of the raw file"
}

# figure FILE NAME: the number after NAME in a summary ("records 1234")
figure() { sed -n "s/^$2  *\([0-9][0-9]*\).*/\1/p" "$1" | head -1; }

# stop_within SIGNAL PID LIMIT: send SIGNAL to PID (a child of this shell)
# and wait for it to end, at most LIMIT seconds times TEST_TIME_SCALE (then
# SIGKILL and fail): a bound on the product's promise to stop, not a start.
# Sets STOP_RC (its exit status) and STOP_MS (milliseconds from the signal
# to its end).
stop_within() {
	local sig=$1 pid=$2 limit=$3 t0
	t0=${EPOCHREALTIME/./}
	kill "-$sig" "$pid"
	if ! wait_for "$limit" gone "$pid"; then
		kill -KILL "$pid" 2>/dev/null
		fail "pid $pid still running $limit s after SIG$sig"
	fi
	STOP_MS=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
	STOP_RC=0
	wait "$pid" || STOP_RC=$?
}
size_at_least() { [ "$(file_size "$1")" -ge "$2" ]; }
has_text() { grep -q -- "$2" "$1" 2>/dev/null; }

live_write_fake_target() {
	cat >"$1" <<'PYEOF'
#!/usr/bin/env python3
"""fake_target.py -- a stand-in for a traced target in the live-link tests.

Sends a Sonde byte stream over TCP (server or client), UDP, a tty or a file,
either replaying a capture or synthesising one (with a working receive
channel: docs/protocol.md section 9), and logs every byte it sent.

  fake_target.py (--listen PORTFILE | --connect PORT | --udp PORT | --tty PATH | --append PATH)
                 (--replay FILE [--skip N] [--count N] | --synth N [--drops N] [--proto-version V] [--joined])
                 [--chunk C] [--delay S] [--log FILE] [--hold S] [--wait-peer]
                 [--garbage-every N] [--stall-at B --stall S] [--cut-at B] [--reset-at B] [--report FILE]
"""
import argparse
import os
import select
import socket
import struct
import sys
import time

FLAG, ESC = 0x7E, 0x7D


def frame(seq, rid, data=b""):
    raw = bytes([seq, rid]) + bytes(data)
    chk = (~sum(raw)) & 0xFF
    out = bytearray()
    for b in raw + bytes([chk]):
        if b in (FLAG, ESC):
            out += bytes([ESC, b ^ 0x20])
        else:
            out.append(b)
    out.append(FLAG)
    return bytes(out)


def ts2(delta):
    """A protocol-version-2 timestamp field (docs/protocol.md section 5)."""
    for w, tag in ((1, 0), (2, 0x8000), (3, 0xC00000), (4, 0xE0000000)):
        if delta < 1 << (7 * w):
            return (delta | tag).to_bytes(w, "little")
    raise ValueError("delta %d needs a TIME_SYNC" % delta)


def good_frames(raw):
    """The frames of a whole capture whose checksum is good, un-escaped:
    SEQ, ID, DATA..., CHK."""
    frames, buf, esc = [], bytearray(), False
    for b in raw:
        if b == FLAG:
            if len(buf) >= 3 and sum(buf) & 0xFF == 0xFF:
                frames.append(bytes(buf))
            buf, esc = bytearray(), False
        elif b == ESC:
            esc = True
        else:
            buf.append(b ^ 0x20 if esc else b)
            esc = False
    return frames


class Deframer:
    def __init__(self):
        self.buf = bytearray()
        self.esc = False

    def feed(self, data):
        frames = []
        for b in data:
            if b == FLAG:
                if self.buf:
                    frames.append(bytes(self.buf))
                self.buf = bytearray()
                self.esc = False
            elif b == ESC:
                self.esc = True
            else:
                self.buf.append(b ^ 0x20 if self.esc else b)
                self.esc = False
        return frames


class Synth:
    """A Sonde target: records, filters, commands, loss reports."""

    REGION = (0x20000000, 64)

    def __init__(self, limit, drops_every=0, version=3, joined=False):
        self.limit = limit
        self.drops_every = drops_every
        self.version = version
        self.overwritten = 0
        self.resets = 0       # RESET_CTRS since the start (version 2's DROPS says it)
        self.fno = 0          # the next frame's number (version 3's DROPS says it)
        self.stopped = 0      # records not made while stopped (version 3: apart from refused)
        self.report = False   # refusals wait for their report before the next record
        self.seq = 0
        self.t = 1000000
        self.synced = False
        self.last = None  # time of the previous timed frame, for since_prev and deltas
        self.n = 0
        self.running = True
        self.glb = [1] * 128
        self.loc = [1] * 256
        self.written = 0
        self.nbytes = 0
        self.refused = 0
        self.out = bytearray()
        self.deframer = Deframer()
        self.mem = bytes((i * 3 + 1) & 0xFF for i in range(self.REGION[1]))
        if joined:  # a target that has been running: mid-sequence, no TARGET_INFO until asked
            self.seq = 100
            self.fno = 100
            return
        self.emit(0x00)
        self.info(reset=True)

    def emit(self, rid, data=b""):
        f = frame(self.seq, rid, data)
        self.seq = (self.seq + 1) & 0xFF
        self.fno = (self.fno + 1) & 0xFFFFFFFF
        self.written += 1
        self.nbytes += len(f)
        self.out += f

    def timed(self, rid, data=b"", sync=False):
        if sync or not self.synced or self.seq in (0xFF, 0):
            since = 0xFFFFFFFF if self.last is None else min(self.t - self.last, 0xFFFFFFFF)
            self.emit(0x02, struct.pack("<QI", self.t, since))
            self.synced = True
            self.last = self.t
        if self.version == 1:
            self.emit(rid, struct.pack("<H", self.t & 0xFFFF) + bytes(data))
        else:
            self.emit(rid, bytes(data) + ts2(self.t - (self.t if self.last is None else self.last)))
        self.last = self.t

    def drops(self):
        """The loss report: TIME_SYNC, then DROPS with the totals."""
        data = struct.pack("<II", self.overwritten, self.refused)
        if self.version != 1:
            data += bytes([self.resets & 0xFF])
        if self.version >= 3:
            # nothing is queued here: every frame before the report's
            # TIME_SYNC (number self.fno) has gone out
            data += struct.pack("<III", self.stopped, (self.fno + 1) & 0xFFFFFFFF, self.fno)
        self.timed(0x03, data, sync=True)

    def info(self, reset):
        ts_size = 2 if self.version == 1 else 0
        self.emit(0x01, bytes([self.version, 2 if reset else 0, 4, 0, 0, ts_size])
                  + struct.pack("<III", 1000000, 4096, 0x5EED))
        for kind, oid, name in ((3, 5, b"TICK"), (9, 9, b"level"), (5, 0x40, b"Packet")):
            self.emit(0x04, bytes([kind]) + struct.pack("<I", oid) + name + b"\0")

    def record(self, rid, obj, data):
        if not self.glb[rid] or (obj is not None and not self.loc[obj]):
            return
        if not self.running:
            if self.version >= 3:
                self.stopped += 1
            else:
                self.refused += 1
            self.report = True
            return
        if self.report:  # the report of the refusals goes before the next record
            self.drops()
            self.report = False
        self.timed(rid, data)

    def step(self):
        """One application event (a few records); False when done."""
        if self.limit and self.n >= self.limit:
            return False
        k = self.n
        if self.drops_every and k and k % self.drops_every == 0:
            # 10 records overwritten in the buffer: their sequence numbers
            # are missing, and DROPS says so (docs/protocol.md section 4)
            self.seq = (self.seq + 10) & 0xFF
            self.fno = (self.fno + 10) & 0xFFFFFFFF
            self.overwritten += 10
            self.drops()
        self.t += 100
        self.record(0x05, 5, bytes([5]))
        self.t += 7
        self.record(0x0F, 9, bytes([9]) + struct.pack("<i", k))
        self.t += 5
        self.record(0x06, 5, b"")
        self.t += 40
        self.record(0x40, None, bytes([0x03]) + struct.pack("<I", k))
        self.n += 1
        return True

    def status(self, seq, cmd, st):
        self.timed(0x20, bytes([seq, cmd, st]))

    def command(self, f):
        if len(f) < 3:
            return
        seq, cmd, data, chk = f[0], f[1], f[2:-1], f[-1]
        if sum(f) & 0xFF != 0xFF:
            return self.status(seq, cmd, 0x01)
        want = {0x01: 0, 0x02: 16, 0x03: 32, 0x04: 0, 0x05: 0, 0x06: 0, 0x07: 0, 0x08: 0, 0x09: 13, 0x0A: 5,
                0x0C: 0}
        if cmd == 0x0B:
            return self.status(seq, cmd, 0x05)  # POKE compiled out
        if cmd not in want:
            return self.status(seq, cmd, 0x03)
        if len(data) != want[cmd]:
            return self.status(seq, cmd, 0x02)
        if cmd == 0x01:
            self.info(reset=False)
        elif cmd == 0x02:
            self.glb = [(data[r // 8] >> (r % 8)) & 1 for r in range(128)]
            for r in (0, 1, 2, 3, 4, 0x20, 0x21, 0x22):
                self.glb[r] = 1
        elif cmd == 0x03:
            self.loc = [(data[o // 8] >> (o % 8)) & 1 for o in range(256)]
        elif cmd == 0x04:
            self.running = True
            self.synced = False  # sonde_start(): rule 1, since_prev unknown
            self.last = None
        elif cmd == 0x05:
            self.running = False
        elif cmd in (0x06, 0x07):
            return self.status(seq, cmd, 0x07)  # streaming: BAD_STATE
        elif cmd == 0x08:
            if self.report:  # the old totals first, then the reply, then the new ones
                self.drops()
                self.report = False
            self.status(seq, cmd, 0)
            self.written = self.nbytes = self.refused = self.overwritten = self.stopped = 0
            self.resets += 1
            self.drops()
            return
        elif cmd == 0x09:
            return self.status(seq, cmd, 0 if data[0] == 1 else 0x81)
        elif cmd == 0x0A:
            addr, n = struct.unpack("<IB", data)
            lo, size = self.REGION
            if not (1 <= n <= 64 and lo <= addr and addr + n <= lo + size):
                return self.status(seq, cmd, 0x04)
            self.timed(0x21, struct.pack("<IB", addr, n) + self.mem[addr - lo:addr - lo + n])
        elif cmd == 0x0C:
            stats = struct.pack("<IIII", self.written, 0, self.refused, self.nbytes)
            if self.version >= 3:
                stats += struct.pack("<I", self.stopped)
            self.timed(0x22, stats)
        self.status(seq, cmd, 0)

    def receive(self, data):
        for f in self.deframer.feed(data):
            self.command(f)

    def pending(self):
        chunk = bytes(self.out)
        self.out.clear()
        return chunk

    def done(self):
        return bool(self.limit) and self.n >= self.limit and not self.out

    def take(self, n):
        for _ in range(4 * n):  # bounded: a stopped target writes nothing
            if len(self.out) >= n or not self.step():
                break
        chunk = bytes(self.out[:n])
        del self.out[:n]
        return chunk


class Replay:
    def __init__(self, path, skip, count):
        with open(path, "rb") as f:
            data = f.read()
        self.data = data[skip:skip + count] if count >= 0 else data[skip:]
        self.pos = 0

    def take(self, n):
        chunk = self.data[self.pos:self.pos + n]
        self.pos += len(chunk)
        return chunk

    def receive(self, data):
        pass

    def done(self):
        return self.pos >= len(self.data)

    def pending(self):
        return b""


# how long to wait for the peer at most: only against a hang (the test's
# cleanup ends a fake target nobody came to), never a budget that a loaded
# machine can outrun (wait_lib.sh)
PEER_WAIT = 300 * float(os.environ.get("TEST_TIME_SCALE", "1"))


def open_transport(a):
    """Returns (send(bytes), recv_fd or None, close())."""
    if a.listen:
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", a.port))
        srv.listen(1)
        tmp = a.listen + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % srv.getsockname()[1])
        os.rename(tmp, a.listen)
        srv.settimeout(PEER_WAIT)
        conn, _ = srv.accept()
        srv.close()
        return conn.sendall, conn, conn.close
    if a.connect:
        deadline = time.time() + PEER_WAIT
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", a.connect), timeout=5)
                conn.settimeout(None)  # sends block as long as the reader needs
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        return conn.sendall, conn, conn.close
    if a.udp:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.connect(("127.0.0.1", a.udp))
        return s.send, s, s.close
    if a.tty:
        fd = os.open(a.tty, os.O_RDWR | os.O_NOCTTY)
        import tty
        tty.setraw(fd)

        def send(b):
            while b:
                k = os.write(fd, b)
                b = b[k:]
        return send, fd, lambda: os.close(fd)
    fd = os.open(a.append, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def send(b):
        os.write(fd, b)
    return send, None, lambda: os.close(fd)


def readable(r, timeout):
    if r is None:
        time.sleep(timeout)
        return None
    ready, _, _ = select.select([r], [], [], timeout)
    if not ready:
        return None
    try:
        return r.recv(4096) if hasattr(r, "recv") else os.read(r, 4096)
    except OSError:
        return b""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--listen")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--connect", type=int)
    ap.add_argument("--udp", type=int)
    ap.add_argument("--tty")
    ap.add_argument("--append")
    ap.add_argument("--replay")
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--count", type=int, default=-1)
    ap.add_argument("--synth", type=int)
    ap.add_argument("--drops", type=int, default=0, help="synth: 10 records overwritten every N events")
    ap.add_argument("--proto-version", type=int, default=3, choices=(1, 2, 3), help="synth: the protocol version")
    ap.add_argument("--joined", action="store_true", help="synth: no EMPTY, TARGET_INFO, DICT at the start")
    ap.add_argument("--chunk", type=int, default=256)
    ap.add_argument("--delay", type=float, default=0.002)
    ap.add_argument("--log")
    ap.add_argument("--hold", type=float, default=0.0)
    # faults (TCP): what was done is written to --report as JSON
    ap.add_argument("--garbage-every", type=int, default=0, help="a bad frame after every N chunks")
    ap.add_argument("--stall-at", type=int, default=-1, help="after this many bytes...")
    ap.add_argument("--stall", type=float, default=0.0, help="...send nothing for S seconds")
    ap.add_argument("--cut-at", type=int, default=-1, help="after this many bytes, half a frame, then close")
    ap.add_argument("--reset-at", type=int, default=-1, help="after this many bytes, reset the connection")
    ap.add_argument("--report")
    a = ap.parse_args()
    src = Replay(a.replay, a.skip, a.count) if a.replay else Synth(a.synth, a.drops, a.proto_version, a.joined)
    send, r, close = open_transport(a)
    log = open(a.log, "ab") if a.log else None
    peer_gone = False
    faults = {"sent": 0, "garbage_frames": 0, "garbage_bytes": 0, "cut_bytes": 0, "stalled": 0.0, "reset": False}
    chunks = 0

    def put(chunk):
        # log first: a kill between the two must not leave the receiver
        # holding bytes the log lacks
        if log:
            log.write(chunk)
            log.flush()
        send(chunk)
        faults["sent"] += len(chunk)

    try:
        while True:
            chunk = src.take(a.chunk)
            if not chunk and src.done():
                break
            if a.cut_at >= 0 and faults["sent"] + len(chunk) >= a.cut_at:
                # up to the middle of the frame that straddles cut_at
                end = chunk.find(bytes([FLAG]), max(0, a.cut_at - faults["sent"]))
                start = chunk.rfind(bytes([FLAG]), 0, max(0, a.cut_at - faults["sent"])) + 1
                if end < 0:
                    end = len(chunk)
                half = start + max(1, (end - start) // 2)
                put(chunk[:half])
                faults["cut_bytes"] = half - start
                break
            if a.reset_at >= 0 and faults["sent"] >= a.reset_at:
                r.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                faults["reset"] = True
                break
            chunks += 1
            at = chunk.rfind(bytes([FLAG])) + 1
            if a.garbage_every and chunks % a.garbage_every == 0 and at > 0:
                # a frame of its own between two frames, with a wrong
                # checksum: exactly one bad frame, no other frame touched
                garbage = b"GARB" + bytes([FLAG])
                put(chunk[:at])
                put(garbage)
                put(chunk[at:])
                faults["garbage_frames"] += 1
                faults["garbage_bytes"] += len(garbage)
            elif chunk:
                put(chunk)
            if a.stall_at >= 0 and faults["sent"] >= a.stall_at and not faults["stalled"]:
                time.sleep(a.stall)
                faults["stalled"] = a.stall
            data = readable(r, a.delay)
            if data == b"":
                peer_gone = True
                break
            if data:
                src.receive(data)
        end = time.time() + a.hold
        while not peer_gone and time.time() < end:
            data = readable(r, min(0.05, max(0.0, end - time.time())))
            if data == b"":
                break
            if data:
                src.receive(data)
                chunk = src.pending()
                if chunk:
                    put(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        close()
        if a.report:
            import json
            with open(a.report + ".tmp", "w") as f:
                json.dump(faults, f)
            os.rename(a.report + ".tmp", a.report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
}

# Run on its own: check the fake target.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	live_setup
	# the worked example of docs/protocol.md §1
	got=$(python3 -c "import sys; sys.path.insert(0, '$WORK'); import fake_target as f
print(f.frame(0x7E, 0x7D, bytes([0x7D, 8, 1])).hex(' '))")
	[ "$got" = "7d 5e 7d 5d 7d 5d 08 01 7d 5e 7e" ] || fail "fake target frames: $got"
	# its version-2 timestamp fields: the worked example of §5
	got=$(python3 -c "import sys; sys.path.insert(0, '$WORK'); import fake_target as f
print(f.ts2(908).hex(' '), f.ts2(0x7F).hex(), f.ts2(0x4000).hex(), f.ts2(0xFFFFFFF).hex())")
	[ "$got" = "8c 83 7f 0040c0 ffffffef" ] || fail "fake target timestamp fields: $got"
	# a synthesised stream decodes cleanly, with the records it promised,
	# in both versions; overwritten records are reported as such
	for v in 3 2 1; do
		python3 "$WORK/fake_target.py" --append "$WORK/synth$v.bin" --synth 700 --drops 100 --proto-version $v \
			--chunk 65536 --delay 0
		"$SONDE" stats -q "$WORK/synth$v.bin" >"$WORK/stats.txt" && fail "synthesised stream: no sequence gaps?"
		grep -q "^protocol               sonde v$v$" "$WORK/stats.txt" || { cat "$WORK/stats.txt"; fail "version $v"; }
		grep -Eq "^  ISR_ENTER +700 " "$WORK/stats.txt" || { cat "$WORK/stats.txt"; fail "700 ISR_ENTER expected"; }
		grep -Eq "^  Packet +700 " "$WORK/stats.txt" || { cat "$WORK/stats.txt"; fail "700 Packet records expected"; }
		grep -q "^target drops           60 overwritten, 0 refused$" "$WORK/stats.txt" ||
			{ cat "$WORK/stats.txt"; fail "60 overwritten expected"; }
		grep -q "^link-lost frames       0$" "$WORK/stats.txt" || { cat "$WORK/stats.txt"; fail "no link loss expected"; }
		grep -Eq "^  seq-gap +6$" "$WORK/stats.txt" || { cat "$WORK/stats.txt"; fail "6 sequence gaps expected"; }
		[ "$(grep -c . "$WORK/stats.txt")" -gt 20 ] || fail "stats output"
	done
	echo "PASS"
fi
