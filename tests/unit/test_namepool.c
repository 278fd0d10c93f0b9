/*
 * test_namepool.c -- the exporters' string table (host/src/sinks/namepool.c):
 * dense ids, one stable copy per string, the bounds on entries and bytes,
 * and namepool_intern_str's memory of addresses, which must never give the
 * id of what a buffer held before when it holds something else now.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sinks/namepool.h"

static void test_ids(void **state)
{
	struct namepool *np = namepool_new(100000, 1u << 24);
	int added;
	char buf[32];
	(void)state;
	assert_non_null(np);
	/* many strings: ids 1, 2, ... in order, the same id for the same
	 * string, copies that stay where they are while the table grows */
	const char *first = NULL;
	for (unsigned i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "name %u", i);
		assert_int_equal(namepool_intern(np, buf, strlen(buf), &added), i + 1);
		assert_int_equal(added, 1);
		if (i == 0)
			first = namepool_str(np, 1);
	}
	assert_ptr_equal(namepool_str(np, 1), first);
	assert_string_equal(first, "name 0");
	for (unsigned i = 0; i < 5000; i += 7) {
		snprintf(buf, sizeof(buf), "name %u", i);
		assert_int_equal(namepool_intern(np, buf, strlen(buf), &added), i + 1);
		assert_int_equal(added, 0);
		assert_string_equal(namepool_str(np, i + 1), buf);
	}
	assert_int_equal(namepool_count(np), 5000);
	/* a prefix is another string; bytes after n are not part of it */
	assert_int_equal(namepool_intern(np, "name 50001", 9, &added), 5001);
	assert_string_equal(namepool_str(np, 5001), "name 5000");
	assert_int_equal(namepool_intern(np, "name 12", 6, &added), 2); /* "name 1" */
	namepool_free(np);
}

static void test_bounds(void **state)
{
	int added;
	(void)state;
	struct namepool *np = namepool_new(3, 1u << 20);
	assert_int_equal(namepool_intern_str(np, "a", &added), 1);
	assert_int_equal(namepool_intern_str(np, "b", &added), 2);
	assert_int_equal(namepool_intern_str(np, "c", &added), 3);
	assert_int_equal(namepool_intern_str(np, "d", &added), 0); /* full: refused */
	assert_int_equal(added, 0);
	assert_int_equal(namepool_intern_str(np, "b", &added), 2); /* known ones still found */
	namepool_free(np);
	np = namepool_new(100, 10); /* 10 bytes, NULs included */
	assert_int_equal(namepool_intern_str(np, "abcd", &added), 1);
	assert_int_equal(namepool_intern_str(np, "efgh", &added), 2);
	assert_int_equal(namepool_intern_str(np, "i", &added), 0);
	namepool_free(np);
}

/* One buffer reused for other strings (a label built on the stack): the id
 * follows what it holds now. */
static void test_same_address(void **state)
{
	struct namepool *np = namepool_new(1000, 1u << 20);
	char buf[32];
	int added;
	(void)state;
	strcpy(buf, "give Queue #3");
	assert_int_equal(namepool_intern_str(np, buf, &added), 1);
	assert_int_equal(namepool_intern_str(np, buf, &added), 1);
	assert_int_equal(added, 0);
	strcpy(buf, "take Queue #3");
	assert_int_equal(namepool_intern_str(np, buf, &added), 2);
	assert_int_equal(added, 1);
	strcpy(buf, "give Queue #3");
	assert_int_equal(namepool_intern_str(np, buf, &added), 1);
	strcpy(buf, "give Queue #"); /* a prefix of what was there */
	assert_int_equal(namepool_intern_str(np, buf, &added), 3);
	strcpy(buf, "give Queue #33"); /* ... and a longer one */
	assert_int_equal(namepool_intern_str(np, buf, &added), 4);
	/* another address with a known string: the same id */
	assert_int_equal(namepool_intern_str(np, "take Queue #3", &added), 2);
	assert_int_equal(namepool_intern(np, "give Queue #33", 14, &added), 4);
	namepool_free(np);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_same_address),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
