/*
 * sonde_stacks.c -- ISR and per-context function stacks (sonde_stacks.h).
 */
#include <stdlib.h>
#include <string.h>

#include "sonde_stacks.h"

void sstk_init(struct sstk *s)
{
	memset(s, 0, sizeof(*s));
	s->task = -1;
}

void sstk_reset(struct sstk *s)
{
	s->isr_depth = 0;
	s->task = -1;
	for (int i = 0; i < SSTK_CTX_COUNT; i++)
		s->ctx[i].depth = 0;
}

void sstk_free(struct sstk *s)
{
	for (int i = 0; i < SSTK_CTX_COUNT; i++)
		free(s->ctx[i].calls);
	sstk_init(s);
}

static struct sstk_func *current(struct sstk *s)
{
	if (s->isr_depth > 0) {
		uint32_t lvl = s->isr_depth > SSTK_ISR_MAX ? SSTK_ISR_MAX : s->isr_depth;
		return &s->ctx[SSTK_CTX_ISR0 + lvl - 1];
	}
	return &s->ctx[s->task >= 0 ? s->task : SSTK_CTX_NONE];
}

uint32_t sstk_isr_enter(struct sstk *s, uint8_t isr)
{
	if (s->isr_depth < SSTK_ISR_MAX)
		s->isr[s->isr_depth] = isr;
	if (s->isr_depth < UINT32_MAX)
		s->isr_depth++;
	current(s)->depth = 0; /* a new ISR at this level calls nothing yet */
	return s->isr_depth;
}

uint32_t sstk_isr_exit(struct sstk *s, uint8_t *isr, int *known)
{
	uint32_t d = s->isr_depth;
	*known = 0;
	if (d == 0)
		return 0;
	current(s)->depth = 0; /* its calls end with it */
	if (d <= SSTK_ISR_MAX) {
		*isr = s->isr[d - 1];
		*known = 1;
	}
	s->isr_depth--;
	return d;
}

void sstk_task_in(struct sstk *s, uint8_t task)
{
	s->task = task;
}

void sstk_task_out(struct sstk *s, uint8_t task, int deleted)
{
	if (deleted)
		s->ctx[task].depth = 0;
	if (s->task == task)
		s->task = -1;
}

void sstk_idle(struct sstk *s)
{
	s->task = -1;
}

uint32_t sstk_func_enter(struct sstk *s, uint64_t fn, int addr)
{
	struct sstk_func *f = current(s);
	if (f->depth < SSTK_FUNC_MAX) {
		if (!f->calls)
			f->calls = malloc(SSTK_FUNC_MAX * sizeof(*f->calls));
		if (f->calls) {
			f->calls[f->depth].fn = fn;
			f->calls[f->depth].addr = (uint8_t)(addr != 0);
		}
	}
	if (f->depth < UINT32_MAX)
		f->depth++;
	return f->depth;
}

uint32_t sstk_func_exit(struct sstk *s, struct sstk_call *call, int *known)
{
	struct sstk_func *f = current(s);
	uint32_t d = f->depth;
	*known = 0;
	if (d == 0)
		return 0;
	if (d <= SSTK_FUNC_MAX && f->calls) {
		*call = f->calls[d - 1];
		*known = 1;
	}
	f->depth--;
	return d;
}
