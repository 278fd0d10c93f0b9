#!/usr/bin/env bash
# bench.sh -- `make bench`: measure, print figures, assert nothing.
#
#  1. host decoder throughput (MB/s, records/s, peak RSS) on a generated
#     Sonde stream, with each sink, and 1 GiB streamed through a pipe;
#  2. the foreign decoders on the reference captures replicated to ~20 MB;
#  3. the target record path on five CPU families under QEMU (when their
#     toolchains and QEMU are installed): per family, at -O2 and -Os, the
#     gap table (instructions and wire bytes per record at gaps of 1 to more
#     than 2^32 ticks), the tracer code linked into a minimal image, its
#     RAM and the worst-case stack depth of the record path; then a summary
#     table; and the exact per-call counts of the Cortex-M3 (execution log).
# docs/performance.md records the figures these commands printed.
set -euo pipefail
BUILD=${1:-build}
SONDE=$BUILD/host/sonde
TESTDATA=${SONDE_TESTDATA:-$(cd "$(dirname "$0")/../.." && pwd)/shared/testdata}
OUT=bench-out
mkdir -p "$OUT"

echo "== 1. Sonde decoder ($BUILD/host/sonde_bench) =="
"$BUILD/host/sonde_bench" 128
if [[ -x /usr/bin/time ]]; then
  "$BUILD/host/sonde_bench" --emit 1024 | /usr/bin/time -f "sonde stats - on 1 GiB from a pipe: %e s, peak RSS %M KiB" \
    "$SONDE" stats -q - >/dev/null || true
fi

if [[ -x /usr/bin/time ]]; then
  echo
  echo "== 1b. Reports and analyses on 64 MiB generated (about 7.6 M records) =="
  "$BUILD/host/sonde_bench" --emit 16 >"$OUT/gen64.bin"
  /usr/bin/time -f "sonde stats (with the timing analyses): %e s, peak RSS %M KiB" "$SONDE" stats -q "$OUT/gen64.bin" >/dev/null || true
  /usr/bin/time -f "sonde report (HTML): %e s, peak RSS %M KiB" "$SONDE" report -q "$OUT/gen64.bin" -o "$OUT/gen64.html" || true
  echo "report.html: $(stat -c %s "$OUT/gen64.html") bytes"
  rm -f "$OUT/gen64.bin"
fi

echo
echo "== 2. Foreign decoders on replicated reference captures =="
replicate() { # file times out
  local f=$1 n=$2 o=$3; : > "$o"
  for ((i = 0; i < n; i++)); do cat "$f" >> "$o"; done
}
# measure LABEL PROTO FORMAT FILE ORIGINAL TIMES [decoder options...]: the
# record count comes from `sonde stats` of the original capture.
measure() {
  local label=$1 proto=$2 fmt=$3 file=$4 orig=$5 times=$6; shift 6
  local size recs t0 t1
  size=$(stat -c %s "$file")
  recs=$("$SONDE" stats "$orig" --proto "$proto" "$@" 2>/dev/null | awk '$1 == "records" { print $2 }')
  t0=$(date +%s.%N)
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -f "%M" -o "$OUT/rss" "$SONDE" decode "$file" --proto "$proto" --format "$fmt" "$@" >/dev/null 2>"$OUT/err" || true
  else
    "$SONDE" decode "$file" --proto "$proto" --format "$fmt" "$@" >/dev/null 2>"$OUT/err" || true
    echo "?" > "$OUT/rss"
  fi
  t1=$(date +%s.%N)
  awk -v l="$label" -v s="$size" -v a="$t0" -v b="$t1" -v r="$(tail -n1 "$OUT/rss")" -v n="${recs:-0}" -v k="$times" \
    'BEGIN { t = b - a; printf "%-34s %6.1f MB in %5.2f s = %6.1f MB/s, %5.2f M records/s, peak RSS %s KiB\n", l, s / 1e6, t, s / 1e6 / t, n * k / t / 1e6, r }'
}
if [[ -d $TESTDATA ]]; then
  q=$TESTDATA/qs/dpp_posix-qv_x86.bin
  replicate "$q" 1300 "$OUT/qs.bin"
  measure "qs (dpp x1300) -> qspy text" qs qspy "$OUT/qs.bin" "$q" 1300
  measure "qs (dpp x1300) -> jsonl" qs jsonl "$OUT/qs.bin" "$q" 1300
  y=$TESTDATA/syst/mix_64.bin
  replicate "$y" 900 "$OUT/syst.bin"
  measure "syst (mix_64 x900) -> syst-csv" syst syst-csv "$OUT/syst.bin" "$y" 900 -o "syst.collateral=$TESTDATA/syst/collateral.xml"
  b=$TESTDATA/tband/repo_examples_POSIX_FreeRTOS_log.bin
  replicate "$b" 600 "$OUT/tband.bin"
  measure "tband (FreeRTOS log x600) -> jsonl" tband jsonl "$OUT/tband.bin" "$b" 600
else
  echo "(no test data at $TESTDATA)"
fi

echo
SONDE_BENCH_SKIP_QEMU=${SONDE_BENCH_SKIP_QEMU:-}
echo "== 3. Target record path on five CPU families (QEMU, -icount shift=0) =="
# family LABEL TOOL BOARD [MAKE-OPTIONS...]: bench, size and stack at -O2
# and -Os; the figures go to $OUT/fam-*.txt and into the summary.
SUMMARY=$OUT/families-summary.txt
: >"$SUMMARY"
family() {
  local label=$1 tool=$2 board=$3 opt tag b
  shift 3
  if ! command -v "$tool" >/dev/null; then
    echo "($label: $tool missing: skipped)"
    return 0
  fi
  for opt in -O2 -Os; do
    tag=$(echo "$label$opt" | tr -c 'A-Za-z0-9\n-' '_')
    b=$(pwd)/$OUT/fw-$tag
    echo "-- $label, $opt: make -C examples/$board $* OPT=$opt bench size-min stack"
    if ! make -s -C "examples/$board" BUILD="$b" OPT="$opt" "$@" bench size-min stack \
        >"$OUT/fam-$tag.txt" 2>&1; then
      tail -n 20 "$OUT/fam-$tag.txt"
      echo "($label $opt: failed)"
      continue
    fi
    grep -vE '^  (CC|AS|LD) ' "$OUT/fam-$tag.txt"
    awk -v l="$label" -v o="$opt" '
      # cells: gap 1 ($2 / $4), 10 ($5 / $7), 1000, 70000 ($11 / $13), 1e7 ($14 / $16), >2^32
      /^sonde_isr_enter  / { ie1 = $5; ie70 = $11; ie10m = $14; ieb1 = $7; ieb70 = $13 }
      /^sonde_user_u32x2/  { u1 = $5; u70 = $11 }
      /^sonde_isr_enter, object filtered/ { f = $NF }
      /^demo mix, per record/ { mix = $NF }
      /^demo mix:/ { n = $8; gsub(/[(]/, "", n); mixb = $3 / n }
      /^  tracer code / { code = $3 }
      /^  tracer RAM/ { ram = $4 }
      /^  record path/ { stk = $3 }
      END { printf "%-26s %-4s %7s %7s %7s %6s/%-5s %7s %7s %6s %7s %5.2f %6s %5s %5s\n", l, o, ie1, ie70, ie10m, ieb1, ieb70, u1, u70, f, mix, mixb, code, ram, stk }
    ' "$OUT/fam-$tag.txt" >>"$SUMMARY"
  done
}
if [[ -n $SONDE_BENCH_SKIP_QEMU ]]; then
  echo "(SONDE_BENCH_SKIP_QEMU set: skipped)"
else
  family "ARMv6-M Cortex-M0" qemu-system-arm qemu-microbit
  family "ARMv7-M Cortex-M3" qemu-system-arm qemu-mps2 MACHINE=an385
  family "ARMv7E-M Cortex-M4F" qemu-system-arm qemu-mps2 MACHINE=an386
  family "ARMv7E-M Cortex-M7" qemu-system-arm qemu-mps2 MACHINE=an500
  family "ARMv8-M Cortex-M33" qemu-system-arm qemu-mps2 MACHINE=an505
  family "RV32IMAC" qemu-system-riscv32 qemu-riscv
  family "RV32IMAC no-strict-align" qemu-system-riscv32 qemu-riscv ALIGN=any
  echo
  echo "Summary: instructions per call (loop subtracted; filter test, call, body) and wire bytes,"
  echo "at gaps of 10, 70000 and 10000000 ticks; the demo mix's mean (table walk included) and"
  echo "bytes per record; tracer code in the minimal image (B), its RAM (B), stack depth (B)."
  printf "%-26s %-4s %7s %7s %7s %12s %7s %7s %6s %7s %5s %6s %5s %5s\n" family opt \
    "isr@10" "isr@70k" "isr@10M" "isr bytes" "u32x2@10" "u32x2@70k" filt mix "B/rec" code RAM stack
  cat "$SUMMARY"
  echo
  echo "-- exact per-call counts, Cortex-M3 -Os (QEMU execution log)"
  if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
    make -s -C examples/qemu-mps2 BUILD="$(pwd)/$OUT/fw-insns-m3" insns | grep -vE '^  (CC|AS|LD) ' ||
      echo "(QEMU measurement failed)"
  fi
fi
