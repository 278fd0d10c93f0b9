/*
 * drive.c -- one decoding run (drive.h): check the protocol, then one
 * input straight into the sinks, or several merged (drive_merge.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drive.h"
#include "drive_merge.h"
#include "opts.h"
#include "pipe.h"
#include "sources/source.h"
#include "core/msg.h"

static int worst(int a, int b)
{
	return a > b ? a : b;
}

/* One input, decoded straight into the sinks. */
static int run_single(struct sonde_drive *d, const char *path)
{
	const struct sonde_drive_hooks *h = d->h;
	struct sonde_source src;
	if (sonde_source_open_file(&src, path) != 0) {
		sonde_err("cannot open '%s': %s", path, strerror(errno));
		return SONDE_EXIT_IO;
	}
	d->out = d->open_output(d->out_ctx, &d->out_name);
	if (!d->out) {
		src.close(&src);
		return SONDE_EXIT_IO;
	}
	sonde_opt_track(d->kv);
	struct sonde_pipe p;
	sonde_pipe_init(&p, d->kv, sonde_decoders);
	p.diag_out = d->diag_out;
	p.max_diags = d->max_diags;
	p.output_name = d->out_name;
	sonde_drive_stage(d, &p);
	int rc = h->setup ? h->setup(d->ctx, &p, d->out) : 0;
	if (rc == 0) {
		rc = sonde_pipe_run(&p, &src, d->proto);
		if (rc != SONDE_EXIT_USAGE) {
			for (size_t i = 0; i < d->nkv; i++)
				if (!sonde_opt_was_used(d->kv, i))
					sonde_drive_warn_unused(d, i);
			if (h->report)
				rc = worst(rc, h->report(d->ctx, &p, d->out));
		}
	}
	d->write_error = p.write_error;
	sonde_pipe_destroy(&p);
	src.close(&src);
	return rc;
}

int sonde_drive_run(struct sonde_drive *d)
{
	d->out = NULL;
	d->out_name = NULL;
	d->write_error = 0;
	if (d->proto && strcmp(d->proto, "auto") != 0 && !sonde_decoder_find(d->proto)) {
		char why[512];
		sonde_pipe_choose(sonde_decoders, d->proto, NULL, 0, why, sizeof(why));
		sonde_err("%s", why);
		return SONDE_EXIT_USAGE;
	}
	const char *input = d->ninputs && d->inputs[0] ? d->inputs[0] : "-";
	const char *at = sonde_drive_spec_at(input);
	if (d->ninputs > 1 || (at && at[1]))
		return sonde_drive_merged(d);
	if (!at) /* one input without an @SPEC: decoded straight */
		return run_single(d, input);
	/* "FILE@": the file's name ends before the '@' */
	char *path = strndup(input, (size_t)(at - input));
	if (!path) {
		sonde_err("out of memory");
		return SONDE_EXIT_IO;
	}
	int rc = run_single(d, path);
	free(path);
	return rc;
}
