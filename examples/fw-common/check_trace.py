#!/usr/bin/env python3
"""check_trace.py -- check a raw Sonde capture from the qemu-mps2 firmware,
independently of the host decoder (written from docs/protocol.md only).

Checks every frame (un-escaping, checksum, length per record id, typed
arguments), sequence continuity, the 64-bit time rebuilt from TIME_SYNC and
compact timestamps (never backwards, TIME_SYNC at least every 256 timed
frames, the record after a TIME_SYNC carries the same time, since_prev is
the distance to the previous timed record, every DROPS right after its
TIME_SYNC), ISR nesting and task switching, and finally the firmware's own
FW_COUNTS record against what the capture holds.

    check_trace.py CAPTURE [--max-step TICKS] [--period ISR:TICKS:TOL]
                           [--expect-seconds S:TOL] [--min-nesting N]
                           [--decoded JSONL] [--summary FILE]

--decoded compares the host decoder's JSONL output with this reading: the
same frames, record ids, sequence numbers and 64-bit times, and FW_COUNTS
against the decoder's counts.

Exit status 0 when everything holds, 1 otherwise (each problem is printed
with its byte offset and frame number).
"""
import argparse
import struct
import sys

FLAG, ESC = 0x7E, 0x7D

REC = {
    0x00: "EMPTY", 0x01: "TARGET_INFO", 0x02: "TIME_SYNC", 0x03: "DROPS", 0x04: "DICT",
    0x05: "ISR_ENTER", 0x06: "ISR_EXIT", 0x07: "TASK_CREATE", 0x08: "TASK_IN",
    0x09: "TASK_OUT", 0x0A: "TASK_READY", 0x0B: "IDLE", 0x0C: "MARK", 0x0D: "MARK_BEGIN",
    0x0E: "MARK_END", 0x0F: "COUNTER", 0x10: "FUNC_ENTER", 0x11: "FUNC_ENTER_A",
    0x12: "FUNC_EXIT", 0x13: "LOG",
    0x20: "CMD_STATUS", 0x21: "PEEK_DATA", 0x22: "TARGET_STATS",  # replies to commands (§9.2)
}
# DATA length of fixed-size records (timed ones without their timestamp
# field, which ends DATA: 1 to 4 bytes, docs/protocol.md section 5).
FIXED = {0x00: 0, 0x01: 18, 0x02: 12, 0x03: 21, 0x05: 1, 0x06: 0, 0x07: 2, 0x08: 1,
         0x09: 2, 0x0A: 1, 0x0B: 0, 0x0C: 1, 0x0D: 1, 0x0E: 1, 0x10: 2, 0x12: 0,
         0x20: 3, 0x22: 16}
UNTIMED = {0x00, 0x01, 0x02, 0x04}
LIB_OWN = {0x00, 0x01, 0x02, 0x03, 0x20, 0x21, 0x22}  # written by the library, not by the firmware
SINCE_UNKNOWN = 0xFFFFFFFF  # TIME_SYNC since_prev: no timed frame to count from


def ts_field(data):
    """(width, delta) of the timestamp field ending DATA; width 0 when
    DATA is empty or the tag is 1111 (docs/protocol.md section 5)."""
    if not data:
        return 0, 0
    last = data[-1]
    w = 1 if not last & 0x80 else 2 if not last & 0x40 else 3 if not last & 0x20 else 4 if not last & 0x10 else 0
    if w == 0 or w > len(data):
        return 0, 0
    return w, int.from_bytes(data[-w:], "little") & ((1 << (7 * w)) - 1)
ARG_SIZE = {0x01: 1, 0x02: 2, 0x03: 4, 0x04: 8, 0x05: 1, 0x06: 2, 0x07: 4, 0x08: 8,
            0x09: 4, 0x0A: 8, 0x0D: 1, 0x0F: 2}
ARG_FMT = {0x01: "<B", 0x02: "<H", 0x03: "<I", 0x04: "<Q", 0x05: "<b", 0x06: "<h",
           0x07: "<i", 0x08: "<q", 0x09: "<f", 0x0A: "<d"}


def rec_name(rid):
    if rid in REC:
        return REC[rid]
    if 0x40 <= rid <= 0x7F:
        return "USER_%02X" % rid
    return "INVALID_%02X" % rid


class Checker:
    def __init__(self, args):
        self.args = args
        self.errors = 0
        self.addr_size = 4
        self.frames = []      # (offset, wire_len, seq, id, data)
        self.times = []       # rebuilt 64-bit time per frame (None: untimed/unknown)
        self.dicts = {}       # (kind, id) -> name

    def err(self, off, fno, msg):
        self.errors += 1
        if self.errors <= 50:
            print("error: byte %d, frame %d: %s" % (off, fno, msg))
        elif self.errors == 51:
            print("error: (further errors not shown)")

    # ---- framing -------------------------------------------------------
    def split(self, raw):
        start = 0
        fno = 0
        empty = 0
        for i, b in enumerate(raw):
            if b != FLAG:
                continue
            wire = raw[start:i]
            if not wire:
                empty += 1
                start = i + 1
                continue
            out = bytearray()
            j = 0
            bad = False
            while j < len(wire):
                c = wire[j]
                if c == ESC:
                    if j + 1 >= len(wire):
                        self.err(start, fno, "escape directly before the flag (aborted frame)")
                        bad = True
                        break
                    out.append(wire[j + 1] ^ 0x20)
                    j += 2
                else:
                    out.append(c)
                    j += 1
            if not bad:
                if len(out) < 3:
                    self.err(start, fno, "frame of %d bytes (minimum 3)" % len(out))
                elif sum(out) & 0xFF != 0xFF:
                    self.err(start, fno, "checksum: sum 0x%02X" % (sum(out) & 0xFF))
                else:
                    self.frames.append((start, len(wire) + 1, out[0], out[1], bytes(out[2:-1])))
            fno += 1
            start = i + 1
        if start < len(raw):
            self.err(start, fno, "%d bytes after the last flag (cut frame)" % (len(raw) - start))
        return empty

    # ---- typed arguments -------------------------------------------------
    def parse_args(self, off, fno, data):
        args = []
        i = 0
        while i < len(data):
            t = data[i]
            i += 1
            if t in ARG_FMT:
                n = ARG_SIZE[t]
                if i + n > len(data):
                    self.err(off, fno, "argument type 0x%02X runs past the end" % t)
                    return None
                args.append((t, struct.unpack(ARG_FMT[t], data[i:i + n])[0]))
                i += n
            elif t == 0x0B:
                z = data.find(b"\0", i)
                if z < 0:
                    self.err(off, fno, "STR argument without NUL")
                    return None
                args.append((t, data[i:z].decode("latin-1")))
                i = z + 1
            elif t == 0x0C:
                if i >= len(data) or i + 1 + data[i] > len(data):
                    self.err(off, fno, "MEM argument runs past the end")
                    return None
                args.append((t, data[i + 1:i + 1 + data[i]]))
                i += 1 + data[i]
            elif t == 0x0D:
                if i + 1 > len(data):
                    self.err(off, fno, "OBJ argument runs past the end")
                    return None
                args.append((t, data[i]))
                i += 1
            elif t == 0x0E:
                if i + self.addr_size > len(data):
                    self.err(off, fno, "FUNC argument runs past the end")
                    return None
                args.append((t, int.from_bytes(data[i:i + self.addr_size], "little")))
                i += self.addr_size
            elif t == 0x0F:
                if i + 2 > len(data):
                    self.err(off, fno, "ENUM argument runs past the end")
                    return None
                args.append((t, (data[i], data[i + 1])))
                i += 2
            else:
                self.err(off, fno, "unknown argument type 0x%02X" % t)
                return None
        return args

    # ---- records -------------------------------------------------------
    def check_record(self, off, fno, rid, data):
        """Length and content of one record; returns parsed arguments for
        user/log records, else None."""
        if rid in FIXED:
            if len(data) != FIXED[rid]:
                self.err(off, fno, "%s with %d DATA bytes (expected %d)"
                         % (rec_name(rid), len(data), FIXED[rid]))
                return None
        elif rid == 0x04:
            if len(data) < 6 or data[-1] != 0 or b"\0" in data[5:-1]:
                self.err(off, fno, "malformed DICT")
                return None
            self.dicts[(data[0], struct.unpack("<I", data[1:5])[0])] = data[5:-1].decode("latin-1")
        elif rid == 0x0F:
            if not 2 <= len(data) <= 9:
                self.err(off, fno, "COUNTER with %d DATA bytes" % len(data))
        elif rid == 0x21:
            if len(data) < 1 + self.addr_size or len(data) != 1 + self.addr_size + data[self.addr_size]:
                self.err(off, fno, "PEEK_DATA with %d DATA bytes" % len(data))
        elif rid == 0x11:
            if len(data) != self.addr_size:
                self.err(off, fno, "FUNC_ENTER_A with %d DATA bytes" % len(data))
        elif rid == 0x13:
            if len(data) < 3:
                self.err(off, fno, "LOG with %d DATA bytes" % len(data))
                return None
            if not 1 <= data[0] <= 5:
                self.err(off, fno, "LOG level %d" % data[0])
            return self.parse_args(off, fno, data[3:])
        elif 0x40 <= rid <= 0x7F:
            return self.parse_args(off, fno, data)
        else:
            self.err(off, fno, "unknown record id 0x%02X" % rid)
        if rid == 0x01:
            ver, flags, asz, mode, core, tsb = data[0:6]
            hz, size, build = struct.unpack("<III", data[6:18])
            if ver != 3 or asz not in (4, 8) or tsb != 0:
                self.err(off, fno, "TARGET_INFO version %d, addr_size %d, ts bytes %d" % (ver, asz, tsb))
            self.addr_size = asz
            self.info = dict(flags=flags, mode=mode, core=core, hz=hz, size=size, build=build)
        if rid == 0x09 and data[1] > 3:
            self.err(off, fno, "TASK_OUT reason %d" % data[1])
        return None

    def run(self, raw):
        empty = self.split(raw)
        self.info = None
        counts = {}
        seq_prev = None
        T = None             # 64-bit time, None until the first TIME_SYNC
        sync_pending = None  # value of a TIME_SYNC not yet followed by its record
        prev_rec = None      # 64-bit time of the previous timed record (None: none yet)
        lost = False         # frames lost since it: since_prev cannot be checked
        unknown_at = None    # (offset, frame) of a TIME_SYNC whose since_prev is unknown
        timed_since_sync = 0
        max_step = 0
        isr_stack = []
        max_nest = 0
        running = None       # task object id, or None (idle / not yet)
        period = None
        if self.args.period:
            pid, ptk, ptol = (int(x, 0) for x in self.args.period.split(":"))
            period = [pid, ptk, ptol, None, 0, 0]  # id, ticks, tol, last T, n, worst
        fw_counts = None
        fw_counts_id = None
        t_first = None

        for n, (off, wlen, seq, rid, data) in enumerate(self.frames):
            if seq_prev is None:
                if seq != 0:
                    self.err(off, n, "first frame has SEQ %d, not 0" % seq)
            elif seq != (seq_prev + 1) & 0xFF:
                self.err(off, n, "SEQ %d after %d: %d frames lost"
                         % (seq, seq_prev, (seq - seq_prev - 1) & 0xFF))
                lost = True
            seq_prev = seq
            delta = None
            if rid not in UNTIMED:
                w, delta = ts_field(data)
                if w == 0:
                    self.err(off, n, "%s without a valid timestamp field" % rec_name(rid))
                    delta = None
                    self.frames[n] = (off, wlen, seq, rid, data)
                else:
                    data = data[:-w]
                    self.frames[n] = (off, wlen, seq, rid, data)
            parsed = self.check_record(off, n, rid, data)
            counts[rid] = counts.get(rid, 0) + 1
            self.times.append(None)

            # time
            if rid == 0x01 and len(data) == 18 and data[1] & 0x02:
                prev_rec, lost = None, False  # the target (re)started
            if rid == 0x03 and (n == 0 or self.frames[n - 1][3] != 0x02 or self.frames[n - 1][2] != (seq - 1) & 0xFF):
                self.err(off, n, "DROPS not right after its TIME_SYNC")
            if rid == 0x03 and len(data) == 21:
                # its own frame number ends in its SEQ; oldest is at most
                # its TIME_SYNC's number (docs/protocol.md section 4)
                frame, oldest = struct.unpack("<II", data[13:21])
                if frame & 0xFF != seq or (frame - oldest) & 0xFFFFFFFF < 1:
                    self.err(off, n, "DROPS frame %d, oldest %d with SEQ %d" % (frame, oldest, seq))
            if rid == 0x02 and len(data) == 12:
                v, since = struct.unpack("<QI", data)
                if T is not None and v < T:
                    self.err(off, n, "TIME_SYNC %d is %d ticks before the time so far" % (v, T - v))
                if sync_pending is not None:
                    self.err(off, n, "two TIME_SYNC without a record between")
                # since_prev: ticks since the previous timed frame; unknown
                # when there is none since the start, which only a START's
                # reply may follow (sonde_start())
                if not lost:
                    want = SINCE_UNKNOWN if prev_rec is None else min(v - prev_rec, SINCE_UNKNOWN)
                    if since == SINCE_UNKNOWN and want != SINCE_UNKNOWN:
                        unknown_at = (off, n)
                    elif since != want:
                        self.err(off, n, "TIME_SYNC since_prev %d, the previous timed frame is %s ticks before"
                                 % (since, "no frame" if want == SINCE_UNKNOWN else want))
                T = v
                prev_rec = T
                self.times[n] = T
                sync_pending = v
                timed_since_sync = 0
                if t_first is None:
                    t_first = v
            elif rid not in UNTIMED and delta is not None:
                if unknown_at is not None and not (rid == 0x20 and len(data) == 3 and data[1] == 0x04):
                    self.err(unknown_at[0], unknown_at[1], "TIME_SYNC since_prev unknown, neither first "
                             "nor before a START's reply")
                unknown_at = None
                if T is None:
                    self.err(off, n, "timed record before any TIME_SYNC")
                else:
                    step = delta
                    if sync_pending is not None and step != 0:
                        self.err(off, n, "record after TIME_SYNC is %d ticks later (same reading expected)" % step)
                    sync_pending = None
                    max_step = max(max_step, step)
                    if self.args.max_step and step >= self.args.max_step:
                        self.err(off, n, "time step of %d ticks (time went backwards?)" % step)
                    T += step
                    self.times[n] = T
                    prev_rec = T
                timed_since_sync += 1
                if timed_since_sync > 256:
                    self.err(off, n, "more than 256 timed frames without a TIME_SYNC")

            # ISR nesting and task switches
            if rid == 0x05 and len(data) == 1:
                isr_stack.append(data[0])
                max_nest = max(max_nest, len(isr_stack))
                if period and data[0] == period[0] and T is not None:
                    if period[3] is not None:
                        d = T - period[3]
                        dev = abs(d - period[1])
                        period[5] = max(period[5], dev)
                        if dev > period[2]:
                            self.err(off, n, "ISR %d entered %d ticks after the previous entry (period %d)"
                                     % (period[0], d, period[1]))
                    period[3] = T
                    period[4] += 1
            elif rid == 0x06:
                if not isr_stack:
                    self.err(off, n, "ISR_EXIT without ISR_ENTER")
                else:
                    isr_stack.pop()
            elif rid in (0x08, 0x09, 0x0B):
                if isr_stack:
                    self.err(off, n, "%s inside ISR %d (switches happen in PendSV)" % (rec_name(rid), isr_stack[-1]))
                if rid == 0x08:
                    if running is not None:
                        self.err(off, n, "TASK_IN %d while task %d runs" % (data[0], running))
                    running = data[0]
                elif rid == 0x09:
                    if running != data[0]:
                        self.err(off, n, "TASK_OUT %d but running is %s" % (data[0], running))
                    running = None
                else:
                    if running is not None:
                        self.err(off, n, "IDLE while task %d runs" % running)
                    running = None

            # the firmware's own account
            if fw_counts_id is None:
                for (k, i), name in self.dicts.items():
                    if k == 5 and name == "FW_COUNTS":
                        fw_counts_id = i
            if rid == fw_counts_id and parsed is not None:
                if fw_counts is not None:
                    self.err(off, n, "second FW_COUNTS")
                fw_counts = (n, parsed)

        self.report(counts, empty, T, t_first, max_step, max_nest, period, fw_counts, fw_counts_id)

    def report(self, counts, empty, T, t_first, max_step, max_nest, period, fw_counts, fw_counts_id):
        total_bytes = sum(f[1] for f in self.frames)
        print("frames: %d good (%d bytes), %d empty; errors so far: %d"
              % (len(self.frames), total_bytes, empty, self.errors))
        if self.info:
            print("target: %(hz)d Hz clock, buffer %(size)d bytes, mode %(mode)d, build 0x%(build)08X" % self.info)
        if T is not None and self.info and self.info["hz"]:
            secs = (T - t_first) / self.info["hz"]
            print("time: %.6f s from the first TIME_SYNC to the last record; largest step %d ticks"
                  % (secs, max_step))
            if self.args.expect_seconds:
                s, tol = (float(x) for x in self.args.expect_seconds.split(":"))
                if abs(secs - s) > tol:
                    self.err(0, 0, "trace spans %.6f s, expected %.3f +- %.3f" % (secs, s, tol))
        if period:
            print("ISR %d: %d entries, worst deviation from the %d-tick period %d ticks"
                  % (period[0], period[4], period[1], period[5]))
        print("ISR nesting: up to %d deep" % max_nest)
        if max_nest < self.args.min_nesting:
            self.err(0, 0, "ISRs nested %d deep, expected at least %d" % (max_nest, self.args.min_nesting))
        print("records: " + ", ".join("%s %d" % (rec_name(r), c) for r, c in sorted(counts.items())))
        if self.args.summary:
            with open(self.args.summary, "w") as f:
                for r, c in sorted(counts.items()):
                    f.write("%02X %d\n" % (r, c))
        if fw_counts_id is None:
            self.err(0, 0, "no DICT entry names the FW_COUNTS record")
            return
        if fw_counts is None:
            self.err(0, 0, "no FW_COUNTS record")
            return
        n, a = fw_counts
        if len(a) < 4 or any(t != 0x03 for t, _ in a[:4]) or (len(a) - 4) % 2:
            self.err(self.frames[n][0], n, "FW_COUNTS arguments are not 4 x U32 + (U8, U32) pairs")
            return
        records, overwritten, refused, nbytes = (v for _, v in a[:4])
        self.fw_stats = (records, overwritten, refused, nbytes)
        fw = {}
        for (t1, rid), (t2, cnt) in zip(a[4::2], a[5::2]):
            if t1 != 0x01 or t2 != 0x03:
                self.err(self.frames[n][0], n, "FW_COUNTS pair is not (U8, U32)")
                return
            fw[rid] = cnt
        self.fw = fw
        self.fw_frame = n
        # frames written by the library in the same critical section, just
        # before FW_COUNTS (a pending loss report), came after the
        # statistics were taken -- unless the report's own frame number
        # says it was written before them (the one the drain writes when
        # it empties the ring: docs/protocol.md section 4)
        k = n
        while k > 0 and self.frames[k - 1][3] in (0x02, 0x03):
            d = self.frames[k - 1]
            if d[3] == 0x03 and len(d[4]) == 21 and struct.unpack("<I", d[4][13:17])[0] < records:
                break
            k -= 1
        before = self.frames[:k]
        wire_before = sum(f[1] for f in before)
        print("FW_COUNTS: records %d overwritten %d refused %d bytes %d; capture before it: %d frames, %d bytes"
              % (records, overwritten, refused, nbytes, len(before), wire_before))
        if records != len(before):
            self.err(0, n, "target wrote %d records, the capture has %d" % (records, len(before)))
        if nbytes != wire_before:
            self.err(0, n, "target wrote %d bytes, the capture has %d" % (nbytes, wire_before))
        if overwritten or refused:
            self.err(0, n, "target lost records (%d overwritten, %d refused): counts cannot match"
                     % (overwritten, refused))
            return
        got = {}
        for f in before:
            got[f[3]] = got.get(f[3], 0) + 1
        for rid in sorted(set(fw) | set(got)):
            if rid in LIB_OWN:
                continue
            want, have = fw.get(rid, 0), got.get(rid, 0)
            mark = "ok" if want == have else "MISMATCH"
            print("  %-12s firmware %7d  capture %7d  %s" % (rec_name(rid), want, have, mark))
            if want != have:
                self.err(0, n, "%s: firmware made %d calls, capture has %d records"
                         % (rec_name(rid), want, have))


def compare_decoded(c, path):
    """The host decoder's JSONL against this checker's own reading: the same
    frames with the same record ids and the same 64-bit times, and the
    firmware's FW_COUNTS against the decoder's counts."""
    import json
    events = []
    with open(path) as f:
        for i, line in enumerate(f):
            try:
                events.append(json.loads(line))
            except ValueError:
                c.err(0, i, "decoded line %d is not JSON" % (i + 1))
    if len(events) != len(c.frames):
        c.err(0, 0, "decoder gave %d events, the capture has %d frames" % (len(events), len(c.frames)))
    bad = 0
    for n, ev in enumerate(events[:len(c.frames)]):
        off, _, seq, rid, _ = c.frames[n]
        want_t = c.times[n]
        if ev.get("offset") != off or ev.get("rec_id") != rid or ev.get("seq") != seq:
            bad += 1
            if bad <= 5:
                c.err(off, n, "decoder: offset %s rec_id %s seq %s, checker: %d 0x%02X %d"
                      % (ev.get("offset"), ev.get("rec_id"), ev.get("seq"), off, rid, seq))
        elif want_t is not None and (ev.get("ts") != want_t or ev.get("estimated")):
            bad += 1
            if bad <= 5:
                c.err(off, n, "decoder time %s (estimated %s), checker %d"
                      % (ev.get("ts"), ev.get("estimated"), want_t))
    fw_ev = [ev for ev in events if ev.get("record") == "FW_COUNTS"]
    if len(fw_ev) != 1 or not hasattr(c, "fw"):
        c.err(0, 0, "decoder shows %d FW_COUNTS records" % len(fw_ev))
        return
    vals = [a.get("value") for a in fw_ev[0].get("args", [])]
    if vals[:4] != list(c.fw_stats) or dict(zip(vals[4::2], vals[5::2])) != c.fw:
        c.err(0, 0, "decoder's FW_COUNTS arguments differ from the checker's")
    got = {}
    for ev in events[:fw_ev[0].get("frame", 0)]:
        got[ev.get("rec_id")] = got.get(ev.get("rec_id"), 0) + 1
    for rid, want in sorted(c.fw.items()):
        if got.get(rid, 0) != want:
            c.err(0, 0, "decoder: %d %s events, firmware made %d calls" % (got.get(rid, 0), rec_name(rid), want))
    print("decoded: %d events, %d timed ones compared, %d differences" % (len(events),
          sum(1 for t in c.times if t is not None), bad))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("capture")
    ap.add_argument("--max-step", type=int, default=0,
                    help="error when consecutive timed records are this many ticks apart or more")
    ap.add_argument("--period", help="ISR:TICKS:TOL  an ISR id entered every TICKS (+-TOL)")
    ap.add_argument("--expect-seconds", help="S:TOL  time spanned by the trace")
    ap.add_argument("--min-nesting", type=int, default=0, help="error when ISRs never nest this deep")
    ap.add_argument("--decoded", help="JSONL from `sonde decode --format jsonl` to compare")
    ap.add_argument("--summary", help="write 'ID COUNT' lines (hex id) for every record id")
    args = ap.parse_args()
    with open(args.capture, "rb") as f:
        raw = f.read()
    c = Checker(args)
    c.run(raw)
    if args.decoded:
        compare_decoded(c, args.decoded)
    print("check_trace: %s" % ("OK" if c.errors == 0 else "%d error(s)" % c.errors))
    return 0 if c.errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
