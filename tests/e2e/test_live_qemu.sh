#!/usr/bin/env bash
# test_live_qemu.sh -- end to end with the Cortex-M3 firmware of
# examples/qemu-mps2 in QEMU, its UART0 on a TCP socket, `sonde live` on the
# other end.
#
# 1. Counts: 1 s of emulated time on the instruction-exact clock; the
#    capture `sonde live` saved (-w) passes the independent checker
#    (check_trace.py, with sonde's live JSONL compared frame by frame), and
#    the record counts in sonde's own summary equal the firmware's FW_COUNTS
#    record, id by id.
# 2. Commands (the firmware's receive channel, UART0 RX): while `sonde live`
#    holds the link, `sonde send` goes through its --control socket on the
#    same TCP link: a global filter removes COUNTER records from the stream
#    from its reply on and 'all' brings them back; PEEK of fw_status returns
#    its magic and blink period; APP 1 changes the period and a second PEEK
#    shows it; a PEEK outside the registered region and a frame with a bad
#    checksum are refused (status 4).  The firmware runs in real time here
#    (no -icount) for at most 60 s and is stopped once the commands are
#    done: the commands never race its end, however slow the machine.
# Skipped (77) without arm-none-eabi-gcc, qemu-system-arm or python3.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
for tool in arm-none-eabi-gcc arm-none-eabi-nm qemu-system-arm make; do
	command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
live_setup
EX=$SRC/examples/qemu-mps2

qemu() { # ELF PORT [QEMU options...]
	local elf=$1 port=$2
	shift 2
	bg timeout -k 5 "$HANG" qemu-system-arm -M mps2-an385 -nographic -monitor none \
		-semihosting-config enable=on,target=native "$@" \
		-serial "tcp:127.0.0.1:$port,server=on" -kernel "$elf" </dev/null >"$WORK/qemu-$port.log" 2>&1
	QEMU=$!
	# QEMU says so once it listens (connecting to check would take its one client slot)
	wait_for -p "$QEMU" has_text "$WORK/qemu-$port.log" "waiting for connection" ||
		{ cat "$WORK/qemu-$port.log"; fail "QEMU does not listen on $port"; }
}

# ---- 1. counts ----------------------------------------------------------------
make -s -C "$EX" BUILD="$WORK/fw2" RUN_MS=1000 "$WORK/fw2/fw.elf" >"$WORK/make2.log" 2>&1 ||
	{ cat "$WORK/make2.log"; fail "firmware build failed"; }
port=$(free_port)
qemu "$WORK/fw2/fw.elf" "$port" -icount shift=0,sleep=off
rc=0
timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$port" --proto sonde -w "$WORK/raw1.bin" --format jsonl \
	--output "$WORK/live1.jsonl" --reconnect-timeout 0 </dev/null 2>"$WORK/live1.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/live1.err"; fail "counts: sonde live exit status $rc"; }
wait "$QEMU" || fail "counts: QEMU exit status $? (firmware fault?)"
python3 "$SRC/examples/fw-common/check_trace.py" "$WORK/raw1.bin" --decoded "$WORK/live1.jsonl" >"$WORK/check1.log" ||
	{ cat "$WORK/check1.log"; fail "counts: the capture or sonde's decoding of it does not check"; }
grep -E "^(FW_COUNTS|decoded|check_trace)" "$WORK/check1.log"
python3 - "$WORK/live1.jsonl" "$WORK/live1.err" <<'PY' || fail "counts: sonde's summary differs from FW_COUNTS"
import json, re, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
fw = [e for e in ev if e.get("record") == "FW_COUNTS"]
assert len(fw) == 1, "one FW_COUNTS record expected"
vals = [a["value"] for a in fw[0]["args"]]
calls = dict(zip(vals[4::2], vals[5::2]))
summary = {}
for m in re.finditer(r"^  \S+ +(\d+) +\(id 0x([0-9A-F]+)\)$", open(sys.argv[2]).read(), re.M):
    summary[int(m.group(2), 16)] = int(m.group(1))
fw_id = fw[0]["rec_id"]
ok = True
for rid, n in sorted(calls.items()):
    if rid in (0, 1, 2, 3):
        continue  # the library's own records: covered by FW_COUNTS' record total
    if summary.get(rid, 0) != n:
        print("id 0x%02X: firmware %d calls, sonde counted %d" % (rid, n, summary.get(rid, 0)))
        ok = False
extra = set(summary) - set(calls) - {0, 1, 2, 3, fw_id}
assert not extra, "ids sonde counted that the firmware never wrote: %s" % sorted(extra)
assert summary.get(fw_id) == 1, "FW_COUNTS itself"
print("summary vs FW_COUNTS: %d record ids equal" % len([r for r in calls if r > 3]))
sys.exit(0 if ok else 1)
PY

# ---- 2. commands ------------------------------------------------------------
make -s -C "$EX" BUILD="$WORK/fw6" RUN_MS=60000 "$WORK/fw6/fw.elf" >"$WORK/make6.log" 2>&1 ||
	{ cat "$WORK/make6.log"; fail "firmware build (RUN_MS=60000) failed"; }
status=$(arm-none-eabi-nm "$WORK/fw6/fw.elf" | awk '$3 == "fw_status" { print "0x" $1 }')
[ -n "$status" ] || fail "no fw_status symbol"
port=$(free_port)
qemu "$WORK/fw6/fw.elf" "$port"
bg timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$port" --proto sonde -w "$WORK/raw2.bin" --output "$WORK/live2.txt" \
	--control "$WORK/ctl" --reconnect-timeout 0 </dev/null 2>"$WORK/live2.err"
live=$!
wait_for -p "$live" -l "$WORK/live2.err" test -S "$WORK/ctl" || fail "no control socket"
wait_for -p "$live" -l "$WORK/live2.err" size_at_least "$WORK/raw2.bin" 2000 || fail "no trace from QEMU"
L=(--link "unix:$WORK/ctl" --timeout "$(scaled 30)") # a prompt answer ends the wait
send() { # STATUS ARGS...
	local want=$1 rc=0
	shift
	"$SONDE" send "${L[@]}" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	cat "$WORK/out"
	[ "$rc" -eq "$want" ] || { cat "$WORK/err"; fail "sonde send $*: exit status $rc, expected $want"; }
}
seq_of() { sed -nE 's/^CMD_STATUS seq=([0-9]+) .*/\1/p' "$WORK/out"; }
send 0 peek "$status" 12
grep -q "^PEEK_DATA addr=$(printf '0x%08x' "$status") n=12: 53 4f 4e 44 .. .. .. .. f4 01 00 00$" "$WORK/out" ||
	fail "peek: magic 'SOND' and blink period 500 expected"
send 0 glb-filter -COUNTER
s_off=$(seq_of)
send 0 app 1 100
send 0 peek $(( status + 8 )) 4
grep -q "n=4: 64 00 00 00$" "$WORK/out" || fail "peek after APP 1 100: blink period 100 expected"
send 4 peek $(( status - 4 )) 8
grep -q "status=OUT_OF_REGION" "$WORK/out" || fail "out-of-region peek not refused"
send 4 --bad-checksum stats
grep -q "status=BAD_CHECKSUM" "$WORK/out" || fail "bad checksum not refused"
send 4 app 9
grep -q "status=APP_0x81" "$WORK/out" || fail "unknown APP command: the firmware's own code expected"
send 0 glb-filter all
s_on=$(seq_of)
# a few records after the reply, then the end: QEMU stopped, the link closes
wait_for -p "$live" -l "$WORK/live2.err" size_at_least "$WORK/raw2.bin" $(( $(file_size "$WORK/raw2.bin") + 2000 )) || fail "no trace after the commands"
kill -TERM "$QEMU"
wait "$QEMU" 2>/dev/null || true
rc=0
wait "$live" || rc=$?
[ "$rc" -le 1 ] || { cat "$WORK/live2.err"; fail "commands: sonde live exit status $rc"; }
if grep -q 'LOG level=error' "$WORK/live2.txt"; then grep 'LOG level=error' "$WORK/live2.txt"; fail "commands: the firmware faulted"; fi
python3 - "$WORK/raw2.bin" "$s_off" "$s_on" "$WORK" <<'PY' || fail "the stream does not show the filter"
import sys
sys.path.insert(0, sys.argv[4])
import fake_target
s_off, s_on = int(sys.argv[2]), int(sys.argv[3])
frames = fake_target.good_frames(open(sys.argv[1], "rb").read())
def reply(seq):  # CMD_STATUS (protocol version 2): seq, cmd, status, its timestamp field (1..4 bytes)
    for i, f in enumerate(frames):
        if f[1] == 0x20 and 7 <= len(f) <= 10 and f[2] == seq and f[3] == 2: return i
    sys.exit("no CMD_STATUS for GLB_FILTER seq %d" % seq)
a, b = reply(s_off), reply(s_on)
ids = lambda x, y: [f[1] for f in frames[x + 1:y]]
assert 0x0F in ids(0, a), "COUNTER before the filter"
assert 0x0F not in ids(a, b), "COUNTER while filtered out"
assert 0x0F in ids(b, len(frames)), "COUNTER after 'glb-filter all'"
print("filter: %d frames without COUNTER between the replies (frames %d..%d)" % (b - a - 1, a, b))
PY
echo "PASS"
