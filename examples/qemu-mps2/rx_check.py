#!/usr/bin/env python3
"""rx_check.py -- the receive channel of the qemu-mps2 firmware, live: run
fw.elf in QEMU with UART0 on a TCP socket, send commands while it traces
(docs/protocol.md section 9), and check every reply in the capture.  Written
from the protocol document, independently of the target library and the
host tool.

    rx_check.py BUILD/fw.elf [--capture FILE] [--qemu qemu-system-arm]

Build the firmware with RUN_MS=3000 or more: the commands go out during the
first second of real time (QEMU runs in real time here, without -icount,
so that the run lasts long enough to talk to).

Commands sent, and what must come back (one CMD_STATUS each, SEQ echoed):
INFO -> TARGET_INFO without the reset flag, the dictionary again, OK;
PEEK fw_status -> PEEK_DATA with "SOND" and the blink period 500, OK;
APP 1 (blink 100) -> OK, and a later PEEK shows 100 and one more command;
APP 1 with 0 -> 0x80; APP 9 -> 0x81; STATS -> TARGET_STATS, OK;
GLB_FILTER and LOC_FILTER all on -> OK (nothing changes);
a spoiled checksum -> BAD_CHECKSUM; id 0x0D -> UNKNOWN_CMD; PEEK before
fw_status -> OUT_OF_REGION; TRIGGER in overwrite mode -> BAD_STATE; POKE
(compiled out) -> NOT_SUPPORTED; a 60-byte frame -> TOO_LONG; STOP with a
DATA byte -> BAD_LENGTH.  Then check_trace.py must accept the whole capture,
FW_COUNTS included.  Exit status 0 when all holds.
"""
import argparse
import os
import socket
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fw-common"))
from hdlc_frames import decode as frames, encode  # noqa: E402
CMD_STATUS, PEEK_DATA, TARGET_STATS = 0x20, 0x21, 0x22
INFO, GLB, LOC, START, STOP, TRIGGER, READOUT, RESET, APP, PEEK, POKE, STATS = range(1, 13)


def symbol(elf, name):
    nm = subprocess.run(["arm-none-eabi-nm", elf], capture_output=True, text=True, check=True).stdout
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16)
    sys.exit("rx_check: no symbol %s in %s" % (name, elf))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("elf")
    ap.add_argument("--capture", default=None)
    ap.add_argument("--qemu", default="qemu-system-arm")
    args = ap.parse_args()
    status_addr = symbol(args.elf, "fw_status")

    with socket.socket() as s:  # a free port for QEMU's server
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    qemu = subprocess.Popen([args.qemu, "-M", "mps2-an385", "-nographic", "-monitor", "none",
                             "-semihosting-config", "enable=on,target=native",
                             "-serial", "tcp:127.0.0.1:%d,server=on,wait=on" % port,
                             "-kernel", args.elf], stdin=subprocess.DEVNULL)
    sock = None
    for _ in range(100):
        try:
            sock = socket.create_connection(("127.0.0.1", port))
            break
        except OSError:
            time.sleep(0.05)
    if sock is None:
        qemu.kill()
        sys.exit("rx_check: cannot connect to QEMU")

    wire = bytearray()

    def reader():
        while True:
            d = sock.recv(65536)
            if not d:
                return
            wire.extend(d)

    t = threading.Thread(target=reader, daemon=True)
    t.start()

    peek_fw = struct.pack("<IB", status_addr, 20)
    app = lambda c, a: struct.pack("<BIII", c, a, 0, 0)  # noqa: E731
    # (seq, cmd, data, spoil, expected status, what to check before the status)
    plan = [
        (1, INFO, b"", 0, 0x00, "info"),
        (2, PEEK, peek_fw, 0, 0x00, "peek500"),
        (3, APP, app(1, 100), 0, 0x00, None),
        (4, APP, app(1, 0), 0, 0x80, None),
        (5, APP, app(9, 1), 0, 0x81, None),
        (6, STATS, b"", 0, 0x00, "stats"),
        (7, GLB, b"\xff" * 16, 0, 0x00, None),
        (8, LOC, b"\xff" * 32, 0, 0x00, None),
        (9, STATS, b"", 0x5A, 0x01, None),
        (10, 0x0D, b"", 0, 0x03, None),
        (11, PEEK, struct.pack("<IB", status_addr - 1, 4), 0, 0x04, None),
        (12, TRIGGER, b"", 0, 0x07, None),
        (13, POKE, struct.pack("<IB", status_addr, 1) + b"\0", 0, 0x05, None),
        (14, GLB, b"\0" * 60, 0, 0x06, None),
        (15, STOP, b"\0", 0, 0x02, None),
        (16, PEEK, peek_fw, 0, 0x00, "peek100"),
    ]
    time.sleep(0.3)
    for seq, cmd, data, spoil, _, _ in plan:
        w = encode(seq, cmd, data, spoil)
        for i in range(0, len(w), 7):  # in pieces, as a UART would deliver them
            sock.sendall(w[i:i + 7])
        time.sleep(0.03)
    rc = qemu.wait(timeout=120)
    t.join(timeout=5)
    sock.close()
    if args.capture:
        with open(args.capture, "wb") as f:
            f.write(wire)

    errors = []
    fr, bad = frames(wire)
    if rc != 0:
        errors.append("QEMU exited with status %d" % rc)
    if bad:
        errors.append("%d bad frames in the capture" % bad)
    replies = [(i, f) for i, f in enumerate(fr) if f[1] == CMD_STATUS]
    if len(replies) != len(plan):
        errors.append("%d CMD_STATUS replies for %d commands" % (len(replies), len(plan)))
    prev = 0
    for (i, (_, _, d)), (seq, cmd, _, _, want, what) in zip(replies, plan):
        if len(d) != 5 or d[2] != seq or d[3] != cmd or d[4] != want:
            errors.append("command %d: reply %s, expected seq %d cmd 0x%02X status 0x%02X"
                          % (seq, d.hex(" "), seq, cmd, want))
        before = [f for f in fr[prev:i] if f[1] in (0x01, 0x04, PEEK_DATA, TARGET_STATS)]
        if what == "info":
            # after the reset's TARGET_INFO (flag 0x02) and dictionary, the
            # requested ones: TARGET_INFO without the flag, the names again
            infos = [k for k, f in enumerate(before) if f[1] == 0x01]
            flags = [before[k][2][1] for k in infos]
            dicts = len(before) - 1 - infos[-1] if infos else 0
            if flags != [0x02, 0x00] or dicts < 20 or any(f[1] != 0x04 for f in before[infos[-1] + 1:]):
                errors.append("INFO: TARGET_INFO flags %s, then %d DICT before its reply" % (flags, dicts))
        elif what in ("peek500", "peek100"):
            pk = [f for f in before if f[1] == PEEK_DATA]
            ok = len(pk) == 1 and len(pk[0][2]) == 2 + 5 + 20
            if ok:
                addr, n = struct.unpack("<IB", pk[0][2][2:7])
                magic, ticks, blink, led, ncmd = struct.unpack("<4sIIII", pk[0][2][7:])
                want_blink, want_cmds = (500, 0) if what == "peek500" else (100, 3)
                ok = addr == status_addr and n == 20 and magic == b"SOND" and blink == want_blink \
                    and ncmd == want_cmds and ticks > 0 and led in (0, 1)
                print("PEEK fw_status: magic %r ticks %d blink %d led %d commands %d"
                      % (magic, ticks, blink, led, ncmd))
            if not ok:
                errors.append("PEEK %s: PEEK_DATA %s" % (what, [f[2].hex(" ") for f in pk]))
        elif what == "stats":
            st = [f for f in before if f[1] == TARGET_STATS]
            if len(st) != 1 or len(st[0][2]) != 18:
                errors.append("STATS: %d TARGET_STATS" % len(st))
            else:
                print("TARGET_STATS: records %d overwritten %d refused %d bytes %d"
                      % struct.unpack("<IIII", st[0][2][2:]))
        prev = i + 1
    print("replies: %d, in order: %s" % (len(replies), " ".join("%02X" % f[2][4] for _, f in replies)))

    chk = subprocess.run([sys.executable, os.path.join(HERE, "..", "fw-common", "check_trace.py"), "/dev/stdin"],
                         input=bytes(wire), capture_output=True)
    if chk.returncode != 0:
        sys.stdout.write(chk.stdout.decode())
        errors.append("check_trace.py failed on the capture")
    for e in errors:
        print("FAIL: " + e)
    print("rx_check: " + ("OK" if not errors else "%d problems" % len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
