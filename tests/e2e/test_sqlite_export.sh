#!/usr/bin/env bash
# test_sqlite_export.sh -- `--format sqlite`: the database opens in the
# sqlite3 shell, and the queries of docs/sql.md answer what `sonde stats`,
# `--format profile` and `--format jsonl` say of the same trace
# (tests/e2e/exports/sql_check.py), on the POSIX demo (clean, with target
# drops, and with a damaged frame), the reference captures of QS, SyS-T and
# Tonbandgeraet and a MiniProfiler capture (tests/e2e/exports/inputs.sh).
# Also: standard output is refused, an existing file is replaced, a path
# that cannot be written is an I/O error.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 is not installed (scripts/deps.sh)"; exit 77; }
source "$SONDE_SRC/tests/e2e/exports/inputs.sh"
CHECK=$SONDE_SRC/tests/e2e/exports/sql_check.py
export_inputs "$TMP"

for spec in "${INPUTS[@]}"; do
	IFS='|' read -r name f proto extra <<<"$spec"
	# shellcheck disable=SC2086
	args=("$f" --proto "$proto" -q $extra)
	"$SONDE" decode "${args[@]}" -f sqlite --output "$TMP/$name.db"
	[[ $? -le 1 ]] || fail "$name: the sqlite export failed"
	"$SONDE" stats "${args[@]}" >"$TMP/$name.stats.txt"
	"$SONDE" stats "${args[@]}" --format jsonl >"$TMP/$name.stats.jsonl"
	"$SONDE" decode "${args[@]}" -f profile >"$TMP/$name.prof"
	"$SONDE" decode "${args[@]}" -f jsonl >"$TMP/$name.jsonl"
	[[ $(sqlite3 "$TMP/$name.db" 'PRAGMA integrity_check') == ok ]] || fail "$name: the database is damaged"
	[[ $(sqlite3 "$TMP/$name.db" 'SELECT count(*) FROM records') == $(wc -l <"$TMP/$name.jsonl") ]] ||
		fail "$name: not one row per event"
	echo -n "$name: "
	python3 "$CHECK" "$TMP/$name.db" "$SONDE_SRC/docs/sql.md" "$TMP/$name.stats.txt" "$TMP/$name.stats.jsonl" \
		"$TMP/$name.prof" "$TMP/$name.jsonl" || fail "$name: the SQL differs from the CLI"
done
# the damaged trace has a loss inside spans, and its bad frame
[[ $(sqlite3 "$TMP/damaged.db" 'SELECT count(*) FROM slices WHERE NOT complete') -gt 0 ]] ||
	fail "the damaged demo has no incomplete span"
[[ $(sqlite3 "$TMP/damaged.db" "SELECT code FROM diagnostics LIMIT 1") == bad-checksum ]] ||
	fail "the damaged demo's bad frame is not in diagnostics"
# arguments: the demo's SAMPLE records carry named fields
[[ $(sqlite3 "$TMP/demo.db" "SELECT count(*) FROM args a JOIN records r ON r.id = a.record
	WHERE r.record = 'SAMPLE' AND a.name = 'milli_c'") -gt 0 ]] || fail "no named arguments of SAMPLE"

# standard output is refused; an existing file is replaced; an I/O error is said
expect_rc 2 "$SONDE" decode "$TMP/demo.bin" -f sqlite
expect_has "$ERR" "format 'sqlite' cannot write to standard output"
echo garbage >"$TMP/old.db"
expect_rc 0 "$SONDE" decode "$TMP/demo.bin" -f sqlite --output "$TMP/old.db"
[[ $(sqlite3 "$TMP/old.db" 'SELECT records FROM session') == $(wc -l <"$TMP/demo.jsonl") ]] || fail "old file not replaced"
mkdir "$TMP/dir.db"
expect_rc 3 "$SONDE" decode "$TMP/demo.bin" -f sqlite --output "$TMP/dir.db"
expect_has "$ERR" "dir.db: cannot replace it"
expect_rc 3 "$SONDE" decode "$TMP/demo.bin" -f sqlite --output "$TMP/no/such/dir/t.db"
expect_has "$ERR" "sonde decode: sqlite: $TMP/no/such/dir/t.db: cannot create it"
echo PASS
