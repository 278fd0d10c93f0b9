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
 * does not know.  Version 2 (this one) changed the timestamp of timed
 * records (below) and added DROPS's reset count; the host still decodes
 * version 1 (docs/protocol.md, "Version 1"). */
#define SONDE_PROTO_VERSION 2u
#define SONDE_PROTO_VERSION_1 1u

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

/* ---- record ids: 0x00..0x3F system, 0x40..0x7F user ------------------- */
#define SONDE_REC_EMPTY        0x00u /* no payload; first frame after init */
#define SONDE_REC_TARGET_INFO  0x01u
#define SONDE_REC_TIME_SYNC    0x02u
#define SONDE_REC_DROPS        0x03u /* v2: u32 overwritten, u32 refused, u8 resets */
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
/* 0x14..0x1F reserved for future event records */
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

/* TASK_OUT reasons. */
#define SONDE_TASK_PREEMPTED  0u /* still ready */
#define SONDE_TASK_BLOCKED    1u
#define SONDE_TASK_SUSPENDED  2u
#define SONDE_TASK_DELETED    3u

/* LOG levels. */
#define SONDE_LVL_ERROR 1u
#define SONDE_LVL_WARN  2u
#define SONDE_LVL_INFO  3u
#define SONDE_LVL_DEBUG 4u
#define SONDE_LVL_TRACE 5u

/* Longest string the target sends (characters, without the NUL). */
#define SONDE_STR_MAX_WIRE 255u

#endif /* SONDE_PROTO_H */
