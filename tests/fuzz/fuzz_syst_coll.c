/*
 * fuzz_syst_coll.c -- libFuzzer harness: the SyS-T collateral XML loader
 * (proto/syst/syst_coll.h, expat underneath) and the lookups the decoder
 * makes in what it loaded.
 *
 * Input: the XML (seeds: the reference captures' collateral.xml and pieces
 * of it).  After a load, every client is looked up by the GUIDs of the
 * seeds, and its catalogs, short formats, write protocols and source files
 * by ids taken from the input's last bytes, so the tables built from
 * fuzzed entries (masks, duplicate ids) are searched too.  Warnings must
 * name a byte offset inside the input, and loading the same text from a
 * file must give the same clients.
 */
#include <string.h>

#include "fuzz_util.h"
#include "proto/syst/syst_coll.h"

static size_t xml_len;

static void warn(void *ctx, uint64_t offset, const char *msg)
{
	(void)ctx;
	if (!msg)
		fuzz_fail("a warning without a message");
	if (offset > xml_len)
		fuzz_fail("warning at offset %llu, past the end of the %zu-byte input: %s",
			  (unsigned long long)offset, xml_len, msg);
}

static uint64_t id_at(const uint8_t *p, size_t n, size_t back)
{
	uint64_t v = 0;
	for (size_t i = 0; i < 8 && back + i < n; i++)
		v = v << 8 | p[n - 1 - back - i];
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const guids[] = { "{494E5443-8A9C-4014-A65A-2F36A36D96E4}",
					     "{00000000-0000-0012-0000-000000000000}",
					     "{8887160A-C965-463B-9F43-1EFE9FDFE3F9}" };
	xml_len = size;
	struct syst_coll *c = syst_coll_parse((const char *)data, size, "<fuzz input>", warn, NULL);
	/* the same text from a file (read in pieces) loads the same */
	struct syst_coll *f = syst_coll_load(fuzz_memfile(data, size), warn, NULL);
	if (!c != !f || (c && syst_coll_nclients(c) != syst_coll_nclients(f)))
		fuzz_fail("the collateral parsed from memory and loaded from a file differ");
	syst_coll_free(f);
	if (!c)
		return 0;
	for (size_t g = 0; g < sizeof(guids) / sizeof(guids[0]); g++) {
		uint8_t guid[16];
		char text[40];
		if (syst_guid_parse(guids[g], guid) != 0)
			fuzz_fail("the harness's GUID %s does not parse", guids[g]);
		syst_guid_format(guid, text);
		const struct syst_client *cl = syst_coll_client(c, guid);
		if (!cl)
			continue;
		(void)syst_client_name(cl);
		for (size_t k = 0; k < 4; k++) {
			uint64_t id = id_at(data, size, 8 * k);
			const struct syst_entry *e[] = {
				syst_client_catalog(cl, 0, id), syst_client_catalog(cl, 1, id),
				syst_client_short(cl, 0, id),   syst_client_short(cl, 1, id),
				syst_client_write(cl, (unsigned)id & 0xFF),
			};
			for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
				if (e[i] && !e[i]->text)
					fuzz_fail("a collateral entry without text");
			const char *f = syst_client_file(cl, id);
			if (f)
				(void)strlen(f);
			for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
				if (e[i])
					(void)strlen(e[i]->text);
		}
	}
	(void)syst_coll_nclients(c);
	syst_coll_free(c);
	return 0;
}
