/*
 * syst_coll.h -- MIPI SyS-T decode collateral (the XML of sys-t_1-0.xsd):
 * clients selected by GUID, their source files, catalogs, short-message
 * formats and RAW protocol names (shared/notes/syst.md §13).
 *
 * Matching everywhere is (ID & Mask) == (key & Mask), Mask defaulting to all
 * ones, the first entry in file order winning; a later entry with the same
 * ID and Mask replaces the earlier one's text.
 */
#ifndef SYST_COLL_H
#define SYST_COLL_H

#include <stddef.h>
#include <stdint.h>

struct syst_coll;
struct syst_client;

/* A catalog format, short-message format or RAW protocol name. */
struct syst_entry {
	uint64_t id, mask;
	const char *text;
	size_t text_len;    /* strlen(text) */
	int has_loc;        /* File and Line attributes given */
	uint32_t file, line;
};

/* Problems found while loading: offset is the byte offset in the XML. */
typedef void (*syst_coll_warn_fn)(void *ctx, uint64_t offset, const char *msg);

/* Load a collateral file / parse one from memory (name is used in
 * messages).  Returns NULL on an error that makes the file unusable
 * (unreadable, not well-formed XML), after reporting it; problems in single
 * entries are reported and the entries skipped. */
struct syst_coll *syst_coll_load(const char *path, syst_coll_warn_fn warn, void *ctx);
struct syst_coll *syst_coll_parse(const char *xml, size_t n, const char *name,
				  syst_coll_warn_fn warn, void *ctx);
void syst_coll_free(struct syst_coll *c);
size_t syst_coll_nclients(const struct syst_coll *c);

/* The client whose Guids match guid (16 bytes, RFC 4122 order), or NULL. */
const struct syst_client *syst_coll_client(const struct syst_coll *c, const uint8_t *guid);
const char *syst_client_name(const struct syst_client *cl);
/* SourceFiles name of a file id, or NULL. */
const char *syst_client_file(const struct syst_client *cl, uint64_t id);
const struct syst_entry *syst_client_catalog(const struct syst_client *cl, int id64, uint64_t id);
const struct syst_entry *syst_client_short(const struct syst_client *cl, int short64, uint64_t key);
const struct syst_entry *syst_client_write(const struct syst_client *cl, unsigned proto);

/* Parse "{494E5443-8A9C-4014-A65A-2F36A36D96E4}" (braces optional, hex in
 * either case) into 16 bytes.  0 on success, -1 if malformed. */
int syst_guid_parse(const char *s, uint8_t *guid);
/* "{494e5443-8a9c-4014-a65a-2f36a36d96e4}" (the printer's lower case);
 * out needs 39 bytes. */
void syst_guid_format(const uint8_t *guid, char *out);

#endif /* SYST_COLL_H */
