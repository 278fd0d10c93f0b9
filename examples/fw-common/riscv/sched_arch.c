/*
 * sched_arch.c -- the RISC-V half of the example scheduler (sched.c): a
 * task's first frame, pending a switch, starting the first task.  The
 * switch itself is at the end of the outermost trap (trap.S); the request
 * is the supervisor software interrupt (mip.SSIP, which machine mode may
 * set and, not delegated, takes itself): the board's trap handler gives it
 * the lowest priority and never enables it inside a handler, so it is
 * taken only when no handler runs -- Cortex-M's PendSV.
 */
#include "board.h"
#include "sched.h"

void rv_start_first(void);

/* What trap.S restores: s0-s11, then ra t0-t2 a0-a7 t3-t6 mepc mstatus
 * and two words of padding.  mret enters entry in machine mode with
 * interrupts on (MPIE); entry returns to task_exit (ra). */
uint32_t *sched_arch_frame(uint32_t *top, void (*entry)(void), void (*task_exit)(void))
{
	uint32_t *sp = top - 20 - 12;
	int i;

	for (i = 0; i < 32; i++)
		sp[i] = 0;
	sp[12 + 0] = (uint32_t)(uintptr_t)task_exit;   /* ra */
	sp[12 + 16] = (uint32_t)(uintptr_t)entry;      /* mepc */
	sp[12 + 17] = MSTATUS_MPP | MSTATUS_MPIE;      /* mstatus: M-mode, MIE after mret */
	return sp;
}

void sched_arch_pend(void)
{
	CSR_SET(mip, MIP_SSIP);
}

void sched_arch_start(void)
{
	rv_start_first();
	for (;;)
		;
}
