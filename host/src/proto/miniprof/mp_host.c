/*
 * mp_host.c -- commands and captures over the device's link (mp_host.h).
 *
 * A capture is a byte source whose read() also drives the conversation:
 * before waiting for bytes it looks at which answers the decoder has seen
 * (the listener counts them by response type, rec_id) and sends the next
 * command when the previous one was answered.  So the same decoder that
 * produces the output also paces the capture, and the bytes are copied to
 * the raw file before the pipeline decodes them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/stop.h"
#include "mp_host.h"
#include "mp_link.h"

#define MP_READ_SLICE_MS 100u
/* After Ctrl-C a capture still sends STOP_PROFILING and GET_STATUS, but
 * waits for their answers only this long after the signal, so that the
 * tool ends within a second whatever the device does. */
#define MP_STOP_WAIT_MS 600u

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

void mp_host_init(struct mp_host *h, struct mp_link *link, const struct mp_wire_cfg *wire,
		  unsigned timeout_ms, FILE *raw, const char *raw_name)
{
	memset(h, 0, sizeof(*h));
	h->link = link;
	if (wire)
		h->wire = *wire;
	h->timeout_ms = timeout_ms;
	h->raw = raw;
	h->raw_name = raw_name;
}

static int send_cmd(struct mp_host *h, unsigned cmd)
{
	uint8_t pkt[MP_CMD_LEN];

	mp_cmd_encode(pkt, cmd, NULL, 0);
	if (mp_link_write(h->link, pkt, sizeof(pkt), h->timeout_ms) != 0) {
		snprintf(h->err, sizeof(h->err), "cannot send %s: %s", mp_cmd_name(cmd), mp_link_error(h->link));
		return -1;
	}
	return 0;
}

/* Read what arrives within timeout_ms and copy it to the raw file.  > 0
 * bytes, 0 none, -1 error (h->err says). */
static ssize_t receive(struct mp_host *h, uint8_t *buf, size_t n, unsigned timeout_ms)
{
	ssize_t r = mp_link_read(h->link, buf, n, timeout_ms);

	if (r < 0) {
		snprintf(h->err, sizeof(h->err), "%s", mp_link_error(h->link));
		return -1;
	}
	if (r > 0 && h->raw && (fwrite(buf, 1, (size_t)r, h->raw) != (size_t)r || fflush(h->raw) != 0)) {
		snprintf(h->err, sizeof(h->err), "%s: write error: %s", h->raw_name ? h->raw_name : "raw file",
			 strerror(errno));
		return -1;
	}
	h->received += (uint64_t)(r > 0 ? r : 0);
	return r;
}

/* ---- one exchange ------------------------------------------------------------- */

struct xchg {
	const struct mp_parser_cb *user;
	unsigned want;
	int done;
	enum mp_xchg how;
};

static void x_packet(void *ctx, const struct mp_packet *pk)
{
	struct xchg *x = ctx;

	if (x->done)
		return;
	if (x->user->packet)
		x->user->packet(x->user->ctx, pk);
	if (pk->type == x->want || pk->type == MP_RSP_NACK) {
		x->done = 1;
		x->how = pk->type == x->want ? MP_XCHG_ANSWER : MP_XCHG_NACK;
	}
}

static void x_diag(void *ctx, const struct sonde_diag *d)
{
	struct xchg *x = ctx;

	/* Bytes before the first packet are the end of one the device was
	 * sending when we started listening (it streams while profiling):
	 * joining a stream is not an error of the exchange. */
	if (d->code == SONDE_D_GARBAGE && d->offset == 0)
		return;
	if (!x->done && x->user->diag)
		x->user->diag(x->user->ctx, d);
}

enum mp_xchg mp_host_exchange(struct mp_host *h, unsigned cmd, unsigned want, const struct mp_parser_cb *cb)
{
	struct xchg x = { cb, want, 0, MP_XCHG_TIMEOUT };
	struct mp_parser_cb pcb = { x_packet, x_diag, &x };
	struct mp_parser *p = mp_parser_new(&h->wire, &pcb);
	uint8_t buf[4096];
	uint64_t deadline;

	if (!p) {
		snprintf(h->err, sizeof(h->err), "out of memory");
		return MP_XCHG_IO;
	}
	if (send_cmd(h, cmd) != 0) {
		mp_parser_free(p);
		return MP_XCHG_IO;
	}
	deadline = now_ms() + h->timeout_ms;
	while (!x.done) {
		uint64_t t = now_ms();
		ssize_t r;

		if (t >= deadline)
			break;
		if (sonde_stop_signal()) {
			x.how = MP_XCHG_STOPPED;
			break;
		}
		r = receive(h, buf, sizeof(buf),
			    deadline - t < MP_READ_SLICE_MS ? (unsigned)(deadline - t) : MP_READ_SLICE_MS);
		if (r < 0) {
			x.how = MP_XCHG_IO;
			break;
		}
		mp_parser_feed(p, buf, (size_t)r);
	}
	mp_parser_free(p);
	return x.how;
}

/* ---- capture ------------------------------------------------------------------- */

/* The commands of a capture, in order; 0 is the run itself. */
static const unsigned mp_capture_plan[] = { MP_CMD_METADATA, MP_CMD_START, 0, MP_CMD_STOP, MP_CMD_STATUS };
#define PLAN_STEPS (sizeof(mp_capture_plan) / sizeof(mp_capture_plan[0]))
#define RUN_STEP 2

static unsigned answer_of(unsigned cmd)
{
	return cmd == MP_CMD_METADATA ? MP_RSP_METADATA : cmd == MP_CMD_STATUS ? MP_RSP_STATUS : MP_RSP_ACK;
}

static void cap_fail(struct mp_capture *cap, enum mp_xchg how)
{
	if (!cap->failed) {
		cap->failed = 1;
		cap->fail_how = how;
		cap->fail_cmd = mp_capture_plan[cap->step];
	}
	/* Before the run nothing was started: stop there.  After it, go on
	 * (a device that missed STOP may still answer GET_STATUS). */
	cap->step = cap->step < RUN_STEP ? (int)PLAN_STEPS : cap->step + 1;
	cap->waiting = 0;
}

/* Advance the plan as far as the answers seen allow.  0 to go on reading,
 * 1 when the capture is over. */
static int cap_advance(struct mp_capture *cap)
{
	struct mp_host *h = cap->h;

	while ((size_t)cap->step < PLAN_STEPS) {
		unsigned cmd = mp_capture_plan[cap->step];
		uint64_t t = now_ms();

		if (cap->step == RUN_STEP) {
			if (!cap->waiting) {
				cap->waiting = 1;
				cap->run_until_ms = cap->duration_s < 0 ? UINT64_MAX :
						    t + (uint64_t)(cap->duration_s * 1000.0 + 0.5);
			}
			if (t < cap->run_until_ms && !sonde_stop_signal())
				return 0;
			cap->waiting = 0;
			cap->step++;
			continue;
		}
		if (!cap->waiting) {
			if (send_cmd(h, cmd) != 0) {
				cap_fail(cap, MP_XCHG_IO);
				continue;
			}
			memcpy(cap->seen_at_send, cap->seen, sizeof(cap->seen));
			cap->deadline_ms = t + h->timeout_ms;
			cap->waiting = 1;
			return 0;
		}
		if (cap->seen[answer_of(cmd)] > cap->seen_at_send[answer_of(cmd)]) {
			cap->waiting = 0;
			cap->step++;
			continue;
		}
		if (cap->seen[MP_RSP_NACK] > cap->seen_at_send[MP_RSP_NACK]) {
			cap_fail(cap, MP_XCHG_NACK);
			continue;
		}
		if (t >= cap->deadline_ms || sonde_stop_age_ms() >= MP_STOP_WAIT_MS) {
			cap_fail(cap, t >= cap->deadline_ms ? MP_XCHG_TIMEOUT : MP_XCHG_STOPPED);
			continue;
		}
		return 0;
	}
	return 1;
}

static ssize_t cap_read(struct sonde_source *src, void *buf, size_t n)
{
	struct mp_capture *cap = src->priv;

	for (;;) {
		ssize_t r;
		uint64_t t, until;
		unsigned slice = MP_READ_SLICE_MS;

		if (cap_advance(cap))
			return 0;
		t = now_ms();
		until = cap->step == RUN_STEP ? cap->run_until_ms : cap->deadline_ms;
		if (until > t && until - t < slice)
			slice = (unsigned)(until - t);
		r = receive(cap->h, buf, n, slice);
		if (r < 0) {
			cap_fail(cap, MP_XCHG_IO);
			cap->step = (int)PLAN_STEPS; /* the link is gone */
			return 0;
		}
		if (r > 0)
			return r;
	}
}

static void cap_close(struct sonde_source *src)
{
	(void)src; /* the link belongs to the caller */
}

static void cap_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct mp_capture *cap = ctx;

	(void)s;
	/* one count per response: the FUNC events of PROFILE_DATA and the
	 * DROPS derived from a STATUS do not count */
	if ((ev->kind == SONDE_EV_RECORD || ev->kind == SONDE_EV_INFO) && ev->rec_id < 6 &&
	    ev->rec_id != MP_RSP_PROFILE_DATA)
		cap->seen[ev->rec_id]++;
}

void mp_capture_init(struct mp_capture *cap, struct mp_host *h, double duration_s, struct sonde_source *src,
		     struct sonde_listener *lst)
{
	memset(cap, 0, sizeof(*cap));
	cap->h = h;
	cap->duration_s = duration_s;
	memset(src, 0, sizeof(*src));
	src->name = mp_link_name(h->link);
	src->read = cap_read;
	src->close = cap_close;
	src->fd = -1;
	src->priv = cap;
	memset(lst, 0, sizeof(*lst));
	lst->event = cap_event;
	lst->ctx = cap;
}
