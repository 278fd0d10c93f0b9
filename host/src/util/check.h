/*
 * check.h -- SONDE_ASSERT: the invariants the host code relies on without
 * testing them where they are used -- a renderer writing into room that was
 * worked out elsewhere, a cursor inside its buffer -- stated where they are
 * relied on and checked in the Debug, sanitizer and fuzz builds
 * (SONDE_CHECKS, set by the top CMakeLists.txt), compiled out elsewhere.
 * A failed one names the condition, file and line and aborts, so a fuzzer
 * or a sanitizer run stops at the broken promise, not at the overrun it
 * leads to much later.
 */
#ifndef SONDE_UTIL_CHECK_H
#define SONDE_UTIL_CHECK_H

/* The target's sonde_config.h has the same switch, for target code; the host
 * includes none of its headers that hold it. */
#if defined(SONDE_CHECKS) && SONDE_CHECKS
void sonde_assert_failed(const char *cond, const char *file, int line) __attribute__((noreturn));
#define SONDE_ASSERT(c) ((c) ? (void)0 : sonde_assert_failed(#c, __FILE__, __LINE__))
#else
/* sizeof: the condition is not evaluated, but its names count as used */
#define SONDE_ASSERT(c) ((void)sizeof((c) ? 1 : 0))
#endif

#endif /* SONDE_UTIL_CHECK_H */
