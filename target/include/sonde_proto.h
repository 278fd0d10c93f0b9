/*
 * sonde_proto.h -- the Sonde wire protocol as numbers.
 *
 * This header is the single source of truth for record ids, argument type
 * codes, dictionary kinds and framing bytes.  It is shared by the target
 * library and the host decoder, so it contains only constants and must stay
 * valid C99 and C11 without any other include.  docs/protocol.md describes
 * every record's bytes; keep the two in step.
 */
#ifndef SONDE_PROTO_H
#define SONDE_PROTO_H

/* Protocol version carried in TARGET_INFO.  A decoder rejects a version it
 * does not know.  Version 2 changed the timestamp of timed records (below)
 * and added DROPS's reset count; version 3 (this one) added to DROPS the
 * frame numbers that make the split of a loss between target and link
 * exact, and the count of records not made while stopped.  The host still
 * decodes versions 1 and 2 (docs/protocol.md section 10). */
#define SONDE_PROTO_VERSION 3u
#define SONDE_PROTO_VERSION_1 1u
#define SONDE_PROTO_VERSION_2 2u

/* HDLC-like framing (QS data protocol). */
#define SONDE_FLAG     0x7Eu /* ends every frame */
#define SONDE_ESC      0x7Du /* escape: next byte is XOR-ed with SONDE_ESC_XOR */
#define SONDE_ESC_XOR  0x20u
#define SONDE_GOOD_SUM 0xFFu /* sum of seq+id+data+checksum, mod 256 */

/* Timestamp of a timed record (version 2): the ticks since the previous
 * timed frame, 1 to 4 bytes little-endian at the END of DATA, right before
 * CHK.  The top bits of its last byte (the most significant) say how many
 * bytes it has:
 *   0xxxxxxx                               1 byte,  7 bits: 0 .. 0x7F
 *   10xxxxxx xxxxxxxx                      2 bytes, 14 bits: .. 0x3FFF
 *   110xxxxx + 2 bytes                     3 bytes, 21 bits: .. 0x1FFFFF
 *   1110xxxx + 3 bytes                     4 bytes, 28 bits: .. 0xFFFFFFF
 *   1111xxxx                               invalid
 * (bytes shown most significant first; on the wire the tag byte is the
 * last of the field).  A gap of 2^28 ticks or more takes a TIME_SYNC. */
#define SONDE_TS_MAX_BYTES 4u
#define SONDE_TS_TAG2      0x8000u     /* 2-byte field: delta | this */
#define SONDE_TS_TAG3      0xC00000u
#define SONDE_TS_TAG4      0xE0000000u
#define SONDE_TS_LIMIT1    0x80u       /* deltas below this fit in 1 byte */
#define SONDE_TS_LIMIT2    0x4000u
#define SONDE_TS_LIMIT3    0x200000u
#define SONDE_TS_LIMIT4    0x10000000u /* 2^28: at or above, TIME_SYNC */

/* Version 1's timestamp: the low 16 bits of the tick counter, 2 bytes at
 * the START of DATA (decoded by the host only). */
#define SONDE_TS_BYTES_V1 2u

/* TARGET_INFO byte 5, the timestamp size: 2 in version 1; 0 ("variable")
 * in version 2. */
#define SONDE_INFO_TS_VARIABLE 0u

/* TIME_SYNC: u64 time, u32 since_prev (ticks since the previous timed
 * frame: record or TIME_SYNC); since_prev when the target does not know
 * it. */
#define SONDE_SYNC_BYTES         12u
#define SONDE_SYNC_SINCE_UNKNOWN 0xFFFFFFFFu

/* TARGET_STATS's fields: records, overwritten, refused, bytes, and in
 * version 3 stopped. */
#define SONDE_STATS_BYTES    20u
#define SONDE_STATS_BYTES_V2 16u

/* DROPS's fields (the timestamp field not counted), by version. */
#define SONDE_DROPS_BYTES    21u
#define SONDE_DROPS_BYTES_V2 9u
#define SONDE_DROPS_BYTES_V1 8u

/* ---- record ids: 0x00..0x3F system, 0x40..0x7F user ------------------- */
#define SONDE_REC_EMPTY        0x00u /* no payload; first frame after init */
#define SONDE_REC_TARGET_INFO  0x01u
#define SONDE_REC_TIME_SYNC    0x02u
#define SONDE_REC_DROPS        0x03u /* v3: u32 overwritten, u32 refused, u8 resets,
				       * u32 stopped, u32 frame, u32 oldest */
#define SONDE_REC_DICT         0x04u
#define SONDE_REC_ISR_ENTER    0x05u
#define SONDE_REC_ISR_EXIT     0x06u
#define SONDE_REC_TASK_CREATE  0x07u
#define SONDE_REC_TASK_IN      0x08u
#define SONDE_REC_TASK_OUT     0x09u
#define SONDE_REC_TASK_READY   0x0Au
#define SONDE_REC_IDLE         0x0Bu
#define SONDE_REC_MARK         0x0Cu
#define SONDE_REC_MARK_BEGIN   0x0Du
#define SONDE_REC_MARK_END     0x0Eu
#define SONDE_REC_COUNTER      0x0Fu
#define SONDE_REC_FUNC_ENTER   0x10u
#define SONDE_REC_FUNC_ENTER_A 0x11u /* function given by address */
#define SONDE_REC_FUNC_EXIT    0x12u
#define SONDE_REC_LOG          0x13u
/* RTOS records (docs/protocol.md section 4.1; emitters in sonde_rtos.h) */
#define SONDE_REC_TASK_SWITCH  0x14u /* out task, its state, what it waits on, in task */
#define SONDE_REC_OBJ_CREATE   0x15u /* a kernel object (task, queue, ...) and its kind */
#define SONDE_REC_OBJ_OP       0x16u /* an operation on a kernel object, with a value */
#define SONDE_REC_HEAP_ALLOC   0x17u /* u32 address (low 32 bits; 0: failed), u32 size */
#define SONDE_REC_HEAP_FREE    0x18u /* u32 address (low 32 bits), u32 size (0: not said) */
/* 0x19 reserved for a future event record */
#define SONDE_REC_PEND_CALL    0x1Au /* a deferred function call posted: flags, function address */
#define SONDE_REC_CREATE_FAILED 0x1Bu /* a kernel object could not be created: its kind */
#define SONDE_REC_API          0x1Cu /* an RTOS API call entered / returned (sonde_frtos_api.h) */
/* 0x1D..0x1F reserved for future event records */
/* 0x20..0x2F command channel replies (see docs/protocol.md, "Receive channel") */
#define SONDE_REC_CMD_STATUS   0x20u
#define SONDE_REC_PEEK_DATA    0x21u
#define SONDE_REC_TARGET_STATS 0x22u
/* 0x23..0x3F reserved */
#define SONDE_REC_USER_FIRST   0x40u
#define SONDE_REC_USER_LAST    0x7Fu
#define SONDE_REC_COUNT        0x80u /* ids >= this are invalid */

/* ---- receive channel: command ids (host -> target, docs/protocol.md §9) */
#define SONDE_CMD_INFO        0x01u /* TARGET_INFO + dictionaries again */
#define SONDE_CMD_GLB_FILTER  0x02u /* 16-byte bitmap, record ids 0..127 */
#define SONDE_CMD_LOC_FILTER  0x03u /* 32-byte bitmap, object ids 0..255 */
#define SONDE_CMD_START       0x04u
#define SONDE_CMD_STOP        0x05u
#define SONDE_CMD_TRIGGER     0x06u /* freeze (snapshot, post-mortem) */
#define SONDE_CMD_READOUT     0x07u /* freeze and let the drain read it out */
#define SONDE_CMD_RESET_CTRS  0x08u
#define SONDE_CMD_APP         0x09u /* u8 cmd, u32 a, u32 b, u32 c -> callback */
#define SONDE_CMD_PEEK        0x0Au /* addr, u8 len */
#define SONDE_CMD_POKE        0x0Bu /* addr, u8 len, bytes (off by default) */
#define SONDE_CMD_STATS       0x0Cu /* -> TARGET_STATS */

/* CMD_STATUS codes. */
#define SONDE_ST_OK            0x00u
#define SONDE_ST_BAD_CHECKSUM  0x01u
#define SONDE_ST_BAD_LENGTH    0x02u
#define SONDE_ST_UNKNOWN_CMD   0x03u
#define SONDE_ST_OUT_OF_REGION 0x04u
#define SONDE_ST_NOT_SUPPORTED 0x05u
#define SONDE_ST_TOO_LONG      0x06u
#define SONDE_ST_BAD_STATE     0x07u /* e.g. TRIGGER in a streaming mode */
#define SONDE_ST_APP_FIRST     0x80u /* 0x80..0xFF: the application's own codes */

/* ---- typed argument codes (user records and LOG) ---------------------- */
#define SONDE_ARG_U8   0x01u
#define SONDE_ARG_U16  0x02u
#define SONDE_ARG_U32  0x03u
#define SONDE_ARG_U64  0x04u
#define SONDE_ARG_I8   0x05u
#define SONDE_ARG_I16  0x06u
#define SONDE_ARG_I32  0x07u
#define SONDE_ARG_I64  0x08u
#define SONDE_ARG_F32  0x09u
#define SONDE_ARG_F64  0x0Au
#define SONDE_ARG_STR  0x0Bu /* NUL-terminated */
#define SONDE_ARG_MEM  0x0Cu /* u8 length, then that many bytes */
#define SONDE_ARG_OBJ  0x0Du /* u8 object id */
#define SONDE_ARG_FUNC 0x0Eu /* address, addr_size bytes (TARGET_INFO) */
#define SONDE_ARG_ENUM 0x0Fu /* u8 group, u8 value */

/* ---- dictionary kinds (DICT record) ----------------------------------- */
#define SONDE_DICT_OBJECT   0x01u /* id: object id (0..255) */
#define SONDE_DICT_TASK     0x02u /* id: object id of a task */
#define SONDE_DICT_ISR      0x03u /* id: ISR id */
#define SONDE_DICT_FUNCTION 0x04u /* id: function id, or address */
#define SONDE_DICT_RECORD   0x05u /* id: user record id (0x40..0x7F) */
#define SONDE_DICT_ENUM     0x06u /* id: group << 8 | value */
#define SONDE_DICT_FORMAT   0x07u /* id: format-string id (LOG) */
#define SONDE_DICT_MARKER   0x08u /* id: object id of a marker */
#define SONDE_DICT_COUNTER  0x09u /* id: object id of a counter */
#define SONDE_DICT_ENUM_GROUP 0x0Au /* id: enum group */

/* ---- TARGET_INFO fields ----------------------------------------------- */
#define SONDE_INFO_F_BIG_ENDIAN 0x01u /* the CPU is big-endian (wire stays LE) */
#define SONDE_INFO_F_RESET      0x02u /* sent by sonde_init, not on request */

/* Buffer modes (TARGET_INFO and sonde_init). */
#define SONDE_MODE_OVERWRITE  0u /* streaming, last is best */
#define SONDE_MODE_DROP_NEW   1u /* streaming, refuse and count */
#define SONDE_MODE_SNAPSHOT   2u /* fill once, stop */
#define SONDE_MODE_POSTMORTEM 3u /* overwrite until frozen */

/* TASK_OUT reasons; TASK_SWITCH uses the same codes for the state the
 * task leaves in, and adds what a blocked task waits for (4..9). */
#define SONDE_TASK_PREEMPTED  0u /* still ready */
#define SONDE_TASK_BLOCKED    1u /* waits, for something not said */
#define SONDE_TASK_SUSPENDED  2u
#define SONDE_TASK_DELETED    3u
#define SONDE_TASK_DELAYED    4u /* sleeps for (or until) a time */
#define SONDE_TASK_WAIT_RECV  5u /* receive/take on an object (queue, semaphore, mutex, stream) */
#define SONDE_TASK_WAIT_SEND  6u /* send/give on a full object */
#define SONDE_TASK_WAIT_PEEK  7u /* peek on an empty object */
#define SONDE_TASK_WAIT_NOTIFY 8u /* a task notification (the object byte is its index) */
#define SONDE_TASK_WAIT_EVENT 9u /* bits of an event group */
#define SONDE_TASK_STATE_COUNT 10u

/* OBJ_CREATE kinds (low 7 bits); bit 7 set: the object is announced (it
 * exists; sent again for a host that asked for INFO), not created now. */
#define SONDE_OBJK_TASK        1u  /* capacity: priority */
#define SONDE_OBJK_IDLE_TASK   2u  /* the idle task (capacity: priority) */
#define SONDE_OBJK_TIMER_TASK  3u  /* the timer service task (capacity: priority) */
#define SONDE_OBJK_QUEUE       4u  /* capacity: length in items */
#define SONDE_OBJK_COUNTING_SEM 5u /* capacity: maximum count */
#define SONDE_OBJK_BINARY_SEM  6u
#define SONDE_OBJK_MUTEX       7u
#define SONDE_OBJK_RECURSIVE_MUTEX 8u
#define SONDE_OBJK_QUEUE_SET   9u  /* capacity: length */
#define SONDE_OBJK_EVENT_GROUP 10u
#define SONDE_OBJK_STREAM_BUFFER 11u  /* capacity: bytes */
#define SONDE_OBJK_MESSAGE_BUFFER 12u /* capacity: bytes */
#define SONDE_OBJK_TIMER       13u /* capacity: period in RTOS ticks */
#define SONDE_OBJK_COUNT       14u
#define SONDE_OBJK_ANNOUNCED   0x80u

/* OBJ_OP operations (bits 0..5) and flags. */
#define SONDE_OP_SEND          1u  /* send/give; value: items before (queues), bytes after (streams) */
#define SONDE_OP_RECEIVE       2u  /* receive/take; value as SEND */
#define SONDE_OP_PEEK          3u  /* value: items before */
#define SONDE_OP_RESET         4u  /* emptied */
#define SONDE_OP_DELETE        5u  /* the object is gone; its id may be reused */
#define SONDE_OP_TAKE_RECURSIVE 6u /* recursive mutex: take attempted (FAILED: not got) */
#define SONDE_OP_GIVE_RECURSIVE 7u /* recursive mutex: give (FAILED: not the holder) */
#define SONDE_OP_SET_BITS      8u  /* event group; value: the bits */
#define SONDE_OP_CLEAR_BITS    9u  /* value: the bits */
#define SONDE_OP_WAIT_BITS     10u /* wait ended; value: bits waited for (FAILED: timed out) */
#define SONDE_OP_SYNC_BITS     11u /* sync ended; value: bits waited for (FAILED: timed out) */
#define SONDE_OP_NOTIFY        12u /* object: the task notified; value: notification index */
#define SONDE_OP_NOTIFY_TAKE   13u /* object: the task taking it (running); value: index */
#define SONDE_OP_PRIO_SET      14u /* object: task; value: new priority */
#define SONDE_OP_PRIO_INHERIT  15u /* object: mutex holder; value: priority it inherits */
#define SONDE_OP_PRIO_DISINHERIT 16u /* object: task; value: priority it returns to */
#define SONDE_OP_RESUME        17u /* object: task, resumed from suspension */
#define SONDE_OP_TIMER_EXPIRED 18u /* object: timer; its callback runs now */
#define SONDE_OP_TIMER_COMMAND 19u /* object: timer; value: the RTOS's command code (FreeRTOS's:
				     * older targets; newer ones send the ops below) */
/* A notification with what it does to the task's value (index 0; an index
 * other than 0 with a value to give is sent as NOTIFY).  Value: the index
 * (NONE, INCREMENT), the bits or the value (SET_BITS, SET_VALUE*). */
#define SONDE_OP_NOTIFY_NONE   20u /* the task is notified, its value unchanged */
#define SONDE_OP_NOTIFY_SET_BITS 21u /* value: the bits or-ed into it */
#define SONDE_OP_NOTIFY_INCREMENT 22u /* its value + 1 (a give) */
#define SONDE_OP_NOTIFY_SET_VALUE 23u /* value: written, with overwrite */
#define SONDE_OP_NOTIFY_SET_VALUE_KEEP 24u /* value: written unless one is pending (FAILED: was) */
/* Timer commands sent to the timer service (FAILED: the command queue was
 * full); the ISR flag for the ...FromISR forms. */
#define SONDE_OP_TIMER_START   25u
#define SONDE_OP_TIMER_RESET   26u
#define SONDE_OP_TIMER_STOP    27u
#define SONDE_OP_TIMER_CHANGE_PERIOD 28u /* value: the new period in RTOS ticks */
#define SONDE_OP_TIMER_DELETE  29u
/* Stack and tickless idle (object: a task). */
#define SONDE_OP_STACK_FREE    30u /* value: bytes of its stack never used yet (high-water mark) */
#define SONDE_OP_LOW_POWER_BEGIN 31u /* the idle task enters low power; value: RTOS ticks expected */
#define SONDE_OP_LOW_POWER_END 32u /* the idle task leaves low power */
/* Not sent in OBJ_OP: the host's operations for HEAP_ALLOC and HEAP_FREE. */
#define SONDE_OP_HEAP_ALLOC    33u
#define SONDE_OP_HEAP_FREE     34u
/* Queue sets: a member signals its set (object: the set; value: the member's
 * id, then u32 items in the set before). */
#define SONDE_OP_SET_SEND      40u
#define SONDE_OP_SET_ADD       41u /* object: the member added; value: the set (FAILED: not added) */
#define SONDE_OP_SET_REMOVE    42u /* object: the member removed; value: the set (FAILED: not) */
#define SONDE_OP_MASK          0x3Fu
#define SONDE_OP_F_FAILED      0x40u /* did not succeed (full, empty, timed out) */
#define SONDE_OP_F_ISR         0x80u /* called from an interrupt (the ...FromISR API) */

/* LOG levels. */
#define SONDE_LVL_ERROR 1u
#define SONDE_LVL_WARN  2u
#define SONDE_LVL_INFO  3u
#define SONDE_LVL_DEBUG 4u
#define SONDE_LVL_TRACE 5u

/* Longest string the target sends (characters, without the NUL). */
#define SONDE_STR_MAX_WIRE 255u

#endif /* SONDE_PROTO_H */
