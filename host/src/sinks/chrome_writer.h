/*
 * chrome_writer.h -- writes the track model (trackmap.h) in the legacy
 * Chrome JSON trace-event format, streamed: the header when created, one
 * event per line as they come, the closing brackets at the end.
 */
#ifndef SONDE_CHROME_WRITER_H
#define SONDE_CHROME_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include "trackmap.h"

struct cjw;

extern const struct tmap_writer_ops cjw_ops; /* their w is a struct cjw * */

struct cjw *cjw_new(FILE *out);
/* Close the JSON document; 0, or -1 if anything could not be written.
 * ticks_as_ns: say in otherData that times are ticks, not ns. */
int cjw_finish(struct cjw *w, int ticks_as_ns);
uint64_t cjw_events(const struct cjw *w);
void cjw_free(struct cjw *w);

#endif /* SONDE_CHROME_WRITER_H */
