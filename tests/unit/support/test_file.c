/*
 * test_file.c -- test_file.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "test_file.h"

uint8_t *test_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	long len;
	uint8_t *b;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len >= 0);
	assert_int_equal(fseek(f, 0, SEEK_SET), 0);
	b = malloc((size_t)len + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
	b[len] = 0;
	fclose(f);
	if (n)
		*n = (size_t)len;
	return b;
}
