/*
 * qs_sizes.c -- the field sizes of QS records: QSPY's defaults, which
 * sizes each option letter allows, and setting one (from options, a .dic
 * file or TARGET_INFO); the decoder's sizes and its table of field sizes
 * by layout letter change together (qs_use_sizes).
 */
#include <string.h>

#include "qs.h"

const struct qs_sizes qs_default_sizes = {
	.ts = 4, .obj = 4, .fun = 4, .sig = 2, .evt = 2, .eqc = 1, .mpc = 2, .mps = 2, .tec = 4,
};

int qs_size_valid(char letter, unsigned v)
{
	switch (letter) {
	case 'O': /* pointers may be 8 bytes; the target's raw object emitter also has 1 */
	case 'F':
		return v == 1 || v == 2 || v == 4 || v == 8;
	case 'T': case 'S': case 'E': case 'Q': case 'P': case 'B': case 'C':
		return v == 1 || v == 2 || v == 4;
	default:
		return 0;
	}
}

uint8_t *qs_size_of(struct qs_sizes *sz, char letter)
{
	switch (letter) {
	case 'T': return &sz->ts;
	case 'O': return &sz->obj;
	case 'F': return &sz->fun;
	case 'S': return &sz->sig;
	case 'E': return &sz->evt;
	case 'Q': return &sz->eqc;
	case 'P': return &sz->mpc;
	case 'B': return &sz->mps;
	case 'C': return &sz->tec;
	default: return NULL;
	}
}

int qs_set_size(struct qs_sizes *sz, char letter, unsigned v)
{
	uint8_t *f = qs_size_of(sz, letter);
	if (!f || !qs_size_valid(letter, v))
		return -1;
	*f = (uint8_t)v;
	return 0;
}

void qs_use_sizes(struct qs_dec *d, const struct qs_sizes *sz)
{
	d->sz = *sz;
	memset(d->fsz, 0, sizeof(d->fsz));
	d->fsz['O'] = sz->obj;
	d->fsz['F'] = sz->fun;
	d->fsz['S'] = sz->sig;
	d->fsz['E'] = sz->evt;
	d->fsz['Q'] = sz->eqc;
	d->fsz['P'] = sz->mpc;
	d->fsz['C'] = sz->tec;
	d->fsz['1'] = 1;
	d->fsz['2'] = 2;
	d->fsz['4'] = 4;
	static const uint8_t uint_type[9] = { 0, SONDE_A_U8, SONDE_A_U16, 0, SONDE_A_U32, 0, 0, 0, SONDE_A_U64 };
	for (size_t c = 0; c < sizeof(d->fargt); c++)
		d->fargt[c] = d->fsz[c] <= 8 && uint_type[d->fsz[c]] ? uint_type[d->fsz[c]] : SONDE_A_U64;
	d->fargt['O'] = SONDE_A_OBJ;
	d->fargt['F'] = SONDE_A_FUNC;
	d->fargt['S'] = SONDE_A_ENUM;
	d->fargt['Z'] = SONDE_A_STR;
}
