#!/usr/bin/env bash
# test_miniprof_qemu.sh -- the MiniProfiler device side (target/miniprof)
# in the Cortex-M3 firmware (examples/fw-common/app_miniprof.c on
# examples/qemu-mps2) under QEMU, with `sonde miniprof --link tcp://` on
# UART0 and the firmware's own Sonde trace of the same run on UART1.
#
# 1. METADATA: the clock, 1 MHz times, the firmware's version, and a build
#    id equal to the CRC32 of the ELF's .text section (computed here from
#    the ELF).
# 2. A capture of about a second: the flat profile and the call tree
#    (folded stacks) name the firmware's functions; the calls of every
#    function equal the firmware's own counts for the session (MP_COUNTS in
#    its Sonde trace); STATUS counts them all, no overflow; and the times
#    agree with Sonde's trace: the same calls, call by call, entry and
#    duration within 2 us.
# 3. Bad command packets on the real link (bad checksum, length over 8,
#    unknown code, garbage first): answered NACK byte for byte (CRC
#    recomputed here), then a good command after them is answered.
# 4. A host that goes away while the device streams: the device goes on
#    (records counted, nothing wedged), and the next host stops it.
# Skipped (77) without arm-none-eabi-gcc, qemu-system-arm or python3.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
for tool in arm-none-eabi-gcc arm-none-eabi-objcopy qemu-system-arm make; do
	command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
live_setup
ELF=$WORK/mp/miniprof.elf
# The firmware runs until the test ends (RUN_MS: 10 emulated minutes): its
# emulated clock follows the host's while it sleeps, so a shorter life
# would race the test's steps on a loaded machine.
make -s -C "$SRC/examples/qemu-mps2" BUILD="$WORK/mp" RUN_MS=600000 "$ELF" >"$WORK/make.log" 2>&1 ||
	{ cat "$WORK/make.log"; fail "firmware build failed"; }

port=$(free_port)
bg timeout -k 5 $((3 * HANG)) qemu-system-arm -M mps2-an385 -nographic -monitor none \
	-semihosting-config enable=on,target=native -icount shift=0,sleep=on -serial "tcp:127.0.0.1:$port,server=on,wait=off" \
	-serial "file:$WORK/trace.bin" -kernel "$ELF" </dev/null >"$WORK/qemu.log" 2>&1
qemu=$!
wait_for -p "$qemu" listening "$port" || { cat "$WORK/qemu.log"; fail "QEMU does not listen on $port"; }
# an answer is awaited up to 10 s, not the default 2 s: on a loaded machine
# QEMU may take that long to run the firmware's few instructions (a sanitizer
# run at load 14 once missed GET_STATUS's 2 s); a prompt answer ends the wait
L=(--link "tcp://127.0.0.1:$port" --timeout 10000)

mp() { # OUTFILE ARGS...: sonde miniprof, must succeed
	local out=$1
	shift
	"$SONDE" miniprof "${L[@]}" "$@" >"$out" 2>"$out.err" || { cat "$out" "$out.err"; fail "sonde miniprof $*: exit status $?"; }
}

# ---- 1. METADATA ----------------------------------------------------------------
mp "$WORK/meta.txt" metadata
cat "$WORK/meta.txt"
arm-none-eabi-objcopy -O binary --only-section=.text "$ELF" "$WORK/text.bin"
id=$(python3 -c 'import sys, zlib; print("0x%08x" % zlib.crc32(open(sys.argv[1], "rb").read()))' "$WORK/text.bin")
grep -qx "METADATA mcu_clock_hz=25000000 timer_freq=1000000 elf_build_id=$id fw_version=\"sonde-mp-demo\"" \
	"$WORK/meta.txt" || fail "METADATA: expected the clock, 1 MHz, build id $id (CRC32 of .text) and the version"

# ---- 2. a capture -----------------------------------------------------------------
mp "$WORK/cap.jsonl" capture --duration 1 -w "$WORK/mp.bin" --format jsonl
[ ! -s "$WORK/cap.jsonl.err" ] || { cat "$WORK/cap.jsonl.err"; fail "capture: diagnostics on a clean link"; }
"$SONDE" decode --proto miniprof "$WORK/mp.bin" --format profile -o "elf=$ELF" >"$WORK/profile.txt"
"$SONDE" decode --proto miniprof "$WORK/mp.bin" --format folded -o "elf=$ELF" >"$WORK/folded.txt"
grep -E "^(function|crc_block|mp_round|read_inputs|filter_step) " "$WORK/profile.txt"
# (not the stacks of emit_outputs and filter_step: a few instructions each,
# so their self time at 1 MHz is 0 ticks in most calls, and a capture of few
# rounds -- QEMU on a loaded machine ran 14 to 18 in the second -- may hold
# no tick of them, and no folded line; their place in the call tree is
# checked on the recorded calls below)
for stack in "No task;mp_round;update_model;crc_block" "No task;app_isr_work;crc_block"; do
	grep -qF "$stack " "$WORK/folded.txt" || { head -20 "$WORK/folded.txt"; fail "call tree: no stack $stack"; }
done
# the Sonde trace has MP_COUNTS once the firmware took STOP
wait_for -p "$qemu" bash -c '"$1" decode "$2" --format jsonl 2>/dev/null | grep -q "\"MP_COUNTS\""' _ "$SONDE" "$WORK/trace.bin" ||
	fail "no MP_COUNTS in the firmware's Sonde trace"
"$SONDE" decode "$WORK/trace.bin" --format jsonl -o "elf=$ELF" >"$WORK/trace.jsonl" 2>"$WORK/trace.err" || true
python3 - "$WORK/cap.jsonl" "$WORK/trace.jsonl" "$ELF" <<'PY' || fail "the profile does not agree with the firmware"
import json, subprocess, sys
mp = [json.loads(l) for l in open(sys.argv[1])]
tr = [json.loads(l) for l in open(sys.argv[2])]
names = {}
for line in subprocess.run(["arm-none-eabi-nm", sys.argv[3]], capture_output=True, text=True).stdout.split("\n"):
    f = line.split()
    if len(f) == 3 and f[1] in "tT":
        names[int(f[0], 16) & ~1] = f[2]
name = lambda a: names.get(a & ~1, hex(a))
# the firmware's own counts for the session
counts = [e for e in tr if e.get("record") == "MP_COUNTS"]
assert len(counts) == 1, "one MP_COUNTS expected, got %d" % len(counts)
v = [a["value"] for a in counts[0]["args"]]
fw = dict(zip(v[0::2], v[1::2]))
# the calls MiniProfiler recorded: entry (us), function, duration (us), depth
calls = [(e["ts"], e["func"], e["args"][0]["value"], e["depth"]) for e in mp if e.get("kind") == "func_enter"]
got = {}
for c in calls:
    got[c[1]] = got.get(c[1], 0) + 1
status = [e for e in mp if e.get("record") == "STATUS"][-1]
st = {a["name"]: a["value"] for a in status["args"]}
assert st["buffer_overflows"] == 0, "overflows: %s" % st
assert st["records_captured"] == len(calls), "STATUS counts %d calls, %d arrived" % (st["records_captured"], len(calls))
bad = [(name(f), fw[f], got.get(f, 0)) for f in fw if fw[f] != got.get(f, 0)]
assert not bad, "calls (function, firmware, MiniProfiler): %s" % bad
assert not set(got) - set(fw), "functions the firmware does not count: %s" % [name(f) for f in set(got) - set(fw)]
print("counts: %d functions, %d calls, all equal to the firmware's" % (len(fw), len(calls)))
# the short functions, which the folded stacks may not show (above), each
# called one level under its caller in every call: emit_outputs and
# read_inputs under mp_round, filter_step under read_inputs (the recorded
# calls are in entry order: a callee's call follows its caller's)
def under(callee, caller):
    parent = [c for c in calls if name(c[1]) == caller]
    kids = [c for c in calls if name(c[1]) == callee]
    assert parent and kids, "no calls of %s or %s" % (callee, caller)
    for k in kids:
        p = [c for c in parent if c[0] <= k[0]]
        assert p and k[3] == p[-1][3] + 1 and k[0] + k[2] <= p[-1][0] + p[-1][2] + 1, \
            "%s at %d us not inside a call of %s" % (callee, k[0], caller)
    return len(kids)
print("call tree: %d emit_outputs, %d read_inputs under mp_round, %d filter_step under read_inputs" %
      (under("emit_outputs", "mp_round"), under("read_inputs", "mp_round"), under("filter_step", "read_inputs")))
# Sonde's trace of the same calls: FUNC enter/exit pairs inside the session
# marks (one stack: interrupts nest), in ticks of 25 MHz
b = [e["ts"] for e in tr if e.get("record") == "MARK_BEGIN"][-1]
t_end = [e["ts"] for e in tr if e.get("record") == "MARK_END"][-1]
stack, sonde = [], []
for e in tr:
    if e.get("kind") == "func_enter":
        stack.append((e["ts"], e.get("func")))
    elif e.get("kind") == "func_exit" and stack:
        t0, f = stack.pop()
        if b < t0 and e["ts"] < t_end:
            sonde.append((t0, f, e["ts"] - t0))
assert len(sonde) == len(calls), "Sonde traced %d calls in the session, MiniProfiler %d" % (len(sonde), len(calls))
# call by call, function by function, in the order they began (a caller
# before its callee when both began in the same microsecond)
worst = 0
for f in fw:
    m = sorted((t, dep, d) for t, g, d, dep in calls if g == f)
    s = sorted((t, d) for t, g, d in sonde if g == f)
    for (t, _, d), (t0, d0) in zip(m, s):
        de, dd = abs(t - t0 / 25.0), abs(d - d0 / 25.0)
        worst = max(worst, de, dd)
        assert de <= 2 and dd <= 2, "%s at %d us for %d us; Sonde: %.2f us for %.2f us" % (name(f), t, d, t0 / 25, d0 / 25)
print("times: %d calls match Sonde's trace call by call, entry and duration within %.2f us" % (len(calls), worst))
PY

# ---- 3. bad command packets on the link -------------------------------------------
python3 - "$port" <<'PY' || fail "bad command packets"
import socket, sys
def crc16(b):
    c = 0xFFFF
    for x in b:
        c ^= x << 8
        for _ in range(8):
            c = (c << 1) ^ 0x1021 if c & 0x8000 else c << 1
            c &= 0xFFFF
    return c
def rsp(t, payload=b""):
    h = bytes([0xAA, 0x55, t, len(payload) & 0xFF, len(payload) >> 8]) + payload
    c = crc16(h)
    return h + bytes([c & 0xFF, c >> 8, 0x0A])
def cmd(code, n=0, fix=0):
    p = bytes([0x55, code, n]) + bytes(8)
    return p + bytes([(sum(p) + fix) & 0xFF])
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(3)
def answer(data, want):
    s.sendall(data)
    got = b""
    while len(got) < len(want):
        got += s.recv(len(want) - len(got))
    assert got == want, "sent %s: got %s, expected %s" % (data.hex(), got.hex(), want.hex())
answer(cmd(0x03, fix=1), rsp(0x02))               # bad checksum: NACK
answer(cmd(0x01, n=9), rsp(0x02))                 # length 9: NACK
answer(cmd(0x09), rsp(0x02))                      # unknown command: NACK
answer(b"\x13\x37" + cmd(0x04), rsp(0x01))        # garbage, then RESET_BUFFERS: ACK
print("bad packets: NACK, NACK, NACK, then ACK, byte for byte")
PY

# ---- 4. a host that goes away mid-stream --------------------------------------------
mp "$WORK/start.txt" start
grep -qx "ACK START_PROFILING" "$WORK/start.txt" || fail "start: $(cat "$WORK/start.txt")"
# nobody reads now; the device must go on, and answer the next host
captured() {
	"$SONDE" miniprof "${L[@]}" status >"$WORK/st.txt" 2>/dev/null || true
	grep -Eq "^STATUS is_profiling=1 buffer_overflows=[0-9]+ records_captured=[1-9][0-9]{3,}" "$WORK/st.txt"
}
wait_for -p "$qemu" captured || { cat "$WORK/st.txt"; fail "the device does not answer, or records nothing, after its host left"; }
cat "$WORK/st.txt"
"$SONDE" miniprof "${L[@]}" stop >"$WORK/stop.txt" 2>"$WORK/stop.err" || true
grep -qx "ACK STOP_PROFILING" "$WORK/stop.txt" || { cat "$WORK/stop.txt" "$WORK/stop.err"; fail "stop after the host left"; }
mp "$WORK/st2.txt" status
grep -Eq "^STATUS is_profiling=0 " "$WORK/st2.txt" || fail "status after stop: $(cat "$WORK/st2.txt")"
echo "PASS"
