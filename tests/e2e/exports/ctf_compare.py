#!/usr/bin/env python3
"""ctf_compare.py -- compare what babeltrace2 prints of a CTF export with
`sonde decode --format jsonl` of the same trace, event for event: every
field, every argument, the timestamp in cycles and in seconds from the
session's first record, the core, the diagnostics.  Used by
tests/e2e/test_ctf_export.sh.

    ctf_compare.py [NAME BT_CYCLES BT_SECONDS EVENTS_JSONL DIAGS_TXT TS_FREQ]...

BT_CYCLES / BT_SECONDS: `babeltrace2 --clock-cycles DIR` / `babeltrace2
--clock-seconds DIR` output (BT_SECONDS "-": times in seconds not checked); DIAGS_TXT: the diagnostics sonde printed on
stderr for the jsonl decode.  Each group of six compares one export (named
NAME in the messages): one run for them all, as starting Python takes most
of a second on the loaded test machine.  Exits 1 listing the differences
(the first 50 of each export).
"""
import json
import math
import re
import sys

fails = []


def fail(msg):
    if len(fails) < 50:
        fails.append(msg)


# ---- babeltrace2's pretty format ------------------------------------------------
class P:
    ESC = {'"': '"', "'": "'", "\\": "\\", "n": "\n", "t": "\t", "r": "\r", "v": "\v", "f": "\f", "a": "\a", "b": "\b"}

    def __init__(self, s):
        self.s, self.i = s, 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def eat(self, t):
        self.ws()
        if not self.s.startswith(t, self.i):
            raise ValueError(f"expected {t!r} at {self.i}: {self.s[self.i:self.i + 40]!r}")
        self.i += len(t)

    def peek(self, t):
        self.ws()
        return self.s.startswith(t, self.i)

    def string(self):
        self.eat('"')
        out = []
        while self.s[self.i] != '"':
            c = self.s[self.i]
            if c == "\\":
                self.i += 1
                c = self.ESC.get(self.s[self.i], "\\" + self.s[self.i])
            out.append(c)
            self.i += 1
        self.i += 1
        return "".join(out)

    def value(self):
        self.ws()
        c = self.s[self.i]
        if c == '"':
            return self.string()
        if c == "(":  # enumeration: ( "label" : container = N )
            self.eat("(")
            label = self.string()
            self.eat(":")
            self.eat("container =")
            self.atom()
            self.eat(")")
            return label
        if c == "[":
            self.eat("[")
            items = []
            while not self.peek("]"):
                self.eat("[")
                self.atom()
                self.eat("]")
                self.eat("=")
                items.append(self.value())
                if self.peek(","):
                    self.eat(",")
            self.eat("]")
            return items
        if c == "{":
            self.eat("{")
            if self.peek("}"):
                self.eat("}")
                return {}
            m = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*) = ").match(self.s, self.i)
            if not m:  # a variant: { value }
                v = self.value()
                self.eat("}")
                return v
            out = {}
            while True:
                m = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*) = ").match(self.s, self.i)
                self.i = m.end()
                out[m.group(1)] = self.value()
                if self.peek(","):
                    self.eat(",")
                    continue
                self.eat("}")
                if set(out) == {"has", "value"}:  # a `struct str`: the string, "" when none
                    return out["value"] if out["has"] == "some" else ""
                return out
        return self.atom()

    def atom(self):
        self.ws()
        m = re.compile(r"[^ ,}\])]+").match(self.s, self.i)
        self.i = m.end()
        t = m.group(0)
        if re.fullmatch(r"-?\d+", t):
            return int(t)
        if re.fullmatch(r"0x[0-9A-Fa-f]+", t):
            return int(t, 16)
        return float(t)


LINE = re.compile(r"^\[([^\]]+)\] \(\+[^)]*\) (\S+): (.*)$")


def read_bt(path):
    out = []
    for ln in open(path, encoding="utf-8", errors="replace"):
        m = LINE.match(ln.rstrip("\n"))
        if not m:
            fail(f"babeltrace2 line not understood: {ln[:120]!r}")
            continue
        p = P(m.group(3))
        groups = [p.value()]
        while p.peek(","):
            p.eat(",")
            groups.append(p.value())
        out.append((m.group(1), m.group(2), groups))
    return out


def compare(bt_cycles, bt_seconds, events_jsonl, diags_txt, ts_freq):
    """One export against its jsonl: the differences go to fails."""
    freq = int(ts_freq) or 1000000000
    cyc = read_bt(bt_cycles)
    # BT_SECONDS "-": the times in seconds are not checked (the cycles are)
    sec = read_bt(bt_seconds) if bt_seconds != "-" else [(None, None, None)] * len(cyc)
    ev = [json.loads(l) for l in open(events_jsonl)]
    if len(cyc) != len(sec):
        fail(f"{len(cyc)} events in cycles, {len(sec)} in seconds")

    # ---- the expected header timestamps: per core, never back; untimed ones take
    # the time before them (or the first time of their core)
    hdr = [None] * len(ev)
    last, first = {}, {}
    for e in ev:
        if e["ts"] is not None:
            first.setdefault(e["core"], e["ts"])
    for k, e in enumerate(ev):
        c = e["core"]
        if e["ts"] is not None:
            last[c] = max(e["ts"], last.get(c, e["ts"]))
        hdr[k] = last.get(c, first.get(c, 0))
    origin = next((e["ts"] for e in ev if e["ts"] is not None), 0)

    COMMON = {"offset", "frame", "seq", "ts", "seconds", "estimated", "core", "kind", "rec_id", "record",
              "address", "malformed", "args"}


    def same(what, got, want):
        if got != want:
            fail(f"{what}: babeltrace2 {got!r}, jsonl {want!r}")


    def check_arg(what, g, w):
        same(what + " name", g["name"], w.get("name", ""))
        same(what + " type", g["type"], w["type"])
        gv, wv, t = g["value"], w["value"], w["type"]
        if t == "mem":
            same(what + " value", bytes(gv["bytes"]).hex(), wv)
            same(what + " length", gv["n"], len(wv) // 2)
        elif t in ("f32", "f64"):
            if wv is None:
                ok = isinstance(gv, float) and (math.isnan(gv) or math.isinf(gv))
            else:
                # the pretty printer writes reals with %g: six significant digits
                ok = math.isclose(float(gv), wv, rel_tol=5e-6, abs_tol=1e-300)
            if not ok:
                fail(f"{what} value: babeltrace2 {gv!r}, jsonl {wv!r}")
        elif t == "bool":
            same(what + " value", gv, 1 if wv else 0)
        elif t == "none":
            same(what + " value", gv, {})
        else:
            same(what + " value", gv, wv)
        same(what + " resolved", g["resolved"], w.get("resolved", ""))
        same(what + " group", g["group"], w.get("group", 0))


    seen = set()
    diags = []
    for n, ((tc, name, groups), (ts_s, name2, _)) in enumerate(zip(cyc, sec)):
        if len(groups) != 3:
            fail(f"event {n}: {len(groups)} field groups")
            continue
        pctx, ectx, pay = groups
        if name == "diagnostic":
            diags.append((pay["code"], pay["offset"], pay["frame"], pay["message"], ectx["index"]))
            continue
        k = ectx["index"] - 1
        if not 0 <= k < len(ev) or k in seen:
            fail(f"event {n}: index {ectx['index']} unknown or seen twice")
            continue
        seen.add(k)
        e = ev[k]
        w = f"record {k + 1} ({e['kind']})"
        same(w + " event name", name, e["kind"])
        same(w + " core", pctx.get("cpu_id"), e["core"])
        same(w + " timestamp (cycles)", int(tc), hdr[k])
        if e["ts"] is not None and hdr[k] == e["ts"]:
            pass  # exact: the header is the record's own time
        elif e["ts"] is not None:
            same(w + " clamped: ts went back", hdr[k] > e["ts"], True)
        want_s = (hdr[k] - origin) / freq
        if ts_s is not None and abs(float(ts_s) - want_s) > 1.5e-9:
            fail(f"{w} time: babeltrace2 {ts_s} s, expected {want_s:.9f} s from the first record")
        same(w + " ts", ectx["ts"], e["ts"] or 0)
        same(w + " ts_valid", ectx["ts_valid"], int(e["ts"] is not None))
        same(w + " estimated", ectx["estimated"], int(e["estimated"]))
        for f in ("rec_id", "record", "offset", "frame", "seq"):
            same(f"{w} {f}", ectx[f], e[f])
        same(w + " address flag", bool(ectx["flags"] & 1), bool(e.get("address")))
        same(w + " malformed flag", bool(ectx["flags"] & 2), bool(e.get("malformed")))
        for key, want in e.items():
            if key in COMMON:
                continue
            if key not in pay:
                fail(f"{w}: field {key} missing")
                continue
            if want is None:  # an object the record does not name
                same(f"{w} {key}", pay[key], 0)
                same(f"{w} no-object flag", bool(ectx["flags"] & 4), True)
            else:
                same(f"{w} {key}", pay[key], want)
        for key, got in pay.items():
            if key not in e and key not in ("nargs", "args") and got not in ("", None):
                fail(f"{w}: field {key} = {got!r} not in jsonl")
        args = e.get("args", [])
        same(w + " nargs", pay["nargs"], len(args))
        for i, (g, a) in enumerate(zip(pay["args"], args)):
            check_arg(f"{w} arg {i}", g, a)
    same("events", len(seen), len(ev))

    # ---- diagnostics, as sonde printed them: "NAME: offset N, frame F: code: message"
    want = []
    for ln in open(diags_txt):
        m = re.match(r"^.*?: offset (\d+), frame (\d+): ([a-z-]+): (.*)$", ln.rstrip("\n"))
        if m:
            want.append((m.group(3), int(m.group(1)), int(m.group(2)), m.group(4)))
    same("diagnostics", [d[:4] for d in diags], want)

    return f"ctf: {len(seen)} events and {len(diags)} diagnostics as in jsonl"


bad = []
args = sys.argv[1:]
if not args or len(args) % 6:
    sys.exit("usage: ctf_compare.py [NAME BT_CYCLES BT_SECONDS EVENTS_JSONL DIAGS_TXT TS_FREQ]...")
for k in range(0, len(args), 6):
    fails.clear()
    said = compare(*args[k + 1:k + 6])
    if fails:
        print(f"{args[k]}: " + "\n".join(fails), file=sys.stderr)
        bad.append(args[k])
    else:
        print(f"{args[k]}: {said}")
if bad:
    sys.exit("babeltrace2's events differ from jsonl: " + " ".join(bad))
