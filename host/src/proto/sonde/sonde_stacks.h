/*
 * sonde_stacks.h -- the nesting state the Sonde decoder rebuilds from the
 * stream: the ISR stack (ISR_EXIT does not repeat the id) and one function
 * call stack per context -- each task, "no task", and each ISR nesting level
 * -- so that FUNC_EXIT knows which function returns.
 *
 * Bounded: SSTK_ISR_MAX levels and SSTK_FUNC_MAX calls per context are
 * remembered; deeper nesting is still counted, and the exits from it are
 * reported as unknown.  Function stacks are allocated on first use.
 */
#ifndef SONDE_STACKS_H
#define SONDE_STACKS_H

#include <stdint.h>

#define SSTK_ISR_MAX 32
#define SSTK_FUNC_MAX 256
#define SSTK_CTX_NONE 256                       /* no task known / idle */
#define SSTK_CTX_ISR0 257                       /* ISR nesting level 1 */
#define SSTK_CTX_COUNT (SSTK_CTX_ISR0 + SSTK_ISR_MAX)

struct sstk_call {
	uint64_t fn;   /* function id or address */
	uint8_t addr;  /* fn is an address */
};

struct sstk_func {
	struct sstk_call *calls; /* SSTK_FUNC_MAX entries once used */
	uint32_t depth;          /* may exceed SSTK_FUNC_MAX */
};

struct sstk {
	uint8_t isr[SSTK_ISR_MAX];
	uint32_t isr_depth;      /* may exceed SSTK_ISR_MAX */
	int task;                /* running task, -1 none */
	struct sstk_func ctx[SSTK_CTX_COUNT];
};

void sstk_init(struct sstk *s);
void sstk_reset(struct sstk *s); /* a loss or a target reset: nothing known */
void sstk_free(struct sstk *s);

/* Depth after entering. */
uint32_t sstk_isr_enter(struct sstk *s, uint8_t isr);
/* Depth before leaving (0 = there was nothing to leave); *known is 1 and
 * *isr set when the ISR's id is remembered. */
uint32_t sstk_isr_exit(struct sstk *s, uint8_t *isr, int *known);

void sstk_task_in(struct sstk *s, uint8_t task);
void sstk_task_out(struct sstk *s, uint8_t task, int deleted);
void sstk_idle(struct sstk *s);

/* Depth after entering, in the current context. */
uint32_t sstk_func_enter(struct sstk *s, uint64_t fn, int addr);
/* Depth before leaving (0 = nothing to leave); *known as for ISRs. */
uint32_t sstk_func_exit(struct sstk *s, struct sstk_call *call, int *known);

#endif /* SONDE_STACKS_H */
