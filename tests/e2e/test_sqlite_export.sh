#!/usr/bin/env bash
# test_sqlite_export.sh -- `--format sqlite`: the database opens in the
# sqlite3 shell, and the queries of docs/sql.md answer what `sonde stats`,
# `--format profile` and `--format jsonl` say of the same trace
# (tests/e2e/exports/sql_check.py), on the POSIX demo (clean, with target
# drops, and with a damaged frame) and on reference captures of the foreign
# protocols.  Also: standard output is refused, an existing file is
# replaced, a write error is reported.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 is not installed (scripts/deps.sh)"; exit 77; }
CHECK=$SONDE_SRC/tests/e2e/exports/sql_check.py
DEMO=$SONDE_BUILD/examples/posix-demo/posix-demo

"$DEMO" -t 200 -o "$TMP/demo.bin" 2>/dev/null || fail "posix-demo"
"$DEMO" -t 200 -m drop -b 512 -o "$TMP/drops.bin" 2>/dev/null || fail "posix-demo -m drop"
# a damaged frame in the middle: a loss, incomplete spans, a diagnostic
cp "$TMP/demo.bin" "$TMP/damaged.bin"
printf '\x55' | dd of="$TMP/damaged.bin" bs=1 seek=9000 conv=notrunc status=none

T=$SONDE_TESTDATA
inputs=("$TMP/demo.bin|sonde|" "$TMP/drops.bin|sonde|" "$TMP/damaged.bin|sonde|")
if [[ -d $T ]]; then
	inputs+=("$T/qs/dpp_posix-qv_x86.bin|qs|"
		"$T/syst/mix_64.bin|syst|-o syst.collateral=$T/syst/collateral.xml"
		"$T/tband/repo_examples_POSIX_FreeRTOS_log.bin|tband|"
		"$T/tband/bm_snapshot_rich.bin|tband|")
fi
n=0
for spec in "${inputs[@]}"; do
	IFS='|' read -r f proto extra <<<"$spec"
	n=$((n + 1))
	# shellcheck disable=SC2086
	common=("$f" --proto "$proto" -q $extra)
	"$SONDE" decode "${common[@]}" -f sqlite --output "$TMP/t$n.db"
	rc=$?
	[[ $rc -le 1 ]] || fail "sqlite export of $f: status $rc"
	"$SONDE" stats "${common[@]}" >"$TMP/stats$n.txt"
	"$SONDE" stats "${common[@]}" --format jsonl >"$TMP/stats$n.jsonl"
	"$SONDE" decode "${common[@]}" -f profile >"$TMP/prof$n.txt"
	"$SONDE" decode "${common[@]}" -f jsonl >"$TMP/ev$n.jsonl"
	[[ $(sqlite3 "$TMP/t$n.db" 'PRAGMA integrity_check') == ok ]] || fail "$f: the database is damaged"
	[[ $(sqlite3 "$TMP/t$n.db" 'SELECT count(*) FROM records') == $(wc -l <"$TMP/ev$n.jsonl") ]] ||
		fail "$f: not one row per event"
	echo "$(basename "$f"):"
	python3 "$CHECK" "$TMP/t$n.db" "$SONDE_SRC/docs/sql.md" "$TMP/stats$n.txt" "$TMP/stats$n.jsonl" \
		"$TMP/prof$n.txt" "$TMP/ev$n.jsonl" || fail "the SQL of $f differs from the CLI"
done
# the damaged trace really has a loss inside spans
[[ $(sqlite3 "$TMP/t3.db" 'SELECT count(*) FROM slices WHERE NOT complete') -gt 0 ]] ||
	fail "the damaged demo has no incomplete span"
[[ $(sqlite3 "$TMP/t3.db" "SELECT code FROM diagnostics LIMIT 1") == bad-checksum ]] ||
	fail "the damaged demo's bad frame is not in diagnostics"

# arguments: the demo's SAMPLE records carry named fields
[[ $(sqlite3 "$TMP/t1.db" "SELECT count(*) FROM args a JOIN records r ON r.id = a.record
	WHERE r.record = 'SAMPLE' AND a.name IS NOT NULL") -gt 0 ]] || fail "no named arguments of SAMPLE"

# standard output is refused; an existing file is replaced; a write error is said
expect_rc 2 "$SONDE" decode "$TMP/demo.bin" -f sqlite
expect_has "$ERR" "format 'sqlite' cannot write to standard output"
echo garbage >"$TMP/old.db"
expect_rc 0 "$SONDE" decode "$TMP/demo.bin" -f sqlite --output "$TMP/old.db"
[[ $(sqlite3 "$TMP/old.db" 'SELECT records FROM session') == $(wc -l <"$TMP/ev1.jsonl") ]] || fail "old file not replaced"
mkdir "$TMP/dir.db"
expect_rc 3 "$SONDE" decode "$TMP/demo.bin" -f sqlite --output "$TMP/dir.db"
expect_has "$ERR" "dir.db"
expect_rc 3 "$SONDE" decode "$TMP/demo.bin" -f sqlite --output "$TMP/no/such/dir/t.db"
expect_has "$ERR" "sonde: sqlite: $TMP/no/such/dir/t.db: cannot create it"
echo PASS
