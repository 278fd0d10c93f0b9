/*
 * sink_ctf.c -- `--format ctf --output DIR`: the trace as a CTF 1.8 trace
 * (Common Trace Format, https://diamon.org/ctf/), for babeltrace2, Trace
 * Compass and the other CTF readers (docs/exports.md).
 *
 * DIR gets one binary data stream per core (stream_<core>, ctf_stream.c)
 * and the TSDL metadata (ctf_meta.c), written last because it declares the
 * clock's rate and origin, which the trace tells only as it goes.  Every
 * event is one CTF event of the class of its kind, with the fields --format
 * jsonl gives it; decoder diagnostics are events of the class "diagnostic";
 * the losses the target reports (DROPS) are the packets' events_discarded.
 * Memory: one packet buffer per core.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctf_meta.h"
#include "ctf_stream.h"
#include "event_desc.h"
#include "pipeline.h"
#include "core/msg.h"

struct sink_ctf {
	char *dir;
	struct ctf_streams streams;
	uint64_t nrec, ndiag;
	uint32_t last_core;
	/* the target's loss totals last seen on each stream (DROPS) */
	uint64_t drops_over[CTF_MAX_STREAMS], drops_ref[CTF_MAX_STREAMS];
	uint8_t have_drops[CTF_MAX_STREAMS];
};

/* ---- the directory ---------------------------------------------------------- */

/* A file of an earlier export: metadata, its temporary, or stream_N. */
static int ctf_own_file(const char *name)
{
	if (strcmp(name, "metadata") == 0 || strcmp(name, ".metadata.tmp") == 0)
		return 1;
	if (strncmp(name, "stream_", 7) != 0 || !name[7])
		return 0;
	for (const char *p = name + 7; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/* The metadata of a directory we wrote before says so near its top. */
static int ctf_dir_is_ours(const char *dir)
{
	char path[4096], head[256];
	size_t n = 0;

	if (snprintf(path, sizeof(path), "%s/metadata", dir) >= (int)sizeof(path))
		return 0;
	FILE *f = fopen(path, "r");
	if (f) {
		n = fread(head, 1, sizeof(head) - 1, f);
		fclose(f);
	}
	head[n] = 0;
	return strstr(head, "written by sonde") != NULL;
}

/* Make dir ready: created, or emptied of an earlier Sonde export.  A
 * directory holding anything else is left alone (a CTF reader would take
 * every other file in it for a data stream). */
static int ctf_prepare_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0) {
		if (errno == ENOENT && mkdir(dir, 0777) == 0)
			return 0;
		sonde_err("ctf: cannot create the directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		sonde_err("ctf: '%s' is not a directory (the CTF output is one)", dir);
		errno = ENOTDIR;
		return -1;
	}
	DIR *d = opendir(dir);
	struct dirent *e;
	int ours = ctf_dir_is_ours(dir), foreign = 0;
	if (!d) {
		sonde_err("ctf: cannot read the directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && (!ours || !ctf_own_file(e->d_name)))
			foreign = 1;
	if (foreign) {
		closedir(d);
		sonde_err("ctf: '%s' is not empty and not an earlier CTF export of sonde: left alone", dir);
		errno = EEXIST;
		return -1;
	}
	rewinddir(d);
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		if (ctf_own_file(e->d_name) && snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path))
			unlink(path);
	}
	closedir(d);
	return 0;
}

/* ---- events ----------------------------------------------------------------- */

static void ctf_arg(struct ctf_stream *st, const struct sonde_arg *a)
{
	ctf_put_str(st, a->name);
	ctf_put_u8(st, (uint8_t)a->type);
	switch (a->type) {
	case SONDE_A_NONE: break;
	case SONDE_A_U8: case SONDE_A_I8: case SONDE_A_BOOL: ctf_put_u8(st, (uint8_t)a->v.u); break;
	case SONDE_A_U16: case SONDE_A_I16: ctf_put_u16(st, (uint16_t)a->v.u); break;
	case SONDE_A_U32: case SONDE_A_I32: ctf_put_u32(st, (uint32_t)a->v.u); break;
	case SONDE_A_F32: ctf_put_f32(st, (float)a->v.f); break;
	case SONDE_A_F64: ctf_put_f64(st, a->v.f); break;
	case SONDE_A_STR: ctf_put_strn(st, (const char *)a->v.mem.p, a->v.mem.n); break;
	case SONDE_A_MEM:
		ctf_put_u32(st, (uint32_t)a->v.mem.n);
		ctf_put(st, a->v.mem.p, a->v.mem.n);
		break;
	default: ctf_put_u64(st, a->v.u); break; /* u64, i64, obj, func, enum, hex */
	}
	ctf_put_str(st, a->resolved);
	ctf_put_u32(st, a->type == SONDE_A_ENUM ? a->group : 0);
}

/* The event context (ctf_meta.h); ev NULL for a diagnostic. */
static void ctf_context(struct ctf_stream *st, uint64_t index, const struct sonde_event *ev, uint64_t offset,
			uint64_t frame)
{
	int valid = ev && (ev->ts_flags & SONDE_TS_VALID);

	ctf_put_u64(st, index);
	ctf_put_u64(st, valid ? ev->ts : 0);
	ctf_put_u8(st, (uint8_t)valid);
	ctf_put_u8(st, ev && (ev->ts_flags & SONDE_TS_ESTIMATED));
	ctf_put_u32(st, ev ? ev->rec_id : 0);
	ctf_put_str(st, ev ? (ev->rec_name ? ev->rec_name : sonde_ev_desc(ev->kind)->name) : "diagnostic");
	ctf_put_u32(st, ev ? ev->flags : 0);
	ctf_put_u64(st, offset);
	ctf_put_u64(st, frame);
	ctf_put_u32(st, ev ? ev->seq : 0);
}

/* A DROPS whose totals grew: the growth is added to the stream's
 * discarded events.  Totals that went down mean the target restarted. */
static uint64_t ctf_drops_growth(struct sink_ctf *c, uint32_t k, const struct sonde_event *ev)
{
	uint64_t over = (uint64_t)ev->value, ref = ev->obj2, grow;

	if (!c->have_drops[k])
		grow = over + ref;
	else
		grow = (over >= c->drops_over[k] ? over - c->drops_over[k] : over) +
		       (ref >= c->drops_ref[k] ? ref - c->drops_ref[k] : ref);
	c->have_drops[k] = 1;
	c->drops_over[k] = over;
	c->drops_ref[k] = ref;
	return grow;
}

static uint32_t ctf_index_of(const struct sink_ctf *c, const struct ctf_stream *st)
{
	uint32_t k = 0;
	while (k < c->streams.n && c->streams.s[k] != st)
		k++;
	return k;
}

static void sink_ctf_event(void *vs, const struct sonde_event *ev, const struct sonde_session *ss)
{
	struct sink_ctf *c = vs;
	const struct sonde_ev_desc *d = sonde_ev_desc(ev->kind);
	struct ctf_stream *st = ctf_stream_get(&c->streams, ev->core);
	uint64_t grow = 0;

	(void)ss;
	c->nrec++;
	c->last_core = ev->core;
	if (!st)
		return;
	if (ev->kind == SONDE_EV_DROPS) {
		grow = ctf_drops_growth(c, ctf_index_of(c, st), ev);
		if (grow) {
			/* The loss goes between two packets: the one before
			 * the DROPS (an empty one if need be: readers count
			 * from the second packet on), and the one it ends. */
			ctf_packet_flush(&c->streams, st, st->seq_num == 0);
			st->discarded += grow;
		}
	}
	ctf_ev_begin(&c->streams, st, (uint16_t)ev->kind, (ev->ts_flags & SONDE_TS_VALID) != 0, ev->ts);
	ctf_context(st, c->nrec, ev, ev->offset, ev->frame);
	if (d->obj_key) {
		ctf_put_u64(st, (ev->flags & SONDE_EVF_NO_OBJ) ? 0 : ev->obj);
		ctf_put_str(st, ev->obj_name);
	}
	if (d->obj2_key) {
		ctf_put_u64(st, ev->obj2);
		ctf_put_str(st, ev->obj2_name);
	}
	if (d->value_key)
		ctf_put_u64(st, (uint64_t)ev->value);
	if (d->has_level) {
		ctf_put_u32(st, ev->level);
		ctf_put_str(st, sonde_level_name(ev->level));
	}
	if (d->text_key)
		ctf_put_str(st, ev->text);
	ctf_put_u32(st, (uint32_t)ev->nargs);
	for (size_t i = 0; i < ev->nargs; i++)
		ctf_arg(st, &ev->args[i]);
	ctf_ev_end(&c->streams, st);
	if (grow)
		ctf_packet_flush(&c->streams, st, 0);
}

static void sink_ctf_diag(void *vs, const struct sonde_diag *dg, const struct sonde_session *ss)
{
	struct sink_ctf *c = vs;
	struct ctf_stream *st = ctf_stream_get(&c->streams, c->last_core);

	(void)ss;
	c->ndiag++;
	if (!st)
		return;
	ctf_ev_begin(&c->streams, st, CTF_DIAG_ID, 0, 0);
	ctf_context(st, c->nrec, NULL, dg->offset, dg->frame);
	ctf_put_str(st, sonde_diag_name(dg->code));
	ctf_put_u64(st, dg->offset);
	ctf_put_u64(st, dg->frame);
	ctf_put_u64(st, dg->count);
	ctf_put_str(st, dg->msg);
	ctf_ev_end(&c->streams, st);
}

/* ---- life cycle --------------------------------------------------------------- */

static void sink_ctf_destroy(void *vs)
{
	struct sink_ctf *c = vs;

	if (!c)
		return;
	ctf_streams_free(&c->streams);
	free(c->dir);
	free(c);
}

static void *sink_ctf_create_at(const char *path, sonde_opts opts)
{
	struct sink_ctf *c = calloc(1, sizeof(*c));

	(void)opts;
	if (!c || !(c->dir = strdup(path))) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	if (ctf_prepare_dir(path) != 0) {
		int e = errno ? errno : EIO;
		free(c->dir);
		free(c);
		errno = e;
		return NULL;
	}
	ctf_streams_init(&c->streams, c->dir);
	return c;
}

static int ctf_write_metadata(struct sink_ctf *c, const struct sonde_session *ss)
{
	char tmp[4096], path[4096];
	struct ctf_meta_info mi = { ss, c->nrec, c->ndiag, c->streams.n };

	snprintf(tmp, sizeof(tmp), "%s/.metadata.tmp", c->dir);
	snprintf(path, sizeof(path), "%s/metadata", c->dir);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		sonde_err("ctf: %s: cannot create: %s", tmp, strerror(errno));
		return -1;
	}
	int rc = ctf_meta_write(f, &mi);
	errno = 0;
	if (fclose(f) != 0 || rc != 0 || rename(tmp, path) != 0) {
		int e = errno ? errno : EIO;
		sonde_err("ctf: %s: write error: %s", path, strerror(e));
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

static int sink_ctf_finish(void *vs, const struct sonde_session *ss)
{
	struct sink_ctf *c = vs;

	if (c->streams.n == 0)
		ctf_stream_get(&c->streams, 0); /* an empty trace still has a data stream */
	if (c->streams.other_cores)
		sonde_err("ctf: %llu events of cores beyond the first %u left out",
			(unsigned long long)c->streams.other_cores, CTF_MAX_STREAMS);
	if (ctf_streams_close(&c->streams) != 0)
		return -1;
	return ctf_write_metadata(c, ss);
}

const struct sonde_sink_ops sonde_sink_ctf = {
	.name = "ctf",
	.desc = "CTF 1.8 trace directory (--output DIR) for babeltrace2, Trace Compass",
	.create_at = sink_ctf_create_at,
	.event = sink_ctf_event,
	.diag = sink_ctf_diag,
	.finish = sink_ctf_finish,
	.destroy = sink_ctf_destroy,
};
