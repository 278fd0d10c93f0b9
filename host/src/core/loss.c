/*
 * loss.c -- which events and diagnostics cut what is open (loss.h).
 */
#include <string.h>

#include "loss.h"

void sonde_loss_init(struct sonde_loss *l)
{
	memset(l, 0, sizeof(*l));
}

int sonde_loss_is_reset(const struct sonde_event *ev)
{
	if (ev->kind != SONDE_EV_INFO)
		return 0;
	for (size_t i = 0; i < ev->nargs; i++)
		if (ev->args[i].type == SONDE_A_BOOL && ev->args[i].name &&
		    strcmp(ev->args[i].name, "reset") == 0)
			return ev->args[i].v.u != 0;
	return 0;
}

/* The records a DROPS reports lost since the previous one of its core. */
static uint64_t sonde_loss_drops(struct sonde_loss *l, const struct sonde_event *ev)
{
	uint32_t k = ev->core < SONDE_LOSS_CORES ? ev->core : SONDE_LOSS_CORES;
	uint64_t over = ev->value > 0 ? (uint64_t)ev->value : 0, ref = ev->obj2;
	uint64_t po = l->have[k] ? l->over[k] : 0, pr = l->have[k] ? l->ref[k] : 0;
	uint64_t n = (over >= po ? over - po : over) + (ref >= pr ? ref - pr : ref);

	l->have[k] = 1;
	l->over[k] = over;
	l->ref[k] = ref;
	return n;
}

/* Records not made while tracing was stopped, since the previous DROPS
 * (protocol version 3 says so apart): no loss, but a hole in the record
 * all the same. */
static int sonde_loss_stopped(const struct sonde_event *ev)
{
	for (size_t i = 0; i < ev->nargs; i++)
		if (ev->args[i].name && strcmp(ev->args[i].name, "stopped") == 0)
			return ev->args[i].v.u != 0;
	return 0;
}

int sonde_loss_event(struct sonde_loss *l, const struct sonde_event *ev, uint32_t *core, uint64_t *lost)
{
	if (lost)
		*lost = 0;
	if (ev->kind == SONDE_EV_DROPS) {
		uint64_t n = sonde_loss_drops(l, ev);

		if (lost)
			*lost = n;
		*core = ev->core;
		return n != 0 || sonde_loss_stopped(ev);
	}
	if (sonde_loss_is_reset(ev)) {
		/* the target starts again: so do the loss totals */
		memset(l, 0, sizeof(*l));
		*core = SONDE_LOSS_ALL;
		return 1;
	}
	return 0;
}

int sonde_loss_diag(const struct sonde_diag *d)
{
	switch (d->code) {
	case SONDE_D_BAD_CHECKSUM: case SONDE_D_SEQ_GAP: case SONDE_D_TOO_SHORT: case SONDE_D_TOO_LONG:
	case SONDE_D_ABORTED: case SONDE_D_GARBAGE: case SONDE_D_TRUNCATED: case SONDE_D_MALFORMED:
		return 1;
	default:
		return 0;
	}
}
