/*
 * pipe_choose.c -- which decoder reads an input: the one named, or, for
 * `--proto auto`, the one whose probe scores the input's first bytes
 * highest, by a margin (docs/cli.md, "Protocol detection").  Apart from
 * pipe.c because the hint after a wrong --proto (pipe_hint.c) asks the
 * same question, and pipe.c asks for that hint: both call this file, and
 * this file calls neither.  The decoders to choose from are the caller's
 * list (the generated registry, sonde_decoders, is a layer up: the core
 * must not reach it).
 */
#include <stdio.h>
#include <string.h>

#include "pipe.h"

/* The decoder of that name in list, or NULL. */
static const struct sonde_decoder_ops *find(const struct sonde_decoder_ops *const *list, const char *name)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(list[i]->name, name) == 0)
			return list[i];
	return NULL;
}

/* Append to a bounded message buffer. */
static void why_add(char *why, size_t whylen, const char *fmt_name, int score, int first)
{
	size_t k = strlen(why);
	if (k < whylen)
		snprintf(why + k, whylen - k, "%s%s %d", first ? "" : ", ", fmt_name, score);
}

const struct sonde_decoder_ops *sonde_pipe_choose(const struct sonde_decoder_ops *const *list, const char *proto,
						  const uint8_t *head, size_t n, char *why, size_t whylen)
{
	static const struct sonde_decoder_ops *const none[] = { NULL };
	if (!list)
		list = none;
	if (whylen)
		why[0] = '\0';
	if (proto && strcmp(proto, "auto") != 0) {
		const struct sonde_decoder_ops *d = find(list, proto);
		if (!d) {
			snprintf(why, whylen, "unknown protocol '%s' (known:", proto);
			for (size_t i = 0; list[i]; i++) {
				size_t k = strlen(why);
				snprintf(why + k, whylen - k, " %s", list[i]->name);
			}
			size_t k = strlen(why);
			snprintf(why + k, whylen - k, ", or auto)");
		}
		return d;
	}
	if (!list[0]) {
		snprintf(why, whylen, "no decoder is built in");
		return NULL;
	}
	if (n == 0) { /* empty input: any decoder reports nothing; prefer our own */
		const struct sonde_decoder_ops *d = find(list, "sonde");
		return d ? d : list[0];
	}
	const struct sonde_decoder_ops *best = NULL, *second = NULL;
	int best_score = 0, second_score = 0;
	for (size_t i = 0; list[i]; i++) {
		const struct sonde_decoder_ops *d = list[i];
		int s = d->probe ? d->probe(head, n) : 0;
		if (s < 0)
			s = 0;
		if (s > 100)
			s = 100;
		if (!best || s > best_score) {
			second = best;
			second_score = best_score;
			best = d;
			best_score = s;
		} else if (!second || s > second_score) {
			second = d;
			second_score = s;
		}
	}
	if (best_score < SONDE_PROBE_MIN_SCORE) {
		snprintf(why, whylen, "cannot tell the protocol: no decoder recognises the first %zu bytes (scores: ",
			 n);
		for (size_t i = 0; list[i]; i++)
			why_add(why, whylen, list[i]->name,
				list[i]->probe ? list[i]->probe(head, n) : 0, i == 0);
		size_t k = strlen(why);
		snprintf(why + k, whylen - k, "); use --proto NAME");
		return NULL;
	}
	if (second && second_score + SONDE_PROBE_MARGIN > best_score) {
		snprintf(why, whylen,
			 "cannot tell the protocol: ambiguous between %s (%d) and %s (%d); use --proto NAME",
			 best->name, best_score, second->name, second_score);
		return NULL;
	}
	return best;
}
