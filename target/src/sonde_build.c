/*
 * sonde_build.c -- user and log records built argument by argument
 * (sonde_user_begin ... sonde_arg_* ... sonde_user_end).
 *
 * The DATA is assembled in a static buffer of SONDE_RECORD_MAX bytes and
 * written at end through the slow path, so a record is written whole or not
 * at all, with its exact size.  The critical section is held from a
 * successful begin to end, which makes the one static buffer safe.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

/* The saved interrupt state of the section held between begin and end. */
static SONDE_PORT_CRIT_DECL;

static struct {
	uint32_t now;                  /* the record's time, read at begin */
	uint16_t n;                    /* bytes in d */
	uint8_t id;
	uint8_t over;                  /* an argument did not fit: refuse at end */
	uint8_t d[SONDE_RECORD_MAX];
} bld;

static int begin(uint8_t id)
{
	SONDE_PORT_CRIT_ENTER();
	if (sonde_g.buf == NULL || (sonde_g.flags & SONDE_F_REFUSE)) {
		if (sonde_g.buf != NULL) {
			sonde_refuse();
			sonde_ring_relimit();
		}
		SONDE_PORT_CRIT_EXIT();
		return 0;
	}
	bld.now = SONDE_PORT_TS();
	bld.id = id;
	bld.n = 0;
	bld.over = 0;
	return 1;
}

/* Append n bytes of v, little-endian, after a type byte (0: none). */
static void add(uint8_t type, uint64_t v, unsigned n)
{
	unsigned need = n + (type != 0u);

	if (bld.over || need > SONDE_RECORD_MAX - bld.n) {
		bld.over = 1;
		return;
	}
	if (type != 0u)
		bld.d[bld.n++] = type;
	while (n--) {
		bld.d[bld.n++] = (uint8_t)v;
		v >>= 8;
	}
}

int sonde_user_begin(uint8_t rec)
{
	return sonde_user_pass(rec) && begin(rec);
}

int sonde_log_begin(uint8_t level, uint16_t fmt)
{
	if (!sonde_rec_on(SONDE_REC_LOG) || !begin(SONDE_REC_LOG))
		return 0;
	add(0u, level, 1u);
	add(0u, fmt, 2u);
	return 1;
}

void sonde_user_end(void)
{
	if (bld.over) {
		sonde_refuse();
		sonde_ring_relimit();
	} else {
		sonde_write(bld.id, SONDE_W_TIMED, bld.now, bld.d, bld.n, NULL, 0u);
	}
	SONDE_PORT_CRIT_EXIT();
}

void sonde_arg_u8(uint8_t v)
{
	add(SONDE_ARG_U8, v, 1u);
}

void sonde_arg_u16(uint16_t v)
{
	add(SONDE_ARG_U16, v, 2u);
}

void sonde_arg_u32(uint32_t v)
{
	add(SONDE_ARG_U32, v, 4u);
}

void sonde_arg_u64(uint64_t v)
{
	add(SONDE_ARG_U64, v, 8u);
}

void sonde_arg_i8(int8_t v)
{
	add(SONDE_ARG_I8, (uint8_t)v, 1u);
}

void sonde_arg_i16(int16_t v)
{
	add(SONDE_ARG_I16, (uint16_t)v, 2u);
}

void sonde_arg_i32(int32_t v)
{
	add(SONDE_ARG_I32, (uint32_t)v, 4u);
}

void sonde_arg_i64(int64_t v)
{
	add(SONDE_ARG_I64, (uint64_t)v, 8u);
}

/* IEEE-754 bits, sent little-endian like an integer of the same size. */
void sonde_arg_f32(float v)
{
	uint32_t b;

	memcpy(&b, &v, sizeof b);
	add(SONDE_ARG_F32, b, 4u);
}

void sonde_arg_f64(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof b);
	add(SONDE_ARG_F64, b, 8u);
}

/* Cut to SONDE_STR_MAX characters and to the room left (the one argument
 * that shrinks instead of refusing the record). */
void sonde_arg_str(const char *s)
{
	unsigned room, len = 0;

	if (s == NULL)
		s = "";
	if (bld.over || SONDE_RECORD_MAX - bld.n < 2u) {
		bld.over = 1;
		return;
	}
	room = SONDE_RECORD_MAX - bld.n - 2u;
	while (len < SONDE_STR_MAX && len < room && s[len] != '\0')
		len++;
	bld.d[bld.n++] = SONDE_ARG_STR;
	memcpy(bld.d + bld.n, s, len);
	bld.n = (uint16_t)(bld.n + len);
	bld.d[bld.n++] = '\0';
}

void sonde_arg_mem(const void *p, uint8_t n)
{
	if (bld.over || n + 2u > SONDE_RECORD_MAX - bld.n) {
		bld.over = 1;
		return;
	}
	bld.d[bld.n++] = SONDE_ARG_MEM;
	bld.d[bld.n++] = n;
	if (n != 0u)
		memcpy(bld.d + bld.n, p, n);
	bld.n = (uint16_t)(bld.n + n);
}

void sonde_arg_obj(uint8_t obj)
{
	add(SONDE_ARG_OBJ, obj, 1u);
}

void sonde_arg_func(const void *addr)
{
	add(SONDE_ARG_FUNC, (uint64_t)(uintptr_t)addr, SONDE_ADDR_SIZE);
}

void sonde_arg_enum(uint8_t group, uint8_t value)
{
	add(SONDE_ARG_ENUM, (uint32_t)group | (uint32_t)value << 8, 2u);
}

#endif /* SONDE_ENABLED */
