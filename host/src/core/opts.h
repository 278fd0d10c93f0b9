/*
 * opts.h -- helpers around the -o key=value options (sonde_opt_get itself
 * is declared in pipeline.h).
 */
#ifndef SONDE_OPTS_H
#define SONDE_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline.h"

/* The one policy for a bad -o value: it is a usage error, said once as the
 * tool's message "-o KEY=VALUE: expected WHAT" (msg.h); the decoder or
 * sink that read it then fails its create, and the CLI exits 2.  The
 * readers below say it themselves; sonde_opt_bad is for the checks only
 * the caller can make.  Returns -1. */
int sonde_opt_bad(const char *key, const char *val, const char *expected, ...)
	__attribute__((format(printf, 3, 4)));

/* s as a whole number, decimal or 0x-hexadecimal (no sign, no blanks; a
 * leading 0 is decimal, not octal): 0 with *v set, -1 (not said) when s is
 * not one.  For a check that sonde_opt_uint cannot say. */
int sonde_opt_parse_uint(const char *s, uint64_t *v);

/* -o KEY as a whole number from lo to hi, decimal or 0x-hexadecimal (no
 * sign, no blanks; a leading 0 is decimal, not octal): 0 with *out set;
 * 0 with *out untouched when KEY is absent; -1 (said) otherwise. */
int sonde_opt_uint(sonde_opts opts, const char *key, uint64_t lo, uint64_t hi, uint64_t *out);

/* -o KEY as one of words[] (NULL-terminated): its index; def when KEY is
 * absent; -1 (said, listing the words) otherwise. */
int sonde_opt_word(sonde_opts opts, const char *key, const char *const *words, int def);

/* -o KEY as a yes/no: 1/0, yes/no, on/off, true/false; def when absent;
 * -1 (said) otherwise. */
int sonde_opt_bool(sonde_opts opts, const char *key, int def);

/* Remember which entries of opts are looked up from now on (one array at a
 * time; the CLI registers the array of the run). */
void sonde_opt_track(sonde_opts opts);
/* 1 if entry i of the tracked array was looked up by sonde_opt_get. */
int sonde_opt_was_used(sonde_opts opts, size_t i);

#endif /* SONDE_OPTS_H */
