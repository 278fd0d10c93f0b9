/*
 * tband_probe.h -- recognise a Tonbandgeraet stream from its first bytes
 * (for --proto auto).
 */
#ifndef TBAND_PROBE_H
#define TBAND_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* 0..100: how sure we are that buf[0..n) starts a tband stream. */
int tband_probe(const uint8_t *buf, size_t n);

#endif /* TBAND_PROBE_H */
