/*
 * sonde_fields.c -- field names from a user record's dictionary name
 * (sonde_fields.h).
 */
#include <string.h>

#include "sonde_fields.h"

static int field_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
	       c == '-';
}

/* "name(a,b,c)": fields are letters, digits, '_', '.', '-', separated by
 * commas with optional blanks; anything else and the name is taken whole. */
static void parse(struct sfields *f, const char *name)
{
	size_t len = strlen(name);
	const char *open = strchr(name, '(');
	char *o = f->buf;

	f->n = 0;
	memcpy(f->buf, name, len + 1);
	if (!open || open == name || len < 3 || name[len - 1] != ')')
		return;
	size_t base = (size_t)(open - name);
	while (base && f->buf[base - 1] == ' ')
		base--;
	o[base] = '\0';
	o = f->buf + (open - name) + 1;
	const char *p = open + 1, *end = name + len - 1;
	size_t n = 0;
	while (p < end && n < SFIELDS_MAX) {
		while (p < end && *p == ' ')
			p++;
		const char *s = p;
		while (p < end && field_char(*p))
			p++;
		const char *e = p;
		while (p < end && *p == ' ')
			p++;
		if (e == s || (p < end && *p != ','))
			goto whole;
		memmove(o, s, (size_t)(e - s));
		o[e - s] = '\0';
		f->field[n++] = o;
		o += (e - s) + 1;
		if (p == end)
			break;
		p++; /* the comma: a field must follow */
		if (p == end)
			goto whole;
	}
	if (p < end)
		goto whole; /* more fields than arguments can have, or a trailing comma */
	f->n = n;
	return;
whole:
	memcpy(f->buf, name, len + 1);
	f->n = 0;
}

const char *sfields_name(struct sfields *f, const char *name)
{
	if (strlen(name) >= SFIELDS_TEXT_MAX)
		return name; /* cannot come from the wire; taken whole */
	if (!f->valid || strcmp(f->src, name) != 0) {
		strcpy(f->src, name);
		parse(f, name);
		f->valid = 1;
	}
	return f->buf;
}

void sfields_apply(const struct sfields *f, struct sonde_arg *args, size_t n)
{
	for (size_t i = 0; i < n && i < f->n; i++)
		if (!args[i].name)
			args[i].name = f->field[i];
}
