#!/usr/bin/env bash
# test_cli_stop.sh -- SIGINT and SIGTERM end `sonde decode`, `sonde stats`
# and `sonde send` promptly and cleanly, whatever their input and output are
# doing (docs/cli.md section 3): an input pipe that stays open and silent,
# an output pipe whose reader stopped reading, a target that never answers.
# Before core/stop.c a signal killed decode and stats on the spot (no
# figures, a Perfetto file without its end) or, with a stalled reader, left
# them blocked in write(2).  Status 128 + the signal; the times are printed
# (safety bound LIMIT s).
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py
LIMIT=5

python3 "$FT" --append "$WORK/cap.bin" --synth 3000 --chunk 65536 --delay 0
"$SONDE" decode "$WORK/cap.bin" >"$WORK/ref.txt"

# writer FIFO FILE: write FILE into FIFO, then keep the FIFO open without
# writing; touches FIFO.drained once the reader has taken every byte
writer() {
	bg python3 -c 'import fcntl, os, struct, sys, termios, time
fd = os.open(sys.argv[1], os.O_WRONLY)
data = open(sys.argv[2], "rb").read()
while data:
    data = data[os.write(fd, data):]
while struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]:
    time.sleep(0.02)
open(sys.argv[1] + ".drained", "w").close()
time.sleep(3600)' "$1" "$2"
}

# from_silent_pipe NAME SIGNAL STATUS COMMAND...: COMMAND reads the capture
# from a pipe that then stays open and silent; stop it once it has read
# every byte.  Its output is in $WORK/NAME.out, its messages in NAME.err.
from_silent_pipe() {
	local name=$1 sig=$2 want=$3 pid
	shift 3
	mkfifo "$WORK/$name.in"
	writer "$WORK/$name.in" "$WORK/cap.bin"
	"$@" <"$WORK/$name.in" >"$WORK/$name.out" 2>"$WORK/$name.err" &
	pid=$!
	LIVE_PIDS+=("$pid")
	wait_for -p "$pid" test -e "$WORK/$name.in.drained" || fail "$name: the input was not read"
	stop_within "$sig" "$pid" "$LIMIT"
	[ "$STOP_RC" -eq "$want" ] || { cat "$WORK/$name.err"; fail "$name: exit status $STOP_RC, expected $want"; }
	echo "$name, silent input pipe: SIG$sig ended it in $STOP_MS ms"
}

# 1. decode: all that came is decoded, the output finished
from_silent_pipe decode INT 130 "$SONDE" decode - --proto sonde
cmp "$WORK/decode.out" "$WORK/ref.txt" || fail "decode: output is not the decode of what was read"
grep -q "^sonde decode: Interrupt: stopped before the end of the input$" "$WORK/decode.err" ||
	{ cat "$WORK/decode.err"; fail "decode: the stop is not reported"; }

# 2. stats: the figures of what was read
from_silent_pipe stats TERM 143 "$SONDE" stats - --proto sonde
grep -q "^bytes  *$(file_size "$WORK/cap.bin")$" "$WORK/stats.out" || { cat "$WORK/stats.out"; fail "stats: figures"; }

# 3. decode into a pipe nobody reads any more (a big capture to JSONL).  The output is given up 0.4 s after the signal and says so.
python3 "$FT" --append "$WORK/big.bin" --synth 60000 --chunk 65536 --delay 0
mkfifo "$WORK/out3"
stalled_reader "$WORK/out3" "$WORK/got3" 20000
"$SONDE" decode "$WORK/big.bin" --format jsonl >"$WORK/out3" 2>"$WORK/err3.txt" &
pid=$!
LIVE_PIDS+=("$pid")
wait_for -p "$pid" -l "$WORK/err3.txt" size_at_least "$WORK/got3" 20000 || fail "decode: no output"
wait_for -p "$pid" writing "$pid" 1 || fail "decode: not held up by its reader"
stop_within TERM "$pid" "$LIMIT"
[ "$STOP_RC" -eq 143 ] || { cat "$WORK/err3.txt"; fail "decode to a stalled reader: exit status $STOP_RC"; }
grep -q "^sonde decode: <stdout>: write error: the reader did not take the last [0-9]* bytes within 0.4 s of the stop$" \
	"$WORK/err3.txt" || { cat "$WORK/err3.txt"; fail "decode to a stalled reader: not reported"; }
"$SONDE" decode "$WORK/big.bin" --format jsonl >"$WORK/ref3.jsonl" 2>/dev/null || true
cmp -n 20000 "$WORK/ref3.jsonl" "$WORK/got3" || fail "decode to a stalled reader: output differs"
echo "decode, stalled output reader: SIGTERM ended it in $STOP_MS ms"

# 4. send to a target that never answers
bg python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
open(sys.argv[1] + ".tmp", "w").write("%d\n" % s.getsockname()[1])
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
c, _ = s.accept(); time.sleep(3600)' "$WORK/mute.port"
wait_for -p $! test -s "$WORK/mute.port" || fail "send: the mute target did not start"
"$SONDE" send --link "tcp://127.0.0.1:$(cat "$WORK/mute.port")" --timeout 60 stop >"$WORK/out4.txt" 2>"$WORK/err4.txt" &
pid=$!
LIVE_PIDS+=("$pid")
# sonde send is waiting once the target's side of the connection exists
wait_for -p "$pid" python3 -c 'import sys
port = int(open(sys.argv[1]).read())
rows = [l.split() for l in open("/proc/net/tcp").readlines()[1:]]
sys.exit(0 if any(r[2].endswith(":%04X" % port) and r[3] == "01" for r in rows) else 1)' "$WORK/mute.port" ||
	fail "send: no connection"
stop_within INT "$pid" "$LIMIT"
[ "$STOP_RC" -eq 130 ] || { cat "$WORK/err4.txt"; fail "send: exit status $STOP_RC, expected 130"; }
grep -q "^sonde send: Interrupt: stopped before a reply to STOP came$" "$WORK/err4.txt" ||
	{ cat "$WORK/err4.txt"; fail "send: the stop is not reported"; }
echo "send, silent target: SIGINT ended it in $STOP_MS ms"
echo "PASS"
