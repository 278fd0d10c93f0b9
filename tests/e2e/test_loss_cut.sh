#!/usr/bin/env bash
# test_loss_cut.sh -- a run cut by a loss is closed by one rule in every
# output (core/loss.h, docs/reliability.md "A run cut by a loss"): a short
# trace with nested ISRs, calls in tasks and ISRs, a task preempted inside
# a call and a marker span (tests/e2e/exports/loss_trace.py) has each of its
# records in turn refused by the target (a DROPS) or lost on the link (a
# sequence gap), and three in a row refused; stats, the report, the profile,
# SQLite, speedscope and the timeline model of Perfetto/Chrome must give
# the same runs, CPU times, calls and "what ran before each drop" in every
# case (tests/e2e/exports/loss_check.py).  Deterministic: the trace is
# written record by record, not recorded; the cases are sessions of a
# restarting target, 45 to a file.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
python3 "$SONDE_SRC/tests/e2e/exports/loss_check.py" "$SONDE" "$SONDE_SRC/docs/sql.md" "$TMP" ||
	fail "the outputs close a lossy run differently"
echo PASS
