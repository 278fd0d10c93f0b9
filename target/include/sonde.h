/*
 * sonde.h -- the Sonde target tracer: the whole public API.
 *
 * C99, freestanding (no malloc, no stdio), ISR-safe.  Records go into a RAM
 * ring buffer the application supplies, already framed (docs/protocol.md);
 * a transport drains it in blocks or bytes from wherever it likes (idle loop,
 * UART TX interrupt, DMA completion).
 *
 * With SONDE_ENABLED 0 every record call compiles to nothing: the functions
 * become empty static inline functions, so arguments are still type-checked
 * and the optimiser removes the calls.  At run time a record that the filters
 * remove costs one filter test.
 */
#ifndef SONDE_H
#define SONDE_H

#include <stddef.h>
#include <stdint.h>

#include "sonde_config.h"
#include "sonde_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The record calls are inline functions: their filter test belongs at the
 * call site, and GCC at -Os would otherwise outline some into a second call
 * level. */
#if defined(__GNUC__)
/* no_instrument_function: in a program built with -finstrument-functions
 * (Sonde's own function profiling) an inline record call would otherwise
 * get the hooks too, and the exit hook would call itself. */
#define SONDE_API_INLINE static inline __attribute__((always_inline, no_instrument_function))
#else
#define SONDE_API_INLINE static inline
#endif

/* ---- counters the application (and the host, via TARGET_STATS) can read */
typedef struct {
	uint32_t records;     /* records written (frames with a sequence number) */
	uint32_t overwritten; /* records overwritten in the buffer before being drained */
	uint32_t refused;     /* records refused (buffer full, snapshot full, frozen) */
	uint32_t bytes;       /* bytes written into the buffer, framing included */
	uint32_t stopped;     /* records not made while tracing was stopped (sonde_stop):
			       * not a loss, counted apart */
} sonde_stats_t;

#if SONDE_ENABLED

/* ---- life cycle ------------------------------------------------------- */

/* Start tracing into buf[size] in the given mode (SONDE_MODE_*).  Writes
 * EMPTY and TARGET_INFO (reset flag set).  All filters start enabled. */
void sonde_init(uint8_t *buf, size_t size, uint8_t mode);

/* Stop accepting records (they are counted as "stopped", apart from losses)
 * / accept again.
 * sonde_start() also forces a TIME_SYNC before the next timed record. */
void sonde_stop(void);
void sonde_start(void);

/* Post-mortem: freeze the buffer now (call from a fault handler or on a
 * condition); snapshot: stop early.  Afterwards the buffer holds the newest
 * whole frames; drain it, then sonde_start() to record again. */
void sonde_trigger(void);

/* 1 while the buffer accepts records. */
int sonde_is_running(void);

/* The application's dictionary callback: it calls sonde_dict() for every
 * name it wants the host to know.  sonde_send_info() writes TARGET_INFO (no
 * reset flag) and calls it; the host asks for this after joining late. */
void sonde_set_dict_callback(void (*cb)(void));
void sonde_send_info(void);

/* A dictionary entry (kind SONDE_DICT_*).  Never filtered. */
void sonde_dict(uint8_t kind, uint32_t id, const char *name);

/* Force a TIME_SYNC now (e.g. from a slow periodic tick, so that absolute
 * time stays exact across long silences; see docs/protocol.md §5). */
void sonde_time_sync(void);

/* The periodic tick (optional): call it from a periodic interrupt (an RTOS
 * tick, the SysTick handler), any context, at least once per 2^27 ticks of
 * the trace clock.  It counts the 32-bit clock's wraps, so the 64-bit time
 * stays exact across silences of any length, and after 2^27 ticks without a
 * timed record it writes a TIME_SYNC, so that the next record's gap still
 * fits its 28-bit timestamp and the record costs what it always costs.
 * Without it, a record after a silence of 2^28 ticks or more writes the
 * TIME_SYNC itself (the slow path), and a silence of 2^32 ticks or more
 * must contain some timed record or sonde_time_sync() for exact time
 * (docs/protocol.md section 5). */
void sonde_tick(void);

void sonde_get_stats(sonde_stats_t *out);

/* ---- filters ---------------------------------------------------------- */

/* Global filter: one bit per record id 0x00..0x7F. */
void sonde_filter_record(uint8_t rec, int on);
void sonde_filter_all_records(int on);
/* Local filter: one bit per object id 0..255 (ISRs, tasks, markers, counters). */
void sonde_filter_object(uint8_t obj, int on);
void sonde_filter_all_objects(int on);
int sonde_record_enabled(uint8_t rec);
int sonde_object_enabled(uint8_t obj);

/* ---- the filters, tested inline at every record call ----------------- */
/*
 * Kept by sonde_filter.c; an application changes them only through the
 * sonde_filter_*() functions above.  obj has one byte per object id: bit 7
 * (SONDE_OF_LOCAL) is that object's local bit; bits 0, 1, 3..6 are it ANDed
 * with the global bit of the record named below, so those records test both
 * filters with one load; bit 2 (SONDE_OF_USER) says that the same number,
 * as a user record id (0x40..0x7F), is enabled.  rec is the global filter,
 * bit r % 8 of byte r / 8 for record id r.  A filtered record costs its
 * call site one load, one test and one branch (and the load of the
 * table's address), and nothing else.
 */
struct sonde_filters {
	uint8_t obj[256];
	uint8_t rec[SONDE_REC_COUNT / 8u];
};
extern struct sonde_filters sonde_filters_;

#define SONDE_OF_ISR_ENTER  0x01u
#define SONDE_OF_ISR_EXIT   0x02u
#define SONDE_OF_USER       0x04u
#define SONDE_OF_TASK_IN    0x08u
#define SONDE_OF_TASK_OUT   0x10u
#define SONDE_OF_TASK_READY 0x20u
#define SONDE_OF_COUNTER    0x40u
#define SONDE_OF_LOCAL      0x80u

SONDE_API_INLINE int sonde_obj_on_(uint32_t bit, uint8_t obj)
{
	return (sonde_filters_.obj[obj] & bit) != 0u;
}

SONDE_API_INLINE int sonde_rec_on_(uint32_t rec)
{
	return (sonde_filters_.rec[rec >> 3] >> (rec & 7u) & 1u) != 0u;
}

/* The record functions proper, called once the filters passed (not for
 * application use: call the sonde_* functions below).  Records of one shape
 * share one function:
 *   sonde_w_obj     a one-byte object id (ISR enter, TASK_IN, markers)
 *   sonde_w_small   0 or 2 payload bytes: hdr = id | b0 << 8 | b1 << 16 |
 *                   n << 24 (ISR exit, TASK_OUT, FUNC_ENTER, ...)
 *   sonde_w_u32x2   a user record with two U32 arguments
 *   sonde_w_word    1 to 4 untyped payload bytes in one little-endian
 *                   word, id_n = id | n << 8 (the RTOS records TASK_SWITCH
 *                   and OBJ_OP with a 1- or 2-byte value, sonde_rtos.h:
 *                   the frequent kernel events)
 *   sonde_w_gen     up to 3 prefix bytes (in hdr above the id), then 0, 1
 *                   or 2 32-bit words, each after an U32 type code if
 *                   typed (shape: SONDE_W_SHAPE): counters, logs, ... */
void sonde_w_obj(uint32_t id, uint32_t obj);
void sonde_w_small(uint32_t hdr);
void sonde_w_u32x2(uint32_t rec, uint32_t a, uint32_t b);
void sonde_w_word(uint32_t id_n, uint32_t w);
void sonde_w_gen(uint32_t hdr, uint32_t a, uint32_t b, uint32_t shape);

/* sonde_w_gen shape: prefix bytes (0..3), words (0..2), typed (0, 1). */
#define SONDE_W_SHAPE(npre, nwords, typed) ((npre) | (nwords) << 2 | (typed) << 4)

/* ---- system events ---------------------------------------------------- */

SONDE_API_INLINE void sonde_isr_enter(uint8_t isr)
{
	if (sonde_obj_on_(SONDE_OF_ISR_ENTER, isr))
		sonde_w_obj(SONDE_REC_ISR_ENTER, isr);
}

/* The id only selects the local filter bit, so enter and exit of an ISR are
 * filtered as a pair; the wire record has no id (exits nest strictly). */
SONDE_API_INLINE void sonde_isr_exit(uint8_t isr)
{
	if (sonde_obj_on_(SONDE_OF_ISR_EXIT, isr))
		sonde_w_small(SONDE_REC_ISR_EXIT);
}

SONDE_API_INLINE void sonde_task_create(uint8_t task, uint8_t prio)
{
	if (sonde_rec_on_(SONDE_REC_TASK_CREATE) && sonde_obj_on_(SONDE_OF_LOCAL, task))
		sonde_w_small(SONDE_REC_TASK_CREATE | (uint32_t)task << 8 | (uint32_t)prio << 16 | 2u << 24);
}

SONDE_API_INLINE void sonde_task_in(uint8_t task)
{
	if (sonde_obj_on_(SONDE_OF_TASK_IN, task))
		sonde_w_obj(SONDE_REC_TASK_IN, task);
}

/* reason: SONDE_TASK_* */
SONDE_API_INLINE void sonde_task_out(uint8_t task, uint8_t reason)
{
	if (sonde_obj_on_(SONDE_OF_TASK_OUT, task))
		sonde_w_small(SONDE_REC_TASK_OUT | (uint32_t)task << 8 | (uint32_t)reason << 16 | 2u << 24);
}

SONDE_API_INLINE void sonde_task_ready(uint8_t task)
{
	if (sonde_obj_on_(SONDE_OF_TASK_READY, task))
		sonde_w_obj(SONDE_REC_TASK_READY, task);
}

SONDE_API_INLINE void sonde_idle(void)
{
	if (sonde_rec_on_(SONDE_REC_IDLE))
		sonde_w_small(SONDE_REC_IDLE);
}

/* Markers test the global and the local filter separately. */
SONDE_API_INLINE void sonde_mark_rec_(uint32_t rec, uint8_t marker)
{
	if (sonde_rec_on_(rec) && sonde_obj_on_(SONDE_OF_LOCAL, marker))
		sonde_w_obj(rec, marker);
}

SONDE_API_INLINE void sonde_mark(uint8_t marker)
{
	sonde_mark_rec_(SONDE_REC_MARK, marker);
}

SONDE_API_INLINE void sonde_mark_begin(uint8_t marker)
{
	sonde_mark_rec_(SONDE_REC_MARK_BEGIN, marker);
}

SONDE_API_INLINE void sonde_mark_end(uint8_t marker)
{
	sonde_mark_rec_(SONDE_REC_MARK_END, marker);
}

/* COUNTER: the object id, then the value in 4 bytes (32-bit) or 8. */
SONDE_API_INLINE void sonde_counter(uint8_t counter, int32_t value)
{
	if (sonde_obj_on_(SONDE_OF_COUNTER, counter))
		sonde_w_gen(SONDE_REC_COUNTER | (uint32_t)counter << 8, (uint32_t)value, 0u,
			      SONDE_W_SHAPE(1u, 1u, 0u));
}

SONDE_API_INLINE void sonde_counter64(uint8_t counter, int64_t value)
{
	if (sonde_obj_on_(SONDE_OF_COUNTER, counter))
		sonde_w_gen(SONDE_REC_COUNTER | (uint32_t)counter << 8, (uint32_t)(uint64_t)value,
			      (uint32_t)((uint64_t)value >> 32), SONDE_W_SHAPE(1u, 2u, 0u));
}

SONDE_API_INLINE void sonde_func_enter(uint16_t func)
{
	if (sonde_rec_on_(SONDE_REC_FUNC_ENTER))
		sonde_w_small(SONDE_REC_FUNC_ENTER | (uint32_t)func << 8 | 2u << 24);
}

/* The address in SONDE_ADDR_SIZE bytes. */
void sonde_func_enter_addr(const void *addr);

SONDE_API_INLINE void sonde_func_exit(void)
{
	if (sonde_rec_on_(SONDE_REC_FUNC_EXIT))
		sonde_w_small(SONDE_REC_FUNC_EXIT);
}

/* ---- user records and logs ------------------------------------------- */
/*
 * A user record (id SONDE_REC_USER_FIRST..SONDE_REC_USER_LAST) or a log
 * record is built between a begin and an end call, inside one critical
 * section:
 *
 *     if (sonde_user_begin(0x40)) {
 *         sonde_arg_u32(speed);
 *         sonde_arg_str(name);
 *         sonde_user_end();
 *     }
 *
 * begin returns 0 (and nothing else must be called) when the record is
 * filtered out or refused.  Keep the code between begin and end short: it
 * runs with interrupts masked.  A record that does not fit is refused as a
 * whole at end (counted), never written in part.  User record ids outside
 * 0x40..0x7F are ignored, like filtered ones.
 */
int sonde_user_begin(uint8_t rec);
int sonde_log_begin(uint8_t level, uint16_t fmt);
void sonde_user_end(void);
#define sonde_log_end sonde_user_end

void sonde_arg_u8(uint8_t v);
void sonde_arg_u16(uint16_t v);
void sonde_arg_u32(uint32_t v);
void sonde_arg_u64(uint64_t v);
void sonde_arg_i8(int8_t v);
void sonde_arg_i16(int16_t v);
void sonde_arg_i32(int32_t v);
void sonde_arg_i64(int64_t v);
void sonde_arg_f32(float v);
void sonde_arg_f64(double v);
void sonde_arg_str(const char *s);
void sonde_arg_mem(const void *p, uint8_t n);
void sonde_arg_obj(uint8_t obj);
void sonde_arg_func(const void *addr);
void sonde_arg_enum(uint8_t group, uint8_t value);

/* Common shapes in one call (one critical section, no per-argument calls). */
SONDE_API_INLINE void sonde_user_u32(uint8_t rec, uint32_t a)
{
	if (sonde_obj_on_(SONDE_OF_USER, rec))
		sonde_w_gen(rec, a, 0u, SONDE_W_SHAPE(0u, 1u, 1u));
}

SONDE_API_INLINE void sonde_user_u32x2(uint8_t rec, uint32_t a, uint32_t b)
{
	if (sonde_obj_on_(SONDE_OF_USER, rec))
		sonde_w_u32x2(rec, a, b);
}

SONDE_API_INLINE void sonde_log_u32(uint8_t level, uint16_t fmt, uint32_t a)
{
	if (sonde_rec_on_(SONDE_REC_LOG))
		sonde_w_gen(SONDE_REC_LOG | (uint32_t)level << 8 | (uint32_t)fmt << 16, a, 0u,
			      SONDE_W_SHAPE(3u, 1u, 1u));
}

SONDE_API_INLINE void sonde_log_u32x2(uint8_t level, uint16_t fmt, uint32_t a, uint32_t b)
{
	if (sonde_rec_on_(SONDE_REC_LOG))
		sonde_w_gen(SONDE_REC_LOG | (uint32_t)level << 8 | (uint32_t)fmt << 16, a, b,
			      SONDE_W_SHAPE(3u, 2u, 1u));
}

/* ---- drain (transport side) ------------------------------------------ */

/* Copy up to max bytes of framed trace into dst; returns the count (0 when
 * empty).  Safe against producers in ISRs: the copy runs in short critical
 * sections.  Bytes can be sent in any chunks: frames need no alignment.
 * Snapshot and post-mortem buffers give nothing while they record: they
 * are read out once frozen (sonde_trigger(), a full snapshot, or the
 * host's TRIGGER/READOUT) or stopped (sonde_stop(), STOP). */
size_t sonde_drain(uint8_t *dst, size_t max);
/* One byte, or -1 when empty (for a UART TX interrupt). */
int sonde_drain_byte(void);
/* Bytes waiting to be drained (0 while a snapshot or post-mortem buffer
 * records). */
size_t sonde_pending(void);

#else /* !SONDE_ENABLED: everything compiles to nothing */

static inline void sonde_init(uint8_t *b, size_t s, uint8_t m) { (void)b; (void)s; (void)m; }
static inline void sonde_stop(void) {}
static inline void sonde_start(void) {}
static inline void sonde_trigger(void) {}
static inline int sonde_is_running(void) { return 0; }
static inline void sonde_set_dict_callback(void (*cb)(void)) { (void)cb; }
static inline void sonde_send_info(void) {}
static inline void sonde_dict(uint8_t k, uint32_t i, const char *n) { (void)k; (void)i; (void)n; }
static inline void sonde_time_sync(void) {}
static inline void sonde_tick(void) {}
static inline void sonde_get_stats(sonde_stats_t *o) { o->records = o->overwritten = o->refused = o->bytes = o->stopped = 0; }
static inline void sonde_filter_record(uint8_t r, int on) { (void)r; (void)on; }
static inline void sonde_filter_all_records(int on) { (void)on; }
static inline void sonde_filter_object(uint8_t o, int on) { (void)o; (void)on; }
static inline void sonde_filter_all_objects(int on) { (void)on; }
static inline int sonde_record_enabled(uint8_t r) { (void)r; return 0; }
static inline int sonde_object_enabled(uint8_t o) { (void)o; return 0; }
static inline void sonde_isr_enter(uint8_t i) { (void)i; }
static inline void sonde_isr_exit(uint8_t i) { (void)i; }
static inline void sonde_task_create(uint8_t t, uint8_t p) { (void)t; (void)p; }
static inline void sonde_task_in(uint8_t t) { (void)t; }
static inline void sonde_task_out(uint8_t t, uint8_t r) { (void)t; (void)r; }
static inline void sonde_task_ready(uint8_t t) { (void)t; }
static inline void sonde_idle(void) {}
static inline void sonde_mark(uint8_t m) { (void)m; }
static inline void sonde_mark_begin(uint8_t m) { (void)m; }
static inline void sonde_mark_end(uint8_t m) { (void)m; }
static inline void sonde_counter(uint8_t c, int32_t v) { (void)c; (void)v; }
static inline void sonde_counter64(uint8_t c, int64_t v) { (void)c; (void)v; }
static inline void sonde_func_enter(uint16_t f) { (void)f; }
static inline void sonde_func_enter_addr(const void *a) { (void)a; }
static inline void sonde_func_exit(void) {}
static inline int sonde_user_begin(uint8_t r) { (void)r; return 0; }
static inline int sonde_log_begin(uint8_t l, uint16_t f) { (void)l; (void)f; return 0; }
static inline void sonde_user_end(void) {}
#define sonde_log_end sonde_user_end
static inline void sonde_arg_u8(uint8_t v) { (void)v; }
static inline void sonde_arg_u16(uint16_t v) { (void)v; }
static inline void sonde_arg_u32(uint32_t v) { (void)v; }
static inline void sonde_arg_u64(uint64_t v) { (void)v; }
static inline void sonde_arg_i8(int8_t v) { (void)v; }
static inline void sonde_arg_i16(int16_t v) { (void)v; }
static inline void sonde_arg_i32(int32_t v) { (void)v; }
static inline void sonde_arg_i64(int64_t v) { (void)v; }
static inline void sonde_arg_f32(float v) { (void)v; }
static inline void sonde_arg_f64(double v) { (void)v; }
static inline void sonde_arg_str(const char *s) { (void)s; }
static inline void sonde_arg_mem(const void *p, uint8_t n) { (void)p; (void)n; }
static inline void sonde_arg_obj(uint8_t o) { (void)o; }
static inline void sonde_arg_func(const void *a) { (void)a; }
static inline void sonde_arg_enum(uint8_t g, uint8_t v) { (void)g; (void)v; }
static inline void sonde_user_u32(uint8_t r, uint32_t a) { (void)r; (void)a; }
static inline void sonde_user_u32x2(uint8_t r, uint32_t a, uint32_t b) { (void)r; (void)a; (void)b; }
static inline void sonde_log_u32(uint8_t l, uint16_t f, uint32_t a) { (void)l; (void)f; (void)a; }
static inline void sonde_log_u32x2(uint8_t l, uint16_t f, uint32_t a, uint32_t b) { (void)l; (void)f; (void)a; (void)b; }
static inline size_t sonde_drain(uint8_t *d, size_t m) { (void)d; (void)m; return 0; }
static inline int sonde_drain_byte(void) { return -1; }
static inline size_t sonde_pending(void) { return 0; }

#endif /* SONDE_ENABLED */

/* ==== receive channel: commands from the host (docs/protocol.md §9) =====
 *
 * The host sends command frames on the link's other direction.  Feed every
 * received byte to the parser, from a UART RX interrupt or a polled read:
 *
 *     void UART_RX_IRQHandler(void) { sonde_rx_byte(UART->DATA); }
 *     n = read(fd, blk, sizeof blk); sonde_rx_feed(blk, n);
 *
 * A command runs when its closing flag arrives, inside that call, and
 * writes its reply records into the trace (CMD_STATUS, and PEEK_DATA,
 * TARGET_STATS, TARGET_INFO and the dictionaries where the command asks for
 * them).  The library state it touches is changed in critical sections, so
 * the call may be made from an ISR.  The parser's own state is not locked:
 * sonde_rx_byte() and sonde_rx_feed() must be called from one context at a
 * time (one ISR, or one task), and not from the callbacks they call.
 * Compiled out with SONDE_CFG_RX 0 (sonde_config.h). */

/* Region flags (sonde_rx_region). */
#define SONDE_RX_READ  0x01u /* PEEK may read it */
#define SONDE_RX_WRITE 0x02u /* POKE may write it (needs SONDE_CFG_POKE 1) */

#if SONDE_ENABLED && SONDE_CFG_RX

/* One received byte / n received bytes, in order. */
void sonde_rx_byte(uint8_t b);
void sonde_rx_feed(const uint8_t *p, size_t n);

/* The application's command callback, for the APP command: cmd and three
 * arguments chosen by the application.  It runs in the context that fed the
 * command's flag and returns the status of the reply: 0 (OK) or an
 * application code 0x80..0xFF; any other value is sent as 0xFF.  NULL (the
 * default) answers APP with NOT_SUPPORTED. */
void sonde_rx_set_app_callback(int (*cb)(uint8_t cmd, uint32_t a, uint32_t b, uint32_t c));

/* Let the host PEEK (SONDE_RX_READ) and/or POKE (SONDE_RX_WRITE) the len
 * bytes at start.  Nothing outside the registered regions can be read or
 * written.  Registering the same start again replaces that region's length
 * and flags; flags 0 removes it.  Returns 0, or -1 when the table
 * (SONDE_CFG_RX_REGIONS) is full, len is 0 or the region would run past
 * the top of the address space (and always -1 with the receive channel
 * compiled out).  Register plain memory: PEEK and POKE copy it byte by
 * byte (memcpy), not with the access width a device register may need. */
int sonde_rx_region(const void *start, size_t len, uint8_t flags);

#else /* receive channel compiled out */

static inline void sonde_rx_byte(uint8_t b) { (void)b; }
static inline void sonde_rx_feed(const uint8_t *p, size_t n) { (void)p; (void)n; }
static inline void sonde_rx_set_app_callback(int (*cb)(uint8_t cmd, uint32_t a, uint32_t b, uint32_t c)) { (void)cb; }
static inline int sonde_rx_region(const void *s, size_t l, uint8_t f) { (void)s; (void)l; (void)f; return -1; }

#endif /* SONDE_ENABLED && SONDE_CFG_RX */

#ifdef __cplusplus
}
#endif

#endif /* SONDE_H */
