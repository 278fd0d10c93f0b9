/*
 * speedscope_writer.h -- speedscope's own file format
 * (https://www.speedscope.app/file-format-schema.json): a table of frames
 * shared by every profile, and "evented" profiles, each a time-ordered list
 * of frame opens ("O") and closes ("C").
 *
 * Profiles are filled in any order as the trace is decoded, but the file
 * holds each profile's events in one array: each profile's events wait in a
 * temporary file of its own (13 bytes an event), and sw_finish writes the
 * document from them.  Memory: the frame names (bounded) and one stdio
 * buffer per profile.
 */
#ifndef SONDE_SPEEDSCOPE_WRITER_H
#define SONDE_SPEEDSCOPE_WRITER_H

#include <stdint.h>
#include <stdio.h>

#define SW_MAX_PROFILES 256u        /* profiles kept; events of more are counted */
#define SW_MAX_FRAMES 100000u       /* distinct frame names; more share "(other frames)" */
#define SW_MAX_NAME_BYTES (16u << 20)
#define SW_ORDERS 8                 /* profile orders: 0 .. SW_ORDERS - 1 */
/* the one profile of a trace without task, ISR or function slices */
#define SW_EMPTY_NAME "(no task, ISR or function slices in this trace)"

struct sw;

/* 0 when the writer cannot be created (out of memory). */
struct sw *sw_new(FILE *out);
void sw_free(struct sw *w);

/* The frame of a name (interned). */
uint32_t sw_frame(struct sw *w, const char *name);
/* A new profile; its name and core as shown (sw_finish adds " (core N)"
 * when the trace has several cores); order (0 .. SW_ORDERS - 1) sorts
 * profiles in the file (lower first, then by creation).  Returns its
 * index, or -1 when there
 * are SW_MAX_PROFILES already (counted) or a temporary file could not be
 * made (said, and the export fails). */
int sw_profile(struct sw *w, const char *name, uint32_t core, int order);
/* Name profile p anew (its lane's name arrived late). */
void sw_rename(struct sw *w, int p, const char *name);
/* Open or close frame at time at (ns) in profile p.  Times that go back
 * are taken as the profile's latest. */
void sw_open(struct sw *w, int p, uint32_t frame, uint64_t at);
void sw_close(struct sw *w, int p, uint32_t frame, uint64_t at);

/* Write the document; end is the time of the trace's end (every profile
 * spans 0..end).  activeProfileIndex is the busiest profile (the most time
 * with a frame open), the one speedscope shows first.  0, or -1 after a write error (errno set). */
int sw_finish(struct sw *w, const char *doc_name, uint64_t end);

#endif /* SONDE_SPEEDSCOPE_WRITER_H */
