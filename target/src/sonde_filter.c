/*
 * sonde_filter.c -- the global (per record id) and local (per object id)
 * filters of docs/protocol.md section 7, kept in sonde_filters_ (sonde.h),
 * which every record call tests inline.
 *
 * The global filter is a bitmap of record ids.  The local filter is a byte
 * per object whose bit 7 is the object's bit and whose bits 0, 1, 3..6 are
 * that bit ANDed with the global bit of one record naming objects (of_rec
 * below), while bit 2 (SONDE_OF_USER) says that the same number, as a
 * record id, is an enabled user record: so the hot ISR, task and user
 * records test their filters with one load.  Every change here rewrites the
 * affected bytes, in one critical section, so that no record sees some bits
 * old and some new.  Records the protocol never filters (EMPTY,
 * TARGET_INFO, TIME_SYNC, DROPS, DICT, command replies) keep their global
 * bit set, so sonde_record_enabled() tells the truth about them.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

struct sonde_filters sonde_filters_;

/* The record whose global bit each bit 0..6 of an object byte combines
 * with the local bit (0: bit 2, the user-record bit, which is not one). */
static const uint8_t of_rec[7] = {
	SONDE_REC_ISR_ENTER, SONDE_REC_ISR_EXIT, 0u, SONDE_REC_TASK_IN,
	SONDE_REC_TASK_OUT, SONDE_REC_TASK_READY, SONDE_REC_COUNTER,
};

static int filterable(uint32_t rec)
{
	return rec < SONDE_REC_COUNT && rec >= SONDE_REC_ISR_ENTER &&
	       !(rec >= SONDE_REC_CMD_STATUS && rec < SONDE_REC_USER_FIRST);
}

static void set_bit(uint32_t rec, int on)
{
	uint8_t *b = &sonde_filters_.rec[rec >> 3];
	uint8_t m = (uint8_t)(1u << (rec & 7u));

	if (!filterable(rec))
		return;
	*b = on ? (uint8_t)(*b | m) : (uint8_t)(*b & ~m);
}

/* The object byte of id i with its local bit on or off. */
static uint8_t obj_byte(unsigned i, int on)
{
	uint32_t v = 0u;
	unsigned k;

	if (on) {
		v = SONDE_OF_LOCAL;
		for (k = 0; k < sizeof of_rec; k++)
			if (of_rec[k] != 0u && sonde_rec_on(of_rec[k]))
				v |= 1u << k;
	}
	if (i >= SONDE_REC_USER_FIRST && i <= SONDE_REC_USER_LAST && sonde_rec_on(i))
		v |= SONDE_OF_USER;
	return (uint8_t)v;
}

/* Objects first..last-1 from bm (NULL: all set to on), every byte
 * recomputed, so global changes reach the combined bits too.  Inside the
 * critical section. */
static void objects(const uint8_t *bm, unsigned first, unsigned last, int on)
{
	unsigned i;

	for (i = 0; i < 256u; i++) {
		int b = (sonde_filters_.obj[i] & SONDE_OF_LOCAL) != 0u;

		if (bm != NULL)
			b = (int)(bm[i >> 3] >> (i & 7u) & 1u);
		else if (i >= first && i < last)
			b = on;
		sonde_filters_.obj[i] = obj_byte(i, b);
	}
}

/* Global bits from bm (bit r of the bitmap), or all to on when bm is
 * NULL, then the object bytes again; in one critical section. */
static void records(const uint8_t *bm, int on)
{
	unsigned r;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	for (r = 0; r < SONDE_REC_COUNT; r++)
		set_bit(r, bm != NULL ? (int)(bm[r >> 3] >> (r & 7u) & 1u) : on);
	objects(NULL, 0u, 0u, 0);
	SONDE_PORT_CRIT_EXIT();
}

static void objects_locked(const uint8_t *bm, unsigned first, unsigned last, int on)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	objects(bm, first, last, on);
	SONDE_PORT_CRIT_EXIT();
}

void sonde_filter_record(uint8_t rec, int on)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	set_bit(rec, on);
	objects(NULL, 0u, 0u, 0);
	SONDE_PORT_CRIT_EXIT();
}

void sonde_filter_all_records(int on)
{
	records(NULL, on);
}

void sonde_filter_object(uint8_t obj, int on)
{
	objects_locked(NULL, obj, obj + 1u, on);
}

void sonde_filter_all_objects(int on)
{
	objects_locked(NULL, 0u, 256u, on);
}

void sonde_filter_set_records(const uint8_t *bm)
{
	records(bm, 0);
}

void sonde_filter_set_objects(const uint8_t *bm)
{
	objects_locked(bm, 0u, 0u, 0);
}

int sonde_record_enabled(uint8_t rec)
{
	return rec < SONDE_REC_COUNT && sonde_rec_on(rec);
}

int sonde_object_enabled(uint8_t obj)
{
	return (sonde_filters_.obj[obj] & SONDE_OF_LOCAL) != 0u;
}

/* sonde_init(), inside its critical section: everything on -- every bit of
 * every byte, but the user-record bit outside 0x40..0x7F (written out here
 * rather than through objects(), so that an application that never changes
 * a filter does not link the filter code). */
void sonde_filter_reset(void)
{
	unsigned i;

	for (i = 0; i < sizeof sonde_filters_.rec; i++)
		sonde_filters_.rec[i] = 0xFFu;
	for (i = 0; i < 256u; i++)
		sonde_filters_.obj[i] = i >= SONDE_REC_USER_FIRST && i <= SONDE_REC_USER_LAST
					       ? 0xFFu : (uint8_t)~SONDE_OF_USER;
}

#endif /* SONDE_ENABLED */
