#!/usr/bin/env bash
# test_cli_proto_hint.sh -- a capture decoded with the wrong --proto says
# which protocol it looks like (docs/cli.md, "Protocol detection"): the real
# captures of ../shared/testdata through every other decoder end with one
# line "sonde CMD: FILE: N errors in M frames decoded as X; the input looks
# like Y: try --proto Y", N at least M/20, and status 1.  Their own
# protocol, --proto auto, -q and a damaged stream of the named protocol
# give no hint.  Before, `--proto qs` on a Sonde capture printed 441 213
# lines of nonsense and nothing said why.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
: "${SONDE_TESTDATA:?}"
T=$SONDE_TESTDATA

HINT='^sonde (decode|stats): (.*): ([0-9]+) errors? in ([0-9]+) frames? decoded as ([a-z]+); the input looks like ([a-z]+): try --proto ([a-z]+)$'

# hint CMD PROTO FILE WANT: the last line of stderr is the hint for WANT
hint() {
	local cmd=$1 proto=$2 f=$3 want=$4
	expect_rc 1 "$SONDE" "$cmd" --proto "$proto" "$f"
	local last
	last=$(tail -n 1 "$ERR")
	[[ $last =~ $HINT ]] || { tail -n 3 "$ERR"; fail "$proto on $f: no hint"; }
	[[ ${BASH_REMATCH[1]} == "$cmd" && ${BASH_REMATCH[2]} == "$f" && ${BASH_REMATCH[5]} == "$proto" &&
		${BASH_REMATCH[6]} == "$want" && ${BASH_REMATCH[7]} == "$want" ]] ||
		fail "$proto on $f: wrong hint: $last"
	(( BASH_REMATCH[3] * 20 >= BASH_REMATCH[4] )) || fail "$proto on $f: a hint for few errors: $last"
	[[ $(grep -cE "$HINT" "$ERR") == 1 ]] || fail "$proto on $f: more than one hint"
}
# none CMD ARGS...: no hint
none() {
	"$SONDE" "$@" >/dev/null 2>"$ERR"
	! grep -qE "$HINT" "$ERR" || { grep -E "$HINT" "$ERR"; fail "'$*': a hint"; }
}

sonde_cap=$T/sonde/overflow_stop_live.bin
qs_cap=$T/qs/dpp_posix-qv_x86.bin
syst_cap=$T/syst/mix_32len.bin
tband_cap=$T/tband/repo_examples_POSIX_FreeRTOS_log.bin
for f in "$sonde_cap" "$qs_cap" "$syst_cap" "$tband_cap"; do
	[[ -r $f ]] || fail "missing test capture $f"
done

# the case of the report, for decode and stats
hint decode qs "$sonde_cap" sonde
hint stats qs "$sonde_cap" sonde
n=0
for pair in "sonde:$sonde_cap" "qs:$qs_cap" "syst:$syst_cap" "tband:$tband_cap"; do
	own=${pair%%:*} f=${pair#*:}
	for p in sonde qs syst tband miniprof; do
		[[ $p == "$own" ]] && continue
		hint decode "$p" "$f" "$own"
		n=$((n + 1))
	done
	none decode --proto "$own" "$f"
	none decode "$f"
done
# -q silences it with the diagnostics (the status still says)
expect_rc 1 "$SONDE" decode -q --proto sonde "$qs_cap"
[[ ! -s $ERR ]] || { cat "$ERR"; fail "-q: stderr not empty"; }

# a damaged Sonde stream (its TARGET_INFO makes the probe sure) decoded as
# sonde: errors in most frames, but no hint
F=$TMP/bad.bin
session 1000 >"$F"
for i in $(seq 1 10); do tf 0x0c $((500 + i)) 1 | tr '\001' '\041' >>"$F"; done
expect_rc 1 "$SONDE" decode --proto sonde "$F"
[[ $(grep -c 'bad-checksum' "$ERR") -ge 10 ]] || { cat "$ERR"; fail "damaged stream: not damaged"; }
none decode --proto sonde "$F"

echo "PASS: $n wrong protocols on 4 real captures named the right one; no hint where none belongs"
