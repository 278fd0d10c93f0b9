#!/usr/bin/env bash
# test_syst_container.sh -- a corrupted length word in the length-prefixed
# SyS-T container, on the reference captures: one length made larger than
# its message (41 -> 324, the case that lost 6 of 258 records with no
# diagnostic and status 0).  The message says where it ends (a string's
# NUL, a printf's arguments, the LEN field, the CRC), the next record
# starts there: one diagnostic naming the place and the lengths, every
# record decoded exactly as from the intact capture, status 1 -- reading
# the file at once, through a pipe in small pieces, and as a live link.
# Then length words of each capture in turn, +283 and +1: never a silent
# loss (every 50th here; every one in tests/long/test_syst_sweep.sh).
set -euo pipefail
: "${SONDE:?}" "${SONDE_TESTDATA:?}"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
TD=$SONDE_TESTDATA/syst
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$TD" # the Collateral column shows the path as given
O=(--proto syst -o syst.collateral=collateral.xml -o syst.container=len --format syst-csv)

# set_len FILE OFFSET VALUE: the u32 little-endian length word at OFFSET
set_len() { python3 -c 'import struct, sys
f = open(sys.argv[1], "r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack("<I", int(sys.argv[3])))' "$@"; }

for cap in mix_64 lenonly_32; do
	cp "$cap.bin" "$W/$cap.bin"
	"$SONDE" decode "$cap.bin" "${O[@]}" >"$W/$cap.ref.csv"
	# the first record of 41 bytes (a string at offset 84 in mix_64, a LEN message in lenonly_32)
	at=$(python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read(); pos = 0
while struct.unpack_from("<I", d, pos)[0] != 41: pos += 4 + struct.unpack_from("<I", d, pos)[0]
print(pos)' "$cap.bin")
	set_len "$W/$cap.bin" "$at" 324
	rc=0
	"$SONDE" decode "$W/$cap.bin" "${O[@]}" >"$W/$cap.csv" 2>"$W/$cap.err" || rc=$?
	[ "$rc" -eq 1 ] || { cat "$W/$cap.err"; fail "$cap: exit status $rc, expected 1"; }
	want="$W/$cap.bin: offset $at, frame [0-9]+: malformed: container length 324, but the message ends after 41 bytes and the next record starts there: the length word is wrong; decoding on from the message's end"
	grep -Eqx "$want" "$W/$cap.err" && [ "$(wc -l <"$W/$cap.err")" -eq 1 ] || { cat "$W/$cap.err"; fail "$cap: diagnostic"; }
	cmp "$W/$cap.csv" "$W/$cap.ref.csv" || fail "$cap: records differ from the intact capture's"
	# the same through a pipe, 7 bytes at a time, and through sonde live
	python3 -c 'import os, sys
d = open(sys.argv[1], "rb").read()
for i in range(0, len(d), 7): os.write(1, d[i:i + 7])' "$W/$cap.bin" | "$SONDE" decode - "${O[@]}" 2>/dev/null >"$W/$cap.pipe.csv" || true
	cmp "$W/$cap.pipe.csv" "$W/$cap.ref.csv" || fail "$cap: fed in pieces, the records differ"
	"$SONDE" live "file:$W/$cap.bin" "${O[@]}" -q </dev/null >"$W/$cap.live.csv" 2>/dev/null || true
	cmp "$W/$cap.live.csv" "$W/$cap.ref.csv" || fail "$cap: sonde live, the records differ"
	echo "$cap: length at offset $at 41 -> 324: one diagnostic, $(($(wc -l <"$W/$cap.csv") - 1)) records as intact"
done

# length words, +283 and +1: some diagnostic each time
for cap in mix_64 lenonly_32 mix_32len; do
	python3 - "$SONDE" "$cap.bin" "$W/x.bin" "${SYST_SWEEP_STEP:-50}" <<'PY' || fail "$cap: a corrupted length was not reported"
import struct, subprocess, sys
sonde, src, tmp, step = sys.argv[1:5]
d0 = open(src, "rb").read()
pos, starts = 0, []
while pos + 4 <= len(d0):
    starts.append(pos)
    pos += 4 + struct.unpack_from("<I", d0, pos)[0]
silent = recovered = 0
for at in starts[::int(step)]:
    n = struct.unpack_from("<I", d0, at)[0]
    for bad in (n + 283, n + 1):
        d = bytearray(d0)
        struct.pack_into("<I", d, at, bad)
        open(tmp, "wb").write(d)
        out = subprocess.run([sonde, "stats", tmp, "--proto", "syst", "-o", "syst.container=len"],
                             capture_output=True, text=True).stdout
        fig = dict(l.split(None, 1) for l in out.splitlines() if l and not l.startswith(" "))
        silent += int(fig["diagnostics"]) == 0
        recovered += int(fig["records"]) == len(starts)
print("%s: %d of %d length words, each +283 and +1: %d silent, %d with every record decoded" % (
    src, len(starts[::int(step)]), len(starts), silent, recovered))
sys.exit(1 if silent else 0)
PY
done
echo "PASS"
