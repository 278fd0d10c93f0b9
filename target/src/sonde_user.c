/*
 * sonde_user.c -- the one-call forms of user and log records: the common
 * shapes (one or two U32 arguments) on the inline fast path, without the
 * builder's per-argument calls.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

/* A type code: a constant that never needs escaping. */
#define U32 { SONDE_ARG_U32, 1u, 0u }

/* DATA after ts:  03 a(4) */
void sonde_user_u32(uint8_t rec, uint32_t a)
{
	struct sonde_fld f[2] = { U32, { a, 4u, 1u } };

	if (sonde_user_pass(rec))
		sonde_timed(rec, 1, f, 2u);
}

/* DATA after ts:  03 a(4) 03 b(4) */
void sonde_user_u32x2(uint8_t rec, uint32_t a, uint32_t b)
{
	struct sonde_fld f[4] = { U32, { a, 4u, 1u }, U32, { b, 4u, 1u } };

	if (sonde_user_pass(rec))
		sonde_timed(rec, 1, f, 4u);
}

/* DATA after ts:  level fmt(2) 03 a(4) */
void sonde_log_u32(uint8_t level, uint16_t fmt, uint32_t a)
{
	struct sonde_fld f[4] = { { level, 1u, 1u }, { fmt, 2u, 1u }, U32, { a, 4u, 1u } };

	if (sonde_rec_on(SONDE_REC_LOG))
		sonde_timed(SONDE_REC_LOG, 0, f, 4u);
}

/* DATA after ts:  level fmt(2) 03 a(4) 03 b(4) */
void sonde_log_u32x2(uint8_t level, uint16_t fmt, uint32_t a, uint32_t b)
{
	struct sonde_fld f[6] = { { level, 1u, 1u }, { fmt, 2u, 1u }, U32, { a, 4u, 1u }, U32, { b, 4u, 1u } };

	if (sonde_rec_on(SONDE_REC_LOG))
		sonde_timed(SONDE_REC_LOG, 0, f, 6u);
}

#endif /* SONDE_ENABLED */
