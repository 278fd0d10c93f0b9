#!/usr/bin/env bash
# bench.sh -- `make bench`: measure, print figures, assert nothing.
#
#  1. host decoder throughput (MB/s, records/s, peak RSS) on a generated
#     Sonde stream, with each sink, and 1 GiB streamed through a pipe;
#     the analyses, the report and the exports (sqlite, ctf, speedscope,
#     perfetto) on 64 MiB of it;
#  2. the foreign decoders on the reference captures replicated to ~20 MB;
#  3. the target record path on five CPU families under QEMU (when their
#     toolchains and QEMU are installed): per family, at -O2 and -Os, the
#     gap table (instructions and wire bytes per record at gaps of 1 to more
#     than 2^32 ticks), the tracer code linked into a minimal image, its
#     RAM and the worst-case stack depth of the record path; then a summary
#     table; and the exact per-call counts of the Cortex-M3 (execution log).
#  4. instructions per FreeRTOS kernel event with Sonde's trace macros, on
#     the Cortex-M3 (with FREERTOS_KERNEL_PATH, docs/freertos.md);
#  5. the debug-probe transport: the rtt-flood firmware through QEMU's
#     gdbstub into `sonde live gdb://` (MB/s, host CPU per MB), with a 1 KiB
#     and a 16 KiB up buffer.
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

  echo
  echo "== 1c. Exports on the same 64 MiB (records/s over the wall time; CPU time too, for a busy machine) =="
  recs=$("$SONDE" stats -q "$OUT/gen64.bin" | awk '$1 == "records" { print $2 }')
  export_bench() { # FORMAT OUTPUT
    rm -rf "$2"
    /usr/bin/time -f "%e %U %S %M" -o "$OUT/time" "$SONDE" decode -q "$OUT/gen64.bin" -f "$1" --output "$2" || true
    read -r wall user sys rss <"$OUT/time"
    awk -v f="$1" -v n="$recs" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v b="$(du -sb "$2" | cut -f1)" \
      'BEGIN { printf "--format %-10s %6.2f s = %5.2f M records/s (CPU %5.2f s = %5.2f M/s), peak RSS %6d KiB, %6.1f MB written\n", f, w, n / w / 1e6, u + s, n / (u + s) / 1e6, r, b / 1e6 }'
    rm -rf "$2"
  }
  export_bench sqlite "$OUT/gen64.db"
  export_bench ctf "$OUT/gen64.ctf"
  export_bench speedscope "$OUT/gen64.speedscope.json"
  export_bench perfetto "$OUT/gen64.pftrace"
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

echo
echo "== 4. FreeRTOS trace macros on Cortex-M3: instructions per kernel event (QEMU execution log) =="
if [[ -n $SONDE_BENCH_SKIP_QEMU ]]; then
  echo "(SONDE_BENCH_SKIP_QEMU set: skipped)"
elif [[ -z ${FREERTOS_KERNEL_PATH:-} ]]; then
  echo "(FREERTOS_KERNEL_PATH not set: skipped; docs/freertos.md says where to get a kernel)"
elif command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
  echo "kernel: $FREERTOS_KERNEL_PATH"
  make -s -C examples/freertos-mps2 BUILD="$(pwd)/$OUT/freertos-mps2" insns || echo "(QEMU measurement failed)"
else
  echo "(arm-none-eabi-gcc or qemu-system-arm missing: skipped)"
fi

echo
echo "== 5. Debug-probe transport: RTT through QEMU's gdbstub (sonde live gdb://) =="
# rtt LABEL RECORDS MAKE-OPTIONS...: the rtt-flood firmware (records as fast
# as the host reads them) under QEMU in real time, halted until sonde
# attaches; bytes over the wall time of the session, and sonde's CPU time
# (user + system, decoding into text included) per MB.
rtt() {
  local label=$1 n=$2 b port
  shift 2
  b=$(pwd)/$OUT/rtt-$(echo "$label" | tr -c 'A-Za-z0-9\n' '-')
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if ! make -s -C examples/qemu-mps2 BUILD="$b" FLOOD="$n" "$@" "$b/rtt-flood.elf" >"$b.make.log" 2>&1; then
    tail -n 20 "$b.make.log"
    return 0
  fi
  qemu-system-arm -M mps2-an385 -nographic -monitor none -semihosting-config enable=on,target=native \
    -serial null -S -gdb "tcp:127.0.0.1:$port" -kernel "$b/rtt-flood.elf" </dev/null >"$b.qemu.log" 2>&1 &
  local q=$! i hex
  hex=$(printf '%04X' "$port")
  for i in $(seq 200); do # until QEMU listens (not connecting: its gdbstub takes one client)
    grep -q "^ *[0-9]*: 0100007F:$hex 00000000:0000 0A" /proc/net/tcp && break
    sleep 0.05
  done
  /usr/bin/time -f "%e %U %S" -o "$b.time" "$SONDE" live "gdb://127.0.0.1:$port" --elf "$b/rtt-flood.elf" \
    --proto sonde -w "$b.raw" --output /dev/null --reconnect-timeout 0 </dev/null 2>"$b.err" || true
  wait "$q" || true
  awk -v l="$label" -v s="$(stat -c %s "$b.raw")" '{ printf "%-28s %6.2f MB in %5.2f s = %5.2f MB/s; sonde CPU %4.2f s = %3.0f ms per MB\n", l, s / 1e6, $1, s / 1e6 / $1, $2 + $3, ($2 + $3) * 1000 / (s / 1e6) }' "$b.time"
  grep -E "^(target drops|link budget)" "$b.err" | sed 's/^/    /'
}
if [[ -n $SONDE_BENCH_SKIP_QEMU ]] || ! command -v qemu-system-arm >/dev/null || ! command -v arm-none-eabi-gcc >/dev/null ||
   [[ ! -x /usr/bin/time ]]; then
  echo "(QEMU, arm-none-eabi-gcc or /usr/bin/time missing, or SONDE_BENCH_SKIP_QEMU set: skipped)"
else
  rtt "up buffer 1 KiB" 100000
  rtt "up buffer 16 KiB" 400000 EXTRA_CFLAGS=-DSONDE_RTT_UP_SIZE=16384u
fi
