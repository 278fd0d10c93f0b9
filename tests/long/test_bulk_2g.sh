#!/usr/bin/env bash
# test_bulk_2g.sh -- tests/e2e/test_bulk.sh with 2 GB per run, every export
# of every protocol: 2 GB of random bytes and 2 GB of a reference capture
# with 1 % of its frames damaged, each through `sonde stats` and every
# export, peak RSS under 64 MB, the diagnostics counting exactly the
# damage.  The table it prints is in docs/reliability.md.  `make check-long`.
BULK_BYTES=2000000000 BULK_ALL=1 BULK_RSS_MB=64 exec bash "$(dirname "$0")/../e2e/test_bulk.sh"
