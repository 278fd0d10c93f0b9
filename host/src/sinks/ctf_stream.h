/*
 * ctf_stream.h -- the data streams of the CTF export: one file per core
 * (stream_<core>), written a packet at a time from a buffer of bounded
 * size (ctf_meta.h has the layout).
 *
 * An event is appended with ctf_ev_begin, the ctf_put_* writers and
 * ctf_ev_end.  Timestamps in a stream never go back (CTF readers require
 * it): an event earlier than the one before it is written at the time of
 * the one before (its own time stays in the event context's ts), and events
 * before the first timed one of their stream get that first time.
 */
#ifndef SONDE_CTF_STREAM_H
#define SONDE_CTF_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CTF_PACKET_BYTES (64u * 1024u) /* a packet is written when its buffer is this full */
#define CTF_MAX_STREAMS 256u           /* cores; events of further cores are left out (counted) */
#define CTF_MAX_UNTIMED 4096u          /* leading untimed events whose time is filled in later */

struct ctf_stream {
	uint32_t core;
	FILE *f;
	uint8_t *buf;           /* the packet being filled, from its prefix on */
	size_t len, cap;
	size_t ev_start;        /* where the event being written begins */
	uint32_t nevents;
	uint64_t first_ts, last_ts;
	int have_ts;            /* last_ts is a time of this stream */
	uint64_t seq_num;       /* packets written */
	uint64_t discarded;     /* events the target reported lost on this core, cumulative */
	uint32_t *untimed;      /* offsets of leading untimed events' timestamps */
	uint32_t nuntimed;
	int oom;                /* bytes could not be buffered: the stream is broken */
};

struct ctf_streams {
	char *dir;
	struct ctf_stream *s[CTF_MAX_STREAMS];
	uint32_t n;             /* streams created */
	uint64_t other_cores;   /* events left out: core beyond CTF_MAX_STREAMS */
	int failed;             /* a write failed (said); errno in err */
	int err;
};

void ctf_streams_init(struct ctf_streams *ss, char *dir);
/* The stream of a core, created (and its file) on first use; NULL when it
 * cannot be (core too high, or an error: failed is set). */
struct ctf_stream *ctf_stream_get(struct ctf_streams *ss, uint32_t core);

/* Start an event of class id at ts (valid: ts is a real time); the packet
 * is written first if full. */
void ctf_ev_begin(struct ctf_streams *ss, struct ctf_stream *s, uint16_t id, int valid, uint64_t ts);
void ctf_ev_end(struct ctf_streams *ss, struct ctf_stream *s);
/* Write the packet being filled, if it has events (or even if not, with
 * empty: a packet that only carries its context). */
void ctf_packet_flush(struct ctf_streams *ss, struct ctf_stream *s, int empty);

void ctf_put(struct ctf_stream *s, const void *p, size_t n);
void ctf_put_u8(struct ctf_stream *s, uint8_t v);
void ctf_put_u16(struct ctf_stream *s, uint16_t v);
void ctf_put_u32(struct ctf_stream *s, uint32_t v);
void ctf_put_u64(struct ctf_stream *s, uint64_t v);
void ctf_put_f32(struct ctf_stream *s, float v);
void ctf_put_f64(struct ctf_stream *s, double v);
/* A `struct str` (ctf_meta.c): tag some + the bytes up to the first NUL
 * + NUL, or tag none when that would be empty (NULL, "", or a leading
 * NUL). */
void ctf_put_str(struct ctf_stream *s, const char *str);
void ctf_put_strn(struct ctf_stream *s, const char *str, size_t n);

/* Flush every stream and close the files; 0, or -1 (errno set). */
int ctf_streams_close(struct ctf_streams *ss);
void ctf_streams_free(struct ctf_streams *ss);

#endif /* SONDE_CTF_STREAM_H */
