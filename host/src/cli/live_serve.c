/*
 * live_serve.c -- `sonde live LINK --serve [ADDR:]PORT`: the report page
 * (the one `sonde report` writes) served over HTTP while the capture runs,
 * following the target (docs/live.md).
 *
 *   GET /                      the page, with the data of the current window
 *                              and D.live (how to follow)
 *   GET /delta?since=S&bin=B&n=N&session=K  JSON: the lanes, the overview
 *                              bins from the viewer's last one on, the items since item
 *                              number S, the loss figures, the link's state
 *
 * The capture loop feeds a track model (trackmap.h) into the report's
 * timeline in live mode (report_tl.h: a bounded ring of the latest items
 * with sequence numbers) as a pipe listener.  libmicrohttpd serves from its
 * own thread; both sides take the mutex, and a request holds it only while
 * its answer is written into memory, so a slow viewer never holds up the
 * capture: libmicrohttpd sends the answer from that memory at the viewer's
 * pace.  Memory is bounded on the host by the ring (-o serve.items=N), the
 * name pools and the overview bins; the capture file (-w) keeps everything.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/opts.h"
#include "live.h"
#include "sinks/report_page.h"
#include "sinks/report_tl.h"
#include "sinks/trackmap.h"

#define SERVE_DEFAULT_ITEMS 200000u /* items in the host's ring (and the page's window) */

struct live_serve {
	struct MHD_Daemon *d;
	pthread_mutex_t mu;
	struct rtl *tl;
	struct tmap *tm;
	struct sonde_stats st;
	struct sonde_listener stl, self;
	struct sonde_session ss;  /* the pipe's, as of the last event (zero before) */
	int have_ss;
	uint64_t resets;          /* TARGET_INFO with reset=true */
	/* the link, as the loop last saw it (live_serve_state) */
	int up;
	unsigned connects;
	uint64_t rx_bytes;
	int64_t down_ms;          /* how long down, 0 while up */
	char why[256];
	uint32_t items;           /* the ring's size */
	uint64_t pages, deltas;   /* answers given */
};

/* ---- the capture side (the loop's thread) ------------------------------- */

static int serve_is_reset(const struct sonde_event *ev)
{
	if (ev->kind != SONDE_EV_INFO)
		return 0;
	for (size_t i = 0; i < ev->nargs; i++)
		if (ev->args[i].name && strcmp(ev->args[i].name, "reset") == 0)
			return ev->args[i].v.u != 0;
	return 0;
}

static void serve_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *ss)
{
	struct live_serve *sv = ctx;
	pthread_mutex_lock(&sv->mu);
	/* a target that starts again: its session begins on an empty timeline
	 * (its clock starts again too); the first start is the capture's */
	if (serve_is_reset(ev) && sv->resets++)
		rtl_live_reset(sv->tl);
	tmap_event(sv->tm, ev, ss);
	sv->stl.event(sv->stl.ctx, ev, ss);
	sv->ss = *ss;
	sv->have_ss = 1;
	pthread_mutex_unlock(&sv->mu);
}

static void serve_diag(void *ctx, const struct sonde_diag *d, const struct sonde_session *ss)
{
	struct live_serve *sv = ctx;
	pthread_mutex_lock(&sv->mu);
	tmap_diag(sv->tm, d);
	sv->stl.diag(sv->stl.ctx, d, ss);
	sv->ss = *ss;
	sv->have_ss = 1;
	pthread_mutex_unlock(&sv->mu);
}

void live_serve_state(struct live *lv, int64_t now)
{
	struct live_serve *sv = lv->serve;
	if (!sv)
		return;
	pthread_mutex_lock(&sv->mu);
	sv->up = lv->up;
	sv->connects = lv->connects;
	sv->rx_bytes = lv->rx_bytes;
	sv->down_ms = lv->up || !lv->ever_up ? 0 : now - lv->down_since;
	snprintf(sv->why, sizeof(sv->why), "%s", lv->up ? "" : lv->down_why);
	pthread_mutex_unlock(&sv->mu);
}

/* ---- the answers (libmicrohttpd's thread, under the mutex) -------------- */

static void serve_live_json(struct live_serve *sv, FILE *out)
{
	fprintf(out, "\"live\":{\"up\":%d,\"connects\":%u,\"down_ms\":%" PRId64 ",\"rx_bytes\":%" PRIu64
		     ",\"window\":%" PRIu32 ",\"pages\":%" PRIu64 ",\"deltas\":%" PRIu64 ",\"why\":",
		sv->up, sv->connects, sv->down_ms, sv->rx_bytes, sv->items, sv->pages, sv->deltas);
	report_jstr(out, sv->why, strlen(sv->why));
	fputs("},\n", out);
}

static void serve_page_data(FILE *out, void *ctx)
{
	struct live_serve *sv = ctx;
	report_stats_json(out, &sv->st, &sv->ss);
	/* the analyses and the profile are made at the end of a trace: the
	 * live page has none (the report of the -w file has them) */
	fputs("\"analysis\":{\"total\":0,\"losses\":0,\"resyncs\":0,\"top\":0,\"rows\":[],\"cores\":[],"
	      "\"window\":0,\"nwin\":0,\"win\":{}},\n\"profile\":{\"total\":0,\"funcs\":[],\"nodes\":[]},\n", out);
	rtl_write_json(sv->tl, out, report_jstr);
	serve_live_json(sv, out);
	fprintf(out, "\"seq\":%" PRIu64 ",\"session\":%" PRIu64 ",\n", rtl_seq(sv->tl), rtl_session(sv->tl));
}

static void serve_delta(struct live_serve *sv, FILE *out, uint64_t since, uint64_t bin, uint32_t n)
{
	fputc('{', out);
	rtl_write_delta(sv->tl, out, since, bin, n, report_jstr);
	fputs(",\n", out);
	report_stats_json(out, &sv->st, &sv->ss);
	serve_live_json(sv, out);
	fprintf(out, "\"ts_freq\":%" PRIu64 ",\"end\":1}", sv->have_ss ? sv->ss.ts_freq : 0);
}

static uint64_t serve_arg(struct MHD_Connection *c, const char *key)
{
	const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, key);
	return v ? strtoull(v, NULL, 10) : 0;
}

static enum MHD_Result serve_answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				    const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	struct live_serve *sv = cls;
	(void)version, (void)upload, (void)upload_size, (void)con_cls;
	int page = strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0;
	int delta = strcmp(url, "/delta") == 0;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return MHD_NO;
	char *buf = NULL;
	size_t len = 0;
	unsigned status = MHD_HTTP_OK;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		return MHD_NO;
	if (page || delta) {
		pthread_mutex_lock(&sv->mu);
		if (page) {
			struct tmap_stats tst;
			sv->pages++;
			tmap_get_stats(sv->tm, &tst);
			report_page(out, "Sonde live", &sv->ss, tst.ticks_as_ns, serve_page_data, sv);
		} else {
			sv->deltas++;
			/* a viewer of an earlier session gets every bin again */
			uint32_t n = serve_arg(c, "session") == rtl_session(sv->tl) ? (uint32_t)serve_arg(c, "n") : 0;
			serve_delta(sv, out, serve_arg(c, "since"), serve_arg(c, "bin"), n);
		}
		pthread_mutex_unlock(&sv->mu);
	} else if (strcmp(url, "/favicon.ico") == 0) {
		status = MHD_HTTP_NO_CONTENT; /* browsers ask; the page has none */
	} else {
		fputs("not found\n", out);
		status = MHD_HTTP_NOT_FOUND;
	}
	if (fclose(out) != 0) {
		free(buf);
		return MHD_NO;
	}
	struct MHD_Response *r = MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(buf);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				page ? "text/html; charset=utf-8" : delta ? "application/json" : "text/plain");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* ---- life cycle ------------------------------------------------------------- */

/* "[ADDR:]PORT" (ADDR an IPv4 address, default 127.0.0.1) into sa. */
static int serve_parse(const char *spec, struct sockaddr_in *sa)
{
	char addr[64] = "127.0.0.1";
	const char *colon = strrchr(spec, ':'), *port = spec;
	if (colon) {
		size_t n = (size_t)(colon - spec);
		if (n == 0 || n >= sizeof(addr))
			return -1;
		memcpy(addr, spec, n);
		addr[n] = 0;
		port = colon + 1;
	}
	char *end;
	errno = 0;
	unsigned long p = strtoul(port, &end, 10);
	if (!*port || *end || *port == '-' || errno || p > 65535)
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)p);
	return inet_pton(AF_INET, addr, &sa->sin_addr) == 1 ? 0 : -1;
}

int live_serve_check(const char *spec)
{
	struct sockaddr_in sa;
	if (serve_parse(spec, &sa) == 0)
		return 0;
	fprintf(stderr, "sonde live: option '--serve' expects [ADDR:]PORT (ADDR an IPv4 address), got '%s'\n", spec);
	return -1;
}

void live_serve_close(struct live *lv)
{
	struct live_serve *sv = lv->serve;
	if (!sv)
		return;
	if (sv->d)
		MHD_stop_daemon(sv->d); /* joins its thread: nothing reads the state after this */
	pthread_mutex_destroy(&sv->mu);
	tmap_free(sv->tm);
	rtl_free(sv->tl);
	sonde_stats_free(&sv->st);
	free(sv);
	lv->serve = NULL;
}

int live_serve_open(struct live *lv, sonde_opts kv)
{
	struct sockaddr_in sa;
	if (serve_parse(lv->o.serve, &sa) != 0)
		return -1;
	struct live_serve *sv = calloc(1, sizeof(*sv));
	if (!sv)
		return -1;
	lv->serve = sv;
	pthread_mutex_init(&sv->mu, NULL);
	sv->items = SERVE_DEFAULT_ITEMS;
	const char *ni = sonde_opt_get(kv, "serve.items");
	if (ni) {
		char *end;
		unsigned long v = strtoul(ni, &end, 10);
		if (!*ni || *end || v < 1000 || v > 10000000) {
			fprintf(stderr, "sonde live: -o serve.items=%s: expected a number from 1000 to 10000000\n", ni);
			live_serve_close(lv);
			return -1;
		}
		sv->items = (uint32_t)v;
	}
	sonde_stats_init(&sv->st);
	sv->stl = sonde_stats_listener(&sv->st);
	sv->tl = rtl_new_live(sv->items);
	sv->tm = sv->tl ? tmap_new(&rtl_ops, sv->tl, NULL) : NULL;
	if (!sv->tm) {
		fprintf(stderr, "sonde live: out of memory\n");
		live_serve_close(lv);
		return -1;
	}
	sv->self = (struct sonde_listener){ .event = serve_event, .diag = serve_diag, .ctx = sv };
	if (sonde_pipe_add_listener(lv->pipe, &sv->self) != 0) {
		fprintf(stderr, "sonde live: --serve: too many listeners\n");
		live_serve_close(lv);
		return -1;
	}
	sv->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO, 0, NULL, NULL, serve_answer, sv,
				 MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_LIMIT, 64u,
				 MHD_OPTION_CONNECTION_TIMEOUT, 60u, MHD_OPTION_END);
	if (!sv->d) {
		fprintf(stderr, "sonde live: cannot serve on %s: %s\n", lv->o.serve,
			errno ? strerror(errno) : "libmicrohttpd failed to start");
		live_serve_close(lv);
		return -1;
	}
	/* the port the system chose for port 0 */
	const union MHD_DaemonInfo *fd = MHD_get_daemon_info(sv->d, MHD_DAEMON_INFO_LISTEN_FD);
	struct sockaddr_in got = sa;
	socklen_t gl = sizeof(got);
	if (fd)
		getsockname(fd->listen_fd, (struct sockaddr *)&got, &gl);
	char a[INET_ADDRSTRLEN];
	inet_ntop(AF_INET, &got.sin_addr, a, sizeof(a));
	fprintf(stderr, "sonde live: serving the page on http://%s:%u/%s\n", a, ntohs(got.sin_port),
		got.sin_addr.s_addr == htonl(INADDR_LOOPBACK) ? "" : " (to the network: no authentication)");
	return 0;
}
