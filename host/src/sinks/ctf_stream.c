/*
 * ctf_stream.c -- the per-core data streams of the CTF export
 * (ctf_stream.h): packet buffers, their header and context, the files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_meta.h"
#include "ctf_stream.h"
#include "core/msg.h"
#include "util/bytes.h"

static void ctf_fail(struct ctf_streams *ss, const char *what, const char *name)
{
	if (ss->failed)
		return;
	ss->failed = 1;
	ss->err = errno ? errno : EIO;
	sonde_err("ctf: %s/%s: %s: %s", ss->dir, name, what, strerror(ss->err));
}

void ctf_streams_init(struct ctf_streams *ss, char *dir)
{
	memset(ss, 0, sizeof(*ss));
	ss->dir = dir;
}

/* Room for n more bytes; on failure the stream is marked broken (its
 * further bytes are dropped, the export fails at the end). */
static int ctf_room(struct ctf_stream *s, size_t n)
{
	if (s->len + n <= s->cap)
		return 0;
	size_t nc = s->cap ? s->cap : CTF_PACKET_BYTES + 4096;
	while (nc < s->len + n)
		nc *= 2;
	uint8_t *nb = realloc(s->buf, nc);
	if (!nb)
		return -1;
	s->buf = nb;
	s->cap = nc;
	return 0;
}

struct ctf_stream *ctf_stream_get(struct ctf_streams *ss, uint32_t core)
{
	char name[32];

	for (uint32_t i = 0; i < ss->n; i++)
		if (ss->s[i]->core == core)
			return ss->s[i];
	if (ss->failed)
		return NULL;
	if (ss->n == CTF_MAX_STREAMS) {
		ss->other_cores++;
		return NULL;
	}
	struct ctf_stream *s = calloc(1, sizeof(*s));
	snprintf(name, sizeof(name), "stream_%u", (unsigned)core);
	size_t dl = strlen(ss->dir);
	char *path = malloc(dl + sizeof(name) + 1);
	if (!s || !path || ctf_room(s, CTF_PACKET_BYTES) != 0) {
		errno = ENOMEM;
		ctf_fail(ss, "cannot create", name);
		free(path);
		if (s)
			free(s->buf);
		free(s);
		return NULL;
	}
	memcpy(path, ss->dir, dl);
	path[dl] = '/';
	strcpy(path + dl + 1, name);
	s->f = fopen(path, "wb");
	free(path);
	if (!s->f) {
		ctf_fail(ss, "cannot create", name);
		free(s->buf);
		free(s);
		return NULL;
	}
	s->core = core;
	s->len = CTF_PACKET_PREFIX; /* filled in when the packet is written */
	ss->s[ss->n++] = s;
	return s;
}

void ctf_packet_flush(struct ctf_streams *ss, struct ctf_stream *s, int empty)
{
	uint8_t *p = s->buf;
	uint64_t bits = (uint64_t)s->len * 8;

	if (!s->nevents && !empty)
		return;
	if (s->oom) {
		char name[32];
		snprintf(name, sizeof(name), "stream_%u", (unsigned)s->core);
		errno = ENOMEM;
		ctf_fail(ss, "out of memory", name);
	}
	p[0] = (uint8_t)CTF_MAGIC, p[1] = (uint8_t)(CTF_MAGIC >> 8);
	p[2] = (uint8_t)(CTF_MAGIC >> 16), p[3] = (uint8_t)(CTF_MAGIC >> 24);
	memset(p + 4, 0, 4); /* stream_id */
	bytes_put_le(p + 8, bits, 8); /* packet_size */
	bytes_put_le(p + 16, bits, 8); /* content_size */
	/* timestamp_begin: the first event's */
	bytes_put_le(p + 24, s->nevents ? bytes_le64(p + CTF_PACKET_PREFIX + 2) : s->last_ts, 8);
	bytes_put_le(p + 32, s->last_ts, 8); /* timestamp_end */
	bytes_put_le(p + 40, s->discarded, 8); /* events_discarded */
	bytes_put_le(p + 48, s->seq_num++, 8); /* packet_seq_num */
	for (int i = 0; i < 4; i++)                     /* cpu_id */
		p[56 + i] = (uint8_t)(s->core >> (8 * i));
	errno = 0;
	if (!ss->failed && fwrite(p, 1, s->len, s->f) != s->len) {
		char name[32];
		snprintf(name, sizeof(name), "stream_%u", (unsigned)s->core);
		ctf_fail(ss, "write error", name);
	}
	s->len = CTF_PACKET_PREFIX;
	s->nevents = 0;
	s->nuntimed = 0;
}

void ctf_ev_begin(struct ctf_streams *ss, struct ctf_stream *s, uint16_t id, int valid, uint64_t ts)
{
	(void)ss;
	if (valid && !s->have_ts) {
		/* the first time of this stream: the untimed events before it
		 * (still in this packet) take it */
		for (uint32_t i = 0; i < s->nuntimed; i++)
			bytes_put_le(s->buf + s->untimed[i], ts, 8);
		s->nuntimed = 0;
		s->have_ts = 1;
		s->last_ts = ts;
	}
	if (valid && ts > s->last_ts)
		s->last_ts = ts;
	s->ev_start = s->len;
	ctf_put_u16(s, id);
	if (!s->have_ts && s->nuntimed < CTF_MAX_UNTIMED) {
		if (!s->untimed)
			s->untimed = malloc(CTF_MAX_UNTIMED * sizeof(*s->untimed));
		if (s->untimed)
			s->untimed[s->nuntimed++] = (uint32_t)s->len;
	}
	ctf_put_u64(s, s->last_ts);
}

void ctf_ev_end(struct ctf_streams *ss, struct ctf_stream *s)
{
	s->nevents++;
	if (s->len >= CTF_PACKET_BYTES)
		ctf_packet_flush(ss, s, 0);
}

void ctf_put(struct ctf_stream *s, const void *p, size_t n)
{
	if (ctf_room(s, n) != 0) {
		s->oom = 1; /* reported when the packet is written */
		return;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

void ctf_put_u8(struct ctf_stream *s, uint8_t v)
{
	ctf_put(s, &v, 1);
}

void ctf_put_u16(struct ctf_stream *s, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	ctf_put(s, b, 2);
}

void ctf_put_u32(struct ctf_stream *s, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	ctf_put(s, b, 4);
}

void ctf_put_u64(struct ctf_stream *s, uint64_t v)
{
	uint8_t b[8];
	bytes_put_le(b, v, 8);
	ctf_put(s, b, 8);
}

void ctf_put_f32(struct ctf_stream *s, float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	ctf_put_u32(s, u);
}

void ctf_put_f64(struct ctf_stream *s, double v)
{
	uint64_t u;
	memcpy(&u, &v, 8);
	ctf_put_u64(s, u);
}

void ctf_put_strn(struct ctf_stream *s, const char *str, size_t n)
{
	const char *nul = str ? memchr(str, 0, n) : NULL;
	size_t len = !str ? 0 : nul ? (size_t)(nul - str) : n;

	ctf_put_u8(s, len != 0); /* none / some */
	if (len) {
		ctf_put(s, str, len);
		ctf_put_u8(s, 0);
	}
}

void ctf_put_str(struct ctf_stream *s, const char *str)
{
	ctf_put_strn(s, str, str ? strlen(str) : 0);
}

int ctf_streams_close(struct ctf_streams *ss)
{
	for (uint32_t i = 0; i < ss->n; i++) {
		struct ctf_stream *s = ss->s[i];
		ctf_packet_flush(ss, s, 0);
		errno = 0;
		if (s->f && fclose(s->f) != 0 && !ss->failed) {
			char name[32];
			snprintf(name, sizeof(name), "stream_%u", (unsigned)s->core);
			ctf_fail(ss, "write error", name);
		}
		s->f = NULL;
	}
	if (ss->failed)
		errno = ss->err;
	return ss->failed ? -1 : 0;
}

void ctf_streams_free(struct ctf_streams *ss)
{
	for (uint32_t i = 0; i < ss->n; i++) {
		if (ss->s[i]->f)
			fclose(ss->s[i]->f);
		free(ss->s[i]->buf);
		free(ss->s[i]->untimed);
		free(ss->s[i]);
	}
	ss->n = 0;
}
