/*
 * perfetto_writer.h -- writes the track model (trackmap.h) as a Perfetto
 * protobuf trace, one length-delimited TracePacket at a time.
 */
#ifndef SONDE_PERFETTO_WRITER_H
#define SONDE_PERFETTO_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include "trackmap.h"

#define PFW_SEQ_ID 1u  /* trusted_packet_sequence_id of every packet */

struct pfw_config {
	int sched;     /* also write generic-kernel task state events */
	int intern;    /* intern event names, categories, annotation names */
};

struct pfw_stats {
	uint64_t packets;
	uint64_t bytes;
	uint32_t interned;  /* strings interned */
	uint32_t inlined;   /* names written inline because a table was full */
};

struct pfw;

extern const struct tmap_writer_ops pfw_ops; /* their w is a struct pfw * */

struct pfw *pfw_new(FILE *out, const struct pfw_config *cfg);
/* Hand the packets written so far to the file; 0, or -1 after an error. */
int pfw_flush(struct pfw *w);
/* Flush; 0, or -1 if anything could not be written. */
int pfw_finish(struct pfw *w);
void pfw_get_stats(const struct pfw *w, struct pfw_stats *st);
void pfw_free(struct pfw *w);

#endif /* SONDE_PERFETTO_WRITER_H */
