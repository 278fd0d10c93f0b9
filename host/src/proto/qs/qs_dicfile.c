/*
 * qs_dicfile.c -- reads the dictionary files QSPY writes (-d, key 'd').
 *
 * Layout: a header of option lines ("-v740", "-T4" .. "-C4", "-t<build>"),
 * a blank line, then sections "Obj-Dic:", "Fun-Dic:", "Usr-Dic:", "Sig-Dic:",
 * each a line with the key size, entries sorted by key, and a "***" line.
 * Entries: "0x08052138 l_clock_tick" (objects, functions, user records) and
 * "00000004 0x00000000 EAT_SIG" (signal in decimal, object, name).  QSPY
 * parses the entries by column; this reader splits at the first blank after
 * each key instead, which reads the same files and also hand-edited ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qs.h"
#include "qs_seq.h"

enum section { SEC_HEADER, SEC_OBJ, SEC_FUN, SEC_USR, SEC_SIG, SEC_NONE };

struct dic_parse {
	struct qs_dec *d;
	int check;           /* compare the header's sizes with the target's */
	int mismatch;
	struct qs_sizes sz;  /* sizes from the header */
	unsigned version;
	enum section sec;
	int want_keysize;    /* the next line is the section's key size */
	unsigned line_no;
	unsigned errors;
	int store;           /* 0: first pass (header only), 1: store entries */
};

static void bad_line(struct dic_parse *p, const char *why)
{
	if (p->store && p->errors++ < 5)
		qs_diag(p->d, SONDE_D_OTHER, 0, 0, "%s:%u: %s", p->d->dic_path ? p->d->dic_path : "qs.dic",
			p->line_no, why);
}

/* Parse an unsigned number at *s (base 0: 0x.. hex or decimal, leading
 * zeros of a decimal allowed), then skip exactly one blank. */
static int number(const char **s, int base, uint64_t *v)
{
	char *end;
	if (!(**s >= '0' && **s <= '9'))
		return -1;
	*v = strtoull(*s, &end, base);
	if (end == *s || (*end != ' ' && *end != '\t'))
		return -1;
	*s = end + 1;
	return 0;
}

static void header_line(struct dic_parse *p, const char *s, size_t n)
{
	if (n < 2 || s[0] != '-')
		return bad_line(p, "unknown header line");
	char letter = s[1];
	if (letter == 't')
		return; /* target build time: informational */
	char *end;
	unsigned long v = strtoul(s + 2, &end, 10);
	if (end != s + n)
		return bad_line(p, "bad number in header");
	if (letter == 'v') {
		p->version = (unsigned)v;
		return;
	}
	if (qs_set_size(&p->sz, letter, (unsigned)v) != 0)
		bad_line(p, "unknown or invalid size option");
}

static void entry_line(struct dic_parse *p, const char *s, size_t n)
{
	char tmp[64 + QS_NAME_MAX];
	if (n >= sizeof(tmp))
		n = sizeof(tmp) - 1; /* longer names are cut by the dictionary anyway */
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	const char *c = tmp;
	uint64_t k1, k2 = 0;
	if (p->sec == SEC_SIG) {
		if (number(&c, 10, &k1) != 0 || number(&c, 16, &k2) != 0)
			return bad_line(p, "expected: <signal> 0x<object> <name>");
	} else if (number(&c, 16, &k1) != 0) {
		return bad_line(p, "expected: 0x<key> <name>");
	}
	if (!*c)
		return bad_line(p, "missing name");
	if (!p->store)
		return;
	struct qs_dicts *dict = &p->d->dict;
	struct qs_map *m = p->sec == SEC_OBJ ? &dict->obj : p->sec == SEC_FUN ? &dict->fun :
			   p->sec == SEC_USR ? &dict->usr : &dict->sig;
	if (qs_map_put(m, k1, k2, c, strlen(c)) != 0)
		bad_line(p, "dictionary full");
	else if (p->sec == SEC_OBJ && p->d->seq)
		qs_seq_object(p->d->seq, k1, c, strlen(c));
}

static void dic_line(struct dic_parse *p, const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	static const struct { const char *head; enum section sec; } heads[] = {
		{ "Obj-Dic:", SEC_OBJ }, { "Fun-Dic:", SEC_FUN },
		{ "Usr-Dic:", SEC_USR }, { "Sig-Dic:", SEC_SIG },
	};
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		if (n == strlen(heads[i].head) && memcmp(s, heads[i].head, n) == 0) {
			p->sec = heads[i].sec;
			p->want_keysize = 1;
			/* QSPY gives the sequence diagram's lanes the file's objects only */
			if (p->sec == SEC_OBJ && p->store && p->d->seq)
				qs_seq_forget(p->d->seq, 0);
			return;
		}
	}
	if (n == 0) {
		if (p->sec == SEC_HEADER)
			p->sec = SEC_NONE;
		return;
	}
	if (p->sec == SEC_HEADER)
		return header_line(p, s, n);
	if (p->sec == SEC_NONE)
		return bad_line(p, "line outside a section");
	if (p->want_keysize) { /* the section's key size: how QSPY prints keys it lacks */
		p->want_keysize = 0;
		unsigned long k = strtoul(s, NULL, 10);
		if (p->store && k >= 1 && k <= 8) {
			if (p->sec == SEC_OBJ)
				p->d->key_obj = (uint8_t)k;
			else if (p->sec == SEC_FUN)
				p->d->key_fun = (uint8_t)k;
			else if (p->sec == SEC_SIG)
				p->d->key_sig = (uint8_t)k;
		}
		return;
	}
	if (n == 3 && memcmp(s, "***", 3) == 0) {
		p->sec = SEC_NONE;
		return;
	}
	entry_line(p, s, n);
}

static void dic_pass(struct dic_parse *p, const char *text, size_t len)
{
	p->sec = SEC_HEADER;
	p->want_keysize = 0;
	p->line_no = 0;
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		p->line_no++;
		dic_line(p, text + i, n);
		i += n + 1;
	}
}

int qs_dicfile_load(struct qs_dec *d, const char *text, size_t len, int check_sizes)
{
	struct dic_parse p = { .d = d, .check = check_sizes, .sz = d->sz };
	dic_pass(&p, text, len); /* header: sizes */
	if (check_sizes && memcmp(&p.sz, &d->sz, sizeof(p.sz)) != 0) {
		qs_diag(d, SONDE_D_OTHER, 0, 0, "Dictionaries mismatch the Target (discarded)");
		return -1;
	}
	qs_use_sizes(d, &p.sz);
	if (!check_sizes && p.version)
		d->dic_version = p.version;
	p.store = 1;
	dic_pass(&p, text, len);
	return 0;
}

void qs_reset_dicts(struct qs_dec *d)
{
	qs_dicts_clear(&d->dict);
	d->n_aos = 0;
	/* QSPY pre-seeds this entry for QUTest */
	qs_map_put(&d->dict.usr, 124, 0, "QUTEST_ON_POST", 14);
	if (d->seq)
		qs_seq_forget(d->seq, 1);
	if (d->dic_text)
		qs_dic_reload(d);
}

void qs_dic_reload(struct qs_dec *d)
{
	char msg[300];
	snprintf(msg, sizeof(msg), "Reading dictionaries from File=%s", d->dic_path ? d->dic_path : "?");
	qs_notice(d, msg);
	/* before any TARGET_INFO the file's header sets the sizes; after one,
	 * it must agree with them */
	qs_dicfile_load(d, d->dic_text, d->dic_len, d->have_ti);
}
