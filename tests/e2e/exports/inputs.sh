# inputs.sh -- sourced by the export tests (test_sqlite_export.sh,
# test_ctf_export.sh, test_speedscope_export.sh): the traces each export is
# opened from in its client, the same for all three.
#
#   export_inputs DIR   writes into DIR, and sets INPUTS to lines
#                       "NAME|FILE|PROTO|EXTRA DECODE OPTIONS":
#     demo      the POSIX demo, 100 sampling interrupts (~200 ms): tasks, an ISR, calls, markers,
#               counters, logs, user records
#     drops     the same with a 512-byte buffer in drop mode: target drops
#     damaged   demo with one byte changed: a bad frame, a loss inside spans
#     qs-*      QS captures of QP/C (dining philosophers; every argument format)
#     syst      a MIPI SyS-T capture (logs, calls, catalog messages)
#     tband-*   Tonbandgeraet captures (FreeRTOS tasks and queues; bare-metal ISRs)
#     miniprof  a MiniProfiler capture of tools/miniprof-sim (no device
#               recording exists publicly: the simulator is the reference)
# The reference captures are those of ../shared/testdata (skipped, with a
# note, where it is missing).

source "$SONDE_SRC/tests/e2e/wait_lib.sh" # wait_for, $HANG

export_inputs() {
	local d=$1 demo=$SONDE_BUILD/examples/posix-demo/posix-demo t=$SONDE_TESTDATA
	"$demo" -n 100 -o "$d/demo.bin" 2>/dev/null || fail "posix-demo"
	"$demo" -n 100 -m drop -b 512 -o "$d/drops.bin" 2>/dev/null || fail "posix-demo -m drop"
	# one bit of a frame's body flipped from offset 9000 on (the middle of
	# a shorter trace; not a flag, an escape or an escaped byte, nor one
	# that becomes either): whatever the demo recorded, one bad checksum
	# (a fixed byte written there may equal the byte it replaces, or split
	# a frame)
	python3 - "$d/demo.bin" "$d/damaged.bin" <<'PY' || fail "damaging the demo"
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = min(9000, len(b) // 2)
while b[i] in (0x7E, 0x7D) or b[i - 1] in (0x7E, 0x7D) or b[i] ^ 1 in (0x7E, 0x7D):
    i += 1
b[i] ^= 1
open(sys.argv[2], "wb").write(b)
PY
	INPUTS=("demo|$d/demo.bin|sonde|" "drops|$d/drops.bin|sonde|" "damaged|$d/damaged.bin|sonde|")
	if [[ -d $t ]]; then
		INPUTS+=("qs-dpp|$t/qs/dpp_posix-qv_x86.bin|qs|"
			"qs-formats|$t/qs/qsfmt_user_formats_x86.bin|qs|"
			"syst|$t/syst/mix_64.bin|syst|-o syst.collateral=$t/syst/collateral.xml"
			"tband-freertos|$t/tband/repo_examples_POSIX_FreeRTOS_log.bin|tband|"
			"tband-isr|$t/tband/bm_snapshot_rich.bin|tband|")
	else
		echo "note: no reference captures at $t: the foreign protocols are not covered"
	fi
	export_miniprof "$d/miniprof.bin" && INPUTS+=("miniprof|$d/miniprof.bin|miniprof|")
}

# export_miniprof FILE: a capture session with the simulator, saved raw.
export_miniprof() {
	local sim=$SONDE_BUILD/tools/miniprof-sim/miniprof-sim log=$1.sim pty=""
	[[ -x $sim ]] || { echo "note: $sim not built: no MiniProfiler capture"; return 1; }
	"$sim" --idle-exit "$HANG" --packets 6 >"$log" 2>&1 &
	local pid=$!
	# until it says where it listens, while it runs (the log may not exist yet)
	wait_for -p "$pid" -l "$log" grep -sq '^miniprof-sim: \(pty\|tty\) ' "$log" &&
		pty=$(sed -n 's/^miniprof-sim: \(pty\|tty\) //p' "$log")
	[[ -n $pty ]] && timeout -k 5 "$HANG" "$SONDE" miniprof --link "$pty" capture --duration 0.1 -w "$1" -q </dev/null >/dev/null
	local rc=$?
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	[[ -n $pty && $rc -eq 0 && -s $1 ]] || fail "no MiniProfiler capture from the simulator: $(cat "$log")"
}
