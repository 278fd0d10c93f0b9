/*
 * diag.c -- a decoder's diagnostic, built and handed to its output: the
 * one helper every decoder reports a problem through (pipeline.h).
 */
#include <stdio.h>

#include "pipeline.h"

void sonde_diag_put(const struct sonde_out *out, enum sonde_diag_code code, uint64_t offset, uint64_t frame,
		    uint64_t count, const char *msg)
{
	struct sonde_diag g = { .code = code, .offset = offset, .frame = frame, .count = count, .msg = msg };

	if (out->diag)
		out->diag(out->ctx, &g);
}

void sonde_vdiagf(const struct sonde_out *out, enum sonde_diag_code code, uint64_t offset, uint64_t frame,
		  uint64_t count, const char *fmt, va_list ap)
{
	char msg[SONDE_DIAG_MSG_MAX];

	if (!out->diag)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	sonde_diag_put(out, code, offset, frame, count, msg);
}

void sonde_diagf(const struct sonde_out *out, enum sonde_diag_code code, uint64_t offset, uint64_t frame,
		 uint64_t count, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sonde_vdiagf(out, code, offset, frame, count, fmt, ap);
	va_end(ap);
}
