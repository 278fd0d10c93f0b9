/*
 * event_desc.c -- the tables behind event_desc.h.
 */
#include "event_desc.h"

/* Columns: name, obj_key, obj2_key, value_key, text_key, has_level, ref_key
 * (struct sonde_ev_desc). */
static const struct sonde_ev_desc descs[SONDE_EV_KIND_COUNT] = {
	[SONDE_EV_INFO]        = { "info",        NULL,      NULL,     NULL,                NULL,   0, NULL },
	[SONDE_EV_DICT]        = { "dict",        "id",      "dict_kind", NULL,             "name", 0, NULL },
	[SONDE_EV_TIME_SYNC]   = { "time_sync",   NULL,      NULL,     NULL,                NULL,   0, NULL },
	[SONDE_EV_DROPS]       = { "drops",       NULL,      "refused_total", "overwritten_total", NULL, 0, NULL },
	[SONDE_EV_ISR_ENTER]   = { "isr_enter",   "isr",     NULL,     "depth",             NULL,   0, NULL },
	[SONDE_EV_ISR_EXIT]    = { "isr_exit",    "isr",     NULL,     "depth",             NULL,   0, NULL },
	[SONDE_EV_TASK_CREATE] = { "task_create", "task",    "prio",   NULL,                NULL,   0, NULL },
	[SONDE_EV_TASK_IN]     = { "task_in",     "task",    NULL,     NULL,                NULL,   0, NULL },
	[SONDE_EV_TASK_OUT]    = { "task_out",    "task",    "reason", NULL,                NULL,   0, NULL },
	[SONDE_EV_TASK_READY]  = { "task_ready",  "task",    NULL,     NULL,                NULL,   0, NULL },
	[SONDE_EV_IDLE]        = { "idle",        NULL,      NULL,     NULL,                NULL,   0, "task" },
	[SONDE_EV_MARK]        = { "mark",        "marker",  NULL,     NULL,                NULL,   0, NULL },
	[SONDE_EV_MARK_BEGIN]  = { "mark_begin",  "marker",  NULL,     NULL,                NULL,   0, NULL },
	[SONDE_EV_MARK_END]    = { "mark_end",    "marker",  NULL,     NULL,                NULL,   0, NULL },
	[SONDE_EV_COUNTER]     = { "counter",     "counter", NULL,     "value",             NULL,   0, NULL },
	[SONDE_EV_FUNC_ENTER]  = { "func_enter",  "func",    NULL,     "depth",             NULL,   0, NULL },
	[SONDE_EV_FUNC_EXIT]   = { "func_exit",   "func",    NULL,     "depth",             NULL,   0, NULL },
	[SONDE_EV_LOG]         = { "log",         NULL,      NULL,     NULL,                "msg",  1, NULL },
	[SONDE_EV_RECORD]      = { "record",      NULL,      NULL,     NULL,                "text", 0, NULL },
	[SONDE_EV_STATE]       = { "state",       "machine", "state",  NULL,                "text", 0, NULL },
	[SONDE_EV_QUEUE]       = { "queue",       "queue",   NULL,     "level",             NULL,   0, NULL },
	[SONDE_EV_OBJECT]      = { "object",      "object",  "type",   "capacity",          NULL,   0, NULL },
	[SONDE_EV_OBJ_OP]      = { "obj_op",      "object",  "type",   "value",             NULL,   0, NULL },
	[SONDE_EV_TASK_PRIO]   = { "task_prio",   "task",    "cause",  "prio",              NULL,   0, NULL },
};

static const struct sonde_ev_desc unknown_desc = { "unknown", "obj", "obj2", "value", "text", 0, NULL };

const struct sonde_ev_desc *sonde_ev_desc(enum sonde_ev_kind kind)
{
	if ((unsigned)kind >= SONDE_EV_KIND_COUNT || !descs[kind].name)
		return &unknown_desc;
	return &descs[kind];
}

const char *sonde_arg_type_name(enum sonde_arg_type t)
{
	static const char *const names[] = {
		"none", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64",
		"f32", "f64", "str", "mem", "obj", "func", "enum", "hex", "bool",
	};
	if ((unsigned)t >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[t];
}

const char *sonde_diag_name(enum sonde_diag_code c)
{
	static const char *const names[SONDE_D_COUNT] = {
		[SONDE_D_BAD_CHECKSUM] = "bad-checksum",
		[SONDE_D_SEQ_GAP] = "seq-gap",
		[SONDE_D_TOO_SHORT] = "too-short",
		[SONDE_D_TOO_LONG] = "too-long",
		[SONDE_D_ABORTED] = "aborted",
		[SONDE_D_GARBAGE] = "garbage",
		[SONDE_D_TRUNCATED] = "truncated",
		[SONDE_D_UNKNOWN_RECORD] = "unknown-record",
		[SONDE_D_MALFORMED] = "malformed",
		[SONDE_D_VERSION] = "version",
		[SONDE_D_TIME] = "time",
		[SONDE_D_OTHER] = "other",
	};
	if ((unsigned)c >= SONDE_D_COUNT || !names[c])
		return "other";
	return names[c];
}

const char *sonde_level_name(uint32_t level)
{
	static const char *const names[] = { NULL, "error", "warn", "info", "debug", "trace" };
	if (level >= sizeof(names) / sizeof(names[0]))
		return NULL;
	return names[level];
}

int sonde_diag_is_discard(enum sonde_diag_code c)
{
	switch (c) {
	case SONDE_D_BAD_CHECKSUM:
	case SONDE_D_TOO_SHORT:
	case SONDE_D_TOO_LONG:
	case SONDE_D_ABORTED:
	case SONDE_D_GARBAGE:
	case SONDE_D_TRUNCATED:
		return 1;
	default:
		return 0;
	}
}
