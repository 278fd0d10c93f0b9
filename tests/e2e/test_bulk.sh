#!/usr/bin/env bash
# test_bulk.sh -- random bytes and damaged streams through `sonde stats`
# and the exports, made on the fly (test_bulk_lib.sh): sonde never fails
# (status 0 or 1; 2 where --proto auto cannot tell random bytes), its
# memory stays bounded (peak RSS under BULK_RSS_MB, in a build without
# sanitizers), and on a damaged stream the diagnostics count exactly the
# damage: one checksum error per damaged frame, and one sequence gap of one
# frame where frames are numbered.  BULK_BYTES per run (default 1 MB here;
# tests/long/test_bulk_2g.sh: 2 GB), BULK_ALL=1 every export of every
# protocol (here: every export of Sonde, the own export of the others).
set -euo pipefail
: "${SONDE:?}" "${SONDE_TESTDATA:?}"
. "$(dirname "$0")/test_bulk_lib.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
bulk_setup "$W"
BYTES=${BULK_BYTES:-1000000}
RSS_MB=${BULK_RSS_MB:-64}
ALL=${BULK_ALL:-0}
COMMON=(text jsonl csv perfetto chrome profile folded)
declare -A OWN=([sonde]="" [qs]=qspy [syst]=syst-csv [tband]=tband-jsonl [miniprof]="")

formats() { # PROTO: the exports run for it
	if [ "$ALL" = 1 ] || [ "$1" = sonde ]; then echo "${COMMON[*]} ${OWN[$1]}"; else echo "${OWN[$1]:-text}"; fi
}
{
	seed=1
	for proto in sonde qs syst; do
		echo "$proto damaged $BYTES $seed $SONDE stats - --proto $proto --max-diags 0"
		for f in $(formats "$proto"); do
			echo "$proto damaged $BYTES $seed $SONDE decode - --proto $proto --format $f --max-diags 0"
		done
		seed=$((seed + 1))
	done
	for proto in sonde qs syst tband miniprof stp auto; do
		echo "$proto random $BYTES $seed $SONDE stats - --proto $proto -q"
		[ "$proto" = auto ] && continue
		for f in $(formats "$proto"); do
			echo "$proto random $BYTES $seed $SONDE decode - --proto $proto --format $f -q"
		done
	done
	# SyS-T's STP container (packets and per master/channel reassembly)
	echo "syst random $BYTES $seed $SONDE decode - --proto syst -o syst.container=stp --format syst-csv -q"
} >"$W/plan"
ldd "$SONDE" 2>/dev/null | grep -q libasan && RSS_MB=0 # ASan's shadow and quarantine: not checked
python3 "$W/bulk.py" plan "$W/plan" >"$W/results"
python3 - "$W/results" "$BYTES" "$RSS_MB" <<'PY'
import json, sys
bad = 0
limit = int(sys.argv[3]) * 1024
print("%-8s %-7s %-55s %12s %7s %8s  %s" % ("proto", "input", "command", "bytes", "s", "RSS KB", "diagnostics"))
for line in open(sys.argv[1]):
    r = json.loads(line)
    why = []
    if r["sent"] < int(sys.argv[2]) and r["proto"] != "auto":  # auto stops reading at once
        why.append("fed only %d bytes" % r["sent"])
    if r["kind"] == "damaged":
        n, d = r["damaged"], r["diags"]
        if r["rc"] != 1:
            why.append("status %d" % r["rc"])
        if d.get("bad-checksum", 0) != n:
            why.append("%d damaged frames, %d checksum errors" % (n, d.get("bad-checksum", 0)))
        if r["proto"] in ("sonde", "qs") and d.get("seq-gap", 0) != n:
            why.append("%d damaged frames, %d sequence gaps" % (n, d.get("seq-gap", 0)))
    elif r["rc"] not in ((2,) if r["proto"] == "auto" else (0, 1)):
        why.append("status %d" % r["rc"])
    if limit and r["rss_kb"] > limit:
        why.append("peak RSS %d KB" % r["rss_kb"])
    d = ", ".join("%s %d" % kv for kv in sorted(r["diags"].items())) or "-"
    if r["kind"] == "damaged":
        d = "%d damaged: %s" % (r["damaged"], d)
    print("%-8s %-7s %-55s %12d %7.1f %8d  %s" % (r["proto"], r["kind"], r["argv"].replace(" --max-diags 0", "").replace(" -q", ""),
          r["sent"], r["seconds"], r["rss_kb"], d))
    if why:
        bad += 1
        print("  FAIL: " + "; ".join(why) + "\n  " + "\n  ".join(r["stderr"]))
sys.exit(1 if bad else 0)
PY
echo "PASS"
