/*
 * test_syst_coll.c -- SyS-T collateral XML: the test data's collateral,
 * match rules (mask, first in file order, later duplicates replace the
 * text), namespaces, bad entries and files that are not XML.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "proto/syst/syst_coll.h"

struct warns {
	int n;
	uint64_t offset[8];
	char msg[8][256];
};

static void on_warn(void *ctx, uint64_t offset, const char *msg)
{
	struct warns *w = ctx;
	if (w->n < 8) {
		w->offset[w->n] = offset;
		snprintf(w->msg[w->n], sizeof(w->msg[0]), "%s", msg);
	}
	w->n++;
}

static const uint8_t demo[16] = { 0x49, 0x4E, 0x54, 0x43, 0x8A, 0x9C, 0x40, 0x14,
				  0xA6, 0x5A, 0x2F, 0x36, 0xA3, 0x6D, 0x96, 0xE4 };

static void test_testdata_collateral(void **state)
{
	(void)state;
	struct warns w = { 0 };
	struct syst_coll *c = syst_coll_load(SONDE_TESTDATA "/syst/collateral.xml", on_warn, &w);
	assert_non_null(c);
	assert_int_equal(w.n, 0);
	assert_int_equal(syst_coll_nclients(c), 2);

	const struct syst_client *cl = syst_coll_client(c, demo);
	assert_non_null(cl);
	assert_string_equal(syst_client_name(cl), "demo");
	uint8_t pseudo[16] = { 0 };
	pseudo[7] = 0x12; /* module 0x12 */
	assert_string_equal(syst_client_name(syst_coll_client(c, pseudo)), "modclient");
	pseudo[7] = 0x13;
	assert_null(syst_coll_client(c, pseudo));

	assert_string_equal(syst_client_file(cl, 1), "catalog_src.c");
	assert_string_equal(syst_client_file(cl, 0x10002), "other/file.c");
	assert_null(syst_client_file(cl, 2));

	const struct syst_entry *e = syst_client_catalog(cl, 0, 0x1001);
	assert_non_null(e);
	assert_string_equal(e->text, "catalog32 int %d and hex 0x%x");
	assert_true(e->has_loc);
	assert_int_equal(e->file, 1);
	assert_int_equal(e->line, 101);
	e = syst_client_catalog(cl, 0, 0x1003);
	assert_false(e->has_loc);
	assert_null(syst_client_catalog(cl, 0, 0xBAD0));
	assert_null(syst_client_catalog(cl, 1, 0x1001)); /* 64-bit catalog is separate */
	e = syst_client_catalog(cl, 1, 0x1122334455660001ull);
	assert_string_equal(e->text, "catalog64 %s=%d");
	assert_int_equal(e->file, 7);

	assert_string_equal(syst_client_short(cl, 0, 0x0ABCDEF)->text, "short32 exact 0x0ABCDEF");
	e = syst_client_short(cl, 0, 0x0E000005);
	assert_string_equal(e->text, "short32 error code %d");
	assert_int_equal(e->mask, 0x0F000000);
	assert_null(syst_client_short(cl, 0, 0x0D000005));
	e = syst_client_short(cl, 1, 0x0123456700000042ull);
	assert_string_equal(e->text, "short64 masked low=%llu");
	assert_string_equal(syst_client_short(cl, 1, 0x0FEDCBA987654321ull)->text, "short64 exact");

	assert_string_equal(syst_client_write(cl, 1)->text, "console");
	assert_string_equal(syst_client_write(cl, 0x21)->text, "proto%d");
	assert_null(syst_client_write(cl, 0x3F));
	assert_null(syst_client_write(cl, 2));
	syst_coll_free(c);
}

#define HEAD "<?xml version=\"1.0\"?>\n<s:Collateral xmlns:s=\"http://www.mipi.org/1.0/sys-t\">\n"

static struct syst_coll *parse(const char *xml, struct warns *w)
{
	memset(w, 0, sizeof(*w));
	return syst_coll_parse(xml, strlen(xml), "t.xml", on_warn, w);
}

static void test_match_rules(void **state)
{
	(void)state;
	struct warns w;
	struct syst_coll *c = parse(HEAD
		"<s:Client Name=\"a\"><s:Guids><s:Guid ID=\"{494e5443-8a9c-4014-0000-000000000000}\""
		" Mask=\"{FFFFFFFF-FFFF-FFFF-0000-000000000000}\">a</s:Guid></s:Guids>\n"
		"<s:Catalog32>\n"
		"<s:Format ID=\"0x10\" Mask=\"0xF0\">masked first</s:Format>\n"
		"<s:Format ID=\"0x12\">exact</s:Format>\n"
		"<s:Format ID=\"0x20\">exact 20</s:Format>\n"
		"<s:Format ID=\"0x20\" Mask=\"0xF0\">masked second</s:Format>\n"
		"<s:Format ID=\"0x30\">old</s:Format>\n"
		"<s:Format ID=\"0x30\">newest</s:Format>\n"
		"<s:Format ID=\"0x40\" Mask=\"0xF0\">old masked</s:Format>\n"
		"<s:Format ID=\"0x41\" Mask=\"0xF0\">newest masked</s:Format>\n"
		"</s:Catalog32></s:Client>\n"
		"<s:Client Name=\"b\"><s:Guids><s:Guid ID=\"{494E5443-8A9C-4014-A65A-2F36A36D96E4}\">b</s:Guid></s:Guids></s:Client>\n"
		"</s:Collateral>\n", &w);
	assert_non_null(c);
	assert_int_equal(w.n, 0);
	const struct syst_client *cl = syst_coll_client(c, demo);
	assert_string_equal(syst_client_name(cl), "a"); /* masked GUID, first client */
	assert_string_equal(syst_client_catalog(cl, 0, 0x12)->text, "masked first");
	assert_string_equal(syst_client_catalog(cl, 0, 0x1F)->text, "masked first");
	assert_string_equal(syst_client_catalog(cl, 0, 0x20)->text, "exact 20");
	assert_string_equal(syst_client_catalog(cl, 0, 0x21)->text, "masked second");
	assert_string_equal(syst_client_catalog(cl, 0, 0x30)->text, "newest");
	assert_string_equal(syst_client_catalog(cl, 0, 0x45)->text, "newest masked");
	/* the lengths went with the texts that replaced others (of other lengths) */
	assert_int_equal(syst_client_catalog(cl, 0, 0x30)->text_len, strlen("newest"));
	assert_int_equal(syst_client_catalog(cl, 0, 0x45)->text_len, strlen("newest masked"));
	assert_int_equal(syst_client_catalog(cl, 0, 0x20)->text_len, strlen("exact 20"));
	assert_null(syst_client_catalog(cl, 0, 0x50));
	syst_coll_free(c);
}

static void test_namespaces_and_numbers(void **state)
{
	(void)state;
	struct warns w;
	/* default namespace: fine; a foreign namespace: ignored */
	struct syst_coll *c = parse("<Collateral xmlns=\"http://www.mipi.org/1.0/sys-t\">"
		"<Client Name=\"d\"><Guids><Guid ID=\"494E5443-8A9C-4014-A65A-2F36A36D96E4\">d</Guid></Guids>"
		"<SourceFiles><File ID=\"12\">twelve.c</File><File ID=\"0x12\">eighteen.c</File></SourceFiles>"
		"<x:Catalog32 xmlns:x=\"urn:other\"><x:Format ID=\"1\">foreign</x:Format></x:Catalog32>"
		"</Client></Collateral>", &w);
	assert_non_null(c);
	const struct syst_client *cl = syst_coll_client(c, demo);
	assert_non_null(cl);
	assert_string_equal(syst_client_file(cl, 12), "twelve.c");
	assert_string_equal(syst_client_file(cl, 18), "eighteen.c");
	assert_null(syst_client_catalog(cl, 0, 1));
	syst_coll_free(c);

	/* bad entries are reported (with their offset) and skipped */
	const char *xml = HEAD "<s:Client Name=\"e\"><s:Catalog32>\n"
		"<s:Format ID=\"zz\">bad id</s:Format>\n"
		"<s:Format ID=\"0X10\">upper-case prefix</s:Format>\n"
		"<s:Format>no id</s:Format>\n"
		"<s:Format ID=\"7\">good</s:Format>\n"
		"</s:Catalog32><s:Guids><s:Guid ID=\"{nonsense}\">x</s:Guid></s:Guids></s:Client></s:Collateral>";
	c = parse(xml, &w);
	assert_non_null(c);
	assert_int_equal(w.n, 4);
	assert_int_equal(w.offset[0], strstr(xml, "<s:Format ID=\"zz\"") - xml);
	assert_non_null(strstr(w.msg[0], "line 4"));
	assert_int_equal(w.offset[3], strstr(xml, "<s:Guid ID") - xml);
	assert_int_equal(syst_coll_nclients(c), 1);
	syst_coll_free(c);
}

static void test_not_xml(void **state)
{
	(void)state;
	struct warns w;
	const char *xml = HEAD "<s:Client Name=\"x\">\n<s:Guids></s:Client>\n";
	assert_null(parse(xml, &w));
	assert_int_equal(w.n, 1);
	assert_int_equal(w.offset[0], strstr(xml, "</s:Client>") - xml + 2);
	assert_non_null(strstr(w.msg[0], "t.xml:4:"));
	assert_null(parse("", &w));
	assert_int_equal(w.n, 1);
	assert_int_equal(w.offset[0], 0); /* expat has no position here (-1): not 2^64-1 (fuzz finding) */
	assert_null(parse("\n\n", &w));
	assert_int_equal(w.offset[0], 2);
	assert_null(syst_coll_load("/nonexistent/c.xml", on_warn, &w));
	assert_int_equal(w.n, 2);
	assert_non_null(strstr(w.msg[1], "/nonexistent/c.xml"));
}

static void test_big_catalog(void **state)
{
	(void)state;
	size_t cap = 64 * 20000 + 1024, k = 0;
	char *xml = malloc(cap);
	assert_non_null(xml);
	k += (size_t)sprintf(xml + k, HEAD "<s:Client Name=\"big\"><s:Guids><s:Guid ID=\"{494E5443-8A9C-4014-A65A-2F36A36D96E4}\">b</s:Guid></s:Guids><s:Catalog64>\n");
	for (unsigned i = 0; i < 20000; i++) /* ids out of order */
		k += (size_t)sprintf(xml + k, "<s:Format ID=\"0x%llx\">f%u</s:Format>\n",
				     (unsigned long long)((i * 7919u) % 20000u) << 32, (i * 7919u) % 20000u);
	k += (size_t)sprintf(xml + k, "</s:Catalog64></s:Client></s:Collateral>\n");
	struct warns w = { 0 };
	struct syst_coll *c = syst_coll_parse(xml, k, "big.xml", on_warn, &w);
	assert_non_null(c);
	const struct syst_client *cl = syst_coll_client(c, demo);
	for (unsigned i = 0; i < 20000; i++) {
		char want[16];
		snprintf(want, sizeof(want), "f%u", i);
		assert_string_equal(syst_client_catalog(cl, 1, (uint64_t)i << 32)->text, want);
	}
	assert_null(syst_client_catalog(cl, 1, 20000ull << 32));
	assert_null(syst_client_catalog(cl, 1, 1));
	syst_coll_free(c);
	free(xml);
}

static void test_guid_text(void **state)
{
	(void)state;
	uint8_t g[16];
	char s[39];
	assert_int_equal(syst_guid_parse("{494E5443-8A9C-4014-A65A-2F36A36D96E4}", g), 0);
	assert_memory_equal(g, demo, 16);
	syst_guid_format(g, s);
	assert_string_equal(s, "{494e5443-8a9c-4014-a65a-2f36a36d96e4}");
	assert_int_equal(syst_guid_parse("494e5443-8a9c-4014-a65a-2f36a36d96e4", g), 0);
	assert_int_equal(syst_guid_parse("{494E5443-8A9C-4014-A65A-2F36A36D96E4", g), -1);
	assert_int_equal(syst_guid_parse("{494E5443-8A9C-4014-A65A-2F36A36D96E}", g), -1);
	assert_int_equal(syst_guid_parse("{494E5443-8A9C-4014-A65A-2F36A36D96E4}x", g), -1);
	assert_int_equal(syst_guid_parse("494E54438A9C4014A65A2F36A36D96E4", g), -1);
	assert_int_equal(syst_guid_parse("", g), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_testdata_collateral),
		cmocka_unit_test(test_match_rules),
		cmocka_unit_test(test_namespaces_and_numbers),
		cmocka_unit_test(test_not_xml),
		cmocka_unit_test(test_big_catalog),
		cmocka_unit_test(test_guid_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
