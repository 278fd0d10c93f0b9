#!/usr/bin/env bash
# test_cli_lib.sh -- helpers for the CLI end-to-end tests: writing Sonde
# frames (escaped, checksummed) from bash, and checking commands.  The other
# test_cli_*.sh source it; run on its own (as ctest does) it checks its own
# frame encoder against the protocol's worked example, byte for byte.

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

# A stream writer with its own sequence numbers: sf ID BYTES...
SEQ=0
sf() { sonde_frame "$SEQ" "$@"; SEQ=$(( (SEQ + 1) & 255 )); }
skip_seq() { SEQ=$(( (SEQ + $1) & 255 )); }
# session FREQ: EMPTY and a TARGET_INFO (version 1, reset, 4-byte addresses)
session() { SEQ=0; sf 0; sf 1 1 2 4 0 0 2 $(le32 "$1") $(le32 4096) $(le32 0x12345678); }

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
	echo "ok"
fi
