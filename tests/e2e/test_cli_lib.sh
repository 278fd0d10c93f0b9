#!/usr/bin/env bash
# test_cli_lib.sh -- helpers for the CLI end-to-end tests: writing Sonde
# frames (escaped, checksummed) from bash, in protocol version 2 or 1, and
# checking commands.  The other test_cli_*.sh source it; run on its own (as
# ctest does) it checks its own encoder against the protocol's worked
# examples, byte for byte.

# sonde_frame SEQ ID [BYTE...]: one frame on stdout.
sonde_frame() {
	local sum=0 b out=""
	for b in "$@"; do sum=$(( (sum + b) & 255 )); done
	for b in "$@" $(( ~sum & 255 )); do
		b=$(( b & 255 ))
		if (( b == 0x7e || b == 0x7d )); then
			out+=$(printf '\\x7d\\x%02x' $(( b ^ 0x20 )))
		else
			out+=$(printf '\\x%02x' "$b")
		fi
	done
	printf "$out\\x7e"
}

# Little-endian byte lists, and a NUL-terminated string, as arguments.
le16() { echo $(( $1 & 255 )) $(( ($1 >> 8) & 255 )); }
le32() { echo $(le16 $(( $1 & 0xffff ))) $(le16 $(( ($1 >> 16) & 0xffff ))); }
le64() { echo $(le32 $(( $1 & 0xffffffff ))) $(le32 $(( ($1 >> 32) & 0xffffffff ))); }
strz() { local s=$1 i; for (( i = 0; i < ${#s}; i++ )); do printf '%d ' "'${s:i:1}"; done; echo 0; }

# ts2 DELTA [WIDTH]: a version-2 timestamp field (docs/protocol.md §5), in
# the narrowest width or the one given, as byte arguments.
ts2() {
	local d=$1 w=${2:-0}
	(( w )) || w=$(( d < 0x80 ? 1 : d < 0x4000 ? 2 : d < 0x200000 ? 3 : 4 ))
	local tags=(0 0 0x8000 0xC00000 0xE0000000) i v
	v=$(( d | ${tags[w]} ))
	for (( i = 0; i < w; i++ )); do printf '%d ' $(( (v >> (8 * i)) & 255 )); done
	echo
}

# A stream writer with its own sequence numbers: sf ID BYTES...
SEQ=0
sf() { sonde_frame "$SEQ" "$@"; SEQ=$(( (SEQ + 1) & 255 )); }
skip_seq() { SEQ=$(( (SEQ + $1) & 255 )); }
# The stream's protocol version (2, the target's; 1 for old captures).
VER=2
# session FREQ: EMPTY and a TARGET_INFO (version $VER, reset, 4-byte addresses)
session() { SEQ=0; sf 0; sf 1 "$VER" 2 4 0 0 $(( VER == 1 ? 2 : 0 )) $(le32 "$1") $(le32 4096) $(le32 0x12345678); }
# Timed frames by their absolute time, in version $VER:
#   tsync T SINCE      TIME_SYNC at T, SINCE ticks after the previous timed frame
#   tf ID T FIELDS...  a timed record at T (v1: T's low 16 bits first; v2: the
#                      delta since the previous timed frame, last)
LAST_T=0
tsync() { sf 2 $(le64 "$1") $(le32 "$2"); LAST_T=$1; }
tf() {
	local id=$1 t=$2
	shift 2
	if (( VER == 1 )); then sf "$id" $(le16 "$t") "$@"; else sf "$id" "$@" $(ts2 $(( t - LAST_T ))); fi
	LAST_T=$t
}

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_rc WANT CMD...: run CMD (stdout to $OUT, stderr to $ERR), check status.
expect_rc() {
	local want=$1; shift
	"$@" >"$OUT" 2>"$ERR"
	local rc=$?
	if [[ $rc != "$want" ]]; then
		echo "--- stdout"; cat "$OUT"; echo "--- stderr"; cat "$ERR"
		fail "'$*' exited $rc, expected $want"
	fi
}
# expect_in FILE TEXT: a line of FILE equals TEXT exactly.
expect_line() { grep -qxF -- "$2" "$1" || { cat "$1"; fail "no line '$2' in $1"; }; }
expect_has() { grep -qF -- "$2" "$1" || { cat "$1"; fail "'$2' not in $1"; }; }

setup() {
	: "${SONDE:?SONDE must name the sonde binary}"
	TMP=$(mktemp -d)
	trap 'rm -rf "$TMP"' EXIT
	OUT=$TMP/out
	ERR=$TMP/err
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -u
	TMP=$(mktemp -d)
	trap 'rm -rf "$TMP"' EXIT
	# docs/protocol.md §1: SEQ 0x7E, ID 0x7D, DATA 7D 08 01 -> 7D 5E 7D 5D 7D 5D 08 01 7D 5E 7E
	sonde_frame 0x7e 0x7d 0x7d 0x08 0x01 >"$TMP/f"
	got=$(od -An -tx1 -v "$TMP/f" | tr -s ' \n' ' ')
	[[ $got == " 7d 5e 7d 5d 7d 5d 08 01 7d 5e 7e " ]] || fail "seed example: got '$got'"
	[[ $(le32 0x7e7d0102) == "2 1 125 126" ]] || fail "le32"
	[[ $(strz 'a~') == "97 126 0" ]] || fail "strz"
	# §5: a 2-byte field for 908 ticks is 8C 83; the edges of every width
	[[ $(ts2 908) == "140 131 " ]] || fail "ts2 908: $(ts2 908)"
	[[ $(ts2 0x7f) == "127 " && $(ts2 0x80) == "128 128 " && $(ts2 0x3fff) == "255 191 " ]] || fail "ts2 1-2"
	[[ $(ts2 0x4000) == "0 64 192 " && $(ts2 0xfffffff) == "255 255 255 239 " ]] || fail "ts2 3-4"
	[[ $(ts2 5 4) == "5 0 0 224 " ]] || fail "ts2 wide"
	# the worked example of §5 as a frame: ISR_ENTER, DATA 05 8C 83
	LAST_T=1000
	SEQ=3
	tf 5 1908 5 >"$TMP/f"
	got=$(od -An -tx1 -v "$TMP/f" | tr -s ' \n' ' ')
	[[ $got == " 03 05 05 8c 83 $(printf '%02x' $(( ~(3 + 5 + 5 + 0x8c + 0x83) & 255 ))) 7e " ]] || fail "tf v2: got '$got'"
	VER=1 tf 5 $(( 0x1234 )) 5 >"$TMP/f"
	got=$(od -An -tx1 -v "$TMP/f" | tr -s ' \n' ' ')
	[[ $got == " 04 05 34 12 05 $(printf '%02x' $(( ~(4 + 5 + 0x34 + 0x12 + 5) & 255 ))) 7e " ]] || fail "tf v1: got '$got'"
	echo "ok"
fi
