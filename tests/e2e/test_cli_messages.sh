#!/usr/bin/env bash
# test_cli_messages.sh -- the one form of the tool's messages on stderr
# (docs/cli.md, "Messages"): a set of commands that fail in every stage --
# arguments, inputs, decoders, outputs, links -- and every line they print
# on stderr begins "sonde COMMAND: " ("sonde: " before a command is known),
# or is a decoder's diagnostic "FILE: offset N, frame N: CODE: ...".
# Before, the pipeline and the sinks said "sonde: adir: read error ..."
# while the commands said "sonde decode: cannot open 'x'".
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
cd "$TMP" || fail "cd"

mkdir adir notempty
: >notempty/x
head -c 3000 /dev/zero | tr '\0' x >xs.bin # no decoder recognises it
session 1000 >bad.bin                     # a Sonde stream with a damaged frame,
tsync 500 0xffffffff >>bad.bin            # cut inside the last one
tf 0x0c 501 1 | tr '\001' '\041' >>bad.bin
tf 0x0c 502 1 | head -c 3 >>bad.bin

DIAG='^[^ ]+: offset [0-9]+, frame [0-9]+: [a-z-]+: '
n=0
# check WANT_RC ARGS...: sonde ARGS fails with WANT_RC and says why, in the form
check() {
	local want=$1
	shift
	expect_rc "$want" "$SONDE" "$@"
	[[ -s $ERR ]] || fail "'sonde $*': nothing on stderr"
	local prefix="sonde: " # before a command is known
	[[ $1 == -* ]] || ! "$SONDE" help "$1" >/dev/null 2>&1 || prefix="sonde $1: "
	local line
	while IFS= read -r line; do
		[[ $line == "$prefix"* || $line =~ $DIAG ]] ||
			{ cat "$ERR"; fail "'sonde $*': a line without '$prefix': $line"; }
	done <"$ERR"
	n=$((n + 1))
}

# the two of the report, exactly
check 3 decode missing.bin
expect_line "$ERR" "sonde decode: cannot open 'missing.bin': No such file or directory"
check 3 decode adir
expect_line "$ERR" "sonde decode: adir: read error at offset 0: Is a directory"

# arguments
check 2 --frob
check 2 frobnicate
check 2 decode --frob
check 2 decode --format nope bad.bin
check 2 decode --proto nope bad.bin
check 2 decode -o novalue bad.bin
check 2 decode --from x bad.bin
check 2 stats --top 0 bad.bin
check 2 stats --window x bad.bin
check 2 help nope
check 2 decode - -
check 2 decode @1
check 2 decode -o core=1 bad.bin bad.bin
check 2 send stats
check 2 miniprof status
# inputs and decoders
check 3 stats adir
check 3 report adir -o r.html
check 3 decode bad.bin missing.bin
check 2 decode xs.bin
check 2 decode bad.bin xs.bin
check 2 decode --proto qs -o qs.obj=3 bad.bin
check 2 decode --elf "$TMP/missing.elf" bad.bin
check 1 decode bad.bin
check 1 decode --max-diags 1 bad.bin bad.bin
expect_line "$ERR" "sonde decode: 3 more diagnostics not shown (--max-diags)"
check 1 decode --max-diags 1 bad.bin
expect_line "$ERR" "sonde decode: bad.bin: 1 more diagnostics not shown (--max-diags)"
# outputs, and the options of the output formats
check 2 decode -f sqlite bad.bin
check 3 decode -f sqlite --output "$TMP/no/dir/t.db" bad.bin
check 3 decode -f ctf --output notempty bad.bin
check 2 decode -f perfetto -o perfetto.max_tracks=x --output p.pb bad.bin
expect_line "$ERR" "sonde decode: -o perfetto.max_tracks=x: expected a number from 8 to 1000000"
check 2 decode -f html -o report.max_items=5 --output r.html bad.bin
check 2 decode -f profile -o profile.sort=zz bad.bin
check 3 decode --output adir bad.bin
if [[ -w /dev/full ]]; then
	check 3 decode -f jsonl bad.bin --output /dev/full
	"$SONDE" decode -f jsonl bad.bin >/dev/full 2>"$ERR"
	expect_line "$ERR" "sonde decode: <stdout>: write error: No space left on device"
fi
# links
check 3 live "serial:$TMP/missing-tty"
check 2 live tcp://nohostport
check 3 live "$TMP/missing.bin"
check 2 send --link "serial:$TMP/missing-tty" stats
check 3 miniprof --link "$TMP/missing-tty" status

echo "PASS: $n failing commands, every line of their stderr in the form"
