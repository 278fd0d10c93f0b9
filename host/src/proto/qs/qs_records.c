/*
 * qs_records.c -- the predefined QS records (ids 1..99), one table row each.
 *
 * A row says how the payload is laid out (a string of field letters), how
 * QSPY 7.4 prints the record (a template), and how it maps onto the event
 * model.  One interpreter, decode_row(), reads the fields, renders the line,
 * builds the arguments and emits the event, so adding or fixing a record is
 * an edit of its row.  Records with a layout no row can express (target
 * info, peek data) have their own functions.
 *
 * Field letters (sizes from TARGET_INFO / options):
 *   O object pointer   F function pointer   S signal        E event size
 *   Q queue counter    P pool counter       C time-event counter
 *   1 2 4 fixed-size unsigned integers      Z NUL-terminated string
 *
 * Template conversions: qs_render.h.
 * The tag is a template too ("TE{u4}-Arm") and is padded to 8 characters.
 *
 * Lines marked "(confirmed)" in docs/proto-qs.md were checked against QSPY
 * 7.4.0 output; the others follow the notes' field lists by analogy.
 */
#include <stdio.h>
#include <string.h>

#include "qs.h"
#include "qs_render.h"
#include "qs_seq.h"
#include "sonde_proto.h"

enum qs_pfx {
	PFX_NONE, /* no timestamp: 11 blanks */
	PFX_TS,   /* payload starts with a timestamp */
	PFX_RTC   /* no timestamp, state-machine step: "===RTC===> " */
};

enum qs_hook { HK_NONE, HK_OBJ_DICT, HK_FUN_DICT, HK_SIG_DICT, HK_USR_DICT, HK_ENUM_DICT };

struct qs_row {
	const char *name;   /* QS name, used in error lines; NULL = no such record */
	uint8_t pfx;        /* enum qs_pfx */
	const char *tag;    /* tag template */
	const char *fields; /* field letters */
	const char *arg[QS_MAX_FIELDS]; /* argument names, one per field */
	const char *line;   /* detail template */
	uint8_t kind;       /* enum sonde_ev_kind */
	int8_t obj, obj2, value, ao; /* field indexes (-1: none); ao = object to announce as a task */
	const char *text;   /* STATE: what happened */
	uint8_t hook;       /* enum qs_hook */
};

#define NO -1

/* Rows beyond the record ids: QS_QUERY_DATA by query kind, the error
 * status of QS_RX_STATUS, record 81 of QS 8.x. */
enum { ROW_QUERY = 100, ROW_RX_ERROR = ROW_QUERY + 7, ROW_DEFER_8X, QS_NROWS };

/* Ids 0..99.  Missing rows (43, 44, 82..99) are unknown records. */
static const struct qs_row rows[QS_NROWS] = {
	[1] = { .name = "QS_QEP_STATE_ENTRY", .pfx = PFX_RTC, .tag = "St-Entry", .fields = "OF", .arg = { "sm", "state" },
		.line = "Obj={o0},State={f1}",
		.kind = SONDE_EV_STATE, .obj = 0, .obj2 = 1, .value = NO, .ao = NO, .text = "entry" },
	[2] = { .name = "QS_QEP_STATE_EXIT", .pfx = PFX_RTC, .tag = "St-Exit", .fields = "OF", .arg = { "sm", "state" },
		.line = "Obj={o0},State={f1}",
		.kind = SONDE_EV_STATE, .obj = 0, .obj2 = 1, .value = NO, .ao = NO, .text = "exit" },
	[3] = { .name = "QS_QEP_STATE_INIT", .pfx = PFX_RTC, .tag = "St-Init", .fields = "OFF", .arg = { "sm", "source", "target" },
		.line = "Obj={o0},State={f1}->{f2}",
		.kind = SONDE_EV_STATE, .obj = 0, .obj2 = 2, .value = NO, .ao = NO, .text = "init" },
	[4] = { .name = "QS_QEP_INIT_TRAN", .pfx = PFX_TS, .tag = "Init===>", .fields = "OF", .arg = { "sm", "state" },
		.line = "Obj={o0},State={f1}",
		.kind = SONDE_EV_STATE, .obj = 0, .obj2 = 1, .value = NO, .ao = NO, .text = "init-tran" },
	[5] = { .name = "QS_QEP_INTERN_TRAN", .pfx = PFX_TS, .tag = "=>Intern", .fields = "SOF", .arg = { "sig", "sm", "state" },
		.line = "Obj={o1},Sig={s0:1},State={f2}",
		.kind = SONDE_EV_STATE, .obj = 1, .obj2 = 2, .value = NO, .ao = NO, .text = "intern" },
	[6] = { .name = "QS_QEP_TRAN", .pfx = PFX_TS, .tag = "===>Tran", .fields = "SOFF", .arg = { "sig", "sm", "source", "target" },
		.line = "Obj={o1},Sig={s0:1},State={f2}->{f3}",
		.kind = SONDE_EV_STATE, .obj = 1, .obj2 = 3, .value = NO, .ao = NO, .text = "tran" },
	[7] = { .name = "QS_QEP_IGNORED", .pfx = PFX_TS, .tag = "=>Ignore", .fields = "SOF", .arg = { "sig", "sm", "state" },
		.line = "Obj={o1},Sig={s0:1},State={f2}",
		.kind = SONDE_EV_STATE, .obj = 1, .obj2 = 2, .value = NO, .ao = NO, .text = "ignored" },
	[8] = { .name = "QS_QEP_DISPATCH", .pfx = PFX_TS, .tag = "Disp===>", .fields = "SOF", .arg = { "sig", "sm", "state" },
		.line = "Obj={o1},Sig={s0:1},State={f2}",
		.kind = SONDE_EV_STATE, .obj = 1, .obj2 = 2, .value = NO, .ao = NO, .text = "dispatch" },
	[9] = { .name = "QS_QEP_UNHANDLED", .pfx = PFX_RTC, .tag = "St-Unhnd", .fields = "SOF", .arg = { "sig", "sm", "state" },
		.line = "Obj={o1},Sig={s0:1},State={f2}",
		.kind = SONDE_EV_STATE, .obj = 1, .obj2 = 2, .value = NO, .ao = NO, .text = "unhandled" },
	[10] = { .name = "QS_QF_ACTIVE_DEFER", .pfx = PFX_TS, .tag = "AO-Defer", .fields = "OOS11", .arg = { "ao", "queue", "sig", "pool", "ref" },
		.line = "Obj={o0},Que={o1},Evt<Sig={s2:0},Pool={u3},Ref={u4}>",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 1, .value = NO, .ao = 0 },
	[11] = { .name = "QS_QF_ACTIVE_RECALL", .pfx = PFX_TS, .tag = "AO-RCall", .fields = "OOS11", .arg = { "ao", "queue", "sig", "pool", "ref" },
		.line = "Obj={o0},Que={o1},Evt<Sig={s2:0},Pool={u3},Ref={u4}>",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 1, .value = NO, .ao = 0 },
	[12] = { .name = "QS_QF_ACTIVE_SUBSCRIBE", .pfx = PFX_TS, .tag = "AO-Subsc", .fields = "SO", .arg = { "sig", "ao" },
		.line = "Obj={o1},Sig={s0:1}",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = 1 },
	[13] = { .name = "QS_QF_ACTIVE_UNSUBSCRIBE", .pfx = PFX_TS, .tag = "AO-Unsub", .fields = "SO", .arg = { "sig", "ao" },
		.line = "Obj={o1},Sig={s0:1}",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = 1 },
	[14] = { .name = "QS_QF_ACTIVE_POST", .pfx = PFX_TS, .tag = "AO-Post", .fields = "OSO11QQ", .arg = { "sender", "sig", "ao", "pool", "ref", "nFree", "nMin" },
		.line = "Sdr={o0},Obj={o2},Evt<Sig={s1:2},Pool={u3},Ref={u4}>,Que<Free={u5},Min={u6}>",
		.kind = SONDE_EV_RECORD, .obj = 2, .obj2 = 0, .value = NO, .ao = 2 },
	[15] = { .name = "QS_QF_ACTIVE_POST_LIFO", .pfx = PFX_TS, .tag = "AO-LIFO", .fields = "SO11QQ", .arg = { "sig", "ao", "pool", "ref", "nFree", "nMin" },
		.line = "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4},Min={u5}>",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = 1 },
	[16] = { .name = "QS_QF_ACTIVE_GET", .pfx = PFX_TS, .tag = "AO-Get", .fields = "SO11Q", .arg = { "sig", "ao", "pool", "ref", "nFree" },
		.line = "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4}>",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = 1 },
	[17] = { .name = "QS_QF_ACTIVE_GET_LAST", .pfx = PFX_TS, .tag = "AO-GetL", .fields = "SO11", .arg = { "sig", "ao", "pool", "ref" },
		.line = "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = 1 },
	[18] = { .name = "QS_QF_ACTIVE_RECALL_ATTEMPT", .pfx = PFX_TS, .tag = "AO-RCllA", .fields = "OO", .arg = { "ao", "queue" },
		.line = "Obj={o0},Que={o1}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 1, .value = NO, .ao = 0 },
	[19] = { .name = "QS_QF_EQUEUE_POST", .pfx = PFX_TS, .tag = "EQ-Post", .fields = "SO11QQ", .arg = { "sig", "queue", "pool", "ref", "nFree", "nMin" },
		.line = "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4},Min={u5}>",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = NO },
	[20] = { .name = "QS_QF_EQUEUE_POST_LIFO", .pfx = PFX_TS, .tag = "EQ-LIFO", .fields = "SO11QQ", .arg = { "sig", "queue", "pool", "ref", "nFree", "nMin" },
		.line = "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4},Min={u5}>",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = NO },
	[21] = { .name = "QS_QF_EQUEUE_GET", .pfx = PFX_TS, .tag = "EQ-Get", .fields = "SO11Q", .arg = { "sig", "queue", "pool", "ref", "nFree" },
		.line = "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4}>",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = NO },
	[22] = { .name = "QS_QF_EQUEUE_GET_LAST", .pfx = PFX_TS, .tag = "EQ-GetL", .fields = "SO11", .arg = { "sig", "queue", "pool", "ref" },
		.line = "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = NO },
	[23] = { .name = "QS_QF_NEW_ATTEMPT", .pfx = PFX_TS, .tag = "QF-NewA", .fields = "ES", .arg = { "size", "sig" },
		.line = "Sig={s1},Size={u0}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[24] = { .name = "QS_QF_MPOOL_GET", .pfx = PFX_TS, .tag = "MP-Get", .fields = "OPP", .arg = { "pool", "nFree", "nMin" },
		.line = "Obj={o0},Free={u1},Min={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[25] = { .name = "QS_QF_MPOOL_PUT", .pfx = PFX_TS, .tag = "MP-Put", .fields = "OP", .arg = { "pool", "nFree" },
		.line = "Obj={o0},Free={u1}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[26] = { .name = "QS_QF_PUBLISH", .pfx = PFX_TS, .tag = "QF-Pub", .fields = "OS11", .arg = { "sender", "sig", "pool", "ref" },
		.line = "Sdr={o0},Evt<Sig={s1},Pool={u2},Ref={u3}>",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[27] = { .name = "QS_QF_NEW_REF", .pfx = PFX_TS, .tag = "QF-NewRf", .fields = "S11", .arg = { "sig", "pool", "ref" },
		.line = "Evt<Sig={s0},Pool={u1},Ref={u2}>",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[28] = { .name = "QS_QF_NEW", .pfx = PFX_TS, .tag = "QF-New", .fields = "ES", .arg = { "size", "sig" },
		.line = "Sig={s1},Size={u0}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[29] = { .name = "QS_QF_GC_ATTEMPT", .pfx = PFX_TS, .tag = "QF-gcA", .fields = "S11", .arg = { "sig", "pool", "ref" },
		.line = "Evt<Sig={s0},Pool={u1},Ref={u2}>",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[30] = { .name = "QS_QF_GC", .pfx = PFX_TS, .tag = "QF-gc", .fields = "S11", .arg = { "sig", "pool", "ref" },
		.line = "Evt<Sig={s0},Pool={u1},Ref={u2}>",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[31] = { .name = "QS_QF_TICK", .pfx = PFX_NONE, .tag = "Tick<{u1}>", .fields = "C1", .arg = { "ctr", "rate" },
		.line = "Ctr={c0}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[32] = { .name = "QS_QF_TIMEEVT_ARM", .pfx = PFX_TS, .tag = "TE{u4}-Arm", .fields = "OOCC1", .arg = { "te", "ao", "nTicks", "interval", "rate" },
		.line = "Obj={o0},AO={o1},Tim={u2},Int={u3}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 1, .value = NO, .ao = 1 },
	[33] = { .name = "QS_QF_TIMEEVT_AUTO_DISARM", .pfx = PFX_NONE, .tag = "TE{u2}-ADis", .fields = "OO1", .arg = { "te", "ao", "rate" },
		.line = "Obj={o0},AO={o1}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 1, .value = NO, .ao = 1 },
	[34] = { .name = "QS_QF_TIMEEVT_DISARM_ATTEMPT", .pfx = PFX_TS, .tag = "TE{u2}-DisA", .fields = "OO1", .arg = { "te", "ao", "rate" },
		.line = "Obj={o0},AO={o1}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 1, .value = NO, .ao = 1 },
	[35] = { .name = "QS_QF_TIMEEVT_DISARM", .pfx = PFX_TS, .tag = "TE{u4}-Dis", .fields = "OOCC1", .arg = { "te", "ao", "ctr", "interval", "rate" },
		.line = "Obj={o0},AO={o1},Tim={u2},Int={u3}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 1, .value = NO, .ao = 1 },
	[36] = { .name = "QS_QF_TIMEEVT_REARM", .pfx = PFX_TS, .tag = "TE{u4}-Rarm", .fields = "OOCC11", .arg = { "te", "ao", "ctr", "interval", "rate", "wasArmed" },
		.line = "Obj={o0},AO={o1},Tim={u2},Int={u3},Was={u5}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 1, .value = NO, .ao = 1 },
	[37] = { .name = "QS_QF_TIMEEVT_POST", .pfx = PFX_TS, .tag = "TE{u3}-Post", .fields = "OSO1", .arg = { "te", "sig", "ao", "rate" },
		.line = "Obj={o0},Sig={s1:2},AO={o2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 2, .value = NO, .ao = 2 },
	[38] = { .name = "QS_QF_DELETE_REF", .pfx = PFX_TS, .tag = "QF-DelRf", .fields = "S11", .arg = { "sig", "pool", "ref" },
		.line = "Evt<Sig={s0},Pool={u1},Ref={u2}>",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[39] = { .name = "QS_QF_CRIT_ENTRY", .pfx = PFX_TS, .tag = "QF-CritE", .fields = "1", .arg = { "nest" },
		.line = "Nest={u0}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = 0, .ao = NO },
	[40] = { .name = "QS_QF_CRIT_EXIT", .pfx = PFX_TS, .tag = "QF-CritX", .fields = "1", .arg = { "nest" },
		.line = "Nest={u0}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = 0, .ao = NO },
	[41] = { .name = "QS_QF_ISR_ENTRY", .pfx = PFX_TS, .tag = "QF-IsrE", .fields = "11", .arg = { "nest", "prio" },
		.line = "Nest={u0},Pri={u1}",
		.kind = SONDE_EV_ISR_ENTER, .obj = 1, .obj2 = NO, .value = 0, .ao = NO },
	[42] = { .name = "QS_QF_ISR_EXIT", .pfx = PFX_TS, .tag = "QF-IsrX", .fields = "11", .arg = { "nest", "prio" },
		.line = "Nest={u0},Pri={u1}",
		.kind = SONDE_EV_ISR_EXIT, .obj = 1, .obj2 = NO, .value = 0, .ao = NO },
	[45] = { .name = "QS_QF_ACTIVE_POST_ATTEMPT", .pfx = PFX_TS, .tag = "AO-PostA", .fields = "OSO11QQ", .arg = { "sender", "sig", "ao", "pool", "ref", "nFree", "margin" },
		.line = "Sdr={o0},Obj={o2},Evt<Sig={s1:2},Pool={u3},Ref={u4}>,Que<Free={u5},Mar={u6}>",
		.kind = SONDE_EV_RECORD, .obj = 2, .obj2 = 0, .value = NO, .ao = 2 },
	[46] = { .name = "QS_QF_EQUEUE_POST_ATTEMPT", .pfx = PFX_TS, .tag = "EQ-PostA", .fields = "SO11QQ", .arg = { "sig", "queue", "pool", "ref", "nFree", "margin" },
		.line = "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4},Mar={u5}>",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = NO },
	[47] = { .name = "QS_QF_MPOOL_GET_ATTEMPT", .pfx = PFX_TS, .tag = "MP-GetA", .fields = "OPP", .arg = { "pool", "nFree", "margin" },
		.line = "Obj={o0},Free={u1},Mar={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	/* Scheduler records identify threads by priority, not by address. */
	[48] = { .name = "QS_SCHED_PREEMPT", .pfx = PFX_TS, .tag = "Sch-Pre", .fields = "11", .arg = { "prio", "prev" },
		.line = "Pri={u1}->{u0}",
		.kind = SONDE_EV_TASK_IN, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[49] = { .name = "QS_SCHED_RESTORE", .pfx = PFX_TS, .tag = "Sch-Rest", .fields = "11", .arg = { "prio", "prev" },
		.line = "Pri={u1}->{u0}",
		.kind = SONDE_EV_TASK_IN, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[50] = { .name = "QS_SCHED_LOCK", .pfx = PFX_TS, .tag = "Sch-Lock", .fields = "11", .arg = { "prevCeil", "newCeil" },
		.line = "Ceil={u0}->{u1}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[51] = { .name = "QS_SCHED_UNLOCK", .pfx = PFX_TS, .tag = "Sch-Unlk", .fields = "11", .arg = { "prevCeil", "newCeil" },
		.line = "Ceil={u0}->{u1}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[52] = { .name = "QS_SCHED_NEXT", .pfx = PFX_TS, .tag = "Sch-Next", .fields = "11", .arg = { "next", "prev" },
		.line = "Pri={u1}->{u0}",
		.kind = SONDE_EV_TASK_IN, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[53] = { .name = "QS_SCHED_IDLE", .pfx = PFX_TS, .tag = "Sch-Idle", .fields = "1", .arg = { "prev" },
		.line = "Pri={u0}->0",
		.kind = SONDE_EV_IDLE, .obj = NO, .obj2 = NO, .value = 0, .ao = NO },
	[54] = { .name = "QS_ENUM_DICT", .pfx = PFX_NONE, .tag = "Enum-Dic", .fields = "11Z", .arg = { "value", "group", "name" },
		.line = "{d0},Grp={u1}->{z2}",
		.kind = SONDE_EV_DICT, .obj = NO, .obj2 = NO, .value = NO, .ao = NO, .hook = HK_ENUM_DICT },
	[55] = { .name = "QS_QEP_TRAN_HIST", .pfx = PFX_RTC, .tag = "St-Hist", .fields = "OFF", .arg = { "sm", "source", "target" },
		.line = "Obj={o0},State={f1}->{f2}",
		.kind = SONDE_EV_STATE, .obj = 0, .obj2 = 2, .value = NO, .ao = NO, .text = "hist" },
	[56] = { .name = "QS_QEP_TRAN_EP", .pfx = PFX_RTC, .tag = "St-EP", .fields = "OFF", .arg = { "sm", "source", "target" },
		.line = "Obj={o0},State={f1}->{f2}",
		.kind = SONDE_EV_STATE, .obj = 0, .obj2 = 2, .value = NO, .ao = NO, .text = "ep" },
	[57] = { .name = "QS_QEP_TRAN_XP", .pfx = PFX_RTC, .tag = "St-XP", .fields = "OFF", .arg = { "sm", "source", "target" },
		.line = "Obj={o0},State={f1}->{f2}",
		.kind = SONDE_EV_STATE, .obj = 0, .obj2 = 2, .value = NO, .ao = NO, .text = "xp" },
	[58] = { .name = "QS_TEST_PAUSED", .pfx = PFX_NONE, .tag = "TstPause", .fields = "", .arg = { NULL },
		.line = "",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[59] = { .name = "QS_TEST_PROBE_GET", .pfx = PFX_TS, .tag = "TstProbe", .fields = "F4", .arg = { "api", "data" },
		.line = "Fun={f0},Data={u1}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[60] = { .name = "QS_SIG_DICT", .pfx = PFX_NONE, .tag = "Sig-Dict", .fields = "SOZ", .arg = { "sig", "obj", "name" },
		.line = "{n0},Obj={k1}->{z2}",
		.kind = SONDE_EV_DICT, .obj = NO, .obj2 = NO, .value = NO, .ao = NO, .hook = HK_SIG_DICT },
	[61] = { .name = "QS_OBJ_DICT", .pfx = PFX_NONE, .tag = "Obj-Dict", .fields = "OZ", .arg = { "obj", "name" },
		.line = "{k0}->{z1}",
		.kind = SONDE_EV_DICT, .obj = NO, .obj2 = NO, .value = NO, .ao = NO, .hook = HK_OBJ_DICT },
	[62] = { .name = "QS_FUN_DICT", .pfx = PFX_NONE, .tag = "Fun-Dict", .fields = "FZ", .arg = { "fun", "name" },
		.line = "{K0}->{z1}",
		.kind = SONDE_EV_DICT, .obj = NO, .obj2 = NO, .value = NO, .ao = NO, .hook = HK_FUN_DICT },
	[63] = { .name = "QS_USR_DICT", .pfx = PFX_NONE, .tag = "Usr-Dict", .fields = "1Z", .arg = { "rec", "name" },
		.line = "{n0}->{z1}",
		.kind = SONDE_EV_DICT, .obj = NO, .obj2 = NO, .value = NO, .ao = NO, .hook = HK_USR_DICT },
	[64] = { .name = "QS_TARGET_INFO", .pfx = PFX_NONE, .tag = NULL, .fields = NULL, .arg = { NULL },
		.line = NULL,
		.kind = 0, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[65] = { .name = "QS_TARGET_DONE", .pfx = PFX_TS, .tag = "Trg-Done", .fields = "1", .arg = { "rx_rec" },
		.line = "{r0}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[66] = { .name = "QS_RX_STATUS", .pfx = PFX_NONE, .tag = "Trg-Ack", .fields = "1", .arg = { "status" },
		.line = "{r0}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[67] = { .name = "QS_QUERY_DATA", .pfx = PFX_TS, .tag = NULL, .fields = NULL, .arg = { NULL },
		.line = NULL,
		.kind = 0, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[68] = { .name = "QS_PEEK_DATA", .pfx = PFX_TS, .tag = NULL, .fields = NULL, .arg = { NULL },
		.line = NULL,
		.kind = 0, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[69] = { .name = "QS_ASSERT_FAIL", .pfx = PFX_TS, .tag = "=ASSERT=", .fields = "2Z", .arg = { "loc", "module" },
		.line = "Mod={z1},Loc={u0}",
		.kind = SONDE_EV_LOG, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[70] = { .name = "QS_QF_RUN", .pfx = PFX_NONE, .tag = "QF_RUN", .fields = "", .arg = { NULL },
		.line = "",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	[71] = { .name = "QS_SEM_TAKE", .pfx = PFX_TS, .tag = "Sem-Take", .fields = "O11", .arg = { "sema", "thread", "count" },
		.line = "Obj={o0},Thr={u1},Cnt={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[72] = { .name = "QS_SEM_BLOCK", .pfx = PFX_TS, .tag = "Sem-Blk", .fields = "O11", .arg = { "sema", "thread", "count" },
		.line = "Obj={o0},Thr={u1},Cnt={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[73] = { .name = "QS_SEM_SIGNAL", .pfx = PFX_TS, .tag = "Sem-Sgnl", .fields = "O11", .arg = { "sema", "thread", "count" },
		.line = "Obj={o0},Thr={u1},Cnt={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[74] = { .name = "QS_SEM_BLOCK_ATTEMPT", .pfx = PFX_TS, .tag = "Sem-BlkA", .fields = "O11", .arg = { "sema", "thread", "count" },
		.line = "Obj={o0},Thr={u1},Cnt={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[75] = { .name = "QS_MTX_LOCK", .pfx = PFX_TS, .tag = "Mtx-Lock", .fields = "O11", .arg = { "mutex", "holder", "nest" },
		.line = "Obj={o0},Holder={u1},Nest={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[76] = { .name = "QS_MTX_BLOCK", .pfx = PFX_TS, .tag = "Mtx-Blk", .fields = "O11", .arg = { "mutex", "holder", "thread" },
		.line = "Obj={o0},Holder={u1},Thr={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[77] = { .name = "QS_MTX_UNLOCK", .pfx = PFX_TS, .tag = "Mtx-Unlk", .fields = "O11", .arg = { "mutex", "holder", "nest" },
		.line = "Obj={o0},Holder={u1},Nest={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[78] = { .name = "QS_MTX_LOCK_ATTEMPT", .pfx = PFX_TS, .tag = "Mtx-LckA", .fields = "O11", .arg = { "mutex", "holder", "nest" },
		.line = "Obj={o0},Holder={u1},Nest={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[79] = { .name = "QS_MTX_BLOCK_ATTEMPT", .pfx = PFX_TS, .tag = "Mtx-BlkA", .fields = "O11", .arg = { "mutex", "holder", "thread" },
		.line = "Obj={o0},Holder={u1},Thr={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	[80] = { .name = "QS_MTX_UNLOCK_ATTEMPT", .pfx = PFX_TS, .tag = "Mtx-UlkA", .fields = "O11", .arg = { "mutex", "holder", "nest" },
		.line = "Obj={o0},Holder={u1},Nest={u2}",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = NO, .value = NO, .ao = NO },
	/* QS_QUERY_DATA by query kind (the byte after the timestamp); the
	 * last row is for kinds QS 7.4 does not define. */
	[ROW_QUERY + 0] = { .name = "QS_QUERY_DATA", .pfx = PFX_TS, .tag = "Query-SM", .fields = "1OF", .arg = { "kind", "obj", "state" },
		.line = "Obj={o1},State={f2}",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = 2, .value = NO, .ao = NO },
	[ROW_QUERY + 1] = { .name = "QS_QUERY_DATA", .pfx = PFX_TS, .tag = "Query-AO", .fields = "1OF", .arg = { "kind", "obj", "state" },
		.line = "Obj={o1},State={f2}",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = 2, .value = NO, .ao = 1 },
	[ROW_QUERY + 2] = { .name = "QS_QUERY_DATA", .pfx = PFX_TS, .tag = "Query-MP", .fields = "1OPP", .arg = { "kind", "obj", "nFree", "nMin" },
		.line = "Obj={o1},Free={u2},Min={u3}",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = NO },
	[ROW_QUERY + 3] = { .name = "QS_QUERY_DATA", .pfx = PFX_TS, .tag = "Query-EQ", .fields = "1OQQ", .arg = { "kind", "obj", "nFree", "nMin" },
		.line = "Obj={o1},Que<Free={u2},Min={u3}>",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = NO },
	[ROW_QUERY + 4] = { .name = "QS_QUERY_DATA", .pfx = PFX_TS, .tag = "Query-TE", .fields = "1OOCCS1", .arg = { "kind", "te", "ao", "ctr", "interval", "sig", "rate_flags" },
		.line = "Obj={o1},Rate={l6},Sig={s5:2},Tim={u3},Int={u4},Flags={h6}",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = 2, .value = NO, .ao = NO },
	[ROW_QUERY + 5] = { .name = "QS_QUERY_DATA", .pfx = PFX_TS, .tag = "Query-AP", .fields = "1O", .arg = { "kind", "obj" },
		.line = "Obj={o1}",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = NO },
	[ROW_QUERY + 6] = { .name = "QS_QUERY_DATA", .pfx = PFX_TS, .tag = "Query-{u0}", .fields = "1O", .arg = { "kind", "obj" },
		.line = "Obj={o1}",
		.kind = SONDE_EV_RECORD, .obj = 1, .obj2 = NO, .value = NO, .ao = NO },
	[ROW_RX_ERROR] = { .name = "QS_RX_STATUS", .pfx = PFX_NONE, .tag = "Trg-ERR", .fields = "1", .arg = { "status" },
		.line = "{r0}",
		.kind = SONDE_EV_RECORD, .obj = NO, .obj2 = NO, .value = NO, .ao = NO },
	/* record 81 exists from QS 8.0 on (in 7.4 the id is QS_PRE_MAX, never sent) */
	[ROW_DEFER_8X] = { .name = "QS_QF_ACTIVE_DEFER_ATTEMPT", .pfx = PFX_TS, .tag = "AO-DefrA", .fields = "OOS11", .arg = { "ao", "queue", "sig", "pool", "ref" },
		.line = "Obj={o0},Que={o1},Evt<Sig={s2:0},Pool={u3},Ref={u4}>",
		.kind = SONDE_EV_RECORD, .obj = 0, .obj2 = 1, .value = NO, .ao = 0 },
};

/* The rows compiled (qs_records_compile): the line as one template (the
 * prefix unless it is a timestamp, the tag padded to 8, the detail) and,
 * for a tag with a conversion, the tag alone.  A fixed tag's padding is
 * part of the template's text, and where it ends and the detail starts
 * are known in advance (tag_end, text_at: offsets in the line, 0 when the
 * rendering's {P} finds them). */
struct qs_rowc {
	struct qs_tmpl line;
	struct qs_tmpl tag;
	uint16_t tag_end, text_at;
	uint8_t named; /* bit i: the line names field i as its argument does (qs_fields.nm[i]) */
};
static struct qs_rowc rowc[QS_NROWS];
static int rowc_done;

static int compile_row(const struct qs_row *rw, struct qs_rowc *c)
{
	char text[256];
	const char *pfx = rw->pfx == PFX_TS ? "" : rw->pfx == PFX_RTC ? "===RTC===> " : "           ";
	if (qs_tmpl_compile(&c->tag, rw->tag) != 0)
		return -1;
	int n;
	c->tag_end = c->text_at = 0;
	if (c->tag.plain) {
		size_t tn = strlen(rw->tag);
		c->tag_end = (uint16_t)(QS_TAG_AT + tn);
		c->text_at = (uint16_t)(rw->line[0] ? QS_TAG_AT + (tn > 8 ? tn : 8) + 1 : c->tag_end);
		if (rw->line[0])
			n = snprintf(text, sizeof(text), "%s%-8s %s", pfx, rw->tag, rw->line);
		else
			n = snprintf(text, sizeof(text), "%s%s", pfx, rw->tag);
	} else {
		n = snprintf(text, sizeof(text), "%s%s%s%s", pfx, rw->tag, rw->line[0] ? "{P1}" : "{P0}", rw->line);
	}
	if (n < 0 || (size_t)n >= sizeof(text) || qs_tmpl_compile(&c->line, text) != 0)
		return -1;
	/* the fields whose names the arguments take from the rendering: an
	 * O, F or S field the line converts by its letter, a signal in the
	 * context of the record's object field (resolve) */
	size_t nf = strlen(rw->fields);
	int obj_ctx = rw->obj >= 0 && (size_t)rw->obj < nf && rw->fields[(int)rw->obj] == 'O' ? rw->obj + 1 : 0;
	c->named = 0;
	for (unsigned k = 0; k < c->line.nsteps; k++) {
		const struct qs_step *st = &c->line.step[k];
		char letter = st->field < nf ? rw->fields[st->field] : 0;
		if ((letter == 'O' && st->conv == 'o') || (letter == 'F' && st->conv == 'f') ||
		    (letter == 'S' && st->conv == 's' && st->ctx == obj_ctx))
			c->named |= (uint8_t)(1u << st->field);
	}
	return 0;
}

int qs_records_compile(void)
{
	if (rowc_done)
		return rowc_done > 0 ? 0 : -1;
	rowc_done = 1;
	for (size_t i = 0; i < QS_NROWS; i++)
		if (rows[i].tag && compile_row(&rows[i], &rowc[i]) != 0)
			rowc_done = -1;
	return rowc_done > 0 ? 0 : -1;
}

static int is_8x(const struct qs_dec *d)
{
	return d->version >= 800;
}

static const struct qs_row *row_of(const struct qs_dec *d, unsigned rec)
{
	if (rec == QS_DEFER_8X)
		return is_8x(d) ? &rows[ROW_DEFER_8X] : NULL;
	if ((rec == QS_QEP_TRAN_EP || rec == QS_QEP_TRAN_XP) && is_8x(d))
		return NULL; /* reserved in 8.x */
	if (rec >= 100 || !rows[rec].name)
		return NULL;
	return &rows[rec];
}

const char *qs_err_rec_name(unsigned rec, int pad, char *buf)
{
	if (rec >= QS_USER) {
		memcpy(buf, "USER+", 5);
		buf[5 + numfmt_u64_pad(buf + 5, rec - QS_USER, (unsigned)pad, ' ')] = '\0';
		return buf;
	}
	if (rec == QS_EMPTY)
		return "QS_EMPTY";
	if (rec == 43)
		return "QS_QF_INT_DISABLE";
	if (rec == 44)
		return "QS_QF_INT_ENABLE";
	if (rec <= 80 && rows[rec].name)
		return rows[rec].name;
	return "QS_RESERVED";
}

/* ---- the interpreter -------------------------------------------------- */

static void read_fields(const struct qs_dec *d, struct qs_rd *r, const char *letters, struct qs_fields *fl)
{
	fl->n = 0;
	for (size_t i = 0; letters[i] && i < QS_MAX_FIELDS; i++) {
		if (letters[i] == 'Z') {
			fl->s[i] = qs_rd_str(r, &fl->sn[i]);
			fl->v[i] = 0;
		} else {
			fl->v[i] = qs_rd_uint(r, d->fsz[(unsigned char)letters[i] & 0x7Fu], NULL);
		}
		if (r->missing)
			return;
		fl->n = i + 1;
	}
}

/* The names the fields resolve to (O, F and S fields; NULL for the others
 * and for names the dictionaries lack): those rendering found (named:
 * the fields whose rendering named them as their arguments do, 0 when the
 * line was not rendered), the others looked up now. */
static void resolve(const struct qs_dec *d, const struct qs_row *rw, unsigned named,
		    const struct qs_fields *fl, const char **res)
{
	uint64_t sig_ctx = 0; /* a signal's object: the record's object field */
	if (rw->obj >= 0 && (size_t)rw->obj < fl->n && rw->fields[(int)rw->obj] == 'O')
		sig_ctx = fl->v[(int)rw->obj];
	for (size_t i = 0; i < fl->n; i++) {
		char c = rw->fields[i];
		if (named >> i & 1u)
			res[i] = fl->nm[i];
		else if (c == 'O')
			res[i] = qs_map_get(&d->dict.obj, fl->v[i], 0);
		else if (c == 'F')
			res[i] = qs_map_get(&d->dict.fun, fl->v[i], 0);
		else if (c == 'S')
			res[i] = qs_dict_sig(&d->dict, fl->v[i], sig_ctx);
		else
			res[i] = NULL;
	}
}

static void add_args(struct qs_dec *d, const struct qs_row *rw, const struct qs_fields *fl,
		     const char *const *res)
{
	size_t n = fl->n < d->max_args - d->nargs ? fl->n : d->max_args - d->nargs;
	struct sonde_arg *a = d->args + d->nargs;
	for (size_t i = 0; i < n; i++, a++) {
		unsigned char c = (unsigned char)rw->fields[i] & 0x7Fu;
		*a = (struct sonde_arg){ .type = (enum sonde_arg_type)d->fargt[c], .name = rw->arg[i] };
		if (c == 'Z') {
			a->v.mem.p = fl->s[i];
			a->v.mem.n = fl->sn[i];
			continue;
		}
		a->v.u = fl->v[i];
		a->resolved = res[i];
		if (c == 'S')
			a->group = QS_SIG_GROUP;
	}
	d->nargs += n;
}

/* Store a dictionary record's name; returns the event's fields. */
static void store_dict(struct qs_dec *d, const struct qs_row *rw, const struct qs_fields *fl,
		       struct sonde_event *ev)
{
	struct qs_map *m = NULL;
	uint64_t k1 = fl->v[0], k2 = 0;
	const uint8_t *name = NULL;
	size_t n = 0;
	switch (rw->hook) {
	case HK_OBJ_DICT:
		m = &d->dict.obj; name = fl->s[1]; n = fl->sn[1];
		ev->obj = k1; ev->obj2 = SONDE_DICT_OBJECT;
		break;
	case HK_FUN_DICT:
		m = &d->dict.fun; name = fl->s[1]; n = fl->sn[1];
		ev->obj = k1; ev->obj2 = SONDE_DICT_FUNCTION;
		break;
	case HK_USR_DICT:
		m = &d->dict.usr; name = fl->s[1]; n = fl->sn[1];
		ev->obj = k1; ev->obj2 = SONDE_DICT_RECORD;
		break;
	case HK_SIG_DICT:
		m = &d->dict.sig; k2 = fl->v[1]; name = fl->s[2]; n = fl->sn[2];
		ev->obj = k1; ev->obj2 = QS_DICT_SIGNAL;
		break;
	case HK_ENUM_DICT:
		m = &d->dict.enm; k2 = fl->v[1]; name = fl->s[2]; n = fl->sn[2];
		ev->obj = k2 << 8 | k1; ev->obj2 = SONDE_DICT_ENUM; /* id = group << 8 | value */
		break;
	default:
		return;
	}
	if (n == 0) { /* QSPY stores (and shows) an empty name as '' */
		name = (const uint8_t *)"''";
		n = 2;
	}
	if (qs_map_put(m, k1, k2, (const char *)name, n) != 0)
		qs_diag(d, SONDE_D_OTHER, 2, 1, "Dictionary full, %s->%.*s not stored", rw->tag,
			(int)(n > QS_NAME_MAX ? QS_NAME_MAX : n), (const char *)name);
	/* the event's text must be NUL-terminated: use the stored copy, or the
	 * name buffer when the dictionary refused it */
	const struct qs_map_ent *e = qs_map_find(m, k1, k2);
	const char *stored = e ? e->name : NULL;
	if (!e || e->len != n) {
		memcpy(d->str_buf, name, n); /* n < max_rec: the name is inside the frame */
		d->str_buf[n] = '\0';
		stored = d->str_buf;
	}
	ev->text = stored;
	ev->obj_name = stored;
}

/* The event's operands and arguments from the fields. */
static void fill_event(struct qs_dec *d, const struct qs_row *rw, unsigned named, const struct qs_fields *fl,
		       struct sonde_event *ev)
{
	const char *res[QS_MAX_FIELDS];
	resolve(d, rw, named, fl, res);
	add_args(d, rw, fl, res);
	ev->args = d->args;
	ev->nargs = d->nargs;
	if (rw->obj >= 0 && (size_t)rw->obj < fl->n) {
		ev->obj = fl->v[(int)rw->obj];
		ev->obj_name = res[(int)rw->obj];
	}
	if (rw->obj2 >= 0 && (size_t)rw->obj2 < fl->n) {
		ev->obj2 = fl->v[(int)rw->obj2];
		ev->obj2_name = res[(int)rw->obj2];
	}
	if (rw->value >= 0 && (size_t)rw->value < fl->n)
		ev->value = (int64_t)fl->v[(int)rw->value];
	if (rw->kind == SONDE_EV_STATE)
		ev->text = rw->text;
	if (rw->kind == SONDE_EV_LOG)
		ev->level = SONDE_LVL_ERROR;
}

/* A rendered tag [s, end) as the event's record name (in name_buf). */
static const char *keep_tag(struct qs_dec *d, const char *s, const char *end)
{
	size_t n = (size_t)(end - s);
	if (n > sizeof(d->name_buf) - 1)
		n = sizeof(d->name_buf) - 1;
	memcpy(d->name_buf, s, n);
	d->name_buf[n] = '\0';
	return d->name_buf;
}

static void decode_row(struct qs_dec *d, const struct qs_frame *f, const struct qs_row *rw)
{
	struct qs_rd r;
	qs_rd_init(&r, f->data, f->len);
	uint64_t raw_ts = 0;
	int has_ts = rw->pfx == PFX_TS;
	if (has_ts)
		raw_ts = qs_rd_uint(&r, d->sz.ts, NULL);
	struct qs_fields fl;
	fl.n = 0;
	if (!r.missing)
		read_fields(d, &r, rw->fields, &fl);

	struct sonde_event ev;
	sonde_event_clear(&ev);
	ev.kind = rw->kind;
	qs_set_ts(d, &ev, has_ts && !(r.missing && r.pos == 0), raw_ts);
	/* a dictionary record first replaces its entry: names resolved below
	 * must not point to the entry it replaces */
	if (!r.missing && rw->hook != HK_NONE)
		store_dict(d, rw, &fl, &ev);

	struct qs_line *l = &d->line;
	if (r.missing) {
		/* QSPY prints the error instead of the record: no native line */
		fill_event(d, rw, 0, &fl, &ev);
		qs_diag(d, SONDE_D_MALFORMED, 2 + r.n, r.missing, "%zu more bytes needed for %s in Rec=%s",
			r.missing, r.what, rw->name);
		ev.flags |= SONDE_EVF_MALFORMED;
		ev.rec_name = rw->name;
		if (rw->ao >= 0 && (size_t)rw->ao < fl.n && fl.v[(int)rw->ao])
			qs_note_ao(d, fl.v[(int)rw->ao], &ev);
		qs_emit(d, &ev);
		return;
	}
	/* the line (prefix, tag padded to 8, detail); the detail is the
	 * event's text for records the event model has no better home for;
	 * the tag is fixed text, or rendered (it may hold the tick rate) */
	const struct qs_rowc *rc = &rowc[rw - rows];
	const char *tag = rw->tag;
	int has_text = rw->kind == SONDE_EV_RECORD || rw->kind == SONDE_EV_LOG;
	char *line = l->buf;
	unsigned named = 0; /* the fields whose names the rendering found */
	fl.line = line;
	if (!(d->out.needs.omit & SONDE_OMIT_NATIVE) || has_text) {
		named = rc->named;
		/* room: QS_TMPL_MAX + f->len (qs_create) */
		char *o = has_ts ? qs_put_prefix(line, 1, raw_ts) : line;
		qs_line_end(l, qs_render(d, o, &rc->line, &fl));
		if (rc->text_at) {
			fl.tag_end = line + rc->tag_end;
			fl.text_at = line + rc->text_at;
		} else {
			tag = keep_tag(d, line + QS_TAG_AT, fl.tag_end);
		}
		/* with bytes left over QSPY prints the error instead of the line */
		if (!(d->out.needs.omit & SONDE_OMIT_NATIVE) && r.pos == r.n) {
			ev.native = line;
			ev.native_len = l->len;
		}
		if (has_text)
			ev.text = fl.text_at;
	} else if (!rc->tag.plain) {
		tag = keep_tag(d, line, qs_render(d, line, &rc->tag, &fl));
	}
	ev.rec_name = tag;
	if (r.pos < r.n)
		ev.flags |= SONDE_EVF_MALFORMED;
	if (!(d->out.needs.omit & SONDE_OMIT_DETAIL)) /* else nobody reads what it fills in */
		fill_event(d, rw, named, &fl, &ev);
	if (rw->ao >= 0 && fl.v[(int)rw->ao])
		qs_note_ao(d, fl.v[(int)rw->ao], &ev);
	qs_emit(d, &ev);
	if (r.pos < r.n) {
		qs_diag(d, SONDE_D_MALFORMED, 2 + r.pos, r.n - r.pos, "%zu bytes unused in Rec=%s",
			r.n - r.pos, rw->name);
		return;
	}
	/* what QSPY does after the line of a record it read without error */
	if (d->seq)
		qs_seq_record(d, f->rec, raw_ts, &fl);
	if (f->rec == QS_QF_RUN && d->dic_save) {
		char msg[600];
		qs_dic_write(d, d->dic_save, msg, sizeof(msg));
	}
}

/* QS_PEEK_DATA: [ts][u16 offs][u8 size][u8 num][num items of size bytes] */
static void decode_peek(struct qs_dec *d, const struct qs_frame *f)
{
	struct qs_rd r;
	qs_rd_init(&r, f->data, f->len);
	uint64_t raw_ts = qs_rd_uint(&r, d->sz.ts, NULL);
	unsigned offs = (unsigned)qs_rd_uint(&r, 2, "uint16_t");
	unsigned size = (unsigned)qs_rd_uint(&r, 1, "uint8_t");
	unsigned num = (unsigned)qs_rd_uint(&r, 1, "uint8_t");
	struct sonde_event ev = { .kind = SONDE_EV_RECORD, .rec_name = "Trg-Peek" };
	qs_set_ts(d, &ev, !r.missing, raw_ts);
	if (r.missing) {
		qs_diag(d, SONDE_D_MALFORMED, 2 + r.n, r.missing,
			"%zu more bytes needed for %s in Rec=QS_PEEK_DATA", r.missing, r.what);
		ev.flags |= SONDE_EVF_MALFORMED;
		qs_emit(d, &ev);
		return;
	}
	if (size == 0 || size > 8) {
		qs_diag(d, SONDE_D_MALFORMED, 2 + d->sz.ts + 2, 1,
			"Invalid item size %u in Rec=QS_PEEK_DATA", size);
		ev.flags |= SONDE_EVF_MALFORMED;
		qs_emit(d, &ev);
		return;
	}
	size_t data_at = r.pos;
	struct qs_line *l = &d->line;
	qs_line_end(l, qs_put_prefix(l->buf, 1, raw_ts));
	qs_line_puts(l, "Trg-Peek ");
	size_t text_at = l->len;
	qs_line_printf(l, "Offs=%u,Size=%u,Num=%u,Data=<", offs, size, num);
	for (unsigned i = 0; i < num && !r.missing; i++) {
		uint64_t v = qs_rd_uint(&r, size, NULL);
		if (!r.missing)
			qs_line_printf(l, "%s%0*llX", i ? "," : "", (int)(2 * size), (unsigned long long)v);
	}
	qs_line_puts(l, ">");
	struct sonde_arg *a;
	if ((a = qs_arg(d, SONDE_A_U16, "offs")))
		a->v.u = offs;
	if ((a = qs_arg(d, SONDE_A_U8, "size")))
		a->v.u = size;
	if ((a = qs_arg(d, SONDE_A_U8, "num")))
		a->v.u = num;
	if ((a = qs_arg(d, SONDE_A_MEM, "data"))) {
		a->v.mem.p = f->data + data_at;
		a->v.mem.n = (r.missing ? r.n : r.pos) - data_at;
	}
	ev.args = d->args;
	ev.nargs = d->nargs;
	if (r.missing) {
		qs_diag(d, SONDE_D_MALFORMED, 2 + r.n, r.missing,
			"%zu more bytes needed for %s in Rec=QS_PEEK_DATA", r.missing, r.what);
		ev.flags |= SONDE_EVF_MALFORMED;
		qs_emit(d, &ev);
		return;
	}
	ev.text = l->buf + text_at;
	if (r.pos == r.n)
		ev.native = l->buf; /* with bytes left over QSPY prints only the error */
	else
		ev.flags |= SONDE_EVF_MALFORMED;
	qs_emit(d, &ev);
	if (r.pos < r.n)
		qs_diag(d, SONDE_D_MALFORMED, 2 + r.pos, r.n - r.pos,
			"%zu bytes unused in Rec=QS_PEEK_DATA", r.n - r.pos);
}

static void decode_unknown(struct qs_dec *d, const struct qs_frame *f)
{
	/* QSPY prints this as a regular line; sink_qspy does the same with
	 * the diagnostic, so the event carries no native line of its own */
	qs_diag(d, SONDE_D_UNKNOWN_RECORD, 1, 1, "Unknown Rec=%u,Len=%zu", f->rec, f->len);
	struct sonde_arg *a = qs_arg(d, SONDE_A_MEM, "payload");
	if (a) {
		a->v.mem.p = f->data;
		a->v.mem.n = f->len;
	}
	struct sonde_event ev = { .kind = SONDE_EV_RECORD, .rec_name = "Unknown" };
	qs_set_ts(d, &ev, 0, 0);
	ev.args = d->args;
	ev.nargs = d->nargs;
	qs_emit(d, &ev);
}

void qs_decode_record(struct qs_dec *d, const struct qs_frame *f)
{
	unsigned rec = f->rec;
	if (rec >= QS_USER) {
		qs_decode_user(d, f);
		return;
	}
	switch (rec) {
	case QS_EMPTY:
		return;
	case QS_TARGET_INFO:
		qs_decode_target_info(d, f);
		return;
	case QS_PEEK_DATA:
		decode_peek(d, f);
		return;
	case QS_RX_STATUS:
		decode_row(d, f, f->len >= 1 && (f->data[0] & 0x80) ? &rows[ROW_RX_ERROR] : &rows[QS_RX_STATUS]);
		return;
	case QS_QUERY_DATA: {
		unsigned kind = f->len > d->sz.ts ? f->data[d->sz.ts] : 6;
		decode_row(d, f, &rows[ROW_QUERY + (kind < 6 ? kind : 6)]);
		return;
	}
	default:
		break;
	}
	const struct qs_row *rw = row_of(d, rec);
	if (rw)
		decode_row(d, f, rw);
	else
		decode_unknown(d, f);
}
