/*
 * qs_dicwrite.c -- writes the dictionaries to a file as QSPY 7.4's -d does
 * (at QF_RUN, and on request: its key 'd'), in the layout qs_dicfile.c
 * reads: the target's configuration as option lines, then the object,
 * function, user-record and signal dictionaries, each with its key size,
 * sorted by key, closed by "***".  The file is named after the target's
 * build time, qspy<YYMMDD_hhmmss>.dic, so that the next session with the
 * same build finds it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qs.h"

static int by_key(const void *a, const void *b)
{
	const struct qs_map_ent *x = *(const struct qs_map_ent *const *)a;
	const struct qs_map_ent *y = *(const struct qs_map_ent *const *)b;
	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? -1 : 1;
	return x->k2 < y->k2 ? -1 : x->k2 > y->k2;
}

/* The entries of m sorted by key (k1, then k2), NULL if none or out of memory. */
static const struct qs_map_ent **sorted(const struct qs_map *m, int *fail)
{
	if (m->n == 0)
		return NULL;
	const struct qs_map_ent **v = malloc(m->n * sizeof(*v));
	if (!v) {
		*fail = 1;
		return NULL;
	}
	size_t n = 0;
	for (size_t i = 0; i < m->cap && n < m->n; i++)
		if (m->ent[i].name)
			v[n++] = &m->ent[i];
	qsort(v, n, sizeof(*v), by_key);
	return v;
}

/* A key as QSPY writes it: 8 hex digits for keys of up to 4 bytes, else 16. */
static void put_key(FILE *fp, uint64_t k, unsigned ksize)
{
	if (ksize <= 4)
		fprintf(fp, "0x%08" PRIX32, (uint32_t)k);
	else
		fprintf(fp, "0x%016" PRIX64, k);
}

/* One section; signals (sig != 0) have the signal in decimal before the
 * object's key. */
static void section(FILE *fp, const char *head, const struct qs_map *m, unsigned ksize, int sig, int *fail)
{
	const struct qs_map_ent **v = sorted(m, fail);
	fprintf(fp, "%s\n%u\n", head, ksize);
	for (size_t i = 0; v && i < m->n; i++) {
		if (sig) {
			fprintf(fp, "%08" PRIu32 " ", (uint32_t)v[i]->k1);
			put_key(fp, v[i]->k2, ksize);
		} else {
			put_key(fp, v[i]->k1, ksize);
		}
		fprintf(fp, " %s\n", v[i]->name);
	}
	fputs("***\n", fp);
	free(v);
}

static int say(struct qs_dec *d, char *msg, size_t cap, int rc, const char *fmt, const char *arg)
{
	char text[600];
	snprintf(text, sizeof(text), fmt, arg);
	qs_notice(d, text);
	snprintf(msg, cap, "%s", text);
	return rc;
}

int qs_dic_write(struct qs_dec *d, const char *dir, char *msg, size_t cap)
{
	/* QSPY names the file after the build time and refuses without one */
	if (!d->have_ti || d->ti[d->ti_len - 1] == 0)
		return say(d, msg, cap, -1, "%s", "Dictionaries NOT saved (no target info)");
	char path[512];
	int n = dir && strcmp(dir, ".") != 0 ? snprintf(path, sizeof(path), "%s/qspy%s.dic", dir, d->build)
					      : snprintf(path, sizeof(path), "qspy%s.dic", d->build);
	if (n < 0 || (size_t)n >= sizeof(path))
		return say(d, msg, cap, -1, "Cannot save dictionaries to File=%s (name too long)", dir);
	FILE *fp = fopen(path, "w");
	if (!fp)
		return say(d, msg, cap, -1, "Cannot save dictionaries to File=%s", path);
	const struct qs_sizes *z = &d->sz;
	fprintf(fp, "-v%03u\n-T%u\n-O%u\n-F%u\n-S%u\n-E%u\n-Q%u\n-P%u\n-B%u\n-C%u\n-t%s\n\n", d->version, z->ts,
		z->obj, z->fun, z->sig, z->evt, z->eqc, z->mpc, z->mps, z->tec, d->build);
	int fail = 0;
	section(fp, "Obj-Dic:", &d->dict.obj, d->key_obj, 0, &fail);
	section(fp, "Fun-Dic:", &d->dict.fun, d->key_fun, 0, &fail);
	section(fp, "Usr-Dic:", &d->dict.usr, 1, 0, &fail);
	section(fp, "Sig-Dic:", &d->dict.sig, d->key_sig, 1, &fail);
	if (ferror(fp))
		fail = 1;
	if (fclose(fp) != 0 || fail)
		return say(d, msg, cap, -1, "Cannot save dictionaries to File=%s (write error)", path);
	return say(d, msg, cap, 0, "Dictionaries saved to File=%s", path);
}
