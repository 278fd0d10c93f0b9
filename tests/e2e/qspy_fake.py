#!/usr/bin/env python3
"""qspy_fake.py TCP_PORT UDP_PORT OUTDIR -- a QS target model and a front-end
that drive `sonde qspy` through every packet kind (test_qspy_frontend.sh).

The target connects to TCP_PORT as a QP application connects to QSPY, sends
what a QP/C 7.4 target sends at start-up (QS_EMPTY, TARGET_INFO with the
reset flag, dictionaries), and answers QS-RX frames as QP's qs_rx.c does:
checks their framing, checksum and sequence, acknowledges each with
QS_RX_STATUS, answers INFO with TARGET_INFO and resets (reconnects, with the
sequence restarted) on RESET.  The front-end talks to UDP_PORT as QUTest
does.  Every frame the target receives must be exactly the record the
front-end asked for.  Writes OUTDIR/target.bin (every byte the target sent).
Exits 0 when all checks pass, 1 with the reason otherwise.  Waits are
event-driven with a ceiling (HANG seconds) only against a hang.
"""
import os
import queue
import socket
import struct
import sys
import threading

HANG = 300 * float(os.environ.get("TEST_TIME_SCALE", "1"))
FLAG, ESC = 0x7E, 0x7D
AO, AP, FUN = 0x1000, 0x2000, 0x3000


def fail(msg):
    print("qspy_fake: FAIL: " + msg, flush=True)
    os._exit(1)


def frame(seq, rec, payload):
    raw = bytes([seq, rec]) + payload
    raw += bytes([~sum(raw) & 0xFF])
    out = bytearray()
    for b in raw:
        out += bytes([ESC, b ^ 0x20]) if b in (FLAG, ESC) else bytes([b])
    return bytes(out) + bytes([FLAG])


def unframe(data):
    """The frames in data (complete ones) and the rest."""
    frames, cur, esc, rest_at = [], bytearray(), False, 0
    for i, b in enumerate(data):
        if b == FLAG:
            frames.append(bytes(cur))
            cur, esc, rest_at = bytearray(), False, i + 1
        elif esc:
            cur.append(b ^ 0x20)
            esc = False
        elif b == ESC:
            esc = True
        else:
            cur.append(b)
    return frames, data[rest_at:]


class Target:
    """The QS target model: 4-byte timestamps, objects and functions, 2-byte signals."""

    def __init__(self, port, log_path):
        self.port, self.log = port, open(log_path, "wb")
        self.rx = queue.Queue()  # (seq, rec, payload) of every good QS-RX frame
        self.sock, self.seq, self.rx_seq = None, 0, 0
        self.lock = threading.Lock()

    def send(self, rec, payload=b""):
        with self.lock:
            self.seq = (self.seq + 1) & 0xFF
            data = frame(self.seq, rec, payload)
            self.log.write(data)
            self.log.flush()
            self.sock.sendall(data)

    def target_info(self, reset):
        # isReset, QP_VERSION 740, sizes: sig 2 / evt 2, eqc 1 / tec 4, mps 2 / mpc 2,
        # obj 4 / fun 4, ts 4; max active 8, pools 3 / tick rates 1; build time
        return bytes([0xFF if reset else 0]) + struct.pack("<H", 740) + bytes(
            [0x22, 0x41, 0x22, 0x44, 0x04, 8, 0x13, 1, 2, 3, 4, 5, 26])

    def start(self):
        deadline = HANG
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=HANG)
                break
            except OSError:
                deadline -= 0.05
                if deadline < 0:
                    fail("cannot connect to sonde qspy's TCP port")
                threading.Event().wait(0.05)
        self.seq, self.rx_seq = 0, 0
        self.send(0)                                   # QS_EMPTY, seq 1
        self.send(64, self.target_info(True))          # TARGET_INFO (reset)
        self.send(61, struct.pack("<I", AO) + b"AO_Blinky\0")
        self.send(61, struct.pack("<I", AP) + b"l_ap\0")
        self.send(62, struct.pack("<I", FUN) + b"probe_fun\0")
        self.send(60, struct.pack("<HI", 5, 0) + b"TIMEOUT_SIG\0")
        self.send(60, struct.pack("<HI", 6, AO) + b"LOCAL_SIG\0")
        self.send(54, bytes([3, 7]) + b"CMD_X\0")      # command enum (group 7)
        threading.Thread(target=self.serve, args=(self.sock,), daemon=True).start()

    def serve(self, sock):
        buf = b""
        while True:
            try:
                data = sock.recv(4096)
            except OSError:
                return
            if not data:
                return
            frames, buf = unframe(buf + data)
            for f in frames:
                if len(f) < 3 or sum(f) & 0xFF != 0xFF:
                    fail("bad QS-RX frame (checksum) %s" % f.hex())
                self.rx_seq = (self.rx_seq + 1) & 0xFF
                if f[0] != self.rx_seq:
                    fail("QS-RX sequence %d, want %d" % (f[0], self.rx_seq))
                rec, payload = f[1], f[2:-1]
                self.rx.put((f[0], rec, payload))
                if rec == 0:                 # INFO: TARGET_INFO, no Ack
                    self.send(64, self.target_info(False))
                elif rec == 2:               # RESET: the application restarts
                    sock.close()
                    self.start()
                    return
                else:
                    self.send(66, bytes([rec]))  # Ack

    def expect_rx(self, rec, payload):
        try:
            seq, r, p = self.rx.get(timeout=HANG)
        except queue.Empty:
            fail("the target got nothing, want rec %d %s" % (rec, payload.hex()))
        if (r, p) != (rec, payload):
            fail("the target got rec %d %s, want rec %d %s" % (r, p.hex(), rec, payload.hex()))
        return seq


class FrontEnd:
    """QUTest's side of the UDP interface."""

    def __init__(self, port):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(HANG)
        self.addr, self.seq, self.rx_seq = ("127.0.0.1", port), 0, 0

    def send(self, pkt, name=None, seq=None):
        data = bytes([self.seq if seq is None else seq]) + pkt
        if name is not None:
            data += name.encode() + b"\0"
        self.sock.sendto(data, self.addr)
        self.seq = (self.seq + 1) & 0xFF

    def recv(self):
        try:
            p = self.sock.recv(4096)
        except socket.timeout:
            fail("the front-end got nothing")
        return p

    def expect_text(self, want, rec=None):
        """The next packet is a text line (after QSPY's sequence check)."""
        p = self.recv()
        self.rx_seq = (self.rx_seq + 1) & 0xFF
        if p[0] != self.rx_seq or p[1] != 0:
            fail("want text #%d '%s', got %s" % (self.rx_seq, want, p.hex()))
        line = p[3:].decode()
        if line != want and not (want.endswith("*") and line.startswith(want[:-1])):
            fail("want line '%s', got '%s' (rec %d)" % (want, line, p[2]))
        if rec is not None and p[2] != rec:
            fail("line '%s': rec %d, want %d" % (line, p[2], rec))
        return line

    def expect_binary(self, rec):
        """The next packet is a target record (seq, rec, payload): its payload."""
        p = self.recv()
        if p[1] != rec:
            fail("want binary record %d, got %s" % (rec, p.hex()))
        return p


def main():
    tcp, udp, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    fe = FrontEnd(udp)
    t = Target(tcp, os.path.join(out, "target.bin"))

    # ---- attach, text channel only (as QUTest); the target starts ------------------
    fe.send(bytes([128, 2]))
    p = fe.recv()
    if p[:2] != bytes([1, 128]):
        fail("attach confirmation: %s" % p.hex())
    fe.rx_seq = 1
    t.start()
    p = fe.expect_binary(64)   # TARGET_INFO even without the binary channel; dictionaries never
    if len(p) != 18 or p[:3] != bytes([2, 64, 0xFF]):
        fail("TARGET_INFO (reset) to the front-end: %s" % p.hex())

    # ---- every QS-RX record sent straight to the target ------------------------
    names = ["INFO", "COMMAND", "RESET", "TICK", "PEEK", "POKE", "FILL", "TEST_SETUP", "TEST_TEARDOWN",
             "TEST_PROBE", "GLB_FILTER", "LOC_FILTER", "AO_FILTER", "CURR_OBJ", "TEST_CONTINUE",
             "QUERY_CURR", "EVENT"]
    direct = [
        (1, struct.pack("<BIII", 5, 0x7E, 0x7D, 3)),                  # bytes that need escapes
        (3, bytes([0])),
        (4, struct.pack("<HBB", 4, 2, 3)),
        (5, struct.pack("<HBB", 8, 1, 2) + bytes([0xAA, 0x7E])),
        (6, struct.pack("<HBB", 0, 4, 10) + struct.pack("<I", 0xDEADBEEF)),
        (7, b""), (8, b""),
        (9, struct.pack("<II", 42, FUN)),
        (10, bytes([16]) + bytes([0xFF] * 15 + [0x1F])),
        (11, bytes([16]) + bytes([0xFF] * 16)),
        (12, struct.pack("<BI", 0, AO)),
        (13, struct.pack("<BI", 5, AP)),
        (14, b""),
        (15, bytes([5])),
        (16, struct.pack("<BHH", 1, 5, 2) + b"\x01\x02"),
    ]
    for rec, payload in direct:
        fe.send(bytes([rec]) + payload)
        t.expect_rx(rec, payload)
        fe.expect_text("           Trg-Ack  QS_RX_" + names[rec], rec=66)
    fe.send(bytes([0]))                       # INFO: TARGET_INFO comes back in binary
    t.expect_rx(0, b"")
    p = fe.expect_binary(64)
    if len(p) != 18 or p[2] != 0:
        fail("TARGET_INFO to the front-end: %s" % p.hex())

    # ---- QSPY's packets that name things ------------------------------------------
    fe.send(bytes([137, 0]) + struct.pack("<I", 0), "AO_Blinky")           # CURR_OBJ SM
    t.expect_rx(13, struct.pack("<BI", 0, AO))
    fe.expect_text("           Trg-Ack  QS_RX_CURR_OBJ")
    fe.send(bytes([135, 255]) + struct.pack("<HH", 0, 1) + b"\x09", "LOCAL_SIG")  # dispatch
    t.expect_rx(16, struct.pack("<BHH", 255, 6, 1) + b"\x09")
    fe.expect_text("           Trg-Ack  QS_RX_EVENT")
    fe.send(bytes([135, 0]) + struct.pack("<HH", 0, 0), "TIMEOUT_SIG")       # publish
    t.expect_rx(16, struct.pack("<BHH", 0, 5, 0))
    fe.expect_text("           Trg-Ack  QS_RX_EVENT")
    fe.send(bytes([136, 1]) + struct.pack("<I", 0), "l_ap")                  # AO_FILTER remove
    t.expect_rx(12, struct.pack("<BI", 1, AP))
    fe.expect_text("           Trg-Ack  QS_RX_AO_FILTER")
    fe.send(bytes([138, 0]) + struct.pack("<III", 1, 2, 3), "CMD_X")
    t.expect_rx(1, struct.pack("<BIII", 3, 1, 2, 3))
    fe.expect_text("           Trg-Ack  QS_RX_COMMAND")
    fe.send(bytes([139]) + struct.pack("<II", 7, 0), "probe_fun")
    t.expect_rx(9, struct.pack("<II", 7, FUN))
    fe.expect_text("           Trg-Ack  QS_RX_TEST_PROBE")
    # names QSPY does not know: its error lines, nothing to the target
    fe.send(bytes([135, 0]) + struct.pack("<HH", 0, 0), "NOPE_SIG")
    fe.expect_text("   <F-END> ERROR    Signal Dictionary not found for Sig=NOPE_SIG", rec=135)
    fe.send(bytes([137, 5]) + struct.pack("<I", 0), "nobody")
    fe.expect_text("   <F-END> ERROR    Object Dictionary not found for Name=nobody", rec=137)
    fe.send(bytes([138, 0]) + struct.pack("<III", 0, 0, 0), "CMD_Y")
    fe.expect_text("   <F-END> ERROR    Command Dictionary not found for Name=CMD_Y", rec=138)
    fe.send(bytes([139]) + struct.pack("<II", 0, 0), "nofun")
    fe.expect_text("   <F-END> ERROR    Function Dictionary not found for Name=nofun", rec=139)
    fe.send(bytes([150]))
    fe.expect_text("   <F-END> ERROR    Unrecognized command Rec=150")

    # ---- QSPY's own: notes and files (checked by the shell), clear screen ----------
    fe.send(bytes([141, 0xFF]), "a note from the front-end")
    fe.send(bytes([131, 1]))              # text file on
    fe.send(bytes([132, 1]))              # binary file on
    fe.send(bytes([140]))
    t.send(100, struct.pack("<I", 77) + bytes([0x11, 9]))  # user record: ts, U8 9
    fe.expect_text("0000000077 USER+000 9", rec=100)
    fe.send(bytes([131, 0]))
    fe.send(bytes([132, 2]))              # toggle: off

    # ---- the front-end's sequence, a second front-end -----------------------------
    fe.send(bytes([3, 0]), seq=(fe.seq + 5) & 0xFF)
    fe.expect_text("   <F-END> ERROR    Data Discontinuity Seq=*")
    t.expect_rx(3, bytes([0]))
    fe.expect_text("           Trg-Ack  QS_RX_TICK")
    fe.seq = (fe.seq + 5) & 0xFF
    other = FrontEnd(udp)
    other.send(bytes([128, 3]))
    fe.expect_text("   <F-END> WARN     UDP socket in use")

    # ---- both channels: binary record, then its line ------------------------------
    fe.send(bytes([128, 3]))
    p = fe.recv()
    if p[:2] != bytes([1, 128]):
        fail("re-attach confirmation: %s" % p.hex())
    fe.rx_seq = 1
    t.send(100, struct.pack("<I", 78) + bytes([0x11, 8]))
    p = fe.expect_binary(100)
    if p[0] != t.seq or p[2:] != struct.pack("<I", 78) + bytes([0x11, 8]):
        fail("binary record: %s (target seq %d)" % (p.hex(), t.seq))
    fe.expect_text("0000000078 USER+000 8", rec=100)

    # ---- target reset: TARGET_INFO (reset) to the front-end, QS-RX sequence anew -----
    fe.send(bytes([2]))
    t.expect_rx(2, b"")
    while True:  # the records before it are the old run's last ones
        p = fe.recv()
        if p[1] == 64:
            break
    if p[2] != 0xFF:
        fail("after RESET: %s" % p.hex())
    fe.send(bytes([0]))
    if t.expect_rx(0, b"") != 1:
        fail("the QS-RX sequence did not restart after the reset")
    while True:  # its answer reached sonde qspy (so -w has it before the exit below)
        p = fe.recv()
        if p[1] == 64 and p[2] == 0:
            break

    # ---- detach with exit: sonde qspy ends ------------------------------------------
    fe.send(bytes([129, 1]))
    print("qspy_fake: all checks passed; target sent %d frames" % t.seq, flush=True)


if __name__ == "__main__":
    main()
