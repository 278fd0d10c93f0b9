#!/usr/bin/env bash
# test_float_formats.sh -- one float argument, one number in every output
# format (docs/cli.md, "Numbers"): a user record with float32 arguments
# (-0.562, 0.287, 1e-7, FLT_MAX, NaN, +-inf, the smallest subnormal, -0)
# and float64 ones, decoded to text, JSONL, CSV, Chrome JSON, the report
# page, SQLite and Perfetto.  The text formats print the same shortest
# decimal that reads back as the same float32 / float64; SQLite and
# Perfetto store the double of that decimal.  Before, text said -0.562, the
# report -0.561999977 and SQLite 0.287000000476837.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
: "${SONDE_SRC:?}"
command -v protoc >/dev/null || { echo "SKIP: protoc not found"; exit 77; }

F32S=(-0.562 0.287 1e-7 3.4028235e38 nan inf -inf 1e-45 -0.0)
F64S=(0.1 0.3333333333333333 5e-324 1.7976931348623157e308)
# what every text format prints for them, in order (JSON: no nan/inf)
WANT="-0.562 0.287 1e-07 3.4028235e+38 nan inf -inf 1e-45 -0 0.1 0.3333333333333333 5e-324 1.7976931348623157e+308"

bytes() { python3 -c "import struct,sys; print(*struct.pack('<' + sys.argv[1], float(sys.argv[2])))" "$1" "$2"; }
args=()
for v in "${F32S[@]}"; do args+=(9 $(bytes f "$v")); done
for v in "${F64S[@]}"; do args+=(10 $(bytes d "$v")); done
F=$TMP/floats.bin
{ session 1000; tsync 500 0xffffffff; tf 0x40 501 "${args[@]}"; } >"$F"

expect_rc 0 "$SONDE" decode "$F"
got=$(grep -o 'USER_0x40 .*' "$OUT" | cut -d' ' -f2-)
[[ $got == "$WANT" ]] || fail "text: '$got'"
expect_rc 0 "$SONDE" decode -f csv "$F"
got=$(tail -n 1 "$OUT" | tr -d '\r' | awk -F, '{print $NF}')
[[ $got == "$WANT" ]] || fail "csv: '$got'"
expect_rc 0 "$SONDE" report "$F" -o "$TMP/r.html"
grep -qF "arg0=-0.562 arg1=0.287 arg2=1e-07 arg3=3.4028235e+38 arg4=nan arg5=inf arg6=-inf arg7=1e-45 arg8=-0 arg9=0.1 arg10=0.3333333333333333 arg11=5e-324 arg12=1.7976931348623157e+308" \
	"$TMP/r.html" || fail "report: the arguments differ"
"$SONDE" decode -f jsonl "$F" >"$TMP/t.jsonl" || fail "jsonl"
"$SONDE" decode -f chrome "$F" >"$TMP/t.json" || fail "chrome"
"$SONDE" decode -f sqlite --output "$TMP/t.db" "$F" || fail "sqlite"
"$SONDE" decode -f perfetto --output "$TMP/t.pftrace" "$F" || fail "perfetto"
P=$SONDE_SRC/host/src/sinks
protoc --proto_path="$P" --decode=perfetto.protos.Trace "$P/perfetto_trace.proto" <"$TMP/t.pftrace" >"$TMP/t.txt" ||
	fail "protoc"

python3 - "$TMP" "$WANT" <<'PY' || fail "the formats differ"
import math, re, sqlite3, sys
T, want = sys.argv[1], sys.argv[2].split()
fails = []
def same(what, got, exp):
    if got != exp:
        fails.append(what)
        print(f"{what}: got {got}\n{' ' * len(what)}  expected {exp}")
# JSON: the tokens as written (a parser would hide them); no NaN in JSON
line = [l for l in open(f"{T}/t.jsonl") if '"USER_0x40"' in l][0]
jtok = re.findall(r'"value":([^,}]+)', line)
same("jsonl", jtok, [w if w not in ("nan", "inf", "-inf") else "null" for w in want])
chrome = open(f"{T}/t.json").read()
args = re.search(r'"args":\{("arg0".*?)\}', chrome).group(1)
ctok = re.findall(r'"arg\d+":([^,]+)', args)
named = {"nan": '"NaN"', "inf": '"Infinity"', "-inf": '"-Infinity"'}
same("chrome", ctok, [named.get(w, w) for w in want])
# the binary formats: the double of the printed decimal, exactly
exp = [float(w) for w in want]
def eq(a, b):
    return (a is None and math.isnan(b)) or (a is not None and (a == b or (math.isnan(a) and math.isnan(b)))
                                             and math.copysign(1, a) == math.copysign(1, b))
db = sqlite3.connect(f"{T}/t.db")
rows = [r[0] for r in db.execute(
    "select a.value from args a join records r on r.id = a.record where r.record = 'USER_0x40' order by a.idx")]
if len(rows) != len(exp) or not all(eq(a, b) for a, b in zip(rows, exp)):
    fails.append("sqlite"); print(f"sqlite: {rows}")
pf = [float(x) for x in re.findall(r"double_value: (\S+)", open(f"{T}/t.txt").read())]
if len(pf) != len(exp) or not all(eq(a, b) for a, b in zip(pf, exp)):
    fails.append("perfetto"); print(f"perfetto: {pf}")
sys.exit(1 if fails else 0)
PY
echo "PASS: 13 float arguments print and store alike in text, csv, the report, jsonl, chrome, sqlite and perfetto"
