/*
 * fw_trace.h -- the firmware's trace layer: every Sonde call the firmware
 * makes goes through these, so that it can count what it attempted, per
 * record id, and report the counts at the end in the FW_COUNTS user record.
 * An end-to-end test compares them with what arrived on the host.
 *
 * FW_COUNTS (user record FW_REC_COUNTS, named "FW_COUNTS" in the
 * dictionary) carries, as typed arguments:
 *   U32 records, U32 overwritten, U32 refused, U32 bytes  (sonde_get_stats()
 *       taken in the same critical section, just before the record)
 *   then for every record id the firmware called at least once, in
 *   increasing order: U8 record id, U32 calls.
 * FW_COUNTS itself is not counted; EMPTY, TARGET_INFO, TIME_SYNC and DROPS
 * are written by the library on its own and appear only in 'records'.
 */
#ifndef FW_TRACE_H
#define FW_TRACE_H

#include <stdint.h>

#include "arch.h"
#include "sonde.h"

#define FW_REC_COUNTS SONDE_REC_USER_LAST

extern uint32_t fw_calls[SONDE_REC_COUNT];

/* Tasks and ISRs of every priority count here: an atomic add where the CPU
 * has one (LDREX/STREX, AMOADD.W), else with interrupts masked (ARMv6-M:
 * GCC would call a library function that newlib does not have). */
static inline void fw_count(uint8_t rec)
{
#if __GCC_ATOMIC_INT_LOCK_FREE == 2
	__atomic_fetch_add(&fw_calls[rec], 1u, __ATOMIC_RELAXED);
#else
	uint32_t m = arch_irq_save();

	fw_calls[rec]++;
	arch_irq_restore(m);
#endif
}

static inline void fw_dict(uint8_t kind, uint32_t id, const char *name)
{
	fw_count(SONDE_REC_DICT);
	sonde_dict(kind, id, name);
}

static inline void fw_isr_enter(uint8_t isr)
{
	fw_count(SONDE_REC_ISR_ENTER);
	sonde_isr_enter(isr);
}

static inline void fw_isr_exit(uint8_t isr)
{
	fw_count(SONDE_REC_ISR_EXIT);
	sonde_isr_exit(isr);
}

static inline void fw_task_create(uint8_t task, uint8_t prio)
{
	fw_count(SONDE_REC_TASK_CREATE);
	sonde_task_create(task, prio);
}

static inline void fw_task_in(uint8_t task)
{
	fw_count(SONDE_REC_TASK_IN);
	sonde_task_in(task);
}

static inline void fw_task_out(uint8_t task, uint8_t reason)
{
	fw_count(SONDE_REC_TASK_OUT);
	sonde_task_out(task, reason);
}

static inline void fw_task_ready(uint8_t task)
{
	fw_count(SONDE_REC_TASK_READY);
	sonde_task_ready(task);
}

static inline void fw_idle(void)
{
	fw_count(SONDE_REC_IDLE);
	sonde_idle();
}

static inline void fw_mark(uint8_t marker)
{
	fw_count(SONDE_REC_MARK);
	sonde_mark(marker);
}

static inline void fw_mark_begin(uint8_t marker)
{
	fw_count(SONDE_REC_MARK_BEGIN);
	sonde_mark_begin(marker);
}

static inline void fw_mark_end(uint8_t marker)
{
	fw_count(SONDE_REC_MARK_END);
	sonde_mark_end(marker);
}

static inline void fw_counter(uint8_t counter, int32_t value)
{
	fw_count(SONDE_REC_COUNTER);
	sonde_counter(counter, value);
}

static inline void fw_counter64(uint8_t counter, int64_t value)
{
	fw_count(SONDE_REC_COUNTER);
	sonde_counter64(counter, value);
}

static inline void fw_func_enter(uint16_t func)
{
	fw_count(SONDE_REC_FUNC_ENTER);
	sonde_func_enter(func);
}

static inline void fw_func_enter_addr(const void *addr)
{
	fw_count(SONDE_REC_FUNC_ENTER_A);
	sonde_func_enter_addr(addr);
}

static inline void fw_func_exit(void)
{
	fw_count(SONDE_REC_FUNC_EXIT);
	sonde_func_exit();
}

/* Begin/end records: counted at begin, whatever begin answers. */
static inline int fw_user_begin(uint8_t rec)
{
	fw_count(rec);
	return sonde_user_begin(rec);
}

static inline int fw_log_begin(uint8_t level, uint16_t fmt)
{
	fw_count(SONDE_REC_LOG);
	return sonde_log_begin(level, fmt);
}

static inline void fw_user_u32x2(uint8_t rec, uint32_t a, uint32_t b)
{
	fw_count(rec);
	sonde_user_u32x2(rec, a, b);
}

static inline void fw_log_u32(uint8_t level, uint16_t fmt, uint32_t a)
{
	fw_count(SONDE_REC_LOG);
	sonde_log_u32(level, fmt, a);
}

static inline void fw_log_u32x2(uint8_t level, uint16_t fmt, uint32_t a, uint32_t b)
{
	fw_count(SONDE_REC_LOG);
	sonde_log_u32x2(level, fmt, a, b);
}

/* Write FW_COUNTS (call with interrupts masked, so that nothing slips in
 * between the statistics and the record). */
void fw_trace_report(void);

#endif /* FW_TRACE_H */
