#!/usr/bin/env bash
# demo.sh -- `make demo`: run an instrumented program, decode its trace live
# with `sonde live`, and leave the results in demo-out/:
#
#   trace.bin              the raw capture (sonde live -w), byte for byte
#   trace.txt              the records decoded live, as text
#   stats.txt              sonde stats of the capture
#   trace.jsonl            one JSON object per record
#   trace.perfetto-trace   open in https://ui.perfetto.dev
#   profile.txt            function profile (flat and call tree)
#   profile.folded         folded stacks (flamegraph.pl, speedscope)
#   report.html            the self-contained report: open it in a browser
#
# With qemu-system-arm and arm-none-eabi-gcc, the program is the Cortex-M3
# firmware of examples/qemu-mps2 running in QEMU, its UART0 on a local TCP
# port that `sonde live tcp://...` connects to.  Without them it is the
# POSIX demo (examples/posix-demo), its trace piped into `sonde live -`
# (SONDE_DEMO=posix chooses it anyway).  SONDE_DEMO=freertos runs the
# FreeRTOS example on the Cortex-M3 (examples/freertos-mps2) the same way;
# it needs a kernel tree in FREERTOS_KERNEL_PATH (docs/freertos.md).
set -euo pipefail
BUILD=${1:-build}
SONDE=$BUILD/host/sonde
OUT=demo-out
LOGS=$OUT/logs
rm -rf "$OUT"
mkdir -p "$LOGS"
ELF=

# The build's output goes to a log: the demo prints what it did and what
# to do next, not hundreds of compiler lines.
echo "demo: building (cmake, $BUILD/; log: $LOGS/build.log)"
{ cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CMAKE_FLAGS:-} &&
	cmake --build "$BUILD" -j "${JOBS:-2}"; } >"$LOGS/build.log" 2>&1 ||
	{ tail -n 30 "$LOGS/build.log"; echo "demo: the build failed (all of it in $LOGS/build.log)"; exit 1; }

# A free TCP port on 127.0.0.1 (python3 when there is one, else a guess
# from a quiet range that QEMU then fails loudly on if taken).
free_port() {
	python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
		echo $(( 20000 + RANDOM % 20000 ))
}

# qemu_live ELF WHAT: run ELF in QEMU, UART0 on a local TCP port, and
# decode it live from there.
qemu_live() {
	local port log qemu i
	ELF=$1
	port=$(free_port)
	log=$LOGS/qemu.log
	echo "demo: running it in QEMU, UART0 on tcp://127.0.0.1:$port"
	qemu-system-arm -M mps2-an385 -nographic -monitor none -semihosting-config enable=on,target=native \
		-icount shift=0,sleep=off -serial "tcp:127.0.0.1:$port,server=on" -kernel "$ELF" </dev/null >"$log" 2>&1 &
	qemu=$!
	for (( i = 0; i < 100; i++ )); do
		grep -q "waiting for connection" "$log" 2>/dev/null && break
		kill -0 "$qemu" 2>/dev/null || { cat "$log"; return 1; }
		sleep 0.1
	done
	echo "demo: sonde live tcp://127.0.0.1:$port -w $OUT/trace.bin --output $OUT/trace.txt"
	"$SONDE" live "tcp://127.0.0.1:$port" --proto sonde -w "$OUT/trace.bin" --output "$OUT/trace.txt" \
		--no-show --no-keys --reconnect-timeout 0 </dev/null 2>"$LOGS/live.log" || true
	wait "$qemu" || { echo "demo: QEMU exited with status $?"; cat "$log"; return 1; }
	echo "demo: the firmware ran $2; $(grep -E '^(bytes|records) ' "$LOGS/live.log" | tr -s ' ' | paste -sd ',' - | sed 's/,/, /g')"
}

qemu_demo() {
	local fw=$BUILD/qemu-mps2
	echo "demo: building the Cortex-M3 firmware (examples/qemu-mps2), 3 s of emulated time"
	make -s -C examples/qemu-mps2 BUILD="$(pwd)/$fw" RUN_MS=3000 "$(pwd)/$fw/fw.elf" >"$LOGS/firmware.log" 2>&1 ||
		{ tail -n 30 "$LOGS/firmware.log"; return 1; }
	qemu_live "$fw/fw.elf" "5 tasks and 3 interrupts"
}

freertos_demo() {
	local fw=$BUILD/freertos-mps2
	if [ -z "${FREERTOS_KERNEL_PATH:-}" ]; then
		echo "demo: SONDE_DEMO=freertos needs a FreeRTOS-Kernel tree in FREERTOS_KERNEL_PATH (docs/freertos.md)"
		return 1
	fi
	echo "demo: building the FreeRTOS firmware (examples/freertos-mps2, kernel $FREERTOS_KERNEL_PATH), 3 s of emulated time"
	make -s -C examples/freertos-mps2 BUILD="$(pwd)/$fw" CYCLES=300 "$(pwd)/$fw/fw.elf" >"$LOGS/firmware.log" 2>&1 ||
		{ tail -n 30 "$LOGS/firmware.log"; return 1; }
	qemu_live "$fw/fw.elf" "FreeRTOS: 6 tasks, a queue, a mutex with priority inheritance, a semaphore from an interrupt, notifications, a timer"
}

posix_demo() {
	echo "demo: running the POSIX demo (3 tasks, a timer ISR) for 2 s, decoding live"
	"$BUILD/examples/posix-demo/posix-demo" -t 2000 -o - 2>"$LOGS/demo.log" |
		"$SONDE" live - --proto sonde -w "$OUT/trace.bin" --output "$OUT/trace.txt" --no-show 2>"$LOGS/live.log" || true
	echo "demo: $(cat "$LOGS/demo.log")"
}

if [ "${SONDE_DEMO:-auto}" = freertos ]; then
	freertos_demo || { echo "demo: the FreeRTOS demo failed"; exit 1; }
elif [ "${SONDE_DEMO:-auto}" != posix ] && command -v qemu-system-arm >/dev/null 2>&1 && command -v arm-none-eabi-gcc >/dev/null 2>&1 && qemu_demo; then
	:
else
	[ -z "$ELF" ] || echo "demo: the QEMU demo failed; running the POSIX demo instead"
	ELF=
	posix_demo
fi
[ -s "$OUT/trace.bin" ] || { cat "$LOGS/live.log"; echo "demo: no trace captured"; exit 1; }

# Exit status 1 means "the stream had errors, decoded anyway" (say a frame
# cut when the capture stopped): the outputs are still complete.  Anything
# else is a real failure of the demo.
sonde_ok() {
	local rc=0
	"$SONDE" "$@" 2>>"$LOGS/sonde.log" || rc=$?
	[ "$rc" -le 1 ] || { tail -n 5 "$LOGS/sonde.log"; echo "demo: 'sonde $*' failed with status $rc"; exit 1; }
}
elf_opt=()
[ -n "$ELF" ] && elf_opt=(-o "elf=$ELF")
sonde_ok stats "$OUT/trace.bin" --output "$OUT/stats.txt"
sonde_ok decode "$OUT/trace.bin" --format jsonl --output "$OUT/trace.jsonl"
sonde_ok decode "$OUT/trace.bin" --format perfetto --output "$OUT/trace.perfetto-trace"
sonde_ok decode "$OUT/trace.bin" --format profile "${elf_opt[@]}" --output "$OUT/profile.txt"
sonde_ok decode "$OUT/trace.bin" --format folded "${elf_opt[@]}" --output "$OUT/profile.folded"
sonde_ok report "$OUT/trace.bin" "${elf_opt[@]}" -o report.title="Sonde demo" -o "$OUT/report.html"

# What there is now, and what to do with it: a few lines, not the files.
records=$(awk '$1 == "records" { print $2; exit }' "$OUT/stats.txt")
cat <<EOF

demo: done: $records records from the target, in $OUT/ (logs in $LOGS/)
  trace.bin              the raw capture       trace.txt     decoded, one line per record
  trace.jsonl            JSON lines            stats.txt     counts, losses, time span, CPU load
  trace.perfetto-trace   timeline              profile.txt   function profile
  profile.folded         flame graph input     report.html   all of it in one page

what now:
EOF
w() { printf '  %-62s %s\n' "$1" "$2"; }
w "less $OUT/trace.txt" "the records as they came"
w "$SONDE stats $OUT/trace.bin" "what was recorded and what was lost"
w "$SONDE decode $OUT/trace.bin --filter kind=isr_*" "one view of many (--format csv, jsonl, ...)"
w "$SONDE help" "every command ('man sonde' after 'make install')"
echo "  open $OUT/report.html in a browser, $OUT/trace.perfetto-trace at https://ui.perfetto.dev"
