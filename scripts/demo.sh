#!/usr/bin/env bash
# demo.sh -- `make demo`: run an instrumented program, decode its trace live,
# and leave the results in demo-out/.
#
# The POSIX demo (examples/posix-demo) streams its trace through a pipe into
# `sonde`, which saves the raw bytes and decodes them as they arrive.
set -euo pipefail
BUILD=${1:-build}
SONDE=$BUILD/host/sonde
OUT=demo-out
rm -rf "$OUT"
mkdir -p "$OUT"

echo "demo: running the POSIX demo (3 tasks, a timer ISR) for 2 s, decoding live"
"$BUILD/examples/posix-demo/posix-demo" -t 2000 -o - 2>"$OUT/demo.log" \
  | tee "$OUT/trace.bin" \
  | "$SONDE" decode - --format text --output "$OUT/trace.txt"
"$SONDE" stats "$OUT/trace.bin" > "$OUT/stats.txt"
"$SONDE" decode "$OUT/trace.bin" --format jsonl --output "$OUT/trace.jsonl"
if "$SONDE" help decode 2>&1 | grep -q perfetto; then
  "$SONDE" decode "$OUT/trace.bin" --format perfetto --output "$OUT/trace.perfetto-trace"
fi

echo "demo: $(cat "$OUT/demo.log")"
echo "demo: results in $OUT/:"
ls -l "$OUT"
echo
echo "--- first lines of $OUT/trace.txt ---"
head -n 25 "$OUT/trace.txt"
echo "--- $OUT/stats.txt ---"
cat "$OUT/stats.txt"
