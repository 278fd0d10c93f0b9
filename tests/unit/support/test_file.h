/*
 * test_file.h -- a whole file read into memory for a unit test (a capture,
 * a reference output): one helper instead of a copy per test file.
 */
#ifndef TEST_FILE_H
#define TEST_FILE_H

#include <stddef.h>
#include <stdint.h>

/* The bytes of path, NUL-terminated (so a text file is a C string), their
 * count in *n (may be NULL); fails the test when the file cannot be read.
 * The caller frees it. */
uint8_t *test_slurp(const char *path, size_t *n);

#endif /* TEST_FILE_H */
