/*
 * sched.h -- a small preemptive fixed-priority scheduler for the example:
 * real context switches (PendSV on Cortex-M, at the end of the outermost
 * trap on RISC-V), blocking delays on the 1 kHz tick, a counting semaphore
 * and a word queue that ISRs can feed.  Every switch, wake-up and idle
 * period is traced with Sonde.
 *
 * Priorities: larger is more urgent; equal priorities run in creation
 * order (no time slicing).  The task with Sonde object id 0 is the idle
 * task: it must never block, and running it is traced as IDLE.
 */
#ifndef SCHED_H
#define SCHED_H

#include <stddef.h>
#include <stdint.h>

#define SCHED_MAX_TASKS 8
#define SCHED_IDLE_ID   0

enum { SCHED_READY, SCHED_BLOCKED, SCHED_DELETED };

typedef struct {
	uint32_t *sp;   /* saved stack pointer; must stay first (switch code) */
	uint32_t wake;  /* tick at which a delay ends */
	uint8_t id;     /* Sonde object id, SCHED_IDLE_ID for the idle task */
	uint8_t prio;
	uint8_t state;
	uint8_t delayed;
	uint8_t index;  /* bit in wait masks */
} sched_task_t;

/* Tasks waiting on a semaphore or queue: one bit per task index. */
typedef struct {
	uint32_t waiters;
} sched_waitq_t;

typedef struct {
	sched_waitq_t wq;
	uint32_t count;
} sched_sem_t;

typedef struct {
	sched_waitq_t wq;
	uint32_t *items;
	uint8_t size, head, count;
} sched_queue_t;

/* stack: words of 16-byte aligned memory.  Before sched_start() only. */
void sched_task_create(sched_task_t *t, uint8_t id, uint8_t prio,
		       void (*entry)(void), uint32_t *stack, size_t words);
/* Run the most urgent task; never returns.  Main's stack stays the
 * exception stack. */
__attribute__((noreturn)) void sched_start(void);

/* From the tick interrupt, once per tick. */
void sched_tick(void);
uint32_t sched_now(void);

/* Task context only. */
void sched_delay(uint32_t ticks);
void sched_sem_take(sched_sem_t *s);
uint32_t sched_queue_get(sched_queue_t *q);

/* Task or ISR context. */
void sched_sem_give(sched_sem_t *s);
int sched_queue_put(sched_queue_t *q, uint32_t v); /* 0 when full */
uint8_t sched_queue_count(const sched_queue_t *q);

/* ---- the CPU's part (fw-common/<cpu>/sched_arch.c and its switch code) */

/* Build a new task's first context below top, so that the switch code
 * starts it at entry, returning to task_exit; returns the saved stack
 * pointer. */
uint32_t *sched_arch_frame(uint32_t *top, void (*entry)(void), void (*task_exit)(void));
/* Request a switch that happens once no ISR is running (from a task with
 * interrupts masked: when it unmasks them). */
void sched_arch_pend(void);
/* Enter sched_cur; never returns. */
__attribute__((noreturn)) void sched_arch_start(void);

/* The switch code's choice: traces the switch, returns the task to run. */
sched_task_t *sched_switch(void);
extern sched_task_t *sched_cur;

#endif /* SCHED_H */
