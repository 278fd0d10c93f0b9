#!/usr/bin/env python3
"""make_seeds.py -- regenerate the seed corpora of the libFuzzer harnesses
(tests/fuzz/corpus/<harness>/) from the reference captures in
../shared/testdata and from the project's own streams (the POSIX demo's
trace, the FreeRTOS example's trace with its RTOS records, hand-built
frames).  The seeds are committed; run this only to change them (the
demos' traces differ from run to run).

    python3 tests/fuzz/make_seeds.py [--build build] [--testdata ../shared/testdata]
                                     [--freertos-kernel PATH]

The FreeRTOS example (examples/freertos-posix) is built in a scratch
directory with the kernel tree given by --freertos-kernel or
FREERTOS_KERNEL_PATH (docs/freertos.md).

Every harness takes configuration bytes in front of its data (see the
comment at the top of each fuzz_*.c); the seeds carry them.  Seeds are cut
to a few kilobytes at frame boundaries: the fuzzer mutates small inputs far
faster, and the captures' interesting parts (dictionaries, TARGET_INFO,
session starts, the catalog and module messages at the end of the SyS-T
files) are kept.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "examples", "fw-common"))
import hdlc_frames  # noqa: E402  (the framing, shared with rx_check.py)



def registry():
    """The decoders, sinks and commands in the generated registry's order
    (host/CMakeLists.txt: protocol folders without WIP, sink_*.c, cmd_*.c
    with help last, each sorted by name)."""
    src = os.path.join(ROOT, "host", "src")
    protos = sorted(d for d in os.listdir(os.path.join(src, "proto"))
                    if not os.path.exists(os.path.join(src, "proto", d, "WIP")))
    sinks = [f for f in os.listdir(os.path.join(src, "sinks")) if f.startswith("sink_")]
    for d in protos:
        sinks += [f for f in os.listdir(os.path.join(src, "proto", d)) if f.startswith("sink_")]
    cmds = sorted(f[4:-2] for f in os.listdir(os.path.join(src, "cli")) if f.startswith("cmd_"))
    cmds.remove("help")
    return protos, sorted(f[5:-2] for f in sinks if f.endswith(".c")), cmds + ["help"]


DECODERS, SINKS, COMMANDS = registry()

FLAG = hdlc_frames.FLAG

corpus = {}


def seed(harness, name, data):
    corpus.setdefault(harness, []).append((name, bytes(data)))


# ---- HDLC (Sonde and QS) ---------------------------------------------------

def hdlc(seq, rid, data=b""):
    return hdlc_frames.encode(seq, rid, data)


def unframe(stream):
    """Split an HDLC stream into (seq, id, data) of its good frames."""
    return hdlc_frames.decode(stream)[0]


def head_frames(stream, limit):
    """The stream up to the last frame end before limit bytes."""
    cut = stream.rfind(bytes([FLAG]), 0, limit)
    return stream[:cut + 1] if cut >= 0 else stream[:limit]


def tail_frames(stream, limit):
    """The last frames of a stream, at most about limit bytes, from a frame start."""
    if len(stream) <= limit:
        return stream
    cut = stream.find(bytes([FLAG]), len(stream) - limit)
    return stream[cut + 1:]


def renumber(frames, drop_ids=()):
    """Frames re-encoded with consecutive SEQ, leaving out the ids in drop_ids."""
    out, seq = bytearray(), 0
    for _, rid, data in frames:
        if rid in drop_ids:
            continue
        out += hdlc(seq, rid, data)
        seq += 1
    return bytes(out)


# ---- Sonde -----------------------------------------------------------------

def demo_trace(build, *args):
    exe = os.path.join(build, "examples", "posix-demo", "posix-demo")
    if not os.access(exe, os.X_OK):
        sys.exit(f"make_seeds: {exe} not found: build first (make build), or give --build")
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        subprocess.run([exe, "-o", f.name] + list(args), check=True, stderr=subprocess.DEVNULL)
        return open(f.name, "rb").read()


def freertos_traces(kernel):
    """The FreeRTOS example's traces (protocol version 2 with the RTOS
    records of docs/protocol.md section 4.1, as target/rtos/freertos writes
    them): lossless, and a small buffer that overwrites."""
    if not kernel or not os.path.isfile(os.path.join(kernel, "tasks.c")):
        sys.exit("make_seeds: give a FreeRTOS-Kernel tree with --freertos-kernel or FREERTOS_KERNEL_PATH "
                 "(docs/freertos.md): the RTOS seeds come from the FreeRTOS example's trace")
    with tempfile.TemporaryDirectory() as tmp:
        b = os.path.join(tmp, "build")
        subprocess.run(["cmake", "-S", os.path.join(ROOT, "examples", "freertos-posix"), "-B", b,
                        "-DFREERTOS_KERNEL_PATH=" + kernel], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", b, "-j", "2"], check=True, stdout=subprocess.DEVNULL)
        out = {}
        for name, args in (("lossless", []), ("overwrite", ["-b", "1024", "-d", "100", "-c", "60", "-m", "overwrite"])):
            f = os.path.join(tmp, name + ".bin")
            subprocess.run([os.path.join(b, "freertos-posix"), "-o", f] + args, check=True,
                           stderr=subprocess.DEVNULL, timeout=120)
            out[name] = open(f, "rb").read()
        return out


def le16(v):
    return struct.pack("<H", v & 0xFFFF)


def le32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


def sonde_rich(version):
    """A hand-built stream with every record, argument type and format
    conversion of docs/protocol.md sections 4 and 6 (the demo uses few), in
    protocol version 2 (timestamp deltas after the fields) or 1 (a u16
    timestamp before them, section 10)."""
    frames = []
    t = [0x100]
    step = [3]

    def rec(rid, data=b""):
        frames.append((rid, bytes(data)))

    def timed(rid, data=b"", gap=3):
        t[0] += gap
        if version == 1:
            rec(rid, le16(t[0]) + bytes(data))
        elif gap < 0x80:
            rec(rid, bytes(data) + bytes([gap]))
        elif gap < 0x4000:
            rec(rid, bytes(data) + le16(0x8000 | gap))
        else:
            rec(rid, bytes(data) + le32(0xE0000000 | gap))

    def sync(at, since):
        rec(2, struct.pack("<Q", at) + le32(since))
        t[0] = at

    def strz(t):
        return t.encode() + b"\0"
    args = (b"\x01\xfe" + b"\x02" + le16(0xBEEF) + b"\x03" + le32(0xDEADBEEF) + b"\x04" + struct.pack("<Q", 2**63 + 5) +
            b"\x05\x80" + b"\x06" + le16(0x8000) + b"\x07" + le32(0x80000000) + b"\x08" + struct.pack("<q", -2**63) +
            b"\x09" + struct.pack("<f", -1.5) + b"\x0a" + struct.pack("<d", 3.25e-7) + b"\x0b" + strz("txt\"\\") +
            b"\x0c\x03\x7e\x7d\x00" + b"\x0d\x02" + b"\x0e" + le32(0x08000100) + b"\x0f\x01\x02")
    rec(0)
    rec(1, bytes([version, 2, 4, 0, 0, 2 if version == 1 else 0]) + le32(1000000) + le32(4096) + le32(0x12345678))
    for kind, oid, name in ((1, 9, "obj9"), (2, 1, "taskA"), (2, 2, "taskB"), (3, 5, "isr5"), (4, 1, "fn1"),
                            (4, 0x08000100, "fn_at"), (5, 0x40, "REC40"), (6, 0x102, "ON"), (8, 3, "mk"),
                            (9, 4, "cnt"), (10, 1, "onoff"),
                            (7, 1, "all %d %i %u %x %X %o %c %s %f %e %g %p %% end"),
                            (7, 2, "flags [%-8d] [%+d] [% d] [%08.3f] [%#x] [%#o] [%.2s] [%*d] [%-*.*s] [%ld] [%llu] [%hhx]"),
                            (7, 3, "names %s %s %s %s"), (7, 4, "too few %d %d %d %d %d %d"), (7, 5, "%"),
                            (7, 6, "%q %5 %.%")):
        rec(4, bytes([kind]) + le32(oid) + strz(name))
    sync(0x100, 0xFFFFFFFF)
    timed(7, b"\x01\x05")
    timed(7, b"\x02\x03")
    timed(8, b"\x01")
    timed(5, b"\x05")
    timed(5, b"\x06")
    timed(6)
    timed(6)
    timed(16, le16(1))
    timed(17, le32(0x08000100))
    timed(18)
    timed(18)
    for reason in range(5):
        timed(9, bytes([1, reason]))
        timed(10, b"\x01")
    timed(11)
    timed(12, b"\x03")
    timed(13, b"\x03")
    timed(13, b"\x03")
    timed(14, b"\x03")
    timed(14, b"\x03")
    for n in range(1, 9):
        timed(15, b"\x04" + bytes([0x80 + n] * n))
    for fmt in range(1, 8):
        timed(19, bytes([fmt % 6]) + le16(fmt) + args)
    timed(19, b"\x03" + le16(3) + b"\x0b" + strz("s") + b"\x0d\x09" + b"\x0e" + le32(0x08000100) + b"\x0f\x01\x02")
    timed(19, b"\x03" + le16(2) + b"\x07" + le32(5) + b"\x0b" + strz("abc") + b"\x07" + le32(3) + b"\x07" + le32(2) +
        b"\x0b" + strz("xyz"))
    if version == 2:  # the RTOS records (section 4.1; version 1 never carried them)
        for kind, cap in ((1, b"\x05"), (4, b"\x08"), (7, b""), (10, b""), (11, le32(4096)), (13, le16(100))):
            timed(0x15, bytes([20 + kind, kind]) + cap)
        timed(0x15, bytes([21, 0x81, 3]))                      # announced, not created
        for state, on in ((0, 0), (4, 0), (5, 24), (6, 24), (7, 24), (8, 2), (9, 30), (12, 0)):
            timed(0x14, bytes([1, state, on, 2]))
            timed(0x14, bytes([2, 0, 0, 1]))
        for op, obj, val in ((1, 24, b"\x00"), (2, 24, b"\x01"), (0x41, 24, b"\x08"), (0x82, 24, b""), (3, 24, b"\x02"),
                             (4, 24, b""), (6, 28, b""), (7, 28, b""), (8, 30, le16(0x0F0F)), (9, 30, b"\x01"),
                             (10, 30, le32(3)), (11, 30, b"\x07"), (5, 24, b""), (12, 31, b"\x01\x02\x03\x04\x05")):
            timed(0x16, bytes([op, obj]) + val)
    timed(0x40, args)
    timed(0x41, args[:9] + b"\x10\x01")          # an unknown type byte
    timed(0x42, b"\x0b" + b"no NUL")            # runs past the end
    sync(t[0] + 3, 3)
    timed(3, le32(4) + le32(2) + (b"\x01" if version == 2 else b""), gap=0)   # DROPS after its TIME_SYNC
    sync(0x1FFFF, 40)
    timed(15, b"\x04\x01", gap=70000)                 # more than 16 bits of time
    timed(0x7F)
    rec(1, bytes([version, 2, 8, 1, 0, 2 if version == 1 else 0]) + le32(32768) + le32(512) + le32(1))  # reset
    timed(17, struct.pack("<Q", 0x08000100))
    rec(1, bytes([9, 0, 4, 0, 0, 2]) + le32(1) + le32(1) + le32(1))         # an unknown version
    timed(12, b"\x03")
    return b"".join(hdlc(seq, rid, data) for seq, (rid, data) in enumerate(frames))


def sonde_hold_cap(version, n):
    """A loss, then n IDLE records held back waiting for a TIME_SYNC (the
    decoder holds at most SHOLD_MAX_ITEMS, 1024), then the TIME_SYNC."""
    def ts(t):
        return le16(t) if version == 1 else b""

    def delta(d=3):
        return b"" if version == 1 else bytes([d])
    out = hdlc(0, 0) + hdlc(1, 1, bytes([version, 2, 4, 0, 0, 2 if version == 1 else 0]) + le32(1000) +
                            le32(4096) + le32(0))
    out += hdlc(2, 2, struct.pack("<Q", 1000) + le32(0xFFFFFFFF)) + hdlc(3, 12, ts(1000) + b"\x01" + delta(0))
    seq = 10  # frames 4..9 lost
    for i in range(n):
        out += hdlc(seq, 11, ts(1003 + 3 * i) + delta())
        seq += 1
    return out + hdlc(seq, 2, struct.pack("<Q", 1003 + 3 * n) + le32(3))


def sonde_streams(build, kernel):
    """name -> a Sonde stream (raw bytes, no configuration)."""
    s = {}
    rtos = freertos_traces(kernel)
    s["rtos_head"] = head_frames(rtos["lossless"], 3000)
    s["rtos_tail"] = tail_frames(rtos["lossless"], 1500)
    s["rtos_overwrite"] = head_frames(rtos["overwrite"], 2500)
    demo = demo_trace(build, "-t", "120")
    s["demo_head"] = head_frames(demo, 3000)
    s["demo_tail"] = tail_frames(demo, 1500)
    # a small buffer that overwrites (DROPS records, sequence gaps) and the
    # snapshot and post-mortem modes
    s["demo_overwrite"] = head_frames(demo_trace(build, "-t", "80", "-m", "overwrite", "-b", "512"), 2500)
    s["demo_snapshot"] = head_frames(demo_trace(build, "-t", "60", "-m", "snapshot", "-b", "1024"), 2000)
    s["demo_postmortem"] = head_frames(demo_trace(build, "-t", "60", "-m", "postmortem", "-b", "1024"), 2000)
    # damage: a frame missing (SEQ gap), a byte flipped, a cut frame
    frames = unframe(s["demo_head"])
    gap = bytearray()
    for i, (seq, rid, data) in enumerate(frames):
        if i != 40:
            gap += hdlc(seq, rid, data)
    s["demo_gap"] = bytes(gap)
    bad = bytearray(s["demo_head"])
    bad[len(bad) // 2] ^= 0x10
    s["demo_flip"] = bytes(bad)
    s["demo_cut"] = s["demo_head"][: len(s["demo_head"]) - 5]
    s["rich_v2"] = sonde_rich(2)
    s["rich_v1"] = sonde_rich(1)
    s["hold_cap_v1"] = sonde_hold_cap(1, 1100)
    s["hold_v2"] = sonde_hold_cap(2, 300)
    # the e2e tests' session start (EMPTY, TARGET_INFO v1, 4-byte addresses)
    s["session"] = hdlc(0, 0) + hdlc(1, 1, bytes([1, 2, 4, 0, 0, 2]) + le32(1000000) + le32(4096) + le32(0x12345678))
    return s


# ---- QS --------------------------------------------------------------------

QS_TARGET_INFO = 64


def qs_streams(td):
    q = {}
    for name in ("dpp_posix-qv_x86", "defer_posix-qv_x64", "qsfmt_user_formats_x86"):
        q[name] = open(os.path.join(td, "qs", name + ".bin"), "rb").read()
    return q


# ---- SyS-T -----------------------------------------------------------------

def syst_messages(path):
    """The messages of a length-prefixed SyS-T capture."""
    data, msgs, i = open(path, "rb").read(), [], 0
    while i + 4 <= len(data):
        (n,) = struct.unpack_from("<I", data, i)
        msgs.append(data[i + 4:i + 4 + n])
        i += 4 + n
    return msgs


def syst_pick(msgs, first=40, last=8):
    return msgs[:first] + msgs[-last:]


def syst_len(msgs):
    return b"".join(struct.pack("<I", len(m)) + m for m in msgs)


def syst_hex(msgs):
    return b"".join(b"SYS-T RAW DATA: " + m.hex().upper().encode() + b"\n" for m in msgs)


# ---- Tonbandgeraet -----------------------------------------------------------

def stp_user_time_xsync():
    """An STPv2 stream (fields least significant nibble first) with the
    packets the sample lacks: FREQ_40, USER, TIME, XSYNC and their TS
    forms, TRIG, inside a SyS-T message; then an opcode no public decoder
    sizes (FREQ_40_TS) and an ASYNC after it."""
    nib = []
    def op(text):
        nib.extend(int(c, 16) for c in text)
    def field(v, n):
        nib.extend((v >> (4 * i)) & 0xF for i in range(n))
    def ts(v, n):
        op("%X" % (n if n <= 12 else 0xD if n == 14 else 0xE))
        field(v, n)
    def sync():
        op("F" * 21 + "0")
        op("F00"); field(3, 1)                    # VERSION 3
    sync()
    op("F0F0"); field(0x01DCD65000, 10)           # FREQ_40
    op("F1"); field(128, 4); op("F3"); field(1, 4)  # M16, C16
    op("F6"); field(0x01000042, 8); ts(1000, 16)  # D32TS: a SyS-T message starts
    op("F02"); op("F03"); ts(0x20, 2)             # USER, USER_TS
    op("F05"); ts(0x5000, 16); op("F04")          # TIME_TS, TIME
    op("F0A"); op("F0B"); ts(0x7, 1)              # XSYNC, XSYNC_TS
    op("F06"); field(0x3C, 2)                     # TRIG
    op("6"); field(0x64636261, 8); op("FE")       # D32, FLAG: the message ends
    op("F0F1"); field(0x12345, 5)                 # FREQ_40_TS: not sized, sync lost
    sync()
    op("4"); field(0x5A, 2)
    if len(nib) % 2:
        nib.append(0)
    return bytes(nib[i] | nib[i + 1] << 4 for i in range(0, len(nib), 2))


def tband_frames(data, limit, from_end=False):
    """Whole COBS frames (each ending in 0x00), at most about limit bytes."""
    if len(data) <= limit:
        return data
    if from_end:
        return data[data.index(0, len(data) - limit) + 1:]
    return data[:data.rindex(0, 0, limit) + 1]


# ---- MiniProfiler ------------------------------------------------------------

def crc16(data):
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def mp_rsp(rtype, payload, hdr55aa=False, crc_be=False):
    pkt = (b"\x55\xaa" if hdr55aa else b"\xaa\x55") + bytes([rtype]) + le16(len(payload)) + payload
    c = crc16(pkt)
    return pkt + (struct.pack(">H", c) if crc_be else le16(c)) + b"\x0a"


def mp_session(**kw):
    meta = le32(72000000) + le32(1000000) + le32(0xDEADBEEF) + b"fw-1.2.3\0\0\0\0\0\0\0\0"
    status = bytes([1]) + le32(3) + le32(120) + bytes([42])
    recs = []
    # main (depth 0) calling a (depth 1) calling b (depth 2), then c
    for addr, entry, dur, depth in ((0x08000100, 10, 500, 0), (0x08000200, 20, 200, 1), (0x08000300, 30, 50, 2),
                                    (0x08000400, 300, 100, 1), (0x08000100, 600, 80, 0)):
        recs.append(le32(addr) + le32(entry) + le32(dur) + le16(depth))
    prof = bytes([1]) + le16(len(recs)) + b"".join(recs)
    return (mp_rsp(3, meta, **kw) + mp_rsp(1, b"", **kw) + mp_rsp(5, prof, **kw) + mp_rsp(4, status, **kw) +
            mp_rsp(2, b"", **kw))


# ---- the target's receiver -----------------------------------------------------

RX_BASE = 0x20001000  # fuzz_target_rx.c: the regions' page
ADDR = 8              # SONDE_ADDR_SIZE of a 64-bit host


def addr(a):
    return struct.pack("<Q", a)[:ADDR]


def rx_commands():
    c, seq = bytearray(), 0

    def cmd(cid, data=b""):
        nonlocal seq, c
        c += hdlc(seq, cid, data)
        seq += 1
    cmd(0x01)                                   # INFO
    cmd(0x0C)                                   # STATS
    cmd(0x0A, addr(RX_BASE) + bytes([8]))       # PEEK the read-only region
    cmd(0x0A, addr(RX_BASE + 100 - 4) + bytes([4]))  # its last bytes
    cmd(0x0A, addr(RX_BASE + 0x100) + bytes([40]))
    cmd(0x0A, addr(RX_BASE + 0x200) + bytes([4]))   # write-only: refused
    cmd(0x0A, addr(RX_BASE + 0x1000 - 32) + bytes([32]))
    cmd(0x0B, addr(RX_BASE + 0x100) + bytes([4]) + b"\x7e\x7d\x01\x02")  # POKE
    cmd(0x0B, addr(RX_BASE + 0x200 + 12) + bytes([4]) + b"abcd")
    cmd(0x0B, addr(RX_BASE + 0x1000 - 2) + bytes([2]) + b"zz")
    cmd(0x0B, addr(RX_BASE) + bytes([1]) + b"x")    # read-only: refused
    cmd(0x02, bytes([0xFF] * 8 + [0x0F] * 8))       # GLB_FILTER
    cmd(0x03, bytes([0xAA] * 32))                   # LOC_FILTER
    cmd(0x09, bytes([7]) + le32(1) + le32(2) + le32(3))  # APP
    cmd(0x05)                                   # STOP
    cmd(0x04)                                   # START
    cmd(0x08)                                   # RESET_CTRS
    cmd(0x06)                                   # TRIGGER
    cmd(0x07)                                   # READOUT
    return bytes(c)


# ---- putting it together ---------------------------------------------------------

def make(build, td, kernel):
    s = sonde_streams(build, kernel)
    for i, (name, data) in enumerate(sorted(s.items())):
        seed("sonde", name, bytes([(i * 37) & 0xFF, i % 4]) + data)

    q = qs_streams(td)
    dpp_noinfo = renumber(unframe(head_frames(q["dpp_posix-qv_x86"], 4000)), {QS_TARGET_INFO})
    defer_noinfo = renumber(unframe(head_frames(q["defer_posix-qv_x64"], 3000)), {QS_TARGET_INFO})
    seed("qs", "dpp_head", b"\x00\x00" + head_frames(q["dpp_posix-qv_x86"], 4000))
    seed("qs", "dpp_tail", b"\x05\x00" + tail_frames(q["dpp_posix-qv_x86"], 2000))
    seed("qs", "dpp_noinfo_sizes", b"\x09\x01" + dpp_noinfo)
    seed("qs", "dpp_noinfo_dic", b"\x00\x03" + dpp_noinfo)
    seed("qs", "defer_head", b"\x21\x00" + head_frames(q["defer_posix-qv_x64"], 3000))
    seed("qs", "defer_noinfo_sizes", b"\x00\x02" + defer_noinfo)
    seed("qs", "qsfmt_head", b"\x00\x00" + head_frames(q["qsfmt_user_formats_x86"], 3000))
    seed("qs", "qsfmt_tail", b"\x00\x00" + tail_frames(q["qsfmt_user_formats_x86"], 2000))
    dic = open(os.path.join(td, "qs", "dpp_posix-qv_x86.dic"), "rb").read()
    seed("qs_dic", "dpp", dic + b"\0" + dpp_noinfo[:2500])
    seed("qs_dic", "dpp_dic_only", dic)

    mix64 = syst_messages(os.path.join(td, "syst", "mix_64.bin"))
    mix32 = syst_messages(os.path.join(td, "syst", "mix_32len.bin"))
    len32 = syst_messages(os.path.join(td, "syst", "lenonly_32.bin"))
    seed("syst", "mix64_len", b"\x00\x09" + syst_len(syst_pick(mix64)))
    seed("syst", "mix64_end_len_noguid", b"\x07\x01" + syst_len(mix64[-60:]))
    seed("syst", "mix32_len", b"\x00\x09" + syst_len(syst_pick(mix32, 30)))
    seed("syst", "mix32_end_len", b"\x03\x09" + syst_len(mix32[-70:]))
    seed("syst", "lenonly32_raw", b"\x00\x0a" + b"".join(syst_pick(len32)))
    seed("syst", "mix64_hex", b"\x00\x0b" + syst_hex(syst_pick(mix64, 20, 6)))
    seed("syst", "mix32_hex_nocoll", b"\x11\x0f" + syst_hex(syst_pick(mix32, 12, 4)))
    seed("syst", "mix64_auto", b"\x00\x08" + syst_len(mix64[:30]))
    stp = open(os.path.join(td, "syst", "stp", "pub_64.stp"), "rb").read()
    # the first 20 messages (up to the second ASYNC, nibble 2488) and the
    # last ones, from the ASYNC before message 80 (nibble 8568)
    seed("stp", "pub64_head", b"\x00\x08" + stp[:2488 // 2])
    seed("stp", "pub64_tail_auto", b"\x05\x0c" + stp[8568 // 2:])
    seed("stp", "pub64_head_msn", b"\x00\x02" + stp[:700])
    seed("stp", "pub64_raw", b"\x03\x10" + stp[:900])
    seed("stp", "user_time_xsync", b"\x00\x01" + stp_user_time_xsync())
    seed("stp", "user_time_xsync_raw", b"\x02\x10" + stp_user_time_xsync())
    coll = open(os.path.join(td, "syst", "collateral.xml"), "rb").read()
    seed("syst_coll", "collateral", coll)
    seed("syst_coll", "collateral_cut", coll[: len(coll) // 2])

    tb = {n: open(os.path.join(td, "tband", n + ".bin"), "rb").read()
          for n in ("repo_baremetal_integration_simtarget", "bm_snapshot_rich", "repo_examples_POSIX_FreeRTOS_log")}
    seed("tband", "simtarget", b"\x00\x01" + tb["repo_baremetal_integration_simtarget"])
    seed("tband", "rich_head", b"\x00\x01" + tband_frames(tb["bm_snapshot_rich"], 3000))
    seed("tband", "rich_tail", b"\x07\x05" + tband_frames(tb["bm_snapshot_rich"], 3000, True))
    seed("tband", "freertos_head", b"\x00\x00" + tband_frames(tb["repo_examples_POSIX_FreeRTOS_log"], 3000))
    seed("tband", "freertos_tail", b"\x0b\x02" + tband_frames(tb["repo_examples_POSIX_FreeRTOS_log"], 2000, True))

    mp = mp_session()
    seed("miniprof", "session", b"\x00\x00" + mp)
    seed("miniprof", "session_55aa_be", b"\x03\x0b" + mp_session(hdr55aa=True, crc_be=True))
    seed("miniprof", "session_noise", b"\x00\x08" + b"\x01\xaa\x00" + mp[:40] + mp + b"\xaa\x55\x05\xff")

    # --proto auto: the start of each kind of stream, as is
    seed("probe", "sonde", s["demo_head"][:2000])
    seed("probe", "sonde_rtos", s["rtos_head"][:2000])
    seed("probe", "qs", head_frames(q["dpp_posix-qv_x86"], 2000))
    seed("probe", "qs_noinfo", dpp_noinfo[:1500])
    seed("probe", "syst_len", syst_len(mix64[:20]))
    seed("probe", "syst_hex", syst_hex(mix32[:10]))
    seed("probe", "syst_raw", b"".join(len32[:20]))
    seed("probe", "tband", tband_frames(tb["bm_snapshot_rich"], 1500))
    seed("probe", "miniprof", mp)

    # every sink with a Sonde stream and with its own protocol's
    streams = {"sonde": s["demo_head"], "qs": head_frames(q["dpp_posix-qv_x86"], 2500),
               "syst": syst_len(syst_pick(mix64, 25, 6)), "tband": tband_frames(tb["bm_snapshot_rich"], 2500),
               "miniprof": mp}
    native = {"qspy": "qs", "syst_csv": "syst", "tband_jsonl": "tband", "profile": "miniprof", "folded": "miniprof"}
    for i, sink in enumerate(SINKS):
        pairs = [("sonde", i % 5)]
        if sink in native:
            pairs.append((native[sink], (i + 1) % 5))
        if sink in ("perfetto", "chrome", "profile"):
            pairs.append(("sonde", 3 if sink == "profile" else 1))
        for k, (proto, opts) in enumerate(pairs):
            sel = (i + k) % 5 if k else 0x80   # the first without selection
            seed("sinks", f"{sink}_{proto}_{opts}",
                 bytes([i, DECODERS.index(proto), opts, sel]) + streams[proto])

    # one past the last sink: no sink, the figures of `sonde stats`
    for k, proto in enumerate(("sonde", "qs", "miniprof")):
        seed("sinks", f"stats_{proto}", bytes([len(SINKS), DECODERS.index(proto), 0, 0x10 * k]) + streams[proto])
    # the FreeRTOS example's trace: task states, queues, RTOS tracks and figures
    for k, sink in enumerate(("perfetto", "chrome", "html", "text")):
        seed("sinks", f"{sink}_sonde_rtos", bytes([SINKS.index(sink), DECODERS.index("sonde"), k, 0x80]) +
             s["rtos_head"])
    seed("sinks", "stats_sonde_rtos", bytes([len(SINKS), DECODERS.index("sonde"), 0, 0]) + s["rtos_head"])

    rx = rx_commands()
    for cfg, piece in ((0x00, 0), (0x05, 0), (0x0A, 7), (0x0F, 3), (0x13, 11), (0x08, 1)):
        seed("target_rx", f"commands_{cfg:02x}", bytes([cfg, piece]) + rx)
    seed("target_rx", "noise", bytes([0x00, 0]) + b"\x7d\x7e\x01\x02\x7e" + rx[:60] + b"\x7d" + rx[60:])

    def words(*w):
        return b"\0".join(x.encode() for x in w)
    cmdlines = {
        "decode": ["-f", "jsonl", "-p", "qs", "-o", "qs.obj=8", "--max-diags", "10", "--output", "-", "-q",
                   "a.bin@core=1,proto=sonde", "b.bin@2", "--format=perfetto", "--", "-x"],
        "live": ["tcp://127.0.0.1:4000", "-w", "raw.bin", "--duration", "1.5", "--baud", "921600", "--flow",
                 "rtscts", "--reconnect-timeout", "inf", "--no-keys", "--no-status", "--show", "-o",
                 "ts_freq=1000"],
        "miniprof": ["capture", "-l", "/dev/ttyUSB0:115200:8N1", "--parity", "even", "--data-bits", "7",
                     "--stop-bits", "2", "-t", "500", "-d", "3", "-f", "profile"],
        "send": ["--link", "serial:/dev/ttyUSB0:921600", "-t", "0.5", "-r", "3", "--addr-size", "8", "--seq",
                 "7", "--bad-checksum", "glb-filter", "-LOG", "+ISR"],
        "stats": ["-p", "sonde", "--max-diags", "0", "x.bin", "--window", "10ms", "--top", "5", "-f", "jsonl",
                  "--from", "+1.5", "--to", "+250ms", "--core", "0,2-3", "--filter", "kind=isr_*,task_*",
                  "--filter", "!name=*SYNC*", "--elf", "fw.elf"],
        "report": ["--output", "r.html", "--from", "123t", "--filter", "obj=sens?r", "x.bin@core=1"],
        "help": ["decode"],
    }
    for i, c in enumerate(COMMANDS):
        seed("cli", f"cmd_{c}", bytes([0, i]) + words(*cmdlines.get(c, ["-q", "x"])))
    seed("cli", "global_version", bytes([1, 0]) + words("--version"))
    seed("cli", "global_unknown", bytes([1, 0]) + words("frobnicate", "-x"))
    for i, line in enumerate((["glb-filter", "-LOG", "+ISR", "0x40-0x4F", "none", "USER"],
                              ["loc-filter", "none", "+3", "-0x10-0x20"], ["peek", "0x20000000", "8"],
                              ["poke", "0x20000000", "1", "2", "0xff"], ["app", "1", "2", "3", "4"], ["stats"])):
        seed("cli", f"rxcmd_{i}", bytes([2, i]) + words(*line))
    for i, line in enumerate((["info"], ["tick", "1"], ["peek", "0x1000", "4", "2"], ["glb-filter", "-QS_ALL"],
                              ["reset"])):
        seed("cli", f"rxcmd_qs_{i}", bytes([3, i]) + words(*line))
    for i, link in enumerate(("tcp://127.0.0.1:4000", "serial:/dev/ttyUSB0:921600:8E2:rtscts", "udp://:5000",
                              "tcp-listen://0.0.0.0:4001", "unix:/tmp/sonde.sock", "file:trace.bin", "-",
                              "/dev/ttyACM0:2000000")):
        seed("cli", f"link_{i}", bytes([4, 0]) + words(link))
    seed("cli", "specs", bytes([5, 0]) + words("a.bin@3", "b.bin@core=2,proto=tband,tband.mode=bare-metal",
                                               "c@d.bin", "e.bin@", "-@1", "@2", "f.bin@core=x", "g@proto=nope"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--testdata", default=os.path.join(ROOT, "..", "shared", "testdata"))
    ap.add_argument("--freertos-kernel", default=os.environ.get("FREERTOS_KERNEL_PATH"))
    a = ap.parse_args()
    make(a.build, a.testdata, a.freertos_kernel)
    total = 0
    for harness, seeds in sorted(corpus.items()):
        d = os.path.join(HERE, "corpus", harness)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for name, data in seeds:
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
            total += len(data)
        print(f"{harness:10} {len(seeds):3} seeds {sum(len(x) for _, x in seeds):7} bytes")
    print(f"total {total} bytes")


if __name__ == "__main__":
    main()
