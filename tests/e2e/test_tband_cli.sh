#!/usr/bin/env bash
# test_tband_cli.sh -- the tband decoder through the `sonde` command line:
# the reference traces decode to exactly the reference decoder's dump
# (--format tband-jsonl), from a file, from stdin and with --proto auto; a
# broken stream is reported with byte offsets and frame numbers and the rest
# is still decoded; the mode and core options and their errors.
set -euo pipefail
: "${SONDE:?}" "${SONDE_TESTDATA:?}"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
TD=$SONDE_TESTDATA/tband
fail() { echo "FAIL: $*" >&2; exit 1; }

# ---- the reference traces: byte-identical to `tband-cli dump` -------------
check() { # file mode
  local f=$1 mode=$2 base=${1%.bin}
  "$SONDE" decode --proto tband -o tband.mode="$mode" --format tband-jsonl "$TD/$f" \
    >"$W/out" 2>"$W/err" || fail "$f: exit status $?"
  [ -s "$W/err" ] && fail "$f: diagnostics: $(head -3 "$W/err")"
  cmp "$W/out" "$TD/$base.expected.jsonl" || fail "$f: output differs from $base.expected.jsonl"
  # the same from standard input, with the protocol detected
  "$SONDE" decode --format tband-jsonl -o tband.mode="$mode" - <"$TD/$f" >"$W/out2" \
    || fail "$f (stdin, auto): exit status $?"
  cmp "$W/out2" "$TD/$base.expected.jsonl" || fail "$f (stdin, auto): output differs"
  echo "ok: $f matches $base.expected.jsonl"
}
check repo_baremetal_integration_simtarget.bin baremetal
check bm_snapshot_rich.bin baremetal
check repo_examples_POSIX_FreeRTOS_log.bin freertos

# the default mode (freertos) decodes bare-metal traces the same
"$SONDE" decode --proto tband --format tband-jsonl "$TD/bm_snapshot_rich.bin" >"$W/out"
cmp "$W/out" "$TD/bm_snapshot_rich.expected.jsonl" || fail "default mode differs on bm_snapshot_rich"

# ---- a FreeRTOS trace decoded as bare-metal ---------------------------------
# every FreeRTOS frame is reported (exit status 1), the base frames still decode
set +e
"$SONDE" decode --proto tband -o tband.mode=baremetal --format tband-jsonl --max-diags 0 \
  "$TD/repo_examples_POSIX_FreeRTOS_log.bin" >"$W/out" 2>"$W/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "bare-metal decode of a FreeRTOS trace: exit status $rc, expected 1"
want=$(grep -c '^{"FreeRTOS' "$TD/repo_examples_POSIX_FreeRTOS_log.expected.jsonl")
got=$(grep -c 'unknown event id' "$W/err")
[ "$got" = "$want" ] || fail "expected $want unknown-id diagnostics, got $got"
grep -v '^{"FreeRTOS' "$TD/repo_examples_POSIX_FreeRTOS_log.expected.jsonl" | cmp - "$W/out" \
  || fail "base events of the FreeRTOS trace differ in bare-metal mode"

# ---- a broken stream ----------------------------------------------------------
# frame 0  @0   isr_enter(ts 10, isr 0)      03 04 0A 01 00
# frame 1  @5   bad COBS (code 05 > frame)   05 11 22 00
# frame 2  @9   unknown id 0x0C              03 0C 01 01 00
# frame 3  @14  isr_exit(ts 12, isr 0)       03 05 0C 01 00
# frame 4  @19  cut off by the end           03 04
printf '\x03\x04\x0A\x01\x00\x05\x11\x22\x00\x03\x0C\x01\x01\x00\x03\x05\x0C\x01\x00\x03\x04' \
  >"$W/broken.bin"
set +e
"$SONDE" decode --proto tband --format tband-jsonl "$W/broken.bin" >"$W/out" 2>"$W/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "broken stream: exit status $rc, expected 1"
cat >"$W/want" <<'EOF'
{"Base":{"ts":10,"kind":{"IsrEnter":{"isr_id":0}}}}
{"Base":{"ts":12,"kind":{"IsrExit":{"isr_id":0}}}}
EOF
cmp "$W/out" "$W/want" || fail "broken stream: good frames not decoded"
grep -q 'offset 5, frame 1: .*bad COBS' "$W/err" || fail "no bad-COBS report: $(cat "$W/err")"
grep -q 'offset 10, frame 2: .*unknown event id 0x0c' "$W/err" || fail "no unknown-id report"
grep -q 'offset 19, frame 4: .*2 bytes without a 0x00' "$W/err" || fail "no truncation report"
[ "$(wc -l <"$W/err")" = 3 ] || fail "expected 3 diagnostics: $(cat "$W/err")"

# ---- options ------------------------------------------------------------------
set +e
"$SONDE" decode --proto tband -o tband.mode=posix "$W/broken.bin" >/dev/null 2>"$W/err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "bad tband.mode: exit status $rc, expected 2"
grep -q 'tband.mode=posix' "$W/err" || fail "bad tband.mode not explained: $(cat "$W/err")"
set +e
"$SONDE" decode --proto tband -o core=4 "$W/broken.bin" >/dev/null 2>"$W/err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "core=4: exit status $rc, expected 2"

# -o core=N puts every event on core N (one file per core, merged later)
"$SONDE" decode --proto tband -o core=3 --format jsonl \
  "$TD/repo_baremetal_integration_simtarget.bin" >"$W/out"
[ "$(grep -c '"core":3' "$W/out")" = 19 ] || fail "core=3: not every event on core 3"

# ---- the text output shows names, ns times and nesting --------------------
"$SONDE" decode --proto tband -o tband.mode=baremetal "$TD/bm_snapshot_rich.bin" >"$W/out"
grep -q 'DMA1_CH3' "$W/out" || fail "text output lacks the ISR name DMA1_CH3"
[ "$(wc -l <"$W/out")" -ge 779 ] || fail "text output: fewer lines than frames"
echo "ok: tband CLI"
