/*
 * test_util_bytes_plain.c -- test_util_bytes.c again with SONDE_PLAIN_BYTES:
 * the fallbacks a big-endian or unknown CPU takes, run on this one.
 */
#define SONDE_PLAIN_BYTES 1
#include "test_util_bytes.c"
