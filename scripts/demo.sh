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
# (SONDE_DEMO=posix chooses it anyway).
set -euo pipefail
BUILD=${1:-build}
SONDE=$BUILD/host/sonde
OUT=demo-out
rm -rf "$OUT"
mkdir -p "$OUT"
ELF=

# A free TCP port on 127.0.0.1 (python3 when there is one, else a guess
# from a quiet range that QEMU then fails loudly on if taken).
free_port() {
	python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
		echo $(( 20000 + RANDOM % 20000 ))
}

qemu_demo() {
	local fw=$BUILD/qemu-mps2 port log qemu i
	echo "demo: building the Cortex-M3 firmware (examples/qemu-mps2)"
	make -s -C examples/qemu-mps2 BUILD="$(pwd)/$fw" RUN_MS=3000 "$(pwd)/$fw/fw.elf" >"$OUT/build.log" 2>&1 ||
		{ cat "$OUT/build.log"; return 1; }
	ELF=$fw/fw.elf
	port=$(free_port)
	log=$OUT/qemu.log
	echo "demo: running it in QEMU for 3 s of emulated time, UART0 on tcp://127.0.0.1:$port"
	qemu-system-arm -M mps2-an385 -nographic -monitor none -semihosting-config enable=on,target=native \
		-icount shift=0,sleep=off -serial "tcp:127.0.0.1:$port,server=on" -kernel "$ELF" </dev/null >"$log" 2>&1 &
	qemu=$!
	for (( i = 0; i < 100; i++ )); do
		grep -q "waiting for connection" "$log" && break
		kill -0 "$qemu" 2>/dev/null || { cat "$log"; return 1; }
		sleep 0.1
	done
	echo "demo: sonde live tcp://127.0.0.1:$port -w $OUT/trace.bin --output $OUT/trace.txt"
	"$SONDE" live "tcp://127.0.0.1:$port" --proto sonde -w "$OUT/trace.bin" --output "$OUT/trace.txt" \
		--no-show --no-keys --reconnect-timeout 0 </dev/null 2>"$OUT/live.log" || true
	wait "$qemu" || { echo "demo: QEMU exited with status $?"; cat "$log"; return 1; }
	echo "demo: the firmware ran 5 tasks and 3 interrupts; $(grep -E '^(bytes|records) ' "$OUT/live.log" | tr -s ' ' | paste -sd ',' -)"
}

posix_demo() {
	echo "demo: running the POSIX demo (3 tasks, a timer ISR) for 2 s, decoding live"
	"$BUILD/examples/posix-demo/posix-demo" -t 2000 -o - 2>"$OUT/demo.log" |
		"$SONDE" live - --proto sonde -w "$OUT/trace.bin" --output "$OUT/trace.txt" --no-show 2>"$OUT/live.log" || true
	echo "demo: $(cat "$OUT/demo.log")"
}

if [ "${SONDE_DEMO:-auto}" != posix ] && command -v qemu-system-arm >/dev/null 2>&1 && command -v arm-none-eabi-gcc >/dev/null 2>&1 && qemu_demo; then
	:
else
	[ -z "$ELF" ] || echo "demo: the QEMU demo failed; running the POSIX demo instead"
	ELF=
	posix_demo
fi
[ -s "$OUT/trace.bin" ] || { cat "$OUT/live.log"; echo "demo: no trace captured"; exit 1; }

# Exit status 1 means "the stream had errors, decoded anyway" (say a frame
# cut when the capture stopped): the outputs are still complete.  Anything
# else is a real failure of the demo.
sonde_ok() {
	local rc=0
	"$SONDE" "$@" || rc=$?
	[ "$rc" -le 1 ] || { echo "demo: 'sonde $*' failed with status $rc"; exit 1; }
}
elf_opt=()
[ -n "$ELF" ] && elf_opt=(-o "elf=$ELF")
sonde_ok stats "$OUT/trace.bin" --output "$OUT/stats.txt"
sonde_ok decode "$OUT/trace.bin" --format jsonl --output "$OUT/trace.jsonl"
sonde_ok decode "$OUT/trace.bin" --format perfetto --output "$OUT/trace.perfetto-trace"
sonde_ok decode "$OUT/trace.bin" --format profile "${elf_opt[@]}" --output "$OUT/profile.txt"
sonde_ok decode "$OUT/trace.bin" --format folded "${elf_opt[@]}" --output "$OUT/profile.folded"
sonde_ok report "$OUT/trace.bin" "${elf_opt[@]}" -o report.title="Sonde demo" -o "$OUT/report.html"

echo "demo: results in $OUT/:"
ls -l "$OUT"
echo
echo "--- first lines of $OUT/trace.txt ---"
head -n 25 "$OUT/trace.txt"
echo "--- $OUT/stats.txt ---"
cat "$OUT/stats.txt"
