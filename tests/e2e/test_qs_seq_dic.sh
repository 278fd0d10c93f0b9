#!/usr/bin/env bash
# test_qs_seq_dic.sh -- QSPY's sequence diagrams (-o qs.seq, QSPY -g) and
# dictionary files (-o qs.dic_save, QSPY -d) from `sonde decode --proto qs`.
#
# Always: lines of the DPP capture's diagram derived by hand from QSPY 7.4's
# rules (qspy_seq.c: lanes at column 19 + 20k, labels, the header every 100
# lines), the .dic file written at QF_RUN equal to the one QSPY wrote for the
# capture (testdata) and read back (round trip), the options' errors.
# With QTOOLS_PATH (a qtools 7.x tree): QSPY is built from it and both write
# the .seq and .dic files of every capture with several lane lists: the files
# must be equal byte for byte; qtools' own seq examples too.
set -euo pipefail
: "${SONDE:?}" "${SONDE_TESTDATA:?}"
D=$SONDE_TESTDATA/qs
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
has_line() { grep -qxF -- "$2" "$1" || fail "$1: no line '$2'"; }

# ---- the diagram, checked by hand --------------------------------------
"$SONDE" decode -p qs -f qspy -o 'qs.seq=?,Philo_inst[0],Table_inst' -o "qs.seq_file=$T/h.seq" \
	"$D/dpp_posix-qv_x86.bin" >"$T/h.txt" 2>"$T/h.err" || fail "decode with qs.seq: status $?"
[ ! -s "$T/h.err" ] || fail "qs.seq: diagnostics: $(head -3 "$T/h.err")"
cmp -s "$T/h.txt" <(tail -n +4 "$D/dpp_posix-qv_x86.qspy.txt") || fail "qs.seq changed the qspy lines"
box='           +-------+-------+   +-------+-------+   +-------+-------+'
names='           |       ?       |   | Philo_inst[0] |   |  Table_inst   |'
[ "$(sed -n 1p "$T/h.seq")" = '-g ?,Philo_inst[0],Table_inst' ] || fail "list line"
[ -z "$(sed -n 2p "$T/h.seq")" ] || fail "blank line after the list"
[ "$(sed -n 3,5p "$T/h.seq")" = "$box"$'\n'"$names"$'\n'"$box" ] || fail "header"
# QSPY counts the header's 3 lines: 97 record lines later it comes again
[ "$(sed -n 103,105p "$T/h.seq")" = "$box"$'\n'"$names"$'\n'"$box" ] || fail "header not repeated at line 103"
[ "$(grep -cxF "$box" "$T/h.seq")" = 4 ] || fail "headers: $(grep -cxF "$box" "$T/h.seq") box lines, want 4"
# a post from the system border (sender NULL, not a lane) to Philo_inst[0]
# (column 39): label 3 after the '*', '+' where the arrow crosses a lane
has_line "$T/h.seq" '4109801068         *--HUNGRY_SIG-------+------------------>|'
# a publish by the last lane: the label ends 2 columns before its '*'
has_line "$T/h.seq" '4109801161 . . . . / . . . . . . . . . | . . . . .EAT_SIG. * . . . '
# posts to the left: '<' right of the receiver's '|', label ends 2 before '*'
has_line "$T/h.seq" '4109801163         /<------------------+----------EAT_SIG--*'
has_line "$T/h.seq" '4109801167         /                   |<---------EAT_SIG--*'
# a post to the right between neighbours
has_line "$T/h.seq" '4113100988         /                   *--HUNGRY_SIG------>|'
# a transition: Philo_hungry -> "hungry", centred on column 39
has_line "$T/h.seq" '4113100991         /                <hungry>               |'
# every line of a record: the 10-digit timestamp, the system border at 19
bad=$(sed -n '6,102p' "$T/h.seq" | grep -cvE '^[0-9]{10} .{8}[/*]' || true)
[ "$bad" = 0 ] || fail "$bad record lines without the border at column 19"
echo "diagram: $(wc -l <"$T/h.seq") lines, hand-checked lines present"

# an 11th name: QSPY's notice, 10 lanes kept; a .seq file that cannot be made
"$SONDE" decode -p qs -f qspy -o 'qs.seq=a,b,c,d,e,f,g,h,i,j,k' -o "qs.seq_file=$T/m.seq" \
	"$D/dpp_posix-qv_x86.bin" >"$T/m.txt"
[ "$(head -2 "$T/m.txt")" = $'   <QSPY-> Too many names in the Sequence list\n   a,b,c,d,e,f,g,h,i,j,k' ] ||
	fail "too many names: $(head -2 "$T/m.txt")"
set +e
"$SONDE" decode -p qs -o qs.seq=x -o "qs.seq_file=$T/no/such/dir.seq" "$D/dpp_posix-qv_x86.bin" >/dev/null 2>"$T/e.err"
rc=$?
"$SONDE" decode -p qs -o "qs.seq_file=$T/x.seq" "$D/dpp_posix-qv_x86.bin" >/dev/null 2>"$T/e2.err"
rc2=$?
set -e
[ "$rc" != 0 ] && grep -q "Cannot open File=$T/no/such/dir.seq" "$T/e.err" || fail "unwritable .seq: status $rc, $(cat "$T/e.err")"
[ "$rc2" = 2 ] && grep -q "qs.seq_file" "$T/e2.err" || fail "qs.seq_file without qs.seq: status $rc2, $(cat "$T/e2.err")"

# ---- .dic files: written at QF_RUN, read back --------------------------
mkdir "$T/dic"
"$SONDE" decode -p qs -f qspy -o "qs.dic_save=$T/dic" "$D/dpp_posix-qv_x86.bin" >"$T/d.txt"
dic=$T/dic/qspy261121_235543.dic
[ -f "$dic" ] || fail "no $dic: $(ls "$T/dic")"
cmp "$dic" "$D/dpp_posix-qv_x86.dic" || fail "written .dic differs from QSPY's"
# QSPY's notice right after the QF_RUN line
grep -A1 -x '           QF_RUN' "$T/d.txt" | tail -1 | grep -qxF "   <QSPY-> Dictionaries saved to File=$dic" ||
	fail "notice after QF_RUN: $(grep -A1 QF_RUN "$T/d.txt")"
# round trip: the file written names the records of a stream without its dictionaries
"$SONDE" decode -p qs -f qspy -o "qs.dic=$dic" "$D/dpp_posix-qv_x86.bin" >"$T/r.txt"
[ "$(grep -c 'Reading dictionaries from File=' "$T/r.txt")" -ge 1 ] || fail "round trip: not read"
grep -v 'Reading dictionaries\|Dictionaries saved' "$T/r.txt" | cmp -s - <(tail -n +4 "$D/dpp_posix-qv_x86.qspy.txt") ||
	fail "round trip: lines differ"
echo ".dic: written as QSPY's, read back"

# ---- sonde qspy's -g and -d: the same files, under QSPY's names ---------
mkdir "$T/q"
(cd "$T/q" && "$SONDE" qspy -f "$D/dpp_posix-qv_x86.bin" -u0 -d -g '?,Philo_inst[0],Table_inst' \
	>"$T/q.txt" 2>"$T/q.err") || fail "sonde qspy -d -g: $(tail -3 "$T/q.err")"
qseq=$(ls "$T/q"/qspy*.seq 2>/dev/null | head -1)
[ -n "$qseq" ] || fail "sonde qspy -g wrote no qspy*.seq: $(ls "$T/q")"
cmp "$qseq" "$T/h.seq" || fail "sonde qspy -g: the diagram differs from decode's qs.seq"
cmp "$T/q/qspy261121_235543.dic" "$D/dpp_posix-qv_x86.dic" || fail "sonde qspy -d: the .dic differs from QSPY's"
grep -qF "Dictionaries saved to File=" "$T/q.txt" || fail "sonde qspy -d: no notice"
echo "sonde qspy -g, -d: the same files"

# ---- against QSPY itself -------------------------------------------------
if [ -z "${QTOOLS_PATH:-}" ]; then
	echo "SKIP (part): QTOOLS_PATH not set: the files were not compared with QSPY's (set it to a qtools 7.x tree)"
	exit 0
fi
src=$QTOOLS_PATH/qspy
if [ ! -f "$src/source/qspy_seq.c" ]; then
	# qtools 8.x ships QSPY without most of its sources
	echo "SKIP (part): QTOOLS_PATH=$QTOOLS_PATH has no qspy/source/qspy_seq.c to build QSPY from (a qtools 7.x tree has)"
	exit 0
fi
command -v gcc >/dev/null || { echo "SKIP: gcc not found (to build QSPY)"; exit 77; }
gcc -O2 -w -DQSPY_APP -DNDEBUG -I"$src/include" -I"$src/posix" "$src"/source/*.c "$src/posix/qspy_pal.c" -o "$T/qspy" ||
	fail "QSPY does not build from $src"
QSPY=$T/qspy
compare() { # capture-file list [qspy options...]
	local bin=$1 list=$2 q
	shift 2
	rm -rf "$T/q" "$T/s" && mkdir "$T/q" "$T/s"
	(cd "$T/q" && "$QSPY" -f "$bin" -u0 -k -r c0 -d -g "$list" "$@" </dev/null >/dev/null) || fail "qspy on $bin"
	"$SONDE" decode -p qs -f qspy -o "qs.seq=$list" -o "qs.seq_file=$T/s/s.seq" -o "qs.dic_save=$T/s" \
		"$bin" >/dev/null 2>&1 || true
	q=$(ls "$T"/q/*.seq)
	cmp "$q" "$T/s/s.seq" || { diff "$q" "$T/s/s.seq" | head; fail "$bin -g $list: .seq differs from QSPY's"; }
	for q in "$T"/q/*.dic; do
		[ -f "$q" ] || continue
		cmp "$q" "$T/s/$(basename "$q")" || fail "$bin: $(basename "$q") differs from QSPY's"
	done
	echo "$(basename "$bin") -g $list: equal to QSPY ($(wc -l <"$T/s/s.seq") lines$(ls "$T"/q/*.dic >/dev/null 2>&1 && echo ', .dic too'))"
}
for list in '?,Table_inst,Philo_inst[0],Philo_inst[1],Philo_inst[2],Philo_inst[3],Philo_inst[4]' \
	'l_clock_tick,Table_inst,?,Philo_inst[2]' 'NULL,Table_inst,Philo_inst[0]' 'Philo_inst[4],?' 'Table_inst' \
	'Table_inst,Philo_inst[0],' 'a,b,c,d,e,f,g,h,i,j,Table_inst'; do
	compare "$D/dpp_posix-qv_x86.bin" "$list"
done
for list in '?,TServer_inst' 'TServer_inst,?' 'NULL,TServer_inst,l_QF_onClockTick'; do
	compare "$D/defer_posix-qv_x64.bin" "$list"
done
compare "$D/qsfmt_user_formats_x86.bin" '?,objA,objB[1]'
# qtools' own examples: their command lines in the .bat files
for bat in "$src"/seq/test_*.bat "$src"/test/seq/test_*.bat; do
	[ -f "$bat" ] || continue
	list=$(grep -o ' -g [^ ]*' "$bat" | tr -d '\r' | head -1 | cut -c5-)
	bin=$(dirname "$bat")/$(grep -o ' -f [^ ]*' "$bat" | tr -d '\r' | head -1 | cut -c5-)
	[ -n "$list" ] && [ -f "$bin" ] && compare "$bin" "$list"
done
