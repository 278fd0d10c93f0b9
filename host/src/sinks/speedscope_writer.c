/*
 * speedscope_writer.c -- speedscope's file format (speedscope_writer.h):
 * frames, evented profiles spilled to temporary files, the document.
 */
#include "speedscope_writer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "namepool.h"
#include "util/utf8text.h"
#include "core/msg.h"

#define SW_EVENT_BYTES 13 /* type, frame (u32), at (u64) */

struct sw_prof {
	char *name;
	uint32_t core;
	int order;
	FILE *spill;
	uint64_t events;
	uint64_t last_at;
	uint32_t depth;   /* frames open now */
	uint64_t open_at; /* when the outermost one opened */
	uint64_t busy;    /* time with a frame open: picks the profile shown first */
};

struct sw {
	FILE *out;
	struct namepool *names;
	uint32_t other_frame;   /* "(other frames)" + 1, 0 until needed */
	struct sw_prof prof[SW_MAX_PROFILES];
	uint32_t nprof;
	uint64_t lost_profiles; /* profiles beyond the cap, not made */
	int err;                /* a temporary file failed: errno */
};

struct sw *sw_new(FILE *out)
{
	struct sw *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->out = out;
	w->names = namepool_new(SW_MAX_FRAMES, SW_MAX_NAME_BYTES);
	if (!w->names) {
		free(w);
		return NULL;
	}
	return w;
}

void sw_free(struct sw *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; i < w->nprof; i++) {
		free(w->prof[i].name);
		if (w->prof[i].spill)
			fclose(w->prof[i].spill);
	}
	namepool_free(w->names);
	free(w);
}

uint32_t sw_frame(struct sw *w, const char *name)
{
	int added;
	uint32_t id = namepool_intern_str(w->names, name, &added);

	if (id)
		return id - 1;
	if (!w->other_frame) /* the pool is full: one frame stands for the rest */
		w->other_frame = 1 + namepool_count(w->names);
	return w->other_frame - 1;
}

int sw_profile(struct sw *w, const char *name, uint32_t core, int order)
{
	struct sw_prof *p;

	if (w->nprof == SW_MAX_PROFILES) {
		w->lost_profiles++;
		return -1;
	}
	p = &w->prof[w->nprof];
	memset(p, 0, sizeof(*p));
	p->name = strdup(name);
	p->core = core;
	p->order = order;
	p->spill = tmpfile();
	if (!p->name || !p->spill) {
		if (!w->err) {
			w->err = errno ? errno : ENOMEM;
			sonde_err("speedscope: cannot make a temporary file: %s", strerror(w->err));
		}
		free(p->name);
		if (p->spill)
			fclose(p->spill);
		return -1;
	}
	return (int)w->nprof++;
}

void sw_rename(struct sw *w, int p, const char *name)
{
	char *c;

	if (p < 0 || !(c = strdup(name)))
		return; /* the old name stays */
	free(w->prof[p].name);
	w->prof[p].name = c;
}

static void sw_event(struct sw *w, int p, char type, uint32_t frame, uint64_t at)
{
	struct sw_prof *pr;
	uint8_t b[SW_EVENT_BYTES];

	if (p < 0)
		return;
	pr = &w->prof[p];
	if (at < pr->last_at)
		at = pr->last_at;
	pr->last_at = at;
	if (type == 'O' && pr->depth++ == 0)
		pr->open_at = at;
	else if (type == 'C' && pr->depth && --pr->depth == 0)
		pr->busy += at - pr->open_at;
	b[0] = (uint8_t)type;
	memcpy(b + 1, &frame, 4);
	memcpy(b + 5, &at, 8);
	if (fwrite(b, 1, sizeof(b), pr->spill) != sizeof(b) && !w->err) {
		w->err = errno ? errno : EIO;
		sonde_err("speedscope: temporary file: %s", strerror(w->err));
	}
	pr->events++;
}

void sw_open(struct sw *w, int p, uint32_t frame, uint64_t at)
{
	sw_event(w, p, 'O', frame, at);
}

void sw_close(struct sw *w, int p, uint32_t frame, uint64_t at)
{
	sw_event(w, p, 'C', frame, at);
}

/* ---- the document ------------------------------------------------------------- */

static void sw_str(struct sw *w, const char *s)
{
	utf8text_json(w->out, (const uint8_t *)s, strlen(s));
}

static void sw_profile_json(struct sw *w, struct sw_prof *p, int several_cores, uint64_t end)
{
	char name[600];
	uint8_t b[SW_EVENT_BYTES];

	if (several_cores)
		snprintf(name, sizeof(name), "%s (core %" PRIu32 ")", p->name, p->core);
	else
		snprintf(name, sizeof(name), "%s", p->name);
	fputs("{\"type\":\"evented\",\"name\":", w->out);
	sw_str(w, name);
	fprintf(w->out, ",\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":%" PRIu64 ",\"events\":[", end);
	if (fseek(p->spill, 0, SEEK_SET) != 0 && !w->err) /* flushes what waits */
		w->err = errno ? errno : EIO;
	for (uint64_t i = 0; i < p->events; i++) {
		if (fread(b, 1, sizeof(b), p->spill) != sizeof(b)) {
			if (!w->err) {
				w->err = errno ? errno : EIO;
				sonde_err("speedscope: temporary file: cannot read back");
			}
			break;
		}
		uint32_t frame;
		uint64_t at;
		memcpy(&frame, b + 1, 4);
		memcpy(&at, b + 5, 8);
		fprintf(w->out, "%s{\"type\":\"%c\",\"frame\":%" PRIu32 ",\"at\":%" PRIu64 "}", i ? "," : "",
			b[0], frame, at);
	}
	fputs("]}", w->out);
}

/* Is profile i written (sw_finish writes those with events)? */
static int sw_written(const struct sw *w, uint32_t i)
{
	return w->prof[i].events != 0;
}

/* The index in the file of the busiest profile (the most time with a frame
 * open): speedscope opens activeProfileIndex, and the first profile in file
 * order is often one that ran for a microsecond at boot. */
static uint32_t sw_busiest(const struct sw *w)
{
	uint32_t k = 0, best = 0;
	uint64_t most = 0;

	for (int o = 0; o < SW_ORDERS; o++)
		for (uint32_t i = 0; i < w->nprof; i++)
			if (w->prof[i].order == o && sw_written(w, i)) {
				if (w->prof[i].busy > most) {
					most = w->prof[i].busy;
					best = k;
				}
				k++;
			}
	return best;
}

int sw_finish(struct sw *w, const char *doc_name, uint64_t end)
{
	uint32_t nframes = namepool_count(w->names), nout = 0;
	int several = 0;

	for (uint32_t i = 0; i < w->nprof; i++)
		several |= w->prof[i].core != w->prof[0].core;
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"sonde "
	      SONDE_VERSION "\",\"name\":", w->out);
	sw_str(w, doc_name);
	fprintf(w->out, ",\"activeProfileIndex\":%" PRIu32 ",\"shared\":{\"frames\":[", sw_busiest(w));
	for (uint32_t i = 0; i < nframes; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", w->out);
		sw_str(w, namepool_str(w->names, i + 1));
		fputc('}', w->out);
	}
	if (w->other_frame)
		fputs(nframes ? ",{\"name\":\"(other frames)\"}" : "{\"name\":\"(other frames)\"}", w->out);
	fputs("]},\"profiles\":[", w->out);
	for (int o = 0; o < SW_ORDERS; o++)
		for (uint32_t i = 0; i < w->nprof; i++)
			if (w->prof[i].order == o && sw_written(w, i)) {
				if (nout++)
					fputc(',', w->out);
				sw_profile_json(w, &w->prof[i], several, end);
			}
	/* speedscope hangs on a document without profiles: say why it is empty */
	if (!nout)
		fprintf(w->out, "{\"type\":\"evented\",\"name\":\"%s\",\"unit\":\"nanoseconds\",\"startValue\":0,"
			"\"endValue\":%" PRIu64 ",\"events\":[]}", SW_EMPTY_NAME, end);
	fputs("]}\n", w->out);
	if (w->lost_profiles)
		sonde_err("speedscope: %" PRIu64 " lanes beyond the first %u left out",
			w->lost_profiles, SW_MAX_PROFILES);
	if (w->err) {
		errno = w->err;
		return -1;
	}
	return fflush(w->out) != 0 || ferror(w->out) ? -1 : 0;
}
