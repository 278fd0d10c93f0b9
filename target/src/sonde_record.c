/*
 * sonde_record.c -- the system event records (ISRs, tasks, markers,
 * counters, functions): each is a filter test and the inline fast path.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

/* Records naming an object: global filter and the object's local filter. */
SONDE_INLINE void obj8(uint32_t rec, uint8_t obj)
{
	struct sonde_fld f[1] = { { obj, 1u, 1u } };

	if (sonde_obj_pass(rec, obj))
		sonde_timed(rec, 0, f, 1u);
}

SONDE_INLINE void obj88(uint32_t rec, uint8_t obj, uint8_t b)
{
	struct sonde_fld f[2] = { { obj, 1u, 1u }, { b, 1u, 1u } };

	if (sonde_obj_pass(rec, obj))
		sonde_timed(rec, 0, f, 2u);
}

/* Records with a timestamp only. */
SONDE_INLINE void bare(uint32_t rec)
{
	if (sonde_rec_on(rec))
		sonde_timed(rec, 0, NULL, 0u);
}

void sonde_isr_enter(uint8_t isr)
{
	obj8(SONDE_REC_ISR_ENTER, isr);
}

/* The id only selects the local filter bit, so enter and exit of an ISR are
 * filtered as a pair; the wire record has no id (exits nest strictly). */
void sonde_isr_exit(uint8_t isr)
{
	if (sonde_obj_pass(SONDE_REC_ISR_EXIT, isr))
		sonde_timed(SONDE_REC_ISR_EXIT, 0, NULL, 0u);
}

void sonde_task_create(uint8_t task, uint8_t prio)
{
	obj88(SONDE_REC_TASK_CREATE, task, prio);
}

void sonde_task_in(uint8_t task)
{
	obj8(SONDE_REC_TASK_IN, task);
}

void sonde_task_out(uint8_t task, uint8_t reason)
{
	obj88(SONDE_REC_TASK_OUT, task, reason);
}

void sonde_task_ready(uint8_t task)
{
	obj8(SONDE_REC_TASK_READY, task);
}

void sonde_idle(void)
{
	bare(SONDE_REC_IDLE);
}

void sonde_mark(uint8_t marker)
{
	obj8(SONDE_REC_MARK, marker);
}

void sonde_mark_begin(uint8_t marker)
{
	obj8(SONDE_REC_MARK_BEGIN, marker);
}

void sonde_mark_end(uint8_t marker)
{
	obj8(SONDE_REC_MARK_END, marker);
}

/* COUNTER: object id, then the value in 4 bytes (32-bit) or 8 (64-bit). */
void sonde_counter(uint8_t counter, int32_t value)
{
	struct sonde_fld f[2] = { { counter, 1u, 1u }, { (uint32_t)value, 4u, 1u } };

	if (sonde_obj_pass(SONDE_REC_COUNTER, counter))
		sonde_timed(SONDE_REC_COUNTER, 0, f, 2u);
}

void sonde_counter64(uint8_t counter, int64_t value)
{
	struct sonde_fld f[3] = { { counter, 1u, 1u },
				  { (uint32_t)(uint64_t)value, 4u, 1u },
				  { (uint32_t)((uint64_t)value >> 32), 4u, 1u } };

	if (sonde_obj_pass(SONDE_REC_COUNTER, counter))
		sonde_timed(SONDE_REC_COUNTER, 0, f, 3u);
}

void sonde_func_enter(uint16_t func)
{
	struct sonde_fld f[1] = { { func, 2u, 1u } };

	if (sonde_rec_on(SONDE_REC_FUNC_ENTER))
		sonde_timed(SONDE_REC_FUNC_ENTER, 0, f, 1u);
}

void sonde_func_enter_addr(const void *addr)
{
	uint64_t a = (uint64_t)(uintptr_t)addr;
	struct sonde_fld f[2] = { { (uint32_t)a, 4u, 1u }, { (uint32_t)(a >> 32), 4u, 1u } };

	if (sonde_rec_on(SONDE_REC_FUNC_ENTER_A))
		sonde_timed(SONDE_REC_FUNC_ENTER_A, 0, f, SONDE_ADDR_SIZE / 4u);
}

void sonde_func_exit(void)
{
	bare(SONDE_REC_FUNC_EXIT);
}

#endif /* SONDE_ENABLED */
