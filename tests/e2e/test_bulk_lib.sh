#!/usr/bin/env bash
# test_bulk_lib.sh -- streams of any size, made on the fly (never stored),
# through `sonde stats` and every export, for the bulk runs of
# test_bulk.sh (a few MB, `make test`) and tests/long/test_bulk_2g.sh
# (2 GB, `make check-long`); docs/reliability.md has the figures.
#
# bulk.py run PROTO KIND BYTES SEED -- sonde ARGS...: feeds the stream on
# sonde's stdin and prints one JSON line: bytes fed, what was damaged, the
# diagnostics sonde printed per code, its exit status, its peak RSS (KB)
# and the seconds taken.  KIND is "random" (random bytes) or "damaged" (a
# reference capture repeated, with 1 % of its frames damaged in a way whose
# effect is known exactly: one byte of a frame changed, never a flag or an
# escape, so each damaged frame is one checksum error -- and, in a stream
# with sequence numbers, one frame lost in one sequence gap).
#
# Run on its own (as ctest does) it checks the damage model: one damaged
# frame per protocol gives exactly the diagnostics it promises.

BULK_SRC=${SONDE_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

bulk_write_py() {
	cat >"$1" <<'PYEOF'
#!/usr/bin/env python3
"""bulk.py -- see test_bulk_lib.sh."""
import json
import os
import random
import resource
import struct
import subprocess
import sys
import threading
import time

FLAG, ESC = 0x7E, 0x7D
PER_MILLE = 10  # 1 % of the frames


class Hdlc:
    """A capture of HDLC-like frames (Sonde, QS) repeated; damage: one
    byte of a frame, not a flag, not an escape or an escaped byte."""

    def __init__(self, path, skip_frames):
        self.base = open(path, "rb").read()
        self.frames = []
        start = 0
        for i, b in enumerate(self.base):
            if b == FLAG:
                self.frames.append((start, i))
                start = i + 1
        self.skip = skip_frames  # the target's start: TARGET_INFO, dictionaries

    def copy(self, k, rnd):
        out = bytearray(self.base)
        n = 0
        last = -2
        for i, (s, e) in enumerate(self.frames[self.skip:-1], self.skip):
            if rnd.randrange(1000) >= PER_MILLE or i - last < 2:
                continue
            for j in range(s, e):
                if out[j] in (FLAG, ESC) or (j > s and out[j - 1] == ESC):
                    continue
                v = out[j] ^ 0x01 if out[j] ^ 0x01 not in (FLAG, ESC) else out[j] ^ 0x04
                out[j] = v
                n += 1
                last = i
                break
        return bytes(out), n


class SystLen:
    """A SyS-T length-prefixed capture repeated; damage: the last payload
    byte of a message with a CRC (the CRC then fails)."""

    def __init__(self, path):
        self.base = open(path, "rb").read()
        self.msgs = []
        pos = 0
        while pos + 4 <= len(self.base):
            n = struct.unpack_from("<I", self.base, pos)[0]
            hdr = struct.unpack_from("<I", self.base, pos + 4)[0]
            # the fields before the payload: header, GUID, location, LEN, time
            fields = 4 + (16 if hdr & (1 << 23) else 0)
            if hdr & (1 << 8):
                fields += 1 + (8 if self.base[pos + 4 + fields] & 1 else 4)
            fields += (2 if hdr & (1 << 9) else 0) + (8 if hdr & (1 << 11) else 0)
            if hdr & (1 << 10) and n - 4 > fields and hdr & 0xF not in (1, 7):
                self.msgs.append(pos + 4 + n - 5)  # the last payload byte
            pos += 4 + n
        self.total = pos

    def copy(self, k, rnd):
        out = bytearray(self.base)
        n = 0
        for at in self.msgs:
            if rnd.randrange(500) < PER_MILLE:  # 1 % of all messages: about half have a CRC
                out[at] ^= 0x01
                n += 1
        return bytes(out), n


class Variants:
    """64 damaged copies made once and then cycled through: making a copy
    is slow in Python, writing one is not (2 GB in seconds, not minutes)."""

    def __init__(self, model):
        self.model = model
        self.made = []
        self.base = model.base

    def copy(self, k, rnd):
        if len(self.made) < 64:
            self.made.append(self.model.copy(k, rnd))
        return self.made[k % len(self.made)] if k >= 64 else self.made[-1]


def source(proto, kind, testdata, synth):
    model = model_of(proto, kind, testdata, synth)
    return Variants(model) if model else None


def model_of(proto, kind, testdata, synth):
    if kind == "random":
        return None
    if proto == "sonde":
        return Hdlc(synth, 6)
    if proto == "qs":
        return Hdlc(os.path.join(testdata, "qs", "dpp_posix-qv_x86.bin"), 60)
    if proto == "syst":
        return SystLen(os.path.join(testdata, "syst", "lenonly_32.bin"))
    raise SystemExit("no damage model for " + proto)


def feed(pipe, src, total, seed, done):
    rnd = random.Random(seed)
    sent = damaged = k = 0
    try:
        while sent < total:
            if src is None:
                chunk = rnd.randbytes(min(1 << 20, total - sent))
            else:
                chunk, n = src.copy(k, rnd)
                damaged += n
                k += 1
            pipe.write(chunk)
            sent += len(chunk)
    except BrokenPipeError:
        pass
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass
    done.update(sent=sent, damaged=damaged, copies=k)


def run(proto, kind, total, seed, argv, testdata, synth):
    src = source(proto, kind, testdata, synth)
    t0 = time.time()
    # GNU time reports the peak RSS of sonde alone: a child of this Python
    # process would count the copy of it that fork made
    rss_file = os.path.join(os.environ.get("TMPDIR", "/tmp"), "bulk-rss.%d" % os.getpid())
    argv = ["/usr/bin/time", "-q", "-f", "%M", "-o", rss_file] + argv
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    done = {}
    th = threading.Thread(target=feed, args=(p.stdin, src, total, seed, done))
    th.start()
    diags, other = {}, []
    for line in p.stderr:
        parts = line.split(b": ", 3)
        if len(parts) == 4 and parts[1].startswith(b"offset "):
            code = parts[2].decode()
            diags[code] = diags.get(code, 0) + 1
        else:
            other.append(line.decode(errors="replace").rstrip())
    rc = p.wait()
    th.join()
    rss = open(rss_file).read().split()
    os.unlink(rss_file)
    return dict(done, proto=proto, kind=kind, argv=" ".join(argv[7:]), rc=rc, diags=diags,
                stderr=other[-20:], rss_kb=int(rss[-1]) if rss else -1, seconds=round(time.time() - t0, 1))


def main():
    """bulk.py run PROTO KIND BYTES SEED -- ARGV...    one run
    bulk.py plan FILE     runs, one a line: PROTO KIND BYTES SEED ARGV..."""
    testdata, synth = os.environ["SONDE_TESTDATA"], os.environ.get("BULK_SYNTH", "")
    if sys.argv[1] == "run":
        _, _, proto, kind, size, seed, dashes, *argv = sys.argv
        assert dashes == "--"
        jobs = [(proto, kind, size, seed, argv)]
    else:
        jobs = [(w[0], w[1], w[2], w[3], w[4:]) for w in (l.split() for l in open(sys.argv[2])) if w]
    for proto, kind, size, seed, argv in jobs:
        print(json.dumps(run(proto, kind, int(size), int(seed), argv, testdata, synth)), flush=True)


if __name__ == "__main__":
    main()
PYEOF
}

# bulk_setup DIR: bulk.py and the Sonde base capture in DIR (BULK_SYNTH)
bulk_setup() {
	. "$BULK_SRC/tests/e2e/test_live_lib.sh"
	live_write_fake_target "$1/fake_target.py"
	python3 "$1/fake_target.py" --append "$1/synth.bin" --synth 3000 --drops 0 --chunk 65536 --delay 0
	bulk_write_py "$1/bulk.py"
	export BULK_SYNTH=$1/synth.bin
}

# Run on its own: one damaged frame per protocol, exactly its diagnostics.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	: "${SONDE:?}" "${SONDE_TESTDATA:?}"
	D=$(mktemp -d)
	trap 'rm -rf "$D"' EXIT
	bulk_setup "$D"
	for proto in sonde qs syst; do
		size=$(python3 -c "import sys; sys.path.insert(0, '$D'); import bulk, os
src = bulk.source('$proto', 'damaged', os.environ['SONDE_TESTDATA'], os.environ['BULK_SYNTH'])
print(len(src.base) * 3)")
		python3 "$D/bulk.py" run "$proto" damaged "$size" 7 -- "$SONDE" stats - --proto "$proto" --max-diags 0 >"$D/r.json"
		python3 - "$D/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n, d = r["damaged"], r["diags"]
assert n > 0, "nothing damaged in 3 copies"
assert d.get("bad-checksum", 0) == n, (n, d)
if r["proto"] in ("sonde", "qs"):
    assert d.get("seq-gap", 0) == n, (n, d)
print("%s: %d damaged frames -> %s" % (r["proto"], n, d))
PY
	done
	echo "PASS"
fi
