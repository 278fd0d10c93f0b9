/*
 * sim_calls.h -- the simulated firmware's calls: a deterministic stream of
 * completed calls (a PRNG seeded from --seed) shaped like an instrumented
 * main loop: each iteration is a call of main_loop (depth 0) calling a few
 * functions, which call a few more, down to depth 3.  Records come out in
 * completion order (callees before their caller, as an exit hook would
 * produce them) or, on request, in entry order.
 */
#ifndef SIM_CALLS_H
#define SIM_CALLS_H

#include <stdint.h>

#include "sim_wire.h"

#define SIM_TREE_MAX 64

struct sim_calls {
	uint64_t rng;
	uint32_t now;       /* microseconds, wraps like the device's timer */
	int entry_order;
	struct sim_rec tree[SIM_TREE_MAX];
	int n, next;        /* records of the current iteration, next to hand out */
};

void sim_calls_init(struct sim_calls *c, uint64_t seed, uint32_t start_us, int entry_order);
void sim_calls_next(struct sim_calls *c, struct sim_rec *r);

#endif /* SIM_CALLS_H */
