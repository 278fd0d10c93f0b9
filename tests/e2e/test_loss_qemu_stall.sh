#!/usr/bin/env bash
# test_loss_qemu_stall.sh -- issue 15: losses blamed exactly on the target
# when the host's reader stalls again and again, with the real firmware.
#
# The Cortex-M3 firmware (examples/qemu-mps2, LINK=rtt) runs in QEMU and
# puts its trace in the RTT up buffer; `sonde live gdb://` reads it through
# QEMU's gdbstub.  The reader sleeps between polls (poll=POLL_MS) and is
# also stopped (SIGSTOP) and resumed (SIGCONT) STALLS times while the
# firmware runs, so that the up buffer fills and the ring overflows again
# and again (RTT over GDB loses nothing on the way:
# every missing frame was lost on the target).  Each buffer mode that
# streams: overwrite (losses are overwrites; their reports are queued
# behind frames that the next overflow overwrites -- case 1 of the issue)
# and drop-newest (losses are refusals).  Then overwrite again through a
# TCP proxy that is killed and restarted during the stalls, so that sonde
# reconnects in the middle of overflows.
#
# Checked each time: the capture against the firmware's own FW_COUNTS
# (check_trace.py: frames received + overwritten = frames written), and
# sonde's summary: its overwritten and refused totals equal
# the firmware's, "link-lost frames 0", "unexplained lost 0"; `sonde
# stats` of the raw capture says the same.
#
# Environment: STALLS (default 4), STALL_S (seconds stopped, default 0.4),
# POLL_MS (default 300), PARTS (default "overwrite dropnew reconnect": the
# parts to run, e.g. only "reconnect" in a loop).
# Skipped (77) without arm-none-eabi-gcc, qemu-system-arm or python3.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
. "$(dirname "$0")/gdb_qemu_lib.sh"
live_setup
STALLS=${STALLS:-4}
STALL_S=${STALL_S:-0.4}
POLL_MS=${POLL_MS:-300}

build() { # NAME MODE [RUN_MS]: the firmware with its trace buffer in that mode
	gdb_fw_build "$1" RUN_MS="${3:-2000}" EXTRA_CFLAGS="-DFW_TRACE_MODE=$2"
}

# grows FILE SIZE: FILE is larger than SIZE bytes, or the reader ended
grows() { [ "$(file_size "$1")" -gt "$2" ] || ! kill -0 "$LIVE" 2>/dev/null; }

# stall RAW N: N times, stop the reader for STALL_S and let it run until
# its capture has grown again (progress, not a fixed time: on a loaded
# machine the reader may need longer to catch up).  Stops early when the
# firmware has finished.
stall() {
	local raw=$1 n=$2 k size
	for ((k = 0; k < n; k++)); do
		kill -0 "$QEMU" 2>/dev/null || break
		# the reader may end at any moment once the firmware has: not
		# an error here (its exit status is checked after)
		kill -STOP "$LIVE" 2>/dev/null || break
		sleep "$STALL_S"
		size=$(file_size "$raw")
		kill -CONT "$LIVE" 2>/dev/null || break
		while ! grows "$raw" $((size + 4096)) && kill -0 "$QEMU" 2>/dev/null; do sleep 0.05; done
	done
}

# verify NAME RAW ERR: the figures against the firmware's
verify() {
	local name=$1 raw=$2 err=$3
	python3 "$CHECK" "$raw" >"$WORK/check-$name.log" || true # it refuses a capture with losses: checked here
	read -r R O F N <<<"$(fw_figures "$WORK/check-$name.log")"
	[ -n "${N:-}" ] || { cat "$WORK/check-$name.log" "$err"; fail "$name: no FW_COUNTS in the capture"; }
	echo "$name: firmware wrote $R frames, overwrote $O, refused $F; the capture has $N"
	grep -E "^(target drops|link-lost|unexplained|sequence gaps|link )" "$err" | sed "s/^/$name: /"
	# refused records were never written: they have no frame
	[ $((N + O)) -eq "$R" ] || fail "$name: $N received + $O overwritten != $R written"
	[ $((O + F)) -gt 0 ] || fail "$name: the stalls made the target lose nothing (no overflow to account for)"
	for line in "target drops           $O overwritten, $F refused" "link-lost frames       0" \
		"unexplained lost       0"; do
		grep -qxF "$line" "$err" || { cat "$err"; fail "$name: summary: '$line' expected"; }
	done
	"$SONDE" stats -q "$raw" >"$WORK/stats-$name.txt" 2>/dev/null || true
	for line in "target drops           $O overwritten, $F refused" "link-lost frames       0" \
		"unexplained lost       0"; do
		grep -qxF "$line" "$WORK/stats-$name.txt" ||
			{ cat "$WORK/stats-$name.txt"; fail "$name: sonde stats of the capture: '$line' expected"; }
	done
}

# run NAME ELF [proxy]: the firmware under a stalling reader; with proxy,
# one stall, then the GDB server goes away in the middle of an overflow and
# comes back, then the other stalls (that firmware runs longer: it must
# still be running when the server comes back)
run() {
	local name=$1 elf=$2 proxy=${3:-} port url rc rt=0
	port=$(free_port)
	qemu_gdb "$elf" "$port"
	url="gdb://127.0.0.1:$port?poll=$POLL_MS"
	if [ -n "$proxy" ]; then
		PPORT=$(free_port)
		bg python3 "$WORK/proxy.py" "$PPORT" "$port"
		PROXY=$!
		while ! listening "$PPORT"; do sleep 0.05; done
		url="gdb://127.0.0.1:$PPORT?poll=$POLL_MS"
		rt=60
	fi
	bg "$SONDE" live "$url" --elf "$elf" --proto sonde -w "$WORK/raw-$name.bin" --output /dev/null \
		--reconnect-timeout "$rt" </dev/null 2>"$WORK/live-$name.err"
	LIVE=$!
	while ! grows "$WORK/raw-$name.bin" 2000; do sleep 0.05; done
	if [ -n "$proxy" ]; then
		stall "$WORK/raw-$name.bin" 1
		kill -0 "$QEMU" 2>/dev/null || fail "$name: the firmware ended before its server went away"
		kill -STOP "$LIVE" 2>/dev/null || true
		kill "$PROXY"
		wait "$PROXY" 2>/dev/null || true
		kill -CONT "$LIVE" 2>/dev/null || true
		while ! has_text "$WORK/live-$name.err" "reconnecting"; do
			kill -0 "$LIVE" 2>/dev/null || { cat "$WORK/live-$name.err"; fail "$name: sonde ended"; }
			sleep 0.05
		done
		sleep "$STALL_S"
		bg python3 "$WORK/proxy.py" "$PPORT" "$port"
		while ! has_text "$WORK/live-$name.err" "reconnected after"; do
			kill -0 "$LIVE" 2>/dev/null || { cat "$WORK/live-$name.err"; fail "$name: no reconnection"; }
			sleep 0.05
		done
	fi
	stall "$WORK/raw-$name.bin" "$STALLS"
	rc=0
	wait "$QEMU" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$WORK/qemu-$port.log"; fail "$name: QEMU exit status $rc"; }
	# the session ends when QEMU closes the gdbstub; through the proxy,
	# sonde keeps trying to reconnect: end it once the capture is complete
	if [ -n "$proxy" ]; then
		while ! python3 "$CHECK" "$WORK/raw-$name.bin" 2>/dev/null | grep -q "^FW_COUNTS"; do
			kill -0 "$LIVE" 2>/dev/null || break
			sleep 0.1
		done
		kill -INT "$LIVE" 2>/dev/null || true
	fi
	rc=0
	wait "$LIVE" || rc=$?
	[ "$rc" -le 1 ] || { cat "$WORK/live-$name.err"; fail "$name: sonde live exit status $rc"; }
	verify "$name" "$WORK/raw-$name.bin" "$WORK/live-$name.err"
}

gdb_proxy_write "$WORK/proxy.py"

PARTS=${PARTS:-overwrite dropnew reconnect}
for part in $PARTS; do
	case $part in
	overwrite) build overwrite 0 && run overwrite "$WORK/overwrite/fw.elf" ;;
	dropnew) build dropnew 1 && run dropnew "$WORK/dropnew/fw.elf" ;;
	reconnect) build long 0 6000 && run reconnect "$WORK/long/fw.elf" proxy ;;
	*) fail "PARTS: no part '$part' (overwrite, dropnew, reconnect)" ;;
	esac
done
echo "PASS"
