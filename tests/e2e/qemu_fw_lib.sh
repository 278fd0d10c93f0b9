# qemu_fw_lib.sh -- sourced by the firmware tests (test_qemu_*.sh): build
# one of the example boards (examples/qemu-*, the shared firmware of
# examples/fw-common), run it under QEMU on the instruction-exact clock
# (-icount shift=0,sleep=off: deterministic, idle time skipped) with the
# trace going from the UART into a file, and check the raw capture with the
# independent checker (examples/fw-common/check_trace.py: framing,
# checksums, sequence, time rebuilt from TIME_SYNC, ISR nesting, task
# switches, and the firmware's own FW_COUNTS against the capture).  When
# $SONDE runs, its JSONL decode is compared frame by frame too.
#
# Not a test itself (ctest runs test_*.sh only).

SRC=${SONDE_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
FW_COMMON=$SRC/examples/fw-common
source "$(dirname "${BASH_SOURCE[0]}")/wait_lib.sh" # $HANG

fail() {
	echo "FAIL: $*"
	exit 1
}

# fw_require WHAT TOOL...: skip (exit 77) unless every tool is installed.
fw_require() {
	local what=$1 tool
	shift
	for tool in "$@"; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			echo "SKIP: $tool not found (needed to build and run the $what firmware;" \
				"scripts/deps.sh installs it)"
			exit 77
		fi
	done
}

fw_setup() {
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
}

# fw_build NAME BOARD MAKE-OPTIONS... [TARGETS]: build examples/BOARD into
# $WORK/NAME (fw.elf unless targets are given as full paths).
fw_build() {
	local name=$1 board=$2
	shift 2
	local build=$WORK/$name targets=()
	[[ " $* " == *" $build/"* ]] || targets=("$build/fw.elf")
	echo "== $name: make -C examples/$board $*"
	make -s -C "$SRC/examples/$board" BUILD="$build" "$@" "${targets[@]}" >"$WORK/$name.make.log" 2>&1 ||
		{ cat "$WORK/$name.make.log"; fail "$name: build failed"; }
}

# fw_run NAME ELF QEMU-COMMAND...: run ELF (a path under $WORK/NAME) until it
# leaves QEMU itself, its UART into $WORK/NAME/trace.bin (or the file named
# by $FW_SERIAL_OUT); QEMU must exit with 0.  timeout only guards against a
# hang (0.5 s emulated take well under a second of host time on a quiet
# machine, and minutes on no machine).
fw_run() {
	local name=$1 elf=$2
	shift 2
	local out=${FW_SERIAL_OUT:-$WORK/$name/trace.bin} rc=0
	rm -f "$out"
	timeout -k 5 "$HANG" "$@" -icount shift=0,sleep=off -serial "file:$out" -kernel "$elf" \
		</dev/null >"$WORK/$name.qemu.log" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat "$WORK/$name.qemu.log"; fail "$name: QEMU exited with status $rc (firmware fault or hang)"; }
	[ -s "$out" ] || fail "$name: empty capture"
}

# fw_sonde_reads CAPTURE: $SONDE decodes the capture's first frames (EMPTY,
# TARGET_INFO: the protocol version) without a complaint, i.e. it knows this
# version of the protocol.  (Protocol v2's host decoder is being finished
# on another branch; until it lands, check_trace.py is the only checker.)
fw_sonde_reads() {
	local head=$WORK/head.bin
	python3 - "$1" "$head" <<'PY'
import sys
raw = open(sys.argv[1], "rb").read()
ends = [i for i, b in enumerate(raw) if b == 0x7E][:2]
open(sys.argv[2], "wb").write(raw[:ends[-1] + 1] if ends else b"")
PY
	"$SONDE" decode "$head" --proto sonde --format jsonl >/dev/null 2>"$WORK/head.err"
}

# fw_check NAME CHECK-OPTIONS...: the capture of fw_run against
# check_trace.py (and $SONDE's decoding of it, when there is a $SONDE that
# knows the capture's protocol version).
fw_check() {
	local name=$1
	shift
	local build=$WORK/$name decoded=()
	if [ -n "${SONDE:-}" ] && [ -x "$SONDE" ] && ! fw_sonde_reads "$build/trace.bin"; then
		echo "note: $SONDE does not read this capture's protocol version yet" \
			"($(head -n 1 "$WORK/head.err")): host decoder comparison skipped"
	elif [ -n "${SONDE:-}" ] && [ -x "$SONDE" ]; then
		local drc=0
		"$SONDE" decode "$build/trace.bin" --format jsonl >"$build/decoded.jsonl" 2>"$build/decode.err" || drc=$?
		if [ "$drc" -eq 0 ]; then
			decoded=(--decoded "$build/decoded.jsonl")
		else
			cat "$build/decode.err"
			fail "$name: sonde decode exited with status $drc on a clean capture"
		fi
	else
		echo "note: \$SONDE not set or not executable: host decoder comparison skipped"
	fi
	python3 "$FW_COMMON/check_trace.py" "$build/trace.bin" "$@" "${decoded[@]}" >"$build/check.log" ||
		{ cat "$build/check.log"; fail "$name: capture check failed"; }
	grep -E "^(frames|target|time|ISR|FW_COUNTS|decoded|check_trace)" "$build/check.log"
}

# fw_family NAME BOARD TS_HZ QEMU-COMMAND -- MAKE-OPTIONS...: the whole test
# of one board: build once, run 0.5 s of emulated time, check it, with the
# tick (ISR 1, 1 kHz) on its period within 10 %, no step between records
# of 1.3 tick periods or more (a clock that jumps back shows up as one),
# the run spanning 0.5 s of trace time, and ISRs nesting.
fw_family() {
	local name=$1 board=$2 hz=$3
	shift 3
	local qemu=()
	while [ "$1" != "--" ]; do
		qemu+=("$1")
		shift
	done
	shift
	local tick=$((hz / 1000))
	fw_build "$name" "$board" RUN_MS=500 "$@"
	fw_run "$name" "$WORK/$name/fw.elf" "${qemu[@]}"
	fw_check "$name" --max-step $((tick * 13 / 10)) --period "1:$tick:$((tick / 10))" \
		--expect-seconds 0.5:0.01 --min-nesting 2
}
