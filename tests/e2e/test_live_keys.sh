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
import os, sys
sys.path.insert(0, os.path.join(os.environ["SONDE_SRC"], "tests", "e2e"))
from pty_live import PtyLive
sonde, link, screen_file = sys.argv[1:4]
t = PtyLive([sonde, "live", link, "--proto", "sonde", "--output", "/dev/null", "--no-show"], screen_file)
read_until, key = t.read_until, t.key
if not read_until(rb"keys: i info, s start/stop"):
    sys.exit("no key help")
key(b"i", rb"<- INFO \(seq \d+\): OK")
key(b"p", rb"TARGET_STATS records=\d+ overwritten=0 refused=0 bytes=\d+")
key(b"s", rb"<- STOP \(seq \d+\): OK")
key(b"s", rb"<- START \(seq \d+\): OK")
if not read_until(rb"\r\x1b\[K[^\r\n]* up \| [0-9.]+ [kM]?B/s [0-9]+ rec/s"):
    sys.exit("no status line")
key(b"q", rb"\nrecords  +\d+")
t.finish()
if not t.modes_restored():
    sys.exit("terminal modes not restored")
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
