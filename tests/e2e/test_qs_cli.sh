#!/usr/bin/env bash
# test_qs_cli.sh -- `sonde decode --proto qs` on the real QP/C 7.4 captures:
# --format qspy equals QSPY 7.4.0's decode (X.qspy.txt from line 4 on) byte
# for byte, also with --proto auto and from standard input; a QSPY .dic file
# (-o qs.dic) or size options (-o qs.Q=2) decode a stream joined after the
# start-up; a damaged capture is reported (offset, frame) and the rest still
# decoded; the event model seen through --format jsonl.
set -euo pipefail
: "${SONDE:?}" "${SONDE_TESTDATA:?}"
D=$SONDE_TESTDATA/qs
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for f in dpp_posix-qv_x86 defer_posix-qv_x64 qsfmt_user_formats_x86; do
	tail -n +4 "$D/$f.qspy.txt" >"$T/$f.want"
	"$SONDE" decode --proto qs --format qspy "$D/$f.bin" >"$T/$f.got" 2>"$T/$f.err" ||
		fail "$f: exit status $?"
	cmp "$T/$f.want" "$T/$f.got" || { diff "$T/$f.want" "$T/$f.got" | head; fail "$f differs from QSPY"; }
	[ ! -s "$T/$f.err" ] || fail "$f: diagnostics: $(head -3 "$T/$f.err")"
	"$SONDE" decode --format qspy "$D/$f.bin" | cmp - "$T/$f.want" || fail "$f: --proto auto"
	"$SONDE" decode --proto qs --format qspy - <"$D/$f.bin" | cmp - "$T/$f.want" || fail "$f: stdin"
	echo "$f: $(wc -l <"$T/$f.got") lines equal to QSPY's"
done

# A stream joined after the start-up: no QS_EMPTY, TARGET_INFO or dictionary
# records (re-framed and re-sequenced, so no discontinuity shows).
python3 - "$D/dpp_posix-qv_x86.bin" "$T/mid.bin" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
frames, cur, esc = [], bytearray(), False
for b in data:
    if b == 0x7E:
        frames.append(bytes(cur)); cur, esc = bytearray(), False
    elif esc:
        cur.append(b ^ 0x20); esc = False
    elif b == 0x7D:
        esc = True
    else:
        cur.append(b)
out, seq = bytearray(), 0
for f in frames:
    if f[1] in (0, 54, 60, 61, 62, 63, 64):
        continue
    seq = (seq + 1) & 0xFF
    body = bytes([seq]) + f[1:-1]
    for b in body + bytes([~sum(body) & 0xFF]):
        out += bytes([0x7D, b ^ 0x20]) if b in (0x7D, 0x7E) else bytes([b])
    out.append(0x7E)
open(sys.argv[2], "wb").write(out)
PY
grep -v -E '^ {11}(Obj-Dict|Fun-Dict|Sig-Dict|Usr-Dict|Trg-RST|Trg-Info) ' "$T/dpp_posix-qv_x86.want" >"$T/mid.want"
# as QSPY -d: its notice before the first record
{ echo "   <QSPY-> Reading dictionaries from File=$D/dpp_posix-qv_x86.dic"; cat "$T/mid.want"; } >"$T/mid.dic.want"
"$SONDE" decode -p qs -f qspy -o "qs.dic=$D/dpp_posix-qv_x86.dic" "$T/mid.bin" >"$T/mid.got" 2>"$T/mid.err"
cmp "$T/mid.dic.want" "$T/mid.got" || fail "joined stream with qs.dic differs"
[ ! -s "$T/mid.err" ] || fail "joined stream with qs.dic: diagnostics"
"$SONDE" decode -p qs -f qspy -o qs.Q=2 "$T/mid.bin" >"$T/mid.hex" 2>"$T/mid.err" || fail "qs.Q=2: exit status"
[ ! -s "$T/mid.err" ] || fail "qs.Q=2: diagnostics"
grep -q '^4104771160 AO-Subsc Obj=0x08057300,Sig=00000004,Obj=0x08057300$' "$T/mid.hex" || fail "qs.Q=2: raw line"
# QSPY's default queue-counter size (1) is wrong for this target: exit 1,
# every AO-Post reported with its offset and frame number
set +e
"$SONDE" decode -p qs -f qspy "$T/mid.bin" >"$T/mid.q1" 2>"$T/mid.err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "default sizes: exit status $rc, want 1"
posts=$(grep -c ' AO-Post ' "$T/mid.want")
[ "$(grep -c '^   <COMMS> ERROR    2 bytes unused in Rec=QS_QF_ACTIVE_POST$' "$T/mid.q1")" = "$posts" ] ||
	fail "default sizes: unused-bytes lines"
grep -q -E "mid.bin: offset [0-9]+, frame [0-9]+: malformed: 2 bytes unused in Rec=QS_QF_ACTIVE_POST" "$T/mid.err" ||
	fail "default sizes: stderr diagnostics"
echo "joined stream: qs.dic and qs.Q=2 decode cleanly, default sizes give $posts reports"

# Damage: one byte changed in the middle of the capture.
python3 - "$D/defer_posix-qv_x64.bin" "$T/bad.bin" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = len(d) // 2
while d[i] in (0x7D, 0x7E) or d[i] ^ 0x01 in (0x7D, 0x7E):
    i += 1
d[i] ^= 0x01
open(sys.argv[2], "wb").write(d)
PY
set +e
"$SONDE" decode -p qs -f qspy "$T/bad.bin" >"$T/bad.got" 2>"$T/bad.err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "damaged: exit status $rc, want 1"
grep -q '^   <COMMS> ERROR    Bad checksum in Rec=.*(?),Seq=[0-9]*$' "$T/bad.got" || fail "damaged: no bad checksum line"
grep -q '^   <COMMS> ERROR    Discontinuity Seq=[0-9]*->[0-9]*$' "$T/bad.got" || fail "damaged: no discontinuity line"
grep -q -E 'bad.bin: offset [0-9]+, frame [0-9]+: bad-checksum: Bad checksum' "$T/bad.err" || fail "damaged: stderr"
want=$(wc -l <"$T/defer_posix-qv_x64.want")
got=$(grep -v -c '<COMMS>' "$T/bad.got")
[ "$got" = $((want - 1)) ] || fail "damaged: $got record lines, want $((want - 1))"
echo "damaged capture: 1 frame lost, $got records decoded"

# Invalid options stop the decoder with a message.
if "$SONDE" decode -p qs -o qs.obj=3 "$D/dpp_posix-qv_x86.bin" >/dev/null 2>"$T/opt.err"; then
	fail "qs.obj=3 accepted"
fi
grep -qx 'sonde decode: -o qs.obj=3: expected 1, 2, 4 or 8 bytes' "$T/opt.err" || fail "qs.obj=3: message"

# The event model: active objects become tasks, state-machine records states.
"$SONDE" decode -p qs -f jsonl "$D/dpp_posix-qv_x86.bin" >"$T/dpp.jsonl"
python3 - "$T/dpp.jsonl" "$T/dpp_posix-qv_x86.want" <<'PY'
import collections, json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
want = open(sys.argv[2]).read().splitlines()
kinds = collections.Counter(e["kind"] for e in ev)
tasks = sorted(e.get("task_name") or "?" for e in ev if e["kind"] == "task_create")
sm = sum(1 for l in want if l[11:19] in ("St-Entry", "St-Exit ", "St-Init ", "Init===>", "=>Intern",
                                         "===>Tran", "=>Ignore", "Disp===>", "St-Unhnd"))
assert tasks == ["Philo_inst[%d]" % i for i in range(5)] + ["Table_inst"], tasks
assert kinds["state"] == sm, (kinds["state"], sm)
assert kinds["info"] == 2 and kinds["dict"] == sum(1 for l in want if "-Dict " in l), kinds
print(f"jsonl: {len(ev)} events, {kinds['state']} state, {kinds['task_create']} tasks")
PY
