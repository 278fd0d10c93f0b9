/*
 * sonde_args.c -- decoding of the typed argument list (protocol §6): a type
 * byte, then its value, up to the end of the record.
 */
#include <stdio.h>
#include <string.h>

#include "sonde_args.h"
#include "sonde_proto.h"
#include "util/bytes.h"

/* Value size of the fixed-size types, 0 for the others. */
static size_t fixed_size(uint8_t type, unsigned addr_size)
{
	switch (type) {
	case SONDE_ARG_U8: case SONDE_ARG_I8: case SONDE_ARG_OBJ: return 1;
	case SONDE_ARG_U16: case SONDE_ARG_I16: case SONDE_ARG_ENUM: return 2;
	case SONDE_ARG_U32: case SONDE_ARG_I32: case SONDE_ARG_F32: return 4;
	case SONDE_ARG_U64: case SONDE_ARG_I64: case SONDE_ARG_F64: return 8;
	case SONDE_ARG_FUNC: return addr_size;
	default: return 0;
	}
}

static int64_t sign_extend(uint64_t v, size_t bytes)
{
	unsigned shift = (unsigned)(64 - 8 * bytes);
	return (int64_t)(v << shift) >> shift;
}

size_t sargs_decode(const uint8_t *p, size_t n, unsigned addr_size, struct sonde_arg *out, size_t max,
		    size_t *bad, char *why, size_t whylen)
{
	size_t k = 0, i = 0;
	*bad = SIZE_MAX;
	while (i < n) {
		size_t at = i;
		uint8_t type = p[i++];
		size_t left = n - i;
		if (k == max) {
			*bad = at;
			snprintf(why, whylen, "more than %zu arguments", max);
			return k;
		}
		struct sonde_arg *a = &out[k];
		memset(a, 0, sizeof(*a));
		if (type < SONDE_ARG_U8 || type > SONDE_ARG_ENUM) {
			*bad = at;
			snprintf(why, whylen, "argument %zu: unknown type 0x%02X", k + 1, type);
			return k;
		}
		a->type = (enum sonde_arg_type)type; /* wire codes map 1:1 (event.h) */
		if (type == SONDE_ARG_STR) {
			const uint8_t *nul = memchr(p + i, 0, left);
			if (!nul) {
				*bad = at;
				snprintf(why, whylen, "argument %zu (str): no NUL before the end of the record", k + 1);
				return k;
			}
			a->v.mem.p = p + i;
			a->v.mem.n = (size_t)(nul - (p + i));
			i += a->v.mem.n + 1;
			k++;
			continue;
		}
		if (type == SONDE_ARG_MEM) {
			if (left < 1) {
				*bad = at;
				snprintf(why, whylen, "argument %zu (mem): length byte missing", k + 1);
				return k;
			}
			if (left - 1 < p[i]) {
				*bad = at;
				snprintf(why, whylen, "argument %zu (mem): %u bytes announced, %zu left", k + 1,
					 (unsigned)p[i], left - 1);
				return k;
			}
			a->v.mem.n = p[i];
			a->v.mem.p = p + i + 1;
			i += 1 + a->v.mem.n;
			k++;
			continue;
		}
		size_t sz = fixed_size(type, addr_size);
		if (left < sz) {
			*bad = at;
			snprintf(why, whylen, "argument %zu: needs %zu bytes, %zu left", k + 1, sz, left);
			return k;
		}
		uint64_t v = bytes_le(p + i, sz);
		switch (type) {
		case SONDE_ARG_I8: case SONDE_ARG_I16: case SONDE_ARG_I32: case SONDE_ARG_I64:
			a->v.i = sign_extend(v, sz);
			break;
		case SONDE_ARG_F32: {
			uint32_t bits = (uint32_t)v;
			float f;
			memcpy(&f, &bits, sizeof(f));
			a->v.f = f;
			break;
		}
		case SONDE_ARG_F64:
			memcpy(&a->v.f, &v, sizeof(double));
			break;
		case SONDE_ARG_ENUM:
			a->group = p[i];
			a->v.u = p[i + 1];
			break;
		default:
			a->v.u = v;
			break;
		}
		i += sz;
		k++;
	}
	return k;
}
