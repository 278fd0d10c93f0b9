/*
 * sink_run.c -- see sink_run.h.
 */
#include "sink_run.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

void sink_run_open(struct sink_run *r, const struct sonde_sink_ops *ops, const char *const *opts,
		   uint64_t ts_freq)
{
	int fd;

	memset(r, 0, sizeof(*r));
	r->ops = ops;
	strcpy(r->path, "/tmp/sonde_test_sink_XXXXXX");
	fd = mkstemp(r->path);
	assert_true(fd >= 0);
	r->f = fdopen(fd, "w+b");
	assert_non_null(r->f);
	r->ss.proto = "sonde";
	r->ss.ts_freq = ts_freq;
	r->sink = ops->create(r->f, opts);
	assert_non_null(r->sink);
}

void sink_run_put(struct sink_run *r, struct sonde_event e)
{
	r->ops->event(r->sink, &e, &r->ss);
}

int sink_run_close(struct sink_run *r)
{
	int rc = r->ops->finish(r->sink, &r->ss);

	r->ops->destroy(r->sink);
	fclose(r->f);
	return rc;
}

char *sink_run_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;
	char *buf;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

struct sonde_event sink_ev(enum sonde_ev_kind k, uint64_t ts, uint64_t obj, const char *name)
{
	struct sonde_event e;

	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.ts = ts;
	e.ts_flags = SONDE_TS_VALID;
	e.obj = obj;
	e.obj_name = name;
	return e;
}
