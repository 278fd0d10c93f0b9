/*
 * sonde_user.c -- the one-call forms of user and log records: the common
 * shapes (one or two U32 arguments) on the inline fast path, without the
 * builder's per-argument calls.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

#define U32 SONDE_ARG_U32

/* DATA after ts:  03 a(4) */
void sonde_user_u32(uint8_t rec, uint32_t a)
{
	struct sonde_fld f[2];

	if (!sonde_user_pass(rec))
		return;
	f[0].v = U32, f[0].n = 1u;
	f[1].v = a, f[1].n = 4u;
	sonde_timed(rec, f, 2u, U32 + sonde_sum32(a));
}

/* DATA after ts:  03 a(4) 03 b(4) */
void sonde_user_u32x2(uint8_t rec, uint32_t a, uint32_t b)
{
	struct sonde_fld f[4];

	if (!sonde_user_pass(rec))
		return;
	f[0].v = U32, f[0].n = 1u;
	f[1].v = a, f[1].n = 4u;
	f[2].v = U32, f[2].n = 1u;
	f[3].v = b, f[3].n = 4u;
	sonde_timed(rec, f, 4u, 2u * U32 + sonde_sum32(a) + sonde_sum32(b));
}

/* DATA after ts:  level fmt(2) 03 a(4) */
void sonde_log_u32(uint8_t level, uint16_t fmt, uint32_t a)
{
	struct sonde_fld f[4];

	if (!sonde_rec_on(SONDE_REC_LOG))
		return;
	f[0].v = level, f[0].n = 1u;
	f[1].v = fmt, f[1].n = 2u;
	f[2].v = U32, f[2].n = 1u;
	f[3].v = a, f[3].n = 4u;
	sonde_timed(SONDE_REC_LOG, f, 4u, (uint32_t)level + fmt + (fmt >> 8) + U32 + sonde_sum32(a));
}

/* DATA after ts:  level fmt(2) 03 a(4) 03 b(4) */
void sonde_log_u32x2(uint8_t level, uint16_t fmt, uint32_t a, uint32_t b)
{
	struct sonde_fld f[6];

	if (!sonde_rec_on(SONDE_REC_LOG))
		return;
	f[0].v = level, f[0].n = 1u;
	f[1].v = fmt, f[1].n = 2u;
	f[2].v = U32, f[2].n = 1u;
	f[3].v = a, f[3].n = 4u;
	f[4].v = U32, f[4].n = 1u;
	f[5].v = b, f[5].n = 4u;
	sonde_timed(SONDE_REC_LOG, f, 6u,
		    (uint32_t)level + fmt + (fmt >> 8) + 2u * U32 + sonde_sum32(a) + sonde_sum32(b));
}

#endif /* SONDE_ENABLED */
