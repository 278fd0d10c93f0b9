/*
 * syst_coll.c -- read SyS-T collateral XML with expat and look things up.
 *
 * Elements are recognised in the SyS-T namespace (whatever its prefix) or
 * without a namespace; the reference printer matches the literal "syst:"
 * prefix instead.  Lookups of exact ids (the usual case: catalogs with
 * thousands of formats) are binary searches; masked entries are scanned in
 * file order, and the earlier of the two candidates wins.
 */
#include "syst_coll.h"

#include <errno.h>
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYST_NS "http://www.mipi.org/1.0/sys-t"
#define NS_SEP '|'
#define TEXT_MAX 65536u /* longest element text kept */

struct table {
	struct syst_entry *e;  /* file order */
	size_t n, cap;
	size_t *exact;         /* indices with a full mask, sorted by id */
	size_t nexact;
	size_t *masked;        /* indices with a partial mask, file order */
	size_t nmasked;
};

struct guid_ent {
	uint8_t id[16], mask[16];
};

enum { T_FILES, T_CAT32, T_CAT64, T_SHORT32, T_SHORT64, T_WRITE, T_COUNT };

struct syst_client {
	char *name;
	struct guid_ent *guids;
	size_t nguids, capguids;
	struct table t[T_COUNT];
};

struct syst_coll {
	struct syst_client *cl;
	size_t n, cap;
};

/* ---------------------------------------------------------------- GUIDs */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int syst_guid_parse(const char *s, uint8_t *guid)
{
	static const int dash_after[] = { 4, 6, 8, 10 }; /* bytes before each '-' */
	size_t k = 0, d = 0;
	int braced = *s == '{';
	if (braced)
		s++;
	while (k < 16) {
		if (d < 4 && k == (size_t)dash_after[d]) {
			if (*s != '-')
				return -1;
			s++;
			d++;
		}
		int hi = hexval((unsigned char)s[0]), lo = hi < 0 ? -1 : hexval((unsigned char)s[1]);
		if (hi < 0 || lo < 0)
			return -1;
		guid[k++] = (uint8_t)(hi << 4 | lo);
		s += 2;
	}
	if (braced && *s++ != '}')
		return -1;
	return *s ? -1 : 0;
}

void syst_guid_format(const uint8_t *g, char *out)
{
	/* by hand: it runs for every message whose origin has no collateral */
	static const char hex[] = "0123456789abcdef";
	char *o = out;
	*o++ = '{';
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*o++ = '-';
		*o++ = hex[g[i] >> 4];
		*o++ = hex[g[i] & 15];
	}
	*o++ = '}';
	*o = '\0';
}

/* --------------------------------------------------------------- tables */

static int cmp_exact(const void *a, const void *b, void *arg)
{
	const struct syst_entry *e = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (e[x].id != e[y].id)
		return e[x].id < e[y].id ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A later duplicate replaces the text (and location) of the first; the
 * texts are swapped so that each is still owned by exactly one entry. */
static void take_over(struct syst_entry *first, struct syst_entry *later)
{
	const char *text = first->text;
	size_t text_len = first->text_len;
	first->text = later->text;
	first->text_len = later->text_len;
	later->text = text;
	later->text_len = text_len;
	first->has_loc = later->has_loc;
	first->file = later->file;
	first->line = later->line;
}

static int table_finish(struct table *t)
{
	size_t *idx = malloc((t->n ? t->n : 1) * 2 * sizeof(*idx));
	if (!idx)
		return -1;
	t->exact = idx;
	t->masked = idx + t->n;
	t->nexact = t->nmasked = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (t->e[i].mask == UINT64_MAX) {
			t->exact[t->nexact++] = i;
			continue;
		}
		size_t j;
		for (j = 0; j < t->nmasked; j++) {
			struct syst_entry *m = &t->e[t->masked[j]];
			/* same mask, same masked id: they match the same keys */
			if (m->mask == t->e[i].mask && ((m->id ^ t->e[i].id) & m->mask) == 0)
				break;
		}
		if (j < t->nmasked)
			take_over(&t->e[t->masked[j]], &t->e[i]);
		else
			t->masked[t->nmasked++] = i;
	}
	qsort_r(t->exact, t->nexact, sizeof(*t->exact), cmp_exact, t->e);
	size_t out = 0;
	for (size_t i = 0; i < t->nexact; i++) {
		if (out && t->e[t->exact[out - 1]].id == t->e[t->exact[i]].id)
			take_over(&t->e[t->exact[out - 1]], &t->e[t->exact[i]]);
		else
			t->exact[out++] = t->exact[i];
	}
	t->nexact = out;
	return 0;
}

static const struct syst_entry *table_find(const struct table *t, uint64_t key)
{
	size_t best = SIZE_MAX, lo = 0, hi = t->nexact;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t id = t->e[t->exact[mid]].id;
		if (id == key) {
			best = t->exact[mid];
			break;
		}
		if (id < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t j = 0; j < t->nmasked && t->masked[j] < best; j++) {
		const struct syst_entry *e = &t->e[t->masked[j]];
		if (((e->id ^ key) & e->mask) == 0) {
			best = t->masked[j];
			break;
		}
	}
	return best == SIZE_MAX ? NULL : &t->e[best];
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free((char *)t->e[i].text);
	free(t->e);
	free(t->exact);
}

/* -------------------------------------------------------------- parsing */

struct pstate {
	XML_Parser xp;
	struct syst_coll *c;
	const char *name;
	syst_coll_warn_fn warn;
	void *ctx;
	int depth;
	int client_depth;  /* depth of the open Client element, 0 if none */
	int table_depth;
	int table;         /* T_*, T_COUNT for Guids, -1 for an ignored table */
	int entry_depth;   /* depth of the open entry element, 0 if none */
	struct syst_entry ent;
	int ent_ok;
	int ent_has_guid_mask;
	uint8_t ent_guid[16], ent_guid_mask[16];
	char *text;
	size_t tlen, tcap;
	int oom;
};

#define T_GUIDS T_COUNT

/* Byte offset of what expat is looking at, for messages.  Expat says -1 when
 * it has no position (an empty file: "no element found" at offset 0). */
static uint64_t byte_at(XML_Parser xp)
{
	XML_Index i = XML_GetCurrentByteIndex(xp);
	return i < 0 ? 0 : (uint64_t)i;
}

static void warnf(struct pstate *ps, const char *fmt, const char *arg)
{
	char msg[256];
	snprintf(msg, sizeof(msg), "collateral %s line %lu: ", ps->name,
		 (unsigned long)XML_GetCurrentLineNumber(ps->xp));
	size_t l = strlen(msg);
	snprintf(msg + l, sizeof(msg) - l, fmt, arg);
	ps->warn(ps->ctx, byte_at(ps->xp), msg);
}

/* Local name of an element in the SyS-T namespace or in none; NULL else. */
static const char *local_name(const char *name)
{
	const char *sep = strchr(name, NS_SEP);
	if (!sep)
		return name;
	if ((size_t)(sep - name) == strlen(SYST_NS) && strncmp(name, SYST_NS, strlen(SYST_NS)) == 0)
		return sep + 1;
	return NULL;
}

static const char *attr(const char **atts, const char *key)
{
	for (size_t i = 0; atts[i]; i += 2)
		if (strcmp(atts[i], key) == 0)
			return atts[i + 1];
	return NULL;
}

/* "0x..." hexadecimal, else decimal; surrounding blanks allowed. */
static int parse_num(const char *s, uint64_t *v)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	int base = 10;
	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	}
	if (hexval((unsigned char)*s) < 0 || (base == 10 && (*s < '0' || *s > '9')))
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, base);
	if (errno)
		return -1;
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (*end)
		return -1;
	*v = x;
	return 0;
}

static int table_of(const char *n)
{
	static const char *const names[] = {
		[T_FILES] = "SourceFiles", [T_CAT32] = "Catalog32", [T_CAT64] = "Catalog64",
		[T_SHORT32] = "Short32", [T_SHORT64] = "Short64", [T_WRITE] = "Write",
	};
	for (int i = 0; i < T_COUNT; i++)
		if (strcmp(n, names[i]) == 0)
			return i;
	if (strcmp(n, "Guids") == 0)
		return T_GUIDS;
	return -1; /* Builds, Options, Modules: not used for decoding */
}

static const char *entry_name(int table)
{
	switch (table) {
	case T_GUIDS: return "Guid";
	case T_FILES: return "File";
	case T_WRITE: return "Protocol";
	default: return "Format";
	}
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *np = realloc(p, ncap * size);
	if (np)
		*cap = ncap;
	return np;
}

static void start_entry(struct pstate *ps, const char **atts)
{
	const char *id = attr(atts, "ID"), *mask = attr(atts, "Mask");
	const char *file = attr(atts, "File"), *line = attr(atts, "Line");
	memset(&ps->ent, 0, sizeof(ps->ent));
	ps->ent.mask = UINT64_MAX;
	ps->ent_ok = 1;
	ps->ent_has_guid_mask = 0;
	ps->tlen = 0;
	if (ps->table == T_GUIDS) {
		memset(ps->ent_guid_mask, 0xFF, 16);
		if (!id || syst_guid_parse(id, ps->ent_guid) != 0) {
			warnf(ps, "Guid with a missing or malformed ID \"%s\" skipped", id ? id : "");
			ps->ent_ok = 0;
		} else if (mask && syst_guid_parse(mask, ps->ent_guid_mask) != 0) {
			warnf(ps, "Guid with a malformed Mask \"%s\" skipped", mask);
			ps->ent_ok = 0;
		}
		return;
	}
	if (!id || parse_num(id, &ps->ent.id) != 0) {
		warnf(ps, "entry with a missing or malformed ID \"%s\" skipped", id ? id : "");
		ps->ent_ok = 0;
		return;
	}
	if (mask && parse_num(mask, &ps->ent.mask) != 0) {
		warnf(ps, "entry with a malformed Mask \"%s\" skipped", mask);
		ps->ent_ok = 0;
		return;
	}
	if (file && line) {
		uint64_t f, l;
		if (parse_num(file, &f) != 0 || parse_num(line, &l) != 0 ||
		    f > UINT32_MAX || l > UINT32_MAX) {
			warnf(ps, "malformed File/Line attributes of ID %s ignored", id);
		} else {
			ps->ent.has_loc = 1;
			ps->ent.file = (uint32_t)f;
			ps->ent.line = (uint32_t)l;
		}
	}
}

static void end_entry(struct pstate *ps)
{
	struct syst_client *cl = &ps->c->cl[ps->c->n - 1];
	if (!ps->ent_ok)
		return;
	if (ps->table == T_GUIDS) {
		struct guid_ent *gs = grow(cl->guids, &cl->capguids, cl->nguids + 1, sizeof(*gs));
		if (!gs) {
			ps->oom = 1;
			return;
		}
		cl->guids = gs;
		struct guid_ent *g = &cl->guids[cl->nguids++];
		memcpy(g->id, ps->ent_guid, 16);
		memcpy(g->mask, ps->ent_guid_mask, 16);
		return;
	}
	struct table *t = &cl->t[ps->table];
	struct syst_entry *e = grow(t->e, &t->cap, t->n + 1, sizeof(*t->e));
	char *text = malloc(ps->tlen + 1);
	if (!e || !text) {
		if (e)
			t->e = e;
		free(text);
		ps->oom = 1;
		return;
	}
	t->e = e;
	memcpy(text, ps->text ? ps->text : "", ps->tlen);
	text[ps->tlen] = '\0';
	ps->ent.text = text;
	ps->ent.text_len = strlen(text);
	t->e[t->n++] = ps->ent;
}

static void XMLCALL on_start(void *ud, const char *name, const char **atts)
{
	struct pstate *ps = ud;
	const char *n = local_name(name);
	ps->depth++;
	if (!n || ps->oom)
		return;
	if (!ps->client_depth) {
		if (strcmp(n, "Client") != 0)
			return;
		struct syst_coll *c = ps->c;
		struct syst_client *cl = grow(c->cl, &c->cap, c->n + 1, sizeof(*c->cl));
		if (!cl) {
			ps->oom = 1;
			return;
		}
		c->cl = cl;
		memset(&cl[c->n], 0, sizeof(cl[c->n]));
		const char *cname = attr(atts, "Name");
		cl[c->n].name = strdup(cname ? cname : "");
		c->n++;
		if (!cl[c->n - 1].name)
			ps->oom = 1;
		ps->client_depth = ps->depth;
		ps->table_depth = 0;
	} else if (!ps->table_depth) {
		if (ps->depth != ps->client_depth + 1)
			return;
		ps->table_depth = ps->depth;
		ps->table = table_of(n);
	} else if (!ps->entry_depth && ps->table >= 0 && ps->depth == ps->table_depth + 1 &&
		   strcmp(n, entry_name(ps->table)) == 0) {
		ps->entry_depth = ps->depth;
		start_entry(ps, atts);
	}
}

static void XMLCALL on_end(void *ud, const char *name)
{
	struct pstate *ps = ud;
	(void)name;
	if (ps->entry_depth == ps->depth) {
		if (!ps->oom)
			end_entry(ps);
		ps->entry_depth = 0;
	} else if (ps->table_depth == ps->depth) {
		ps->table_depth = 0;
	} else if (ps->client_depth == ps->depth) {
		ps->client_depth = 0;
	}
	ps->depth--;
}

static void XMLCALL on_text(void *ud, const char *s, int len)
{
	struct pstate *ps = ud;
	if (!ps->entry_depth || ps->oom || len <= 0)
		return;
	size_t n = (size_t)len;
	if (ps->tlen + n > TEXT_MAX) {
		if (ps->tlen < TEXT_MAX)
			warnf(ps, "element text longer than %s bytes truncated", "65536");
		n = ps->tlen < TEXT_MAX ? TEXT_MAX - ps->tlen : 0;
	}
	char *t = grow(ps->text, &ps->tcap, ps->tlen + n, 1);
	if (!t) {
		ps->oom = 1;
		return;
	}
	ps->text = t;
	memcpy(ps->text + ps->tlen, s, n);
	ps->tlen += n;
}

static int pstate_init(struct pstate *ps, const char *name, syst_coll_warn_fn warn, void *ctx)
{
	memset(ps, 0, sizeof(*ps));
	ps->name = name;
	ps->warn = warn;
	ps->ctx = ctx;
	ps->c = calloc(1, sizeof(*ps->c));
	ps->xp = XML_ParserCreateNS(NULL, NS_SEP);
	if (!ps->c || !ps->xp) {
		free(ps->c);
		if (ps->xp)
			XML_ParserFree(ps->xp);
		return -1;
	}
	XML_SetUserData(ps->xp, ps);
	XML_SetElementHandler(ps->xp, on_start, on_end);
	XML_SetCharacterDataHandler(ps->xp, on_text);
	return 0;
}

/* Parse one chunk; on error report it and return -1. */
static int pstate_feed(struct pstate *ps, const char *buf, size_t n, int final)
{
	do {
		int chunk = n > (1u << 30) ? (1 << 30) : (int)n;
		int last = final && (size_t)chunk == n;
		if (XML_Parse(ps->xp, buf, chunk, last) == XML_STATUS_ERROR) {
			char msg[256];
			snprintf(msg, sizeof(msg), "collateral %s:%lu:%lu: %s", ps->name,
				 (unsigned long)XML_GetCurrentLineNumber(ps->xp),
				 (unsigned long)XML_GetCurrentColumnNumber(ps->xp) + 1,
				 XML_ErrorString(XML_GetErrorCode(ps->xp)));
			ps->warn(ps->ctx, byte_at(ps->xp), msg);
			return -1;
		}
		buf += chunk;
		n -= (size_t)chunk;
	} while (n);
	if (ps->oom) {
		ps->warn(ps->ctx, byte_at(ps->xp), "collateral: out of memory");
		return -1;
	}
	return 0;
}

/* Finish: index the tables (or free everything on failure). */
static struct syst_coll *pstate_done(struct pstate *ps, int ok)
{
	struct syst_coll *c = ps->c;
	XML_ParserFree(ps->xp);
	free(ps->text);
	for (size_t i = 0; ok && i < c->n; i++)
		for (int t = 0; t < T_COUNT; t++)
			if (table_finish(&c->cl[i].t[t]) != 0)
				ok = 0;
	if (!ok) {
		syst_coll_free(c);
		return NULL;
	}
	return c;
}

struct syst_coll *syst_coll_parse(const char *xml, size_t n, const char *name,
				  syst_coll_warn_fn warn, void *ctx)
{
	struct pstate ps;
	if (pstate_init(&ps, name, warn, ctx) != 0) {
		warn(ctx, 0, "collateral: out of memory");
		return NULL;
	}
	return pstate_done(&ps, pstate_feed(&ps, xml, n, 1) == 0);
}

struct syst_coll *syst_coll_load(const char *path, syst_coll_warn_fn warn, void *ctx)
{
	char msg[512];
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(msg, sizeof(msg), "cannot open collateral %s: %s", path, strerror(errno));
		warn(ctx, 0, msg);
		return NULL;
	}
	struct pstate ps;
	if (pstate_init(&ps, path, warn, ctx) != 0) {
		fclose(f);
		warn(ctx, 0, "collateral: out of memory");
		return NULL;
	}
	char buf[16384];
	int ok = 1;
	for (;;) {
		size_t n = fread(buf, 1, sizeof(buf), f);
		int eof = n < sizeof(buf);
		if (eof && ferror(f)) {
			snprintf(msg, sizeof(msg), "cannot read collateral %s: %s", path, strerror(errno));
			warn(ctx, 0, msg);
			ok = 0;
			break;
		}
		if (pstate_feed(&ps, buf, n, eof) != 0) {
			ok = 0;
			break;
		}
		if (eof)
			break;
	}
	fclose(f);
	return pstate_done(&ps, ok);
}

void syst_coll_free(struct syst_coll *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->cl[i].name);
		free(c->cl[i].guids);
		for (int t = 0; t < T_COUNT; t++)
			table_free(&c->cl[i].t[t]);
	}
	free(c->cl);
	free(c);
}

/* -------------------------------------------------------------- lookups */

size_t syst_coll_nclients(const struct syst_coll *c)
{
	return c ? c->n : 0;
}

const struct syst_client *syst_coll_client(const struct syst_coll *c, const uint8_t *guid)
{
	for (size_t i = 0; c && i < c->n; i++) {
		const struct syst_client *cl = &c->cl[i];
		for (size_t g = 0; g < cl->nguids; g++) {
			const struct guid_ent *e = &cl->guids[g];
			size_t k;
			for (k = 0; k < 16; k++)
				if ((e->id[k] ^ guid[k]) & e->mask[k])
					break;
			if (k == 16)
				return cl;
		}
	}
	return NULL;
}

const char *syst_client_name(const struct syst_client *cl)
{
	return cl->name;
}

const char *syst_client_file(const struct syst_client *cl, uint64_t id)
{
	const struct syst_entry *e = table_find(&cl->t[T_FILES], id);
	return e ? e->text : NULL;
}

const struct syst_entry *syst_client_catalog(const struct syst_client *cl, int id64, uint64_t id)
{
	return table_find(&cl->t[id64 ? T_CAT64 : T_CAT32], id);
}

const struct syst_entry *syst_client_short(const struct syst_client *cl, int short64, uint64_t key)
{
	return table_find(&cl->t[short64 ? T_SHORT64 : T_SHORT32], key);
}

const struct syst_entry *syst_client_write(const struct syst_client *cl, unsigned proto)
{
	return table_find(&cl->t[T_WRITE], proto);
}
