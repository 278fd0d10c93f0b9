# gdb_qemu_lib.sh -- sourced (after test_live_lib.sh) by the tests that run
# the Cortex-M3 firmware of examples/qemu-mps2 with its trace in the RTT up
# buffer and read it through QEMU's gdbstub (`sonde live gdb://`):
# test_live_gdb_qemu.sh, test_loss_qemu_stall.sh.
#
# Not a test itself (ctest runs test_*.sh only).

# Skip (77) unless the firmware can be built and run.
for tool in arm-none-eabi-gcc arm-none-eabi-nm qemu-system-arm make; do
	command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done

GDB_EX=$SRC/examples/qemu-mps2
CHECK=$SRC/examples/fw-common/check_trace.py

# gdb_fw_build NAME MAKE-OPTIONS...: $WORK/NAME/fw.elf, LINK=rtt
gdb_fw_build() {
	local name=$1
	shift
	make -s -C "$GDB_EX" BUILD="$WORK/$name" LINK=rtt "$@" "$WORK/$name/fw.elf" >"$WORK/make-$name.log" 2>&1 ||
		{ cat "$WORK/make-$name.log"; fail "$name: firmware build failed"; }
}

# qemu_gdb ELF PORT: QEMU halted at reset, its gdbstub on PORT, no serial
# port used; $QEMU is its pid.  Waits until it listens, or fails as soon as
# QEMU has ended (not after a fixed time: a loaded machine starts it late).
qemu_gdb() {
	bg timeout -k 5 "$HANG" qemu-system-arm -M mps2-an385 -nographic -monitor none \
		-semihosting-config enable=on,target=native -serial null -S -gdb "tcp:127.0.0.1:$2" \
		-kernel "$1" </dev/null >"$WORK/qemu-$2.log" 2>&1
	QEMU=$!
	while ! listening "$2"; do
		kill -0 "$QEMU" 2>/dev/null || { cat "$WORK/qemu-$2.log"; fail "QEMU ended before its gdbstub listened"; }
		sleep 0.05
	done
}

# fw_figures CHECK-LOG: "R O F N" -- FW_COUNTS' records, overwritten,
# refused, and the frames of the capture before it (check_trace.py's
# report)
fw_figures() {
	sed -nE 's/^FW_COUNTS: records ([0-9]+) overwritten ([0-9]+) refused ([0-9]+) .*capture before it: ([0-9]+) frames.*/\1 \2 \3 \4/p' "$1"
}

# gdb_proxy_write FILE: a TCP proxy (python3 FILE LPORT RPORT), killed to
# make the GDB server go away and started again to bring it back
gdb_proxy_write() {
	cat >"$1" <<'PYEOF'
import select, socket, sys
lport, rport = int(sys.argv[1]), int(sys.argv[2])
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", lport))
ls.listen(1)
while True:
    c, _ = ls.accept()
    r = socket.create_connection(("127.0.0.1", rport))
    other = {c: r, r: c}
    for s in other:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    up = True
    while up:
        for s in select.select([c, r], [], [])[0]:
            d = s.recv(65536)
            if not d:
                up = False
                break
            other[s].sendall(d)
    c.close()
    r.close()
PYEOF
}
