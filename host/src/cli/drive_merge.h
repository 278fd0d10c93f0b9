/*
 * drive_merge.h -- what drive.c uses of drive_merge.c (not for the
 * commands: they include drive.h).
 */
#ifndef SONDE_DRIVE_MERGE_H
#define SONDE_DRIVE_MERGE_H

#include "drive.h"

/* Decode d->inputs merged into one stream, as sonde_drive_run does. */
int sonde_drive_merged(struct sonde_drive *d);
/* Hand the selection, the symbols and the output path to p. */
void sonde_drive_stage(const struct sonde_drive *d, struct sonde_pipe *p);
/* Warn that -o option d->kv[i] was not looked up. */
void sonde_drive_warn_unused(const struct sonde_drive *d, size_t i);

#endif /* SONDE_DRIVE_MERGE_H */
