/*
 * test_core_stop.c -- the stop request (core/stop.h) and the output
 * streams (core/out.h): a first signal asks to stop; signals closer than
 * SONDE_STOP_SAME_MS to it are the same request; a later one ends the
 * process at once after the last words; after a stop a blocking read is
 * interrupted by the timer; an output remembers ENOSPC and gives up on a
 * reader that takes nothing within the grace time.  Each case runs in a
 * child process: the handlers are process-wide.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/out.h"
#include "core/stop.h"

static long ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sleep through the stop's timer ticks. */
static void sleep_ms(long ms)
{
	long end = ms_now() + ms;
	while (ms_now() < end) {
		struct timespec ts = { 0, 10 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

/* Run fn in a child; returns its wait status. */
static int in_child(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fn(arg));
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static int same_request(void *arg)
{
	(void)arg;
	sonde_stop_install(NULL);
	if (sonde_stop_signal() != 0)
		return 1;
	raise(SIGINT);
	if (sonde_stop_signal() != SIGINT || sonde_stop_status() != 130)
		return 2;
	raise(SIGTERM); /* as timeout(1) does: the command, then its group */
	raise(SIGINT);
	if (sonde_stop_signal() != SIGINT)
		return 3;
	return sonde_stop_age_ms() < SONDE_STOP_SAME_MS ? 0 : 4;
}

static void test_signals_together_are_one(void **state)
{
	(void)state;
	int st = in_child(same_request, NULL);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static int words_fd = -1;

static void last_words(void)
{
	ssize_t r = write(words_fd, "L", 1);
	(void)r;
}

static int second_signal(void *arg)
{
	(void)arg;
	sonde_stop_install(last_words);
	raise(SIGINT);
	sleep_ms(SONDE_STOP_SAME_MS + 100);
	raise(SIGINT); /* the user presses Ctrl-C again: the end */
	return 9;
}

static void test_second_signal_ends_at_once(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	words_fd = p[1];
	int st = in_child(second_signal, NULL);
	close(p[1]);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGINT);
	char c = 0;
	assert_int_equal(read(p[0], &c, 1), 1);
	assert_int_equal(c, 'L');
	close(p[0]);
}

static int blocked_read(void *arg)
{
	(void)arg;
	int p[2];
	if (pipe(p) != 0)
		return 1;
	sonde_stop_install(NULL);
	raise(SIGINT); /* the signal came just before the read blocked */
	long t0 = ms_now();
	char c;
	ssize_t r = read(p[0], &c, 1); /* nothing will come */
	long dt = ms_now() - t0;
	if (r != -1 || errno != EINTR)
		return 2;
	return dt < 20 * SONDE_STOP_TICK_MS ? 0 : 3; /* a tick, with room for a loaded machine */
}

static void test_timer_interrupts_blocking_calls(void **state)
{
	(void)state;
	int st = in_child(blocked_read, NULL);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_out_remembers_enospc(void **state)
{
	(void)state;
	FILE *f = sonde_out_create("/dev/full");
	if (!f)
		skip();
	for (int i = 0; i < 100000; i++)
		fputs("a line of output\n", f);
	errno = 0; /* long past the failure, as when an output is closed */
	assert_int_equal(sonde_out_errno(f), ENOSPC);
	assert_string_equal(sonde_out_why(f), strerror(ENOSPC));
	char why[200];
	assert_int_equal(sonde_out_close(f, why, sizeof(why)), -1);
	assert_string_equal(why, "No space left on device");
}

static int stalled_reader(void *arg)
{
	(void)arg;
	int p[2];
	if (pipe(p) != 0)
		return 1;
	sonde_stop_install(NULL);
	FILE *f = sonde_out_fdopen(p[1] + 0, "pipe");
	if (!f)
		return 2;
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	static char line[4096];
	memset(line, 'x', sizeof(line));
	raise(SIGTERM);
	long t0 = ms_now();
	for (int i = 0; i < 1000; i++) /* 4 MB: far more than the pipe holds */
		fwrite(line, 1, sizeof(line), f);
	int flushed = fflush(f);
	long dt = ms_now() - t0;
	char why[200];
	if (flushed == 0 || sonde_out_close(f, why, sizeof(why)) == 0)
		return 3;
	if (!strstr(why, "the reader did not take the last"))
		return 4;
	if (dt < SONDE_STOP_GRACE_MS - 50 || dt > 20 * SONDE_STOP_GRACE_MS)
		return 5;
	return 0;
}

static void test_out_gives_up_on_a_stalled_reader(void **state)
{
	(void)state;
	int st = in_child(stalled_reader, NULL);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signals_together_are_one),
		cmocka_unit_test(test_second_signal_ends_at_once),
		cmocka_unit_test(test_timer_interrupts_blocking_calls),
		cmocka_unit_test(test_out_remembers_enospc),
		cmocka_unit_test(test_out_gives_up_on_a_stalled_reader),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
