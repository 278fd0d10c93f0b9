#!/usr/bin/env bash
# sonde-test: once
# test_cli_help.sh -- the help, the manual and the completions say what the
# program does, and cannot drift from it:
#  - `sonde help --help`, `sonde help -h` and `sonde help --list` work; the
#    top-level help lists every exit status (0 1 2 3 4 128+N);
#  - docs/cli.md's generated tables are what `sonde help --list` says
#    (scripts/cli_docs.py --check): every command, every option;
#  - every option `help --list` names is one the command takes, and every
#    word of a COMMAND operand (send, miniprof) is a command it knows;
#  - the bash completion offers the commands, each command's options, the
#    words of `send` and `miniprof`, the commands after `help` -- and file
#    names only where a file goes;
#  - `cmake --install` puts the documents the manual page points to where
#    it says they are;
#  - posix-demo --help.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
: "${SONDE_SRC:?}" "${SONDE_BUILD:?}"

# ---- help ----------------------------------------------------------------
for h in --help -h; do
	expect_rc 0 "$SONDE" help $h
	expect_has "$OUT" "usage: sonde help [COMMAND]"
done
expect_rc 2 "$SONDE" help --frob
expect_has "$ERR" "sonde help: unknown option '--frob'"
expect_rc 2 "$SONDE" help decode stats
expect_rc 0 "$SONDE" --help
for s in "0 clean stream" "1 the stream had errors" "2 usage error" "3 I/O error" "4 the target refused" "128+N stopped by signal N"; do
	expect_has "$OUT" "$s"
done
expect_rc 0 "$SONDE" help --list
cp "$OUT" "$TMP/list"
cmds=$(awk -F'\t' '$1 == "command" { print $2 }' "$TMP/list")
[[ $(echo $cmds) == "$("$SONDE" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { printf "%s ", $1 } on && !/^  / { exit }' | sed 's/ $//')" ]] ||
	fail "help --list and --help differ on the commands: $cmds"
for c in decode stats live send report miniprof help; do
	grep -q "^command	$c	" "$TMP/list" || fail "help --list: no command $c"
done
expect_rc 0 "$SONDE" help --list stats
grep -v "	stats	" "$OUT" && fail "help --list stats lists other commands"
for o in "-f	--format	NAME" "-	--window	T" "-	--top	N"; do
	grep -qF "option	stats	$o	" "$OUT" || fail "help --list stats: no '$o'"
done

# ---- docs/cli.md -----------------------------------------------------------
cp "$SONDE_SRC/docs/cli.md" "$TMP/cli.md"
python3 "$SONDE_SRC/scripts/cli_docs.py" "$SONDE" "$TMP/cli.md" --check ||
	fail "docs/cli.md differs from the program's tables (run scripts/cli_docs.py)"
for want in '| `report` |' '| `miniprof` |' '| `--window` | `T` |' '| `--obj-size` | `BYTES` |' '| `--ts-size` | `BYTES` |'; do
	grep -qF -- "$want" "$TMP/cli.md" || fail "docs/cli.md: no '$want'"
done
# the check fails on a document that drifted: an option dropped
grep -vF -- '| `--top` |' "$TMP/cli.md" >"$TMP/drift.md"
python3 "$SONDE_SRC/scripts/cli_docs.py" "$SONDE" "$TMP/drift.md" --check >/dev/null 2>&1 &&
	fail "cli_docs.py --check passes a document without --top"

# ---- the tables are the program's: options taken, words known --------------
while IFS=$'\t' read -r _ c short long arg _; do
	for o in $short $long; do
		[[ $o == - || $o == -- ]] && continue
		v=()
		[[ $arg != - ]] && v=(x)
		"$SONDE" "$c" "$o" "${v[@]}" --help >/dev/null 2>"$ERR"
		grep -q "unknown option" "$ERR" && fail "sonde $c does not take its listed option $o: $(cat "$ERR")"
	done
done < <(grep "^option	" "$TMP/list")
while IFS=$'\t' read -r _ c w; do
	case $c in
	help) "$SONDE" help "$w" >/dev/null 2>"$ERR" || fail "sonde help $w: $(cat "$ERR")" ;;
	send)
		"$SONDE" send --link tcp://127.0.0.1:1 --timeout 0.1 --retries 0 "$w" >/dev/null 2>"$ERR"
		"$SONDE" send --proto qs --link tcp://127.0.0.1:1 --timeout 0.1 --retries 0 "$w" >/dev/null 2>"$TMP/err2"
		grep -q "unknown" "$ERR" && grep -q "unknown" "$TMP/err2" && fail "sonde send: '$w' is listed but unknown"
		;;
	miniprof)
		"$SONDE" miniprof --link /nonexistent/tty "$w" >/dev/null 2>"$ERR"
		grep -q "unknown command" "$ERR" && fail "sonde miniprof: '$w' is listed but unknown"
		;;
	*) fail "words for $c" ;;
	esac
done < <(grep "^word	" "$TMP/list")
[[ $(grep -c "^word	send	" "$TMP/list") -ge 12 && $(grep -c "^word	miniprof	" "$TMP/list") -eq 6 ]] ||
	fail "words: $(grep '^word' "$TMP/list" | tr '\n' ' ')"

# ---- bash completion ---------------------------------------------------------
mkdir "$TMP/cwd" && touch "$TMP/cwd/zzfile.bin"
(cd "$TMP/cwd" && PATH=$(dirname "$SONDE"):$PATH bash -c '
	source "$1"
	t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _sonde; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; echo; }
	t sonde ""
	t sonde send ""
	t sonde send --link tcp://h:1 -q gl
	t sonde send --link tcp://h:1 peek ""
	t sonde help ""
	t sonde help decode ""
	t sonde miniprof -l /dev/x ""
	t sonde decode ""
	t sonde stats --
	t sonde live -w ""' _ "$SONDE_SRC/host/share/sonde.bash") >"$TMP/compl"
line() { sed -n "$1p" "$TMP/compl"; }
words() { awk -F'\t' -v c="$1" '$1 == "word" && $2 == c { print $3 }' "$TMP/list" | sort | tr '\n' ' '; }
[[ $(line 1) == "$(printf '%s\n' $cmds --help --version | sort | tr '\n' ' ')" ]] || fail "sonde <TAB>: $(line 1)"
[[ $(line 2) == "$(words send)" ]] || fail "sonde send <TAB>: '$(line 2)', want '$(words send)'"
[[ $(line 3) == "glb-filter " ]] || fail "sonde send ... gl<TAB>: $(line 3)"
[[ -z $(line 4 | tr -d ' ') ]] || fail "sonde send ... peek <TAB>: $(line 4)"
[[ $(line 5) == "$(printf '%s\n' $cmds | sort | tr '\n' ' ')" ]] || fail "sonde help <TAB>: $(line 5)"
[[ -z $(line 6 | tr -d ' ') ]] || fail "sonde help decode <TAB>: $(line 6)"
[[ $(line 7) == "$(words miniprof)" ]] || fail "sonde miniprof <TAB>: $(line 7)"
[[ $(line 8) == "zzfile.bin " ]] || fail "sonde decode <TAB>: $(line 8)"
want=$(awk -F'\t' '$1 == "option" && $2 == "stats" && $4 != "-" { print $4 }' "$TMP/list" | sort | tr '\n' ' ')
[[ $(line 9) == "$want" ]] || fail "sonde stats --<TAB>: '$(line 9)', want '$want'"
[[ $(line 10) == "zzfile.bin " ]] || fail "sonde live -w <TAB>: $(line 10)"

# ---- installed documents: where the manual page says ----------------------------
# (the build's own prefix: the page names the paths it was built for)
DESTDIR=$TMP/root cmake --install "$SONDE_BUILD" >"$TMP/install.log" || fail "cmake --install"
man=$(find "$TMP/root" -path '*/man1/sonde.1')
docdir=$(sed -n '/^The documentation, installed in$/{n;s/^\.IR \(.*\) :$/\1/p}' "$man")
[[ $docdir == /*/share/doc/sonde ]] || fail "manual page: documents in '$docdir'"
for d in $(sed -n '/^\.SH SEE ALSO/,$p' "$man" | grep -o '[a-zA-Z_-]*\.md' | sort -u); do
	[[ -f $TMP/root$docdir/$d ]] || fail "manual page names $d, not installed in $docdir"
done
for d in "$SONDE_SRC"/docs/*.md "$SONDE_SRC/README.md"; do
	cmp -s "$d" "$TMP/root$docdir/$(basename "$d")" || fail "$(basename "$d") not installed in $docdir"
done

# ---- posix-demo -----------------------------------------------------------------
DEMO=$SONDE_BUILD/examples/posix-demo/posix-demo
expect_rc 0 "$DEMO" --help
expect_has "$OUT" "usage: posix-demo"
expect_has "$OUT" "-h, --help"
expect_rc 0 "$DEMO" -h
expect_rc 2 "$DEMO" --frob
expect_has "$ERR" "posix-demo --help"
echo "PASS"
