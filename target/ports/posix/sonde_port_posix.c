/*
 * sonde_port_posix.c -- the POSIX port: CLOCK_MONOTONIC time stamps and a
 * critical section that is safe against other threads and signal handlers
 * (see sonde_port_cfg.h for why it is built this way).
 */
#define _POSIX_C_SOURCE 200809L

#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>

#include "sonde_port.h"
#include "sonde_posix.h"

static _Atomic(uint32_t (*)(void)) clock_fn;

void sonde_posix_set_clock(uint32_t (*fn)(void))
{
	atomic_store(&clock_fn, fn);
}

uint32_t sonde_port_ts(void)
{
	uint32_t (*fn)(void) = atomic_load_explicit(&clock_fn, memory_order_relaxed);
	struct timespec t;

	if (fn != NULL)
		return fn();
	clock_gettime(CLOCK_MONOTONIC, &t);
	/* Ticks since an arbitrary origin, wrapping at 2^32 like a hardware
	 * counter. */
	return (uint32_t)((uint64_t)t.tv_sec * SONDE_PORT_TS_HZ +
			  (uint64_t)t.tv_nsec * SONDE_PORT_TS_HZ / 1000000000u);
}

static atomic_flag lock = ATOMIC_FLAG_INIT;
static _Thread_local int depth;        /* nesting in this thread */
static _Thread_local sigset_t saved;   /* mask before the outermost entry */

int sonde_posix_crit_enter(void)
{
	if (depth == 0) {
		sigset_t all, old;

		/* Signals first: once they are blocked no handler of this thread
		 * can run and try to take the lock this thread holds. */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
			sched_yield();
		saved = old;
	}
	return depth++;
}

void sonde_posix_crit_exit(int d)
{
	depth = d;
	if (d == 0) {
		sigset_t old = saved;

		atomic_flag_clear_explicit(&lock, memory_order_release);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
}
