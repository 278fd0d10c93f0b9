/*
 * sim_calls.c -- deterministic call trees for the simulator (sim_calls.h).
 */
#include "sim_calls.h"

/* The simulated firmware's functions; [0] is the root of every iteration. */
static const uint32_t funcs[] = {
	0x08000100, /* main_loop */
	0x08000220, /* read_sensors */
	0x08000340, /* filter_update */
	0x08000460, /* control_step */
	0x08000580, /* pwm_write */
	0x080006a0, /* log_append */
	0x080007c0, /* crc32 */
	0x080008e0, /* spi_transfer */
};
#define NFUNCS (sizeof(funcs) / sizeof(funcs[0]))

/* splitmix64: small, good enough, and the same everywhere. */
static uint64_t next_u64(struct sim_calls *c)
{
	uint64_t z = (c->rng += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t pick(struct sim_calls *c, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(next_u64(c) % (hi - lo + 1));
}

/* One call at depth, starting now; its callees first.  Fills c->tree in
 * completion order, or in entry order (the slot is taken before the
 * callees are generated). */
static void gen(struct sim_calls *c, uint32_t func, uint16_t depth)
{
	int slot = -1;
	uint32_t start = c->now;
	unsigned kids = depth == 0 ? pick(c, 1, 3) : depth < 3 ? pick(c, 0, 2) : 0;

	if (c->entry_order)
		slot = c->n++;
	c->now += pick(c, 1, 5);
	for (unsigned i = 0; i < kids && c->n < SIM_TREE_MAX - 8; i++) {
		gen(c, funcs[pick(c, 1, NFUNCS - 1)], (uint16_t)(depth + 1));
		c->now += pick(c, 0, 3);
	}
	c->now += kids ? pick(c, 1, 20) : pick(c, 5, 200);
	if (slot < 0)
		slot = c->n++;
	c->tree[slot].func = func;
	c->tree[slot].entry = start;
	c->tree[slot].dur = c->now - start;
	c->tree[slot].depth = depth;
}

void sim_calls_init(struct sim_calls *c, uint64_t seed, uint32_t start_us, int entry_order)
{
	c->rng = seed;
	c->now = start_us;
	c->entry_order = entry_order;
	c->n = c->next = 0;
}

void sim_calls_next(struct sim_calls *c, struct sim_rec *r)
{
	if (c->next == c->n) {
		c->n = c->next = 0;
		gen(c, funcs[0], 0);
		c->now += pick(c, 10, 100); /* the rest of the loop, not instrumented */
	}
	*r = c->tree[c->next++];
}
