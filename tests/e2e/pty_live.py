"""pty_live.py -- `sonde live` on a pseudo-terminal, for the tests of its
keys (test_live_keys.sh, test_live_qs_keys.sh): start it, read its screen
until a pattern shows, press a key and wait for the answer.  Waits last as
long as sonde runs; the limit (300 s times TEST_TIME_SCALE) is only against
a hang."""
import os
import pty
import re
import select
import subprocess
import sys
import termios
import time

LIMIT = 300 * float(os.environ.get("TEST_TIME_SCALE", "1"))


class PtyLive:
    def __init__(self, argv, screen_file):
        self.master, self.slave = pty.openpty()
        self.modes_before = termios.tcgetattr(self.slave)
        self.screen_file = screen_file
        self.screen = b""
        self.proc = subprocess.Popen(argv, stdin=self.slave, stdout=self.slave, stderr=self.slave,
                                     close_fds=True)

    def read_until(self, pattern, limit=LIMIT):
        """True once pattern (bytes regex) is on the screen; False when sonde
        ended without it, or at the limit."""
        end = time.time() + limit
        while time.time() < end:
            if re.search(pattern, self.screen):
                return True
            if self.proc.poll() is not None and not select.select([self.master], [], [], 0)[0]:
                break
            r, _, _ = select.select([self.master], [], [], 0.1)
            if r:
                try:
                    self.screen += os.read(self.master, 65536)
                except OSError:
                    break
        return re.search(pattern, self.screen) is not None

    def save(self):
        with open(self.screen_file, "wb") as f:
            f.write(self.screen)

    def fail(self, why):
        """The screen goes to screen_file for the test's log; exits 1."""
        self.save()
        sys.exit(why)

    def key(self, k, pattern):
        os.write(self.master, k)
        if not self.read_until(pattern):
            self.fail("after key %r: no %r on the screen" % (k, pattern))

    def finish(self, limit=LIMIT):
        """Wait for sonde to end, read what it printed last, save the
        screen; fails on an exit status above 1."""
        rc = self.proc.wait(timeout=limit)
        self.read_until(rb"raw capture|link  +tcp", 2)
        self.save()
        if rc > 1:
            sys.exit("exit status %d" % rc)
        return rc

    def modes_restored(self):
        return termios.tcgetattr(self.slave) == self.modes_before
