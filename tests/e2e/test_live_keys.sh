#!/usr/bin/env bash
# test_live_keys.sh -- `sonde live` on a terminal: stdin, stdout and stderr
# are a pseudo-terminal (python's pty), so the keys are read in raw mode
# and the status line is drawn.  Keys i, p, s, s send INFO, STATS, STOP and
# START on the link; each acknowledgement (CMD_STATUS, matched by SEQ) is
# shown; q quits with the summary; the terminal's modes are the same after
# the session as before it.
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
FT=$WORK/fake_target.py

bg python3 "$FT" --listen "$WORK/port" --synth 0 --chunk 256 --delay 0.005
wait_for -p $! test -s "$WORK/port" || fail "target did not start"
python3 - "$SONDE" "tcp://127.0.0.1:$(cat "$WORK/port")" "$WORK/screen.txt" <<'PY' || fail "keys: see above"
import os, pty, re, select, subprocess, sys, termios, time
sonde, link, screen_file = sys.argv[1:4]
master, slave = pty.openpty()
before = termios.tcgetattr(slave)
p = subprocess.Popen([sonde, "live", link, "--proto", "sonde", "--output", "/dev/null", "--no-show"],
                     stdin=slave, stdout=slave, stderr=slave, close_fds=True)
screen = b""
def read_until(pattern, limit=300 * float(os.environ.get("TEST_TIME_SCALE", "1"))):
    # as long as sonde runs (the limit is only against a hang)
    global screen
    end = time.time() + limit
    while time.time() < end:
        if re.search(pattern, screen):
            return True
        if p.poll() is not None and not select.select([master], [], [], 0)[0]:
            break
        r, _, _ = select.select([master], [], [], 0.1)
        if r:
            try:
                screen += os.read(master, 65536)
            except OSError:
                break
    return re.search(pattern, screen) is not None
def key(k, pattern):
    os.write(master, k)
    if not read_until(pattern):
        open(screen_file, "wb").write(screen)
        sys.exit("after key %r: no %r on the screen" % (k, pattern))
if not read_until(rb"keys: i info, s start/stop"):
    sys.exit("no key help")
key(b"i", rb"<- INFO \(seq \d+\): OK")
key(b"p", rb"TARGET_STATS records=\d+ overwritten=0 refused=0 bytes=\d+")
key(b"s", rb"<- STOP \(seq \d+\): OK")
key(b"s", rb"<- START \(seq \d+\): OK")
if not read_until(rb"\r\x1b\[K[^\r\n]* up \| [0-9.]+ [kM]?B/s [0-9]+ rec/s"):
    sys.exit("no status line")
key(b"q", rb"\nrecords  +\d+")
rc = p.wait(timeout=10)
read_until(rb"raw capture|link  +tcp", 2)
after = termios.tcgetattr(slave)
open(screen_file, "wb").write(screen)
if rc > 1:
    sys.exit("exit status %d" % rc)
if before != after:
    sys.exit("terminal modes not restored: %r -> %r" % (before[3], after[3]))
print("keys: INFO, STATS, STOP, START acknowledged; status line drawn; modes restored")
PY
# the keys' acknowledgements carry the SEQ of the command they answer
python3 - "$WORK/screen.txt" <<'PY' || fail "acknowledgements do not match the commands' SEQ"
import re, sys
s = open(sys.argv[1], "rb").read().decode("latin-1")
sent = dict((m.group(1), m.group(2)) for m in re.finditer(r"-> (\w+) \(seq (\d+)\)", s))
acked = dict((m.group(1), m.group(2)) for m in re.finditer(r"<- (\w+) \(seq (\d+)\): OK", s))
assert set(sent) == {"INFO", "STATS", "STOP", "START"}, sent
for k in ("INFO", "STOP", "START"):
    assert acked.get(k) == sent[k], (k, sent, acked)
PY
echo "PASS"
