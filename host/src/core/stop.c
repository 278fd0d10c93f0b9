/*
 * stop.c -- the stop request on SIGINT, SIGTERM and SIGHUP (stop.h).
 * Everything the handlers do is async-signal-safe: they store the signal
 * and the time (clock_gettime), arm a POSIX timer (timer_settime), and on
 * a second signal call the last-words hook, write(2) a line and re-raise
 * the signal with its default action.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stop.h"

static volatile sig_atomic_t stop_sig;
static volatile int64_t stop_at_ms;
static void (*volatile stop_last_words)(void);
static timer_t stop_timer;
static int installed, have_timer;

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void say(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));
	(void)r;
}

static void on_stop_signal(int sig)
{
	int saved = errno;
	int64_t now = mono_ms();
	if (!stop_sig) {
		stop_at_ms = now;
		stop_sig = sig;
		if (have_timer) {
			struct itimerspec its;
			memset(&its, 0, sizeof(its));
			its.it_value.tv_nsec = SONDE_STOP_TICK_MS * 1000000L;
			its.it_interval.tv_nsec = SONDE_STOP_TICK_MS * 1000000L;
			timer_settime(stop_timer, 0, &its, NULL);
		}
	} else if (now - stop_at_ms >= SONDE_STOP_SAME_MS) {
		void (*fn)(void) = stop_last_words;
		if (fn)
			fn();
		say("\nsonde: second signal: ending at once (outputs may be incomplete)\n");
		signal(sig, SIG_DFL);
		raise(sig);
	}
	errno = saved;
}

/* The timer's signal: its only job is to interrupt a blocking call. */
static void on_tick(int sig)
{
	(void)sig;
}

void sonde_stop_install(void (*last_words)(void))
{
	stop_last_words = last_words;
	if (installed)
		return;
	installed = 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL); /* no SA_RESTART: interrupt */
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGALRM;
	have_timer = timer_create(CLOCK_MONOTONIC, &sev, &stop_timer) == 0;

	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT); /* one handler at a time */
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int sonde_stop_signal(void)
{
	return stop_sig;
}

long sonde_stop_age_ms(void)
{
	return stop_sig ? (long)(mono_ms() - stop_at_ms) : 0;
}

int sonde_stop_overdue(void)
{
	return stop_sig && mono_ms() - stop_at_ms >= SONDE_STOP_GRACE_MS;
}

int sonde_stop_status(void)
{
	return stop_sig ? 128 + stop_sig : 0;
}

void sonde_stop_reset(void)
{
	if (have_timer) {
		struct itimerspec its;
		memset(&its, 0, sizeof(its));
		timer_settime(stop_timer, 0, &its, NULL);
	}
	stop_sig = 0;
	stop_at_ms = 0;
}
