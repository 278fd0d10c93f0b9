/*
 * sonde_filter.c -- the global (per record id) and local (per object id)
 * filters of docs/protocol.md section 7.
 *
 * The global filter is a byte per record id.  The local filter a byte per
 * object whose bit 7 is the object's bit and whose other bits are that bit
 * ANDed with the global bit of one record naming objects (sonde_of_bit),
 * except bit 2 (SONDE_OF_USER), which says that the same number, as a
 * record id, is an enabled user record: so the hot ISR, task and user
 * paths test their filters with one load (sonde_internal.h).  Every change
 * here rewrites the affected bytes.  Records the protocol never filters
 * (EMPTY, TARGET_INFO, TIME_SYNC, DROPS, DICT, command replies) keep their
 * global bit set, so sonde_record_enabled() tells the truth about them.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

static int filterable(uint8_t rec)
{
	return rec < SONDE_REC_COUNT && rec >= SONDE_REC_ISR_ENTER &&
	       !(rec >= SONDE_REC_CMD_STATUS && rec < SONDE_REC_USER_FIRST);
}

static void set_bit(uint8_t rec, int on)
{
	sonde_g.rec_filter[rec] = on ? 1u : 0u;
}

/* The combined bits an object with its local bit set gets. */
static uint8_t combined(void)
{
	uint32_t b = SONDE_OF_LOCAL;
	unsigned r;

	for (r = SONDE_REC_ISR_ENTER; r <= SONDE_REC_COUNTER; r++)
		if (sonde_rec_on(r))
			b |= sonde_of_bit(r);
	return (uint8_t)b;
}

/* The filter byte of id i, local bit on or off (bits: sonde_internal.h). */
static uint8_t obj_byte(unsigned i, int on, uint8_t comb)
{
	uint8_t v = on ? comb : 0u;

	if (i >= SONDE_REC_USER_FIRST && i <= SONDE_REC_USER_LAST && sonde_rec_on(i))
		v |= SONDE_OF_USER;
	return v;
}

static void set_objects(unsigned first, unsigned count, int on)
{
	uint8_t comb = combined();
	unsigned i;

	for (i = first; i < first + count; i++)
		sonde_g.obj_filter[i] = obj_byte(i, on, comb);
}

/* After a global change: every byte gets the new bits. */
static void refresh_objects(void)
{
	uint8_t comb = combined();
	unsigned i;

	for (i = 0; i < 256u; i++)
		sonde_g.obj_filter[i] = obj_byte(i, sonde_g.obj_filter[i] & SONDE_OF_LOCAL, comb);
}

void sonde_filter_record(uint8_t rec, int on)
{
	SONDE_PORT_CRIT_DECL;

	if (!filterable(rec))
		return;
	SONDE_PORT_CRIT_ENTER();
	set_bit(rec, on);
	refresh_objects();
	SONDE_PORT_CRIT_EXIT();
}

void sonde_filter_all_records(int on)
{
	unsigned r;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	for (r = 0; r < SONDE_REC_COUNT; r++)
		if (filterable((uint8_t)r))
			set_bit((uint8_t)r, on);
	refresh_objects();
	SONDE_PORT_CRIT_EXIT();
}

void sonde_filter_object(uint8_t obj, int on)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	set_objects(obj, 1u, on);
	SONDE_PORT_CRIT_EXIT();
}

void sonde_filter_all_objects(int on)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	set_objects(0u, 256u, on);
	SONDE_PORT_CRIT_EXIT();
}

/* Bit i of a command's bitmap: bit i % 8 of byte i / 8. */
static int bm_bit(const uint8_t *bm, unsigned i)
{
	return bm[i >> 3] >> (i & 7u) & 1;
}

void sonde_filter_set_records(const uint8_t *bm)
{
	unsigned r;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	for (r = 0; r < SONDE_REC_COUNT; r++)
		if (filterable((uint8_t)r))
			set_bit((uint8_t)r, bm_bit(bm, r));
	refresh_objects();
	SONDE_PORT_CRIT_EXIT();
}

void sonde_filter_set_objects(const uint8_t *bm)
{
	uint8_t comb;
	unsigned o;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	comb = combined();
	for (o = 0; o < 256u; o++)
		sonde_g.obj_filter[o] = obj_byte(o, bm_bit(bm, o), comb);
	SONDE_PORT_CRIT_EXIT();
}

int sonde_record_enabled(uint8_t rec)
{
	return rec < SONDE_REC_COUNT && sonde_rec_on(rec);
}

int sonde_object_enabled(uint8_t obj)
{
	return (sonde_g.obj_filter[obj] & SONDE_OF_LOCAL) != 0u;
}

/* sonde_init(): everything on. */
void sonde_filter_reset(void)
{
	memset(sonde_g.rec_filter, 1, sizeof sonde_g.rec_filter);
	set_objects(0u, 256u, 1);
}

#endif /* SONDE_ENABLED */
