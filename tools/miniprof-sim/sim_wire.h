/*
 * sim_wire.h -- the device side of the MiniProfiler wire format: command
 * packets in, response packets out.
 *
 * Written separately from the host's codec (host/src/proto/miniprof/) on
 * purpose: the simulator is the tests' stand-in for a real device, and an
 * independent implementation of the document is what catches a host codec
 * that is consistently wrong on both sides.
 */
#ifndef SIM_WIRE_H
#define SIM_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define SIM_CMD_LEN 12
#define SIM_MAX_RECORDS 4680 /* (65535 - 3) / 14: the largest PROFILE_DATA */
#define SIM_RSP_MAX (8 + 3 + 14 * SIM_MAX_RECORDS)

enum { SIM_ACK = 1, SIM_NACK, SIM_METADATA, SIM_STATUS, SIM_PROFILE_DATA };

struct sim_rec {
	uint32_t func, entry, dur;
	uint16_t depth;
};

/* 1 if the 12 bytes are a command with a correct checksum. */
int sim_cmd_valid(const uint8_t *p);

/* CRC-16/CCITT-FALSE over n bytes. */
uint16_t sim_crc16(const uint8_t *p, size_t n);

/* A response packet of type with payload p[0..n) into out (room for
 * 8 + n bytes); returns its length. */
size_t sim_packet(uint8_t *out, unsigned type, const uint8_t *p, size_t n);

/* Payloads; each returns its length. */
size_t sim_metadata(uint8_t *out, uint32_t mcu_hz, uint32_t timer_hz, uint32_t build_id, const char *fw);
size_t sim_status(uint8_t *out, int profiling, uint32_t overflows, uint32_t captured, unsigned usage);
size_t sim_profile(uint8_t *out, unsigned version, const struct sim_rec *r, size_t n);

#endif /* SIM_WIRE_H */
