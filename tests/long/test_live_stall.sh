#!/usr/bin/env bash
# test_live_stall.sh -- tests/e2e/test_live_faults.sh with a 10-second
# stall of the peer (2 s in `make test`); `make check-long`.
FAULT_STALL_S=10 exec bash "$(dirname "$0")/../e2e/test_live_faults.sh"
