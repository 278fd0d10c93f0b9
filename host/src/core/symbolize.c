/*
 * symbolize.c -- ELF names for code addresses, for every format
 * (symbolize.h).
 */
#include <stdlib.h>
#include <string.h>

#include "util/elf_symbols.h"
#include "symbolize.h"

int sonde_symbolizer_open(struct sonde_symbolizer *z, const char *path, char *err, size_t errlen)
{
	memset(z, 0, sizeof(*z));
	z->syms = elfsym_open(path, err, errlen);
	return z->syms ? 0 : -1;
}

void sonde_symbolizer_close(struct sonde_symbolizer *z)
{
	elfsym_close(z->syms);
	free(z->args);
	memset(z, 0, sizeof(*z));
}

static int func_event_wants_name(const struct sonde_event *ev)
{
	return (ev->kind == SONDE_EV_FUNC_ENTER || ev->kind == SONDE_EV_FUNC_EXIT) &&
	       (ev->flags & SONDE_EVF_ADDR) && !(ev->flags & SONDE_EVF_NO_OBJ) && !ev->obj_name;
}

const struct sonde_event *sonde_symbolize(struct sonde_symbolizer *z, const struct sonde_event *ev)
{
	const char *name = NULL;
	size_t first = ev->nargs;

	if (!z->syms)
		return ev;
	if (func_event_wants_name(ev))
		name = elfsym_lookup(z->syms, ev->obj, NULL);
	for (size_t i = 0; i < ev->nargs; i++)
		if (ev->args[i].type == SONDE_A_FUNC && !ev->args[i].resolved &&
		    elfsym_lookup(z->syms, ev->args[i].v.u, NULL)) {
			first = i;
			break;
		}
	if (!name && first == ev->nargs)
		return ev;
	z->ev = *ev;
	if (name) {
		z->ev.obj_name = name;
		z->named++;
	}
	if (first < ev->nargs) {
		if (ev->nargs > z->cap) {
			struct sonde_arg *a = realloc(z->args, ev->nargs * sizeof(*a));
			if (!a)
				return &z->ev; /* the arguments stay unnamed */
			z->args = a;
			z->cap = ev->nargs;
		}
		memcpy(z->args, ev->args, ev->nargs * sizeof(*z->args));
		for (size_t i = first; i < ev->nargs; i++)
			if (z->args[i].type == SONDE_A_FUNC && !z->args[i].resolved) {
				z->args[i].resolved = elfsym_lookup(z->syms, z->args[i].v.u, NULL);
				z->named += z->args[i].resolved != NULL;
			}
		z->ev.args = z->args;
	}
	return &z->ev;
}
