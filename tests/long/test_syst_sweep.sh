#!/usr/bin/env bash
# test_syst_sweep.sh -- tests/e2e/test_syst_container.sh with every length
# word of every reference capture corrupted in turn (+283 and +1): never a
# silent loss.  About 2000 decodes; `make check-long`.
SYST_SWEEP_STEP=1 exec bash "$(dirname "$0")/../e2e/test_syst_container.sh"
