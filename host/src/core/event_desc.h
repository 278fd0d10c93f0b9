/*
 * event_desc.h -- names and field labels of the event model, shared by every
 * sink that prints events as text (text, JSONL, CSV) and by the statistics,
 * so that all outputs call the same field the same thing.
 */
#ifndef SONDE_EVENT_DESC_H
#define SONDE_EVENT_DESC_H

#include "event.h"
#include "pipeline.h"

/* Which fields of struct sonde_event an event kind uses, and their names in
 * the outputs (NULL = not used by this kind). */
struct sonde_ev_desc {
	const char *name;      /* "isr_enter" */
	const char *obj_key;   /* "isr": obj (+ obj_name) */
	const char *obj2_key;  /* "reason": obj2 (+ obj2_name) */
	const char *value_key; /* "depth": value */
	const char *text_key;  /* "msg": text */
	int has_level;         /* level is meaningful */
	const char *ref_key;   /* "task": ref (+ ref_name) when SONDE_EVF_REF (JSONL) */
};

/* Descriptor of a kind; an out-of-range kind gets a neutral descriptor. */
const struct sonde_ev_desc *sonde_ev_desc(enum sonde_ev_kind kind);

/* "u8", "str", ... ("?" when unknown). */
const char *sonde_arg_type_name(enum sonde_arg_type t);

/* "bad-checksum", "seq-gap", ... ("other" when unknown). */
const char *sonde_diag_name(enum sonde_diag_code c);

/* "error", "warn", "info", "debug", "trace", NULL for other levels. */
const char *sonde_level_name(uint32_t level);

/* Diagnostic codes whose count is in bytes the framer threw away (as
 * opposed to frames): the "resyncs" of the statistics. */
int sonde_diag_is_discard(enum sonde_diag_code c);

#endif /* SONDE_EVENT_DESC_H */
