/*
 * symbolize.h -- the pipeline stage that names code addresses from an ELF
 * file's symbol table (--elf FILE, or -o elf=FILE) for every output format:
 * FUNC_ENTER/FUNC_EXIT events that carry an address and no dictionary name
 * get the covering function's name in obj_name, and FUNC arguments without a
 * resolved name get it in `resolved`.  A name from the target's dictionary
 * always wins.  core/pipe.c runs it on each event before the sinks.
 */
#ifndef SONDE_SYMBOLIZE_H
#define SONDE_SYMBOLIZE_H

#include <stddef.h>

#include "event.h"

struct elfsym;

struct sonde_symbolizer {
	struct elfsym *syms;       /* owned */
	struct sonde_arg *args;    /* the copy of an event's arguments */
	size_t cap;
	struct sonde_event ev;     /* the copy of the event */
	unsigned long long named;  /* names given */
};

/* Load path's symbols.  0, or -1 with the reason in err. */
int sonde_symbolizer_open(struct sonde_symbolizer *z, const char *path, char *err, size_t errlen);
void sonde_symbolizer_close(struct sonde_symbolizer *z);

/* ev itself when nothing is to be named, else a copy (valid until the next
 * call) with the names filled in. */
const struct sonde_event *sonde_symbolize(struct sonde_symbolizer *z, const struct sonde_event *ev);

#endif /* SONDE_SYMBOLIZE_H */
