/*
 * sonde_fields.h -- argument names carried by a user record's dictionary
 * name (docs/protocol.md, "Field names in a record's name"): the RECORD
 * entry "temp(celsius,raw)" names the record "temp" and its first two
 * arguments "celsius" and "raw", so that every output says celsius=21.5
 * instead of arg0.  A name without a well-formed "(...)" is taken whole.
 */
#ifndef SONDE_FIELDS_H
#define SONDE_FIELDS_H

#include <stddef.h>

#include "event.h"
#include "sonde_args.h"

#define SFIELDS_TEXT_MAX 256 /* a DICT name has at most 255 characters */
#define SFIELDS_MAX 128      /* so at most 127 fields */

struct sfields {
	char src[SFIELDS_TEXT_MAX];   /* the dictionary name it was parsed from */
	char buf[SFIELDS_TEXT_MAX];   /* the record's name, then the field names, NUL-separated */
	const char *field[SFIELDS_MAX];
	size_t n;
	int valid;
};

/* Parse name (if it is not the one parsed last) and return the record's
 * name without its field list. */
const char *sfields_name(struct sfields *f, const char *name);
/* Name the arguments that have no name of their own. */
void sfields_apply(const struct sfields *f, struct sonde_arg *args, size_t n);

#endif /* SONDE_FIELDS_H */
