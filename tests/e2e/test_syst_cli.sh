#!/usr/bin/env bash
# test_syst_cli.sh -- the SyS-T decoder through the `sonde` command line.
# Every test stream (length-prefixed .bin, raw .raw.bin, systprint's hex
# lines .hex.txt) decodes to the reference printer's CSV row for row, except
# rows where systprint is wrong: each of those is named by its bug
# (shared/notes/syst.md §14) and counted.  Also: --proto auto and stdin,
# broken streams (diagnostics with byte offset and message number, exit
# status 1, the rest decoded), option and collateral errors.
set -euo pipefail
: "${SONDE:?}" "${SONDE_TESTDATA:?}"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
TD=$SONDE_TESTDATA/syst
GUID='{494E5443-8A9C-4014-A65A-2F36A36D96E4}'
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/syst_lib.sh" # classify: our rows against the printer's, by printer bug
cd "$TD"   # the Collateral column shows the path as given, like systprint

check() { # file name container expected-classification
  local f=$1 name=$2 cont=$3 want=$4
  "$SONDE" decode --proto syst --format syst-csv -o syst.collateral=collateral.xml \
    -o syst.guid="$GUID" -o syst.container="$cont" "$f" >"$W/out" 2>"$W/err" \
    || fail "$f: exit status $?: $(head -3 "$W/err")"
  [ -s "$W/err" ] && fail "$f: diagnostics: $(head -3 "$W/err")"
  [ "$(wc -l <"$W/out")" = "$(wc -l <"$name.printer.csv")" ] || fail "$f: row count differs"
  got=$(classify "$W/out" "$name.printer.csv") || fail "$f: rows differ from $name.printer.csv"
  [ "$got" = "$want" ] || fail "$f: identical rows and named differences: got '$got', want '$want'"
  # the same from standard input with protocol and container detected
  "$SONDE" decode --format syst-csv -o syst.collateral=collateral.xml -o syst.guid="$GUID" - \
    <"$f" >"$W/out2" 2>"$W/err" || fail "$f (stdin, auto): exit status $?: $(head -3 "$W/err")"
  cmp -s "$W/out" "$W/out2" || fail "$f (stdin, auto): output differs"
  echo "ok: $f vs $name.printer.csv: $got identical + named differences"
}
# (identical rows, then rows per printer bug: P1 COMPACT ids, P2 "0x0x",
# P3 hex dumps, P5 64-bit addresses, P7 CLOCK, P9 32-bit %ld, P13 no NUL)
check mix_64.bin mix_64 len "230 P1=8 P2=4 P3=1 P5=8 P7=4 P9=0 P13=4"
check mix_64.hex.txt mix_64 hex "230 P1=8 P2=4 P3=1 P5=8 P7=4 P9=0 P13=4"
check mix_32len.bin mix_32len len "454 P1=16 P2=8 P3=1 P5=0 P7=8 P9=16 P13=8"
check mix_32len.hex.txt mix_32len hex "454 P1=16 P2=8 P3=1 P5=0 P7=8 P9=16 P13=8"
check lenonly_32.bin lenonly_32 len "230 P1=8 P2=4 P3=1 P5=0 P7=4 P9=8 P13=4"
check lenonly_32.raw.bin lenonly_32 raw "230 P1=8 P2=4 P3=1 P5=0 P7=4 P9=8 P13=4"

# ---- sonde stats counts the messages the container delimited as frames ----
"$SONDE" stats --proto syst -o syst.collateral=collateral.xml mix_64.bin >"$W/stats" 2>"$W/err" \
  || fail "stats: exit status $?: $(head -3 "$W/err")"
frames=$(awk '$1 == "frames" { print $2 }' "$W/stats")
records=$(awk '$1 == "records" { print $2 }' "$W/stats")
[ "$frames" = 258 ] && [ "$records" = 258 ] || fail "stats: frames '$frames', records '$records', expected 258 each"
echo "ok: stats: 258 frames, 258 records"

# ---- messages shorter than 4 bytes (checked against systprint) ------------
# systprint advances its context counter only for messages of 4 bytes or
# more; in the length-prefixed container a length below 4 still delimits its
# message: both rows say TOO_SHORT and the rest decodes.
{ sed -n 1,3p mix_64.hex.txt; echo "SYS-T RAW DATA: 3222"; echo "SYS-T RAW DATA: "; sed -n 4,6p mix_64.hex.txt; } >"$W/short.hex.txt"
cat >"$W/short.want" <<'CSV'
Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp,Context TimeStamp,Location,Raw Length,Checksum,Collateral
OK,"0x0001000200030004 holdout build 1.2.3",BUILD:LONG,MAX,demo,1,,0x0000000000000000,,48,,collateral.xml
OK,"0x00000000DEADBEEF",BUILD:LONG,INFO,demo,1,,0x0000000000000001,,28,,collateral.xml
OK,"severity MAX message",STRING:GENERIC,MAX,demo,1,,0x0000000000000002,,41,,collateral.xml
TOO_SHORT,"3222",,,,,,
TOO_SHORT,"",,,,,,
OK,"severity FATAL message",STRING:GENERIC,FATAL,demo,1,,0x0000000000000003,,43,,collateral.xml
OK,"severity ERROR message",STRING:GENERIC,ERROR,demo,1,,0x0000000000000004,,43,,collateral.xml
OK,"severity WARNING message",STRING:GENERIC,WARNING,demo,1,,0x0000000000000005,,45,,collateral.xml
CSV
python3 - "$W/short.hex.txt" "$W/short.bin" <<'PY'
import sys
out = bytearray()
for line in open(sys.argv[1]):
    b = bytes.fromhex(line.strip()[len("SYS-T RAW DATA:"):].strip())
    out += len(b).to_bytes(4, "little") + b
open(sys.argv[2], "wb").write(out)
PY
for f in short.hex.txt short.bin; do
  set +e
  "$SONDE" decode --proto syst --format syst-csv -o syst.collateral=collateral.xml -o syst.guid="$GUID" "$W/$f" \
    >"$W/short.got" 2>"$W/err"
  rc=$?
  set -e
  [ "$rc" = 1 ] || fail "$f: exit status $rc, expected 1"
  sed -i "s|$W/||" "$W/short.got"
  cmp -s "$W/short.want" "$W/short.got" || { diff "$W/short.want" "$W/short.got" >&2; fail "$f: rows differ from systprint's"; }
  [ "$(grep -c 'too-short' "$W/err")" = 2 ] || fail "$f: too-short diagnostics: $(cat "$W/err")"
done
echo "ok: messages shorter than 4 bytes as systprint (context counter, length container)"

# ---- a broken length-prefixed stream -------------------------------------
# message 0 @4   STRING "ok" (module 1 unit 2, LEN)   32 22 01 01 03 00 6F 6B 00
# @13            container length 0xFFFFFFFF: skipped
# message 1 @21  STRING "ok" with CHK, CRC wrong      32 26 01 01 03 00 6F 6B 00 + 4 bytes
# message 2 @38  cut off by the end of the input
printf '\x09\x00\x00\x00\x32\x22\x01\x01\x03\x00\x6F\x6B\x00\xFF\xFF\xFF\xFF\x0D\x00\x00\x00\x32\x26\x01\x01\x03\x00\x6F\x6B\x00\x00\x00\x00\x00\x09\x00\x00\x00\x32\x22' \
  >"$W/broken.bin"
set +e
"$SONDE" decode --proto syst --format syst-csv "$W/broken.bin" >"$W/out" 2>"$W/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "broken stream: exit status $rc, expected 1"
grep -q 'offset 13, frame 1: malformed: container length 4294967295' "$W/err" || fail "no bad-length diagnostic: $(cat "$W/err")"
grep -q 'offset 13, frame 1: garbage: 4 bytes skipped' "$W/err" || fail "no resync diagnostic: $(cat "$W/err")"
grep -q 'offset 21, frame 1: bad-checksum: message 1: CRC-32C mismatch' "$W/err" || fail "no CRC diagnostic: $(cat "$W/err")"
grep -q 'offset 34, frame 2: truncated' "$W/err" || fail "no truncation diagnostic: $(cat "$W/err")"
[ "$(sed -n 2p "$W/out")" = 'OK,"ok",STRING:GENERIC,WARNING,{00000000-0000-0001-0000-000000000000},2,,0x0000000000000000,,9,,' ] \
  || fail "message 0: $(sed -n 2p "$W/out")"
[ "$(sed -n 3p "$W/out")" = 'CHECKSUM_ERROR,"3226010103006F6B0000000000",,,,,,' ] || fail "message 1: $(sed -n 3p "$W/out")"
echo "ok: broken stream reported with offsets and message numbers"

# ---- hex lines mixed with other console output -----------------------------
printf 'example platform start\nSYS-T RAW DATA: 3222010103006F6B00\r\n  SYS-T RAW DATA: 00\nSYS-T RAW DATA: 32220101030078790\n' >"$W/lines.txt"
set +e
"$SONDE" decode --format syst-csv "$W/lines.txt" >"$W/out" 2>"$W/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "hex lines: exit status $rc, expected 1"
[ "$(wc -l <"$W/out")" = 2 ] || fail "hex lines: $(cat "$W/out")"
[ "$(grep -c malformed "$W/err")" = 2 ] || fail "hex lines: $(cat "$W/err")"
grep -q 'offset 59, frame 1: malformed: line ignored' "$W/err" || fail "hex lines: $(cat "$W/err")"
echo "ok: hex lines"

# ---- option and collateral errors ------------------------------------------
for o in syst.container=zip syst.guid=nonsense syst.collateral=/nonexistent.xml; do
  set +e
  "$SONDE" decode --proto syst -o "$o" mix_64.bin >/dev/null 2>"$W/err"
  rc=$?
  set -e
  [ "$rc" = 2 ] || fail "-o $o: exit status $rc, expected 2"
  [ -s "$W/err" ] || fail "-o $o: no message"
done
printf '<syst:Collateral xmlns:syst="http://www.mipi.org/1.0/sys-t">\n<syst:Client>\n</syst:Collateral>\n' >"$W/bad.xml"
set +e
"$SONDE" decode --proto syst -o syst.collateral="$W/bad.xml" mix_64.bin >/dev/null 2>"$W/err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "malformed collateral: exit status $rc, expected 2"
grep -q "offset 77, frame 0: malformed: collateral $W/bad.xml:3:3: mismatched tag" "$W/err" \
  || fail "malformed collateral: $(cat "$W/err")"
echo "ok: option and collateral errors"
