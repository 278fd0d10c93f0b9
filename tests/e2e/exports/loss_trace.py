"""loss_trace.py -- a short, realistic Sonde trace written record by record
(docs/protocol.md), and the same trace with records lost at a chosen place,
the way a target or a link loses them.  Used by loss_check.py
(tests/e2e/test_loss_cut.sh).

The trace: three tasks (sensor, control, logger), two ISRs (TIMER, and
UART nesting inside it and interrupting a task's function), function calls
in tasks and in an ISR, a task preempted inside a function, a marker span,
a TIME_SYNC every period -- 1 MHz clock.

    stream(lost, how, t0)
                        the encoded bytes of a session from sonde_init
                        (the target reset) whose first record is at t0;
                        sessions concatenate into one stream of a target
                        that restarts; `lost` is a set of indexes into
                        body() that are lost:
                        how="refused"  the target refused them (drop mode):
                                       they take no sequence number; the
                                       next record written is preceded by
                                       TIME_SYNC + DROPS (protocol §2, §5)
                        how="link"     they were written, then lost on the
                                       link: a sequence gap
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "fw-common"))
from hdlc_frames import encode  # noqa: E402

EMPTY, INFO, SYNC, DROPS, DICT = 0x00, 0x01, 0x02, 0x03, 0x04
ISR_IN, ISR_OUT, TASK_CREATE, TASK_IN, TASK_OUT, READY, IDLE = 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B
MARK_B, MARK_E, COUNTER, FUNC_IN, FUNC_OUT = 0x0D, 0x0E, 0x0F, 0x10, 0x12
SENSOR, CONTROL, LOGGER, TIMER, UART, CYCLE = 1, 2, 3, 10, 11, 20
FILTER, PID, PUTS = 1, 2, 3
T0 = 5000000


def ts_field(delta):
    """The variable-width ts field (protocol §5)."""
    for w, tag, bits in ((1, 0x00, 7), (2, 0x80, 14), (3, 0xC0, 21), (4, 0xE0, 28)):
        if delta < 1 << bits:
            v = delta | tag << (8 * (w - 1))
            return v.to_bytes(w, "little")
    raise ValueError(delta)


def dict_rec(kind, i, name):
    return (DICT, bytes([kind]) + struct.pack("<I", i) + name.encode() + b"\0")


def header():
    info = bytes([2, 2, 4, 1, 0, 0]) + struct.pack("<III", 1000000, 4096, 0)  # v2, reset, drop mode
    return [(EMPTY, b""), (INFO, info)] + [dict_rec(*d) for d in (
        (2, SENSOR, "sensor"), (2, CONTROL, "control"), (2, LOGGER, "logger"), (3, TIMER, "TIMER"),
        (3, UART, "UART"), (4, FILTER, "filter"), (4, PID, "pid_step"), (4, PUTS, "log_puts"),
        (8, CYCLE, "cycle"))]


def body(t0=T0):
    """[(time, id, data)]: timed records (and TIME_SYNCs, data None) in order."""
    out, t = [], t0

    def at(dt, rid, data=b""):
        nonlocal t
        t += dt
        out.append((t, rid, data))

    for task, prio in ((SENSOR, 3), (CONTROL, 2), (LOGGER, 1)):
        at(2, TASK_CREATE, bytes([task, prio]))
    at(3, IDLE)
    for period in range(3):
        at(900, SYNC, None)
        at(10, ISR_IN, bytes([TIMER]))
        at(7, ISR_IN, bytes([UART]))               # nested
        at(5, FUNC_IN, struct.pack("<H", PUTS))    # a call in an ISR
        at(4, FUNC_OUT)
        at(3, ISR_OUT)
        at(6, READY, bytes([SENSOR]))
        at(4, ISR_OUT)
        at(5, TASK_IN, bytes([SENSOR]))
        at(3, FUNC_IN, struct.pack("<H", FILTER))
        at(8, ISR_IN, bytes([UART]))               # interrupts filter()
        at(6, ISR_OUT)
        at(9, FUNC_OUT)
        at(2, COUNTER, bytes([30, period]))
        at(4, READY, bytes([CONTROL]))
        at(3, TASK_OUT, bytes([SENSOR, 1]))
        at(2, TASK_IN, bytes([CONTROL]))
        at(3, MARK_B, bytes([CYCLE]))
        at(2, FUNC_IN, struct.pack("<H", PID))
        at(11, READY, bytes([LOGGER]))
        if period != 1:                            # preempted inside pid_step
            at(2, TASK_OUT, bytes([CONTROL, 0]))
            at(2, TASK_IN, bytes([LOGGER]))
            at(3, FUNC_IN, struct.pack("<H", PUTS))
            at(7, FUNC_OUT)
            at(2, TASK_OUT, bytes([LOGGER, 1]))
            at(2, TASK_IN, bytes([CONTROL]))
        at(13, FUNC_OUT)
        at(2, MARK_E, bytes([CYCLE]))
        at(3, TASK_OUT, bytes([CONTROL, 1]))
        at(2, IDLE)
    at(40, COUNTER, bytes([30, 9]))
    return out


def stream(lost=frozenset(), how="refused", t0=T0):
    recs = body(t0)
    frames, seq = [], 0
    prev_t, written_t = None, None  # the previous timed frame the target wrote (for a delta)
    refused, pending = 0, False

    def put(rid, data, keep=True):
        nonlocal seq
        if keep:
            frames.append(encode(seq, rid, data))
        seq += 1

    for rid, data in header():
        put(rid, data)
    for i, (t, rid, data) in enumerate(recs):
        if i in lost and how == "refused":
            refused += 1
            pending = True
            continue
        keep = i not in lost
        if pending:  # the report goes right before the next record written
            put(SYNC, struct.pack("<QI", t, t - written_t if written_t is not None else 0xFFFFFFFF))
            put(DROPS, struct.pack("<IIB", 0, refused, 0) + ts_field(0))
            prev_t = written_t = t
            pending = False
        if data is None:
            put(SYNC, struct.pack("<QI", t, t - written_t if written_t is not None else 0xFFFFFFFF), keep)
        else:
            put(rid, data + ts_field(t - (prev_t if prev_t is not None else t)), keep)
        prev_t = written_t = t
    if pending:  # a read-out ends with the final totals
        t = recs[-1][0] + 1
        put(SYNC, struct.pack("<QI", t, t - written_t))
        put(DROPS, struct.pack("<IIB", 0, refused, 0) + ts_field(0))
    return b"".join(frames)


if __name__ == "__main__":
    sys.stdout.buffer.write(stream())
