/*
 * stop.h -- how every command of the tool ends on SIGINT, SIGTERM or
 * SIGHUP: cleanly, and soon, whatever the input and the outputs are doing.
 *
 * The first signal only asks to stop (sonde_stop_signal() turns non-zero).
 * The commands look at that between chunks and finish: the decoder and the
 * sinks are finished, the figures printed.  So that no read or write can
 * keep them from seeing it -- a stalled pipe on standard input, a reader of
 * standard output that takes nothing, a terminal stopped with Ctrl-S -- the
 * handlers are installed without SA_RESTART and the first signal starts a
 * timer that interrupts a blocking system call every SONDE_STOP_TICK_MS
 * from then on (a signal that lands just before a call blocks would else
 * not interrupt it).  Outputs (core/out.h) keep writing through those
 * interruptions for SONDE_STOP_GRACE_MS after the stop, then give up on a
 * reader that does not take the rest.
 *
 * A second signal at least SONDE_STOP_SAME_MS after the first ends the
 * process at once (after the last-words hook: the terminal's modes are
 * put back).  Signals closer together are one request: `timeout` sends its
 * signal to the command and then to its process group, and a terminal's
 * Ctrl-C reaches every process of a pipeline.
 */
#ifndef SONDE_STOP_H
#define SONDE_STOP_H

#define SONDE_STOP_TICK_MS 100   /* blocking calls are interrupted this often after a stop */
#define SONDE_STOP_GRACE_MS 400  /* how long outputs may still take after a stop */
#define SONDE_STOP_SAME_MS 500   /* a second signal closer than this to the first is the same request */

/* Install the handlers (once; later calls only change the hook).
 * last_words, if not NULL, runs in the handler of a second signal just
 * before the process ends: it may only use async-signal-safe calls. */
void sonde_stop_install(void (*last_words)(void));
/* The signal that asked to stop, or 0. */
int sonde_stop_signal(void);
/* Milliseconds since the stop was asked for (0 if it was not). */
long sonde_stop_age_ms(void);
/* Whether the grace time after a stop is over: outputs give up. */
int sonde_stop_overdue(void);
/* The exit status of a command ended by the signal: 128 + its number. */
int sonde_stop_status(void);
/* Forget a stop (tests; a command that handles the stop itself). */
void sonde_stop_reset(void);

#endif /* SONDE_STOP_H */
