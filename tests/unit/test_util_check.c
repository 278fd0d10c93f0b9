/*
 * test_util_check.c -- SONDE_ASSERT (util/check.h): in a build with
 * SONDE_CHECKS (Debug, sanitizers, fuzz) a false condition stops the
 * process with a message naming it (seen in a child); elsewhere the
 * condition is not even evaluated.  (The target's macro, sonde_config.h,
 * follows the same switch: the target unit tests run with it on in the
 * sanitizer suite.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/check.h"

static int evaluated;

static int touch(int v)
{
	evaluated++;
	return v;
}

static void test_true_passes(void **state)
{
	(void)state;
	evaluated = 0;
	SONDE_ASSERT(touch(1));
#if defined(SONDE_CHECKS) && SONDE_CHECKS
	assert_int_equal(evaluated, 1);
#else
	assert_int_equal(evaluated, 0);
#endif
}

/* Run fn in a child with its stderr in a pipe: its exit status and what it
 * said. */
static int in_child(void (*fn)(void), char *said, size_t cap)
{
	int fd[2], status = 0;
	pid_t pid;
	ssize_t n;
	size_t got = 0;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		fn();
		_exit(0);
	}
	close(fd[1]);
	while (got + 1 < cap && (n = read(fd[0], said + got, cap - 1 - got)) > 0)
		got += (size_t)n;
	said[got] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void host_false(void)
{
	SONDE_ASSERT(touch(0) == 1);
}

static void test_false_stops(void **state)
{
	char said[512];
	int st;

	(void)state;
	st = in_child(host_false, said, sizeof(said));
#if defined(SONDE_CHECKS) && SONDE_CHECKS
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	assert_non_null(strstr(said, "SONDE_ASSERT(touch(0) == 1) failed"));
	assert_non_null(strstr(said, "test_util_check.c:"));
#else
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_string_equal(said, "");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_true_passes),
		cmocka_unit_test(test_false_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
