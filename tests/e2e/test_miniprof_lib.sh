#!/usr/bin/env bash
# test_miniprof_lib.sh -- helpers for the MiniProfiler end-to-end tests
# (test_miniprof_*.sh source it): start the device simulator on a pty and
# always stop it, compute a CRC-16/CCITT-FALSE in bash, check commands.
# Run on its own (as ctest does) it checks the simulator itself against the
# protocol document, byte for byte, without the host code: GET_METADATA
# written by hand, the answer read back raw, its CRC computed here.

source "$(dirname "${BASH_SOURCE[0]}")/wait_lib.sh" # wait_for, $HANG

mp_fail() { echo "FAIL: $*" >&2; exit 1; }

# mp_setup: a work directory and the cleanup of everything started.
mp_setup() {
	: "${SONDE:?SONDE must name the sonde binary}" "${SONDE_SRC:?}" "${SONDE_BUILD:?}"
	W=$(mktemp -d)
	MP_PIDS=()
	trap mp_cleanup EXIT
	trap 'exit 1' INT TERM
	OUT=$W/out
	ERR=$W/err
	SIM=$SONDE_BUILD/tools/miniprof-sim/miniprof-sim
	[[ -x $SIM ]] || mp_fail "$SIM is not built (the top-level build builds tools/miniprof-sim)"
}

mp_cleanup() {
	local p
	for p in "${MP_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${MP_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$W"
}

# mp_sim_start [OPTIONS...]: start the simulator on a new pty; sets PTY and
# SIM_PID.  It exits by itself after $HANG s without commands should the
# cleanup ever be skipped.
mp_sim_start() {
	local log=$W/sim.$RANDOM
	"$SIM" --idle-exit "$HANG" "$@" >"$log.out" 2>"$log.err" &
	SIM_PID=$!
	MP_PIDS+=("$SIM_PID")
	wait_for -p "$SIM_PID" -l "$log.err" grep -sq '^miniprof-sim: \(pty\|tty\) ' "$log.out" ||
		mp_fail "the simulator did not start ($*)"
	PTY=$(sed -n 's/^miniprof-sim: \(pty\|tty\) //p' "$log.out")
}

mp_sim_stop() {
	kill "$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
}

# mp_crc16 FILE OFFSET LEN: CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF)
# of LEN bytes of FILE from OFFSET, as 4 hex digits.
mp_crc16() {
	local crc=$((0xFFFF)) b i
	for b in $(od -An -v -tu1 -j "$2" -N "$3" "$1"); do
		crc=$((crc ^ (b << 8)))
		for ((i = 0; i < 8; i++)); do
			if ((crc & 0x8000)); then
				crc=$((((crc << 1) ^ 0x1021) & 0xFFFF))
			else
				crc=$(((crc << 1) & 0xFFFF))
			fi
		done
	done
	printf '%04x' "$crc"
}

# mp_le16 FILE OFFSET: the little-endian 16-bit value there, 4 hex digits.
mp_le16() {
	local b
	b=($(od -An -v -tu1 -j "$2" -N 2 "$1"))
	printf '%04x' $((b[0] | (b[1] << 8)))
}

# mp_hex FILE OFFSET LEN: the bytes as "aa 55 ..." (lower case).
mp_hex() {
	od -An -v -tx1 -j "$2" -N "$3" "$1" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}

# expect_rc WANT CMD...: run CMD (stdout to $OUT, stderr to $ERR), check the status.
expect_rc() {
	local want=$1 rc
	shift
	"$@" >"$OUT" 2>"$ERR"
	rc=$?
	if [[ $rc != "$want" ]]; then
		echo "--- stdout"; cat "$OUT"; echo "--- stderr"; cat "$ERR"
		mp_fail "'$*' exited $rc, expected $want"
	fi
}
expect_line() { grep -qxF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; mp_fail "no line '$2' in $1"; }; }
expect_lines() { # FILE N: exactly N lines
	local n
	n=$(wc -l <"$1")
	[[ $n == "$2" ]] || { echo "--- $1:"; cat "$1"; mp_fail "$1 has $n lines, expected $2"; }
}
expect_empty() { [[ ! -s $1 ]] || { echo "--- $1:"; cat "$1"; mp_fail "$1 is not empty"; }; }

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -u
	mp_setup
	# the CRC of the catalogue check string
	printf '123456789' >"$W/check"
	[[ $(mp_crc16 "$W/check" 0 9) == 29b1 ]] || mp_fail "crc16 check value"

	mp_sim_start --build-id 0x12345678 --fw v2.3.4
	exec 3<>"$PTY"
	# GET_METADATA as the document shows it
	printf '\x55\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x5a' >&3
	timeout -k 5 "$HANG" dd bs=1 count=36 of="$W/meta" <&3 2>/dev/null || mp_fail "no METADATA from the simulator"
	# header, METADATA, 28 bytes; 168 MHz, 1 MHz, the build id, "v2.3.4"; CRC; end
	want="aa 55 03 1c 00 00 7a 03 0a 40 42 0f 00 78 56 34 12 76 32 2e 33 2e 34 00 00 00 00 00 00 00 00 00 00"
	[[ $(mp_hex "$W/meta" 0 33) == "$want" ]] || mp_fail "METADATA bytes: $(mp_hex "$W/meta" 0 36)"
	[[ $(mp_le16 "$W/meta" 33) == $(mp_crc16 "$W/meta" 0 33) ]] || mp_fail "METADATA CRC"
	[[ $(mp_hex "$W/meta" 35 1) == 0a ]] || mp_fail "METADATA end marker"
	# a command with a wrong checksum: NACK
	printf '\x55\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >&3
	timeout -k 5 "$HANG" dd bs=1 count=8 of="$W/nack" <&3 2>/dev/null || mp_fail "no NACK from the simulator"
	[[ $(mp_hex "$W/nack" 0 5) == "aa 55 02 00 00" && $(mp_le16 "$W/nack" 5) == $(mp_crc16 "$W/nack" 0 5) ]] \
		|| mp_fail "NACK bytes: $(mp_hex "$W/nack" 0 8)"
	exec 3>&-
	# the host decodes what the simulator sent
	"$SONDE" decode --proto miniprof "$W/meta" >"$OUT" 2>"$ERR" || mp_fail "decoding the METADATA"
	expect_line "$OUT" '           -               - METADATA mcu_clock_hz=168000000 timer_freq=1000000 elf_build_id=0x12345678 fw_version="v2.3.4"'
	echo "ok"
fi
