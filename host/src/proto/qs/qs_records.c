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
	[1] = { "QS_QEP_STATE_ENTRY", PFX_RTC, "St-Entry", "OF", { "sm", "state" },
		"Obj={o0},State={f1}", SONDE_EV_STATE, 0, 1, NO, NO, "entry", 0 },
	[2] = { "QS_QEP_STATE_EXIT", PFX_RTC, "St-Exit", "OF", { "sm", "state" },
		"Obj={o0},State={f1}", SONDE_EV_STATE, 0, 1, NO, NO, "exit", 0 },
	[3] = { "QS_QEP_STATE_INIT", PFX_RTC, "St-Init", "OFF", { "sm", "source", "target" },
		"Obj={o0},State={f1}->{f2}", SONDE_EV_STATE, 0, 2, NO, NO, "init", 0 },
	[4] = { "QS_QEP_INIT_TRAN", PFX_TS, "Init===>", "OF", { "sm", "state" },
		"Obj={o0},State={f1}", SONDE_EV_STATE, 0, 1, NO, NO, "init-tran", 0 },
	[5] = { "QS_QEP_INTERN_TRAN", PFX_TS, "=>Intern", "SOF", { "sig", "sm", "state" },
		"Obj={o1},Sig={s0:1},State={f2}", SONDE_EV_STATE, 1, 2, NO, NO, "intern", 0 },
	[6] = { "QS_QEP_TRAN", PFX_TS, "===>Tran", "SOFF", { "sig", "sm", "source", "target" },
		"Obj={o1},Sig={s0:1},State={f2}->{f3}", SONDE_EV_STATE, 1, 3, NO, NO, "tran", 0 },
	[7] = { "QS_QEP_IGNORED", PFX_TS, "=>Ignore", "SOF", { "sig", "sm", "state" },
		"Obj={o1},Sig={s0:1},State={f2}", SONDE_EV_STATE, 1, 2, NO, NO, "ignored", 0 },
	[8] = { "QS_QEP_DISPATCH", PFX_TS, "Disp===>", "SOF", { "sig", "sm", "state" },
		"Obj={o1},Sig={s0:1},State={f2}", SONDE_EV_STATE, 1, 2, NO, NO, "dispatch", 0 },
	[9] = { "QS_QEP_UNHANDLED", PFX_RTC, "St-Unhnd", "SOF", { "sig", "sm", "state" },
		"Obj={o1},Sig={s0:1},State={f2}", SONDE_EV_STATE, 1, 2, NO, NO, "unhandled", 0 },
	[10] = { "QS_QF_ACTIVE_DEFER", PFX_TS, "AO-Defer", "OOS11",
		 { "ao", "queue", "sig", "pool", "ref" },
		 "Obj={o0},Que={o1},Evt<Sig={s2:0},Pool={u3},Ref={u4}>", SONDE_EV_RECORD, 0, 1, NO, 0, NULL, 0 },
	[11] = { "QS_QF_ACTIVE_RECALL", PFX_TS, "AO-RCall", "OOS11",
		 { "ao", "queue", "sig", "pool", "ref" },
		 "Obj={o0},Que={o1},Evt<Sig={s2:0},Pool={u3},Ref={u4}>", SONDE_EV_RECORD, 0, 1, NO, 0, NULL, 0 },
	[12] = { "QS_QF_ACTIVE_SUBSCRIBE", PFX_TS, "AO-Subsc", "SO", { "sig", "ao" },
		 "Obj={o1},Sig={s0:1}", SONDE_EV_RECORD, 1, NO, NO, 1, NULL, 0 },
	[13] = { "QS_QF_ACTIVE_UNSUBSCRIBE", PFX_TS, "AO-Unsub", "SO", { "sig", "ao" },
		 "Obj={o1},Sig={s0:1}", SONDE_EV_RECORD, 1, NO, NO, 1, NULL, 0 },
	[14] = { "QS_QF_ACTIVE_POST", PFX_TS, "AO-Post", "OSO11QQ",
		 { "sender", "sig", "ao", "pool", "ref", "nFree", "nMin" },
		 "Sdr={o0},Obj={o2},Evt<Sig={s1:2},Pool={u3},Ref={u4}>,Que<Free={u5},Min={u6}>",
		 SONDE_EV_RECORD, 2, 0, NO, 2, NULL, 0 },
	[15] = { "QS_QF_ACTIVE_POST_LIFO", PFX_TS, "AO-LIFO", "SO11QQ",
		 { "sig", "ao", "pool", "ref", "nFree", "nMin" },
		 "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4},Min={u5}>",
		 SONDE_EV_RECORD, 1, NO, NO, 1, NULL, 0 },
	[16] = { "QS_QF_ACTIVE_GET", PFX_TS, "AO-Get", "SO11Q", { "sig", "ao", "pool", "ref", "nFree" },
		 "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4}>",
		 SONDE_EV_RECORD, 1, NO, NO, 1, NULL, 0 },
	[17] = { "QS_QF_ACTIVE_GET_LAST", PFX_TS, "AO-GetL", "SO11", { "sig", "ao", "pool", "ref" },
		 "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>", SONDE_EV_RECORD, 1, NO, NO, 1, NULL, 0 },
	[18] = { "QS_QF_ACTIVE_RECALL_ATTEMPT", PFX_TS, "AO-RCllA", "OO", { "ao", "queue" },
		 "Obj={o0},Que={o1}", SONDE_EV_RECORD, 0, 1, NO, 0, NULL, 0 },
	[19] = { "QS_QF_EQUEUE_POST", PFX_TS, "EQ-Post", "SO11QQ",
		 { "sig", "queue", "pool", "ref", "nFree", "nMin" },
		 "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4},Min={u5}>",
		 SONDE_EV_RECORD, 1, NO, NO, NO, NULL, 0 },
	[20] = { "QS_QF_EQUEUE_POST_LIFO", PFX_TS, "EQ-LIFO", "SO11QQ",
		 { "sig", "queue", "pool", "ref", "nFree", "nMin" },
		 "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4},Min={u5}>",
		 SONDE_EV_RECORD, 1, NO, NO, NO, NULL, 0 },
	[21] = { "QS_QF_EQUEUE_GET", PFX_TS, "EQ-Get", "SO11Q", { "sig", "queue", "pool", "ref", "nFree" },
		 "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4}>",
		 SONDE_EV_RECORD, 1, NO, NO, NO, NULL, 0 },
	[22] = { "QS_QF_EQUEUE_GET_LAST", PFX_TS, "EQ-GetL", "SO11", { "sig", "queue", "pool", "ref" },
		 "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>", SONDE_EV_RECORD, 1, NO, NO, NO, NULL, 0 },
	[23] = { "QS_QF_NEW_ATTEMPT", PFX_TS, "QF-NewA", "ES", { "size", "sig" },
		 "Sig={s1},Size={u0}", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[24] = { "QS_QF_MPOOL_GET", PFX_TS, "MP-Get", "OPP", { "pool", "nFree", "nMin" },
		 "Obj={o0},Free={u1},Min={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[25] = { "QS_QF_MPOOL_PUT", PFX_TS, "MP-Put", "OP", { "pool", "nFree" },
		 "Obj={o0},Free={u1}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[26] = { "QS_QF_PUBLISH", PFX_TS, "QF-Pub", "OS11", { "sender", "sig", "pool", "ref" },
		 "Sdr={o0},Evt<Sig={s1},Pool={u2},Ref={u3}>", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[27] = { "QS_QF_NEW_REF", PFX_TS, "QF-NewRf", "S11", { "sig", "pool", "ref" },
		 "Evt<Sig={s0},Pool={u1},Ref={u2}>", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[28] = { "QS_QF_NEW", PFX_TS, "QF-New", "ES", { "size", "sig" },
		 "Sig={s1},Size={u0}", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[29] = { "QS_QF_GC_ATTEMPT", PFX_TS, "QF-gcA", "S11", { "sig", "pool", "ref" },
		 "Evt<Sig={s0},Pool={u1},Ref={u2}>", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[30] = { "QS_QF_GC", PFX_TS, "QF-gc", "S11", { "sig", "pool", "ref" },
		 "Evt<Sig={s0},Pool={u1},Ref={u2}>", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[31] = { "QS_QF_TICK", PFX_NONE, "Tick<{u1}>", "C1", { "ctr", "rate" },
		 "Ctr={c0}", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[32] = { "QS_QF_TIMEEVT_ARM", PFX_TS, "TE{u4}-Arm", "OOCC1",
		 { "te", "ao", "nTicks", "interval", "rate" },
		 "Obj={o0},AO={o1},Tim={u2},Int={u3}", SONDE_EV_RECORD, 0, 1, NO, 1, NULL, 0 },
	[33] = { "QS_QF_TIMEEVT_AUTO_DISARM", PFX_NONE, "TE{u2}-ADis", "OO1", { "te", "ao", "rate" },
		 "Obj={o0},AO={o1}", SONDE_EV_RECORD, 0, 1, NO, 1, NULL, 0 },
	[34] = { "QS_QF_TIMEEVT_DISARM_ATTEMPT", PFX_TS, "TE{u2}-DisA", "OO1", { "te", "ao", "rate" },
		 "Obj={o0},AO={o1}", SONDE_EV_RECORD, 0, 1, NO, 1, NULL, 0 },
	[35] = { "QS_QF_TIMEEVT_DISARM", PFX_TS, "TE{u4}-Dis", "OOCC1",
		 { "te", "ao", "ctr", "interval", "rate" },
		 "Obj={o0},AO={o1},Tim={u2},Int={u3}", SONDE_EV_RECORD, 0, 1, NO, 1, NULL, 0 },
	[36] = { "QS_QF_TIMEEVT_REARM", PFX_TS, "TE{u4}-Rarm", "OOCC11",
		 { "te", "ao", "ctr", "interval", "rate", "wasArmed" },
		 "Obj={o0},AO={o1},Tim={u2},Int={u3},Was={u5}", SONDE_EV_RECORD, 0, 1, NO, 1, NULL, 0 },
	[37] = { "QS_QF_TIMEEVT_POST", PFX_TS, "TE{u3}-Post", "OSO1", { "te", "sig", "ao", "rate" },
		 "Obj={o0},Sig={s1:2},AO={o2}", SONDE_EV_RECORD, 0, 2, NO, 2, NULL, 0 },
	[38] = { "QS_QF_DELETE_REF", PFX_TS, "QF-DelRf", "S11", { "sig", "pool", "ref" },
		 "Evt<Sig={s0},Pool={u1},Ref={u2}>", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[39] = { "QS_QF_CRIT_ENTRY", PFX_TS, "QF-CritE", "1", { "nest" },
		 "Nest={u0}", SONDE_EV_RECORD, NO, NO, 0, NO, NULL, 0 },
	[40] = { "QS_QF_CRIT_EXIT", PFX_TS, "QF-CritX", "1", { "nest" },
		 "Nest={u0}", SONDE_EV_RECORD, NO, NO, 0, NO, NULL, 0 },
	[41] = { "QS_QF_ISR_ENTRY", PFX_TS, "QF-IsrE", "11", { "nest", "prio" },
		 "Nest={u0},Pri={u1}", SONDE_EV_ISR_ENTER, 1, NO, 0, NO, NULL, 0 },
	[42] = { "QS_QF_ISR_EXIT", PFX_TS, "QF-IsrX", "11", { "nest", "prio" },
		 "Nest={u0},Pri={u1}", SONDE_EV_ISR_EXIT, 1, NO, 0, NO, NULL, 0 },
	[45] = { "QS_QF_ACTIVE_POST_ATTEMPT", PFX_TS, "AO-PostA", "OSO11QQ",
		 { "sender", "sig", "ao", "pool", "ref", "nFree", "margin" },
		 "Sdr={o0},Obj={o2},Evt<Sig={s1:2},Pool={u3},Ref={u4}>,Que<Free={u5},Mar={u6}>",
		 SONDE_EV_RECORD, 2, 0, NO, 2, NULL, 0 },
	[46] = { "QS_QF_EQUEUE_POST_ATTEMPT", PFX_TS, "EQ-PostA", "SO11QQ",
		 { "sig", "queue", "pool", "ref", "nFree", "margin" },
		 "Obj={o1},Evt<Sig={s0:1},Pool={u2},Ref={u3}>,Que<Free={u4},Mar={u5}>",
		 SONDE_EV_RECORD, 1, NO, NO, NO, NULL, 0 },
	[47] = { "QS_QF_MPOOL_GET_ATTEMPT", PFX_TS, "MP-GetA", "OPP", { "pool", "nFree", "margin" },
		 "Obj={o0},Free={u1},Mar={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	/* Scheduler records identify threads by priority, not by address. */
	[48] = { "QS_SCHED_PREEMPT", PFX_TS, "Sch-Pre", "11", { "prio", "prev" },
		 "Pri={u1}->{u0}", SONDE_EV_TASK_IN, 0, NO, NO, NO, NULL, 0 },
	[49] = { "QS_SCHED_RESTORE", PFX_TS, "Sch-Rest", "11", { "prio", "prev" },
		 "Pri={u1}->{u0}", SONDE_EV_TASK_IN, 0, NO, NO, NO, NULL, 0 },
	[50] = { "QS_SCHED_LOCK", PFX_TS, "Sch-Lock", "11", { "prevCeil", "newCeil" },
		 "Ceil={u0}->{u1}", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[51] = { "QS_SCHED_UNLOCK", PFX_TS, "Sch-Unlk", "11", { "prevCeil", "newCeil" },
		 "Ceil={u0}->{u1}", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[52] = { "QS_SCHED_NEXT", PFX_TS, "Sch-Next", "11", { "next", "prev" },
		 "Pri={u1}->{u0}", SONDE_EV_TASK_IN, 0, NO, NO, NO, NULL, 0 },
	[53] = { "QS_SCHED_IDLE", PFX_TS, "Sch-Idle", "1", { "prev" },
		 "Pri={u0}->0", SONDE_EV_IDLE, NO, NO, 0, NO, NULL, 0 },
	[54] = { "QS_ENUM_DICT", PFX_NONE, "Enum-Dic", "11Z", { "value", "group", "name" },
		 "{d0},Grp={u1}->{z2}", SONDE_EV_DICT, NO, NO, NO, NO, NULL, HK_ENUM_DICT },
	[55] = { "QS_QEP_TRAN_HIST", PFX_RTC, "St-Hist", "OFF", { "sm", "source", "target" },
		 "Obj={o0},State={f1}->{f2}", SONDE_EV_STATE, 0, 2, NO, NO, "hist", 0 },
	[56] = { "QS_QEP_TRAN_EP", PFX_RTC, "St-EP", "OFF", { "sm", "source", "target" },
		 "Obj={o0},State={f1}->{f2}", SONDE_EV_STATE, 0, 2, NO, NO, "ep", 0 },
	[57] = { "QS_QEP_TRAN_XP", PFX_RTC, "St-XP", "OFF", { "sm", "source", "target" },
		 "Obj={o0},State={f1}->{f2}", SONDE_EV_STATE, 0, 2, NO, NO, "xp", 0 },
	[58] = { "QS_TEST_PAUSED", PFX_NONE, "TstPause", "", { NULL },
		 "", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[59] = { "QS_TEST_PROBE_GET", PFX_TS, "TstProbe", "F4", { "api", "data" },
		 "Fun={f0},Data={u1}", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[60] = { "QS_SIG_DICT", PFX_NONE, "Sig-Dict", "SOZ", { "sig", "obj", "name" },
		 "{n0},Obj={k1}->{z2}", SONDE_EV_DICT, NO, NO, NO, NO, NULL, HK_SIG_DICT },
	[61] = { "QS_OBJ_DICT", PFX_NONE, "Obj-Dict", "OZ", { "obj", "name" },
		 "{k0}->{z1}", SONDE_EV_DICT, NO, NO, NO, NO, NULL, HK_OBJ_DICT },
	[62] = { "QS_FUN_DICT", PFX_NONE, "Fun-Dict", "FZ", { "fun", "name" },
		 "{K0}->{z1}", SONDE_EV_DICT, NO, NO, NO, NO, NULL, HK_FUN_DICT },
	[63] = { "QS_USR_DICT", PFX_NONE, "Usr-Dict", "1Z", { "rec", "name" },
		 "{n0}->{z1}", SONDE_EV_DICT, NO, NO, NO, NO, NULL, HK_USR_DICT },
	[64] = { "QS_TARGET_INFO", PFX_NONE, NULL, NULL, { NULL }, NULL, 0, NO, NO, NO, NO, NULL, 0 },
	[65] = { "QS_TARGET_DONE", PFX_TS, "Trg-Done", "1", { "rx_rec" },
		 "{r0}", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[66] = { "QS_RX_STATUS", PFX_NONE, "Trg-Ack", "1", { "status" },
		 "{r0}", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[67] = { "QS_QUERY_DATA", PFX_TS, NULL, NULL, { NULL }, NULL, 0, NO, NO, NO, NO, NULL, 0 },
	[68] = { "QS_PEEK_DATA", PFX_TS, NULL, NULL, { NULL }, NULL, 0, NO, NO, NO, NO, NULL, 0 },
	[69] = { "QS_ASSERT_FAIL", PFX_TS, "=ASSERT=", "2Z", { "loc", "module" },
		 "Mod={z1},Loc={u0}", SONDE_EV_LOG, NO, NO, NO, NO, NULL, 0 },
	[70] = { "QS_QF_RUN", PFX_NONE, "QF_RUN", "", { NULL },
		 "", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	[71] = { "QS_SEM_TAKE", PFX_TS, "Sem-Take", "O11", { "sema", "thread", "count" },
		 "Obj={o0},Thr={u1},Cnt={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[72] = { "QS_SEM_BLOCK", PFX_TS, "Sem-Blk", "O11", { "sema", "thread", "count" },
		 "Obj={o0},Thr={u1},Cnt={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[73] = { "QS_SEM_SIGNAL", PFX_TS, "Sem-Sgnl", "O11", { "sema", "thread", "count" },
		 "Obj={o0},Thr={u1},Cnt={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[74] = { "QS_SEM_BLOCK_ATTEMPT", PFX_TS, "Sem-BlkA", "O11", { "sema", "thread", "count" },
		 "Obj={o0},Thr={u1},Cnt={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[75] = { "QS_MTX_LOCK", PFX_TS, "Mtx-Lock", "O11", { "mutex", "holder", "nest" },
		 "Obj={o0},Holder={u1},Nest={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[76] = { "QS_MTX_BLOCK", PFX_TS, "Mtx-Blk", "O11", { "mutex", "holder", "thread" },
		 "Obj={o0},Holder={u1},Thr={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[77] = { "QS_MTX_UNLOCK", PFX_TS, "Mtx-Unlk", "O11", { "mutex", "holder", "nest" },
		 "Obj={o0},Holder={u1},Nest={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[78] = { "QS_MTX_LOCK_ATTEMPT", PFX_TS, "Mtx-LckA", "O11", { "mutex", "holder", "nest" },
		 "Obj={o0},Holder={u1},Nest={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[79] = { "QS_MTX_BLOCK_ATTEMPT", PFX_TS, "Mtx-BlkA", "O11", { "mutex", "holder", "thread" },
		 "Obj={o0},Holder={u1},Thr={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },
	[80] = { "QS_MTX_UNLOCK_ATTEMPT", PFX_TS, "Mtx-UlkA", "O11", { "mutex", "holder", "nest" },
		 "Obj={o0},Holder={u1},Nest={u2}", SONDE_EV_RECORD, 0, NO, NO, NO, NULL, 0 },

	/* QS_QUERY_DATA by query kind (the byte after the timestamp); the
	 * last row is for kinds QS 7.4 does not define. */
	[ROW_QUERY + 0] = { "QS_QUERY_DATA", PFX_TS, "Query-SM", "1OF", { "kind", "obj", "state" },
			    "Obj={o1},State={f2}", SONDE_EV_RECORD, 1, 2, NO, NO, NULL, 0 },
	[ROW_QUERY + 1] = { "QS_QUERY_DATA", PFX_TS, "Query-AO", "1OF", { "kind", "obj", "state" },
			    "Obj={o1},State={f2}", SONDE_EV_RECORD, 1, 2, NO, 1, NULL, 0 },
	[ROW_QUERY + 2] = { "QS_QUERY_DATA", PFX_TS, "Query-MP", "1OPP", { "kind", "obj", "nFree", "nMin" },
			    "Obj={o1},Free={u2},Min={u3}", SONDE_EV_RECORD, 1, NO, NO, NO, NULL, 0 },
	[ROW_QUERY + 3] = { "QS_QUERY_DATA", PFX_TS, "Query-EQ", "1OQQ", { "kind", "obj", "nFree", "nMin" },
			    "Obj={o1},Que<Free={u2},Min={u3}>", SONDE_EV_RECORD, 1, NO, NO, NO, NULL, 0 },
	[ROW_QUERY + 4] = { "QS_QUERY_DATA", PFX_TS, "Query-TE", "1OOCCS1",
			    { "kind", "te", "ao", "ctr", "interval", "sig", "rate_flags" },
			    "Obj={o1},Rate={l6},Sig={s5:2},Tim={u3},Int={u4},Flags={h6}",
			    SONDE_EV_RECORD, 1, 2, NO, NO, NULL, 0 },
	[ROW_QUERY + 5] = { "QS_QUERY_DATA", PFX_TS, "Query-AP", "1O", { "kind", "obj" },
			    "Obj={o1}", SONDE_EV_RECORD, 1, NO, NO, NO, NULL, 0 },
	[ROW_QUERY + 6] = { "QS_QUERY_DATA", PFX_TS, "Query-{u0}", "1O", { "kind", "obj" },
			    "Obj={o1}", SONDE_EV_RECORD, 1, NO, NO, NO, NULL, 0 },
	[ROW_RX_ERROR] = { "QS_RX_STATUS", PFX_NONE, "Trg-ERR", "1", { "status" },
			   "{r0}", SONDE_EV_RECORD, NO, NO, NO, NO, NULL, 0 },
	/* record 81 exists from QS 8.0 on (in 7.4 the id is QS_PRE_MAX, never sent) */
	[ROW_DEFER_8X] = { "QS_QF_ACTIVE_DEFER_ATTEMPT", PFX_TS, "AO-DefrA", "OOS11",
			   { "ao", "queue", "sig", "pool", "ref" },
			   "Obj={o0},Que={o1},Evt<Sig={s2:0},Pool={u3},Ref={u4}>", SONDE_EV_RECORD, 0, 1, NO, 0,
			   NULL, 0 },
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
	if (rec == 81)
		return is_8x(d) ? &rows[ROW_DEFER_8X] : NULL;
	if ((rec == 56 || rec == 57) && is_8x(d))
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
	if (r.pos < r.n)
		qs_diag(d, SONDE_D_MALFORMED, 2 + r.pos, r.n - r.pos, "%zu bytes unused in Rec=%s",
			r.n - r.pos, rw->name);
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
	case 68:
		decode_peek(d, f);
		return;
	case 66:
		decode_row(d, f, f->len >= 1 && (f->data[0] & 0x80) ? &rows[ROW_RX_ERROR] : &rows[66]);
		return;
	case 67: {
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
