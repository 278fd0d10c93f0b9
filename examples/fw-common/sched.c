/*
 * sched.c -- the example's preemptive scheduler (see sched.h), the part
 * that is the same on every CPU.
 *
 * All scheduler state changes happen with interrupts masked
 * (arch_irq_save), so ISRs of any priority may give semaphores and put into
 * queues.  A task that must yield pends a switch (sched_arch_pend: PendSV
 * on Cortex-M, the supervisor software interrupt on RISC-V), which runs
 * once no ISR is active: the CPU's switch code saves the outgoing task's
 * registers on its stack and calls sched_switch() to choose.
 */
#include "sched.h"

#include "board.h"
#include "fw_trace.h"

static sched_task_t *sched_tasks[SCHED_MAX_TASKS];
static uint8_t sched_ntasks;
static volatile uint32_t sched_ticks;
sched_task_t *sched_cur; /* read by the switch code */

static void sched_task_exit(void);

void sched_task_create(sched_task_t *t, uint8_t id, uint8_t prio,
		       void (*entry)(void), uint32_t *stack, size_t words)
{
	/* The top stays 16-byte aligned (the stacks are, and words is
	 * rounded down to 4): AAPCS wants 8, the RISC-V ABI 16. */
	t->sp = sched_arch_frame(stack + (words & ~(size_t)3), entry, sched_task_exit);
	t->id = id;
	t->prio = prio;
	t->state = SCHED_READY;
	t->delayed = 0;
	t->index = sched_ntasks;
	sched_tasks[sched_ntasks++] = t;
	if (id != SCHED_IDLE_ID)
		fw_task_create(id, prio);
}

static sched_task_t *sched_pick(void)
{
	sched_task_t *best = NULL;
	uint8_t i;

	for (i = 0; i < sched_ntasks; i++) {
		sched_task_t *t = sched_tasks[i];
		if (t->state == SCHED_READY && (!best || t->prio > best->prio))
			best = t;
	}
	return best; /* never NULL: the idle task is always ready */
}

static void sched_trace_in(const sched_task_t *t)
{
	if (t->id == SCHED_IDLE_ID)
		fw_idle();
	else
		fw_task_in(t->id);
}

/* Called by the switch code with the outgoing context saved. */
sched_task_t *sched_switch(void)
{
	uint32_t m = arch_irq_save();
	sched_task_t *cur = sched_cur;
	sched_task_t *next = sched_pick();

	if (next != cur) {
		if (cur->id != SCHED_IDLE_ID)
			fw_task_out(cur->id, cur->state == SCHED_READY ? SONDE_TASK_PREEMPTED :
					     cur->state == SCHED_BLOCKED ? SONDE_TASK_BLOCKED :
									   SONDE_TASK_DELETED);
		sched_trace_in(next);
		sched_cur = next;
	}
	arch_irq_restore(m);
	return next;
}

static void sched_yield_pend(void)
{
	sched_arch_pend();
}

/* With interrupts masked. */
static void sched_make_ready(sched_task_t *t)
{
	t->state = SCHED_READY;
	fw_task_ready(t->id);
	if (t->prio > sched_cur->prio || sched_cur->state != SCHED_READY)
		sched_yield_pend();
}

void sched_start(void)
{
	sched_cur = sched_pick();
	sched_trace_in(sched_cur);
	sched_arch_start();
}

/* A task function that returns ends here: it is deleted. */
static void sched_task_exit(void)
{
	uint32_t m = arch_irq_save();

	sched_cur->state = SCHED_DELETED;
	sched_yield_pend();
	arch_irq_restore(m);
	for (;;)
		;
}

void sched_tick(void)
{
	uint32_t m = arch_irq_save();
	uint32_t now = ++sched_ticks;
	uint8_t i;

	for (i = 0; i < sched_ntasks; i++) {
		sched_task_t *t = sched_tasks[i];
		if (t->delayed && t->wake == now) {
			t->delayed = 0;
			sched_make_ready(t);
		}
	}
	arch_irq_restore(m);
}

uint32_t sched_now(void)
{
	return sched_ticks;
}

void sched_delay(uint32_t ticks)
{
	uint32_t m = arch_irq_save();

	sched_cur->wake = sched_ticks + (ticks ? ticks : 1u);
	sched_cur->delayed = 1;
	sched_cur->state = SCHED_BLOCKED;
	sched_yield_pend();
	arch_irq_restore(m); /* the pended switch happens here */
}

/* ---- wait queues: with interrupts masked ------------------------------------ */

static void sched_wait(sched_waitq_t *wq)
{
	sched_cur->state = SCHED_BLOCKED;
	wq->waiters |= 1u << sched_cur->index;
	sched_yield_pend();
}

static void sched_wake_one(sched_waitq_t *wq)
{
	sched_task_t *best = NULL;
	uint8_t i;

	for (i = 0; i < sched_ntasks; i++)
		if ((wq->waiters & (1u << i)) && (!best || sched_tasks[i]->prio > best->prio))
			best = sched_tasks[i];
	if (best) {
		wq->waiters &= ~(1u << best->index);
		sched_make_ready(best);
	}
}

void sched_sem_take(sched_sem_t *s)
{
	for (;;) {
		uint32_t m = arch_irq_save();
		if (s->count) {
			s->count--;
			arch_irq_restore(m);
			return;
		}
		sched_wait(&s->wq);
		arch_irq_restore(m);
	}
}

void sched_sem_give(sched_sem_t *s)
{
	uint32_t m = arch_irq_save();

	s->count++;
	sched_wake_one(&s->wq);
	arch_irq_restore(m);
}

uint32_t sched_queue_get(sched_queue_t *q)
{
	for (;;) {
		uint32_t m = arch_irq_save();
		if (q->count) {
			uint32_t v = q->items[q->head];
			q->head = (uint8_t)((q->head + 1u) % q->size);
			q->count--;
			arch_irq_restore(m);
			return v;
		}
		sched_wait(&q->wq);
		arch_irq_restore(m);
	}
}

int sched_queue_put(sched_queue_t *q, uint32_t v)
{
	uint32_t m = arch_irq_save();
	int ok = q->count < q->size;

	if (ok) {
		q->items[(q->head + q->count) % q->size] = v;
		q->count++;
		sched_wake_one(&q->wq);
	}
	arch_irq_restore(m);
	return ok;
}

uint8_t sched_queue_count(const sched_queue_t *q)
{
	return q->count;
}
