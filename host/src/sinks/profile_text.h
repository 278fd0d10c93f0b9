/*
 * profile_text.h -- names, flag letters and notes of the profile model, as
 * the profile sinks print them.
 */
#ifndef PROF_TEXT_H
#define PROF_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "profile_model.h"

/* Display names: "name", else "task#3", "No task", "(idle)", "(idle)@1" on
 * core 1, "isr#5", ... Written into buf[n]; returns buf. */
const char *prof_ctx_label(const struct prof_ctx *c, char *buf, size_t n);
const char *prof_isr_label(const struct prof_isr *r, char *buf, size_t n);

/* Write one line per noteworthy count or cap hit, each starting with
 * prefix.  Returns the number of lines; with f NULL only counts them. */
int prof_write_notes(const struct prof_model *m, FILE *f, const char *prefix);

/* The flags as letters ("E", "OU", ...; "" when none) into buf[8]. */
const char *prof_flag_letters(unsigned flags, char buf[8]);

#endif /* PROF_TEXT_H */
