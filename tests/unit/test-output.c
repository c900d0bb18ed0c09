/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the output layer (cmd/output.c): one sequence of out_*
 * calls is run twice, into text and into JSON, and both results are
 * compared byte for byte with what mlxcli(8) ("OUTPUT", "JSON OUTPUT")
 * and cmd/output.h promise: aligned tables, "-" for NULL, lists joined
 * with ",", JSON-only fields (label NULL) absent from text, text-only
 * cells (out_text) absent from JSON, "schema_version" first, null for
 * missing values, u64 above INT64_MAX as a decimal string.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "output.h"

typedef void (*seq_fn)(struct out *o);

/* Run one sequence into a memory FILE; returns the malloc'ed output. */
static char *run(seq_fn seq, bool json, bool pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct out *o;

	assert_non_null(fp);
	o = out_new(json, pretty, fp);
	assert_non_null(o);
	assert_int_equal(out_is_json(o), json);
	seq(o);
	assert_int_equal(out_finish(o), 0);
	out_free(o);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void check(seq_fn seq, const char *want_text, const char *want_json)
{
	char *text = run(seq, false, false);
	char *json = run(seq, true, false);

	print_message("text:\n%s", text);
	print_message("json:\n%s", json);
	assert_string_equal(text, want_text);
	assert_string_equal(json, want_json);
	free(text);
	free(json);
}

/* ---- fields of one record ---- */

static void seq_fields(struct out *o)
{
	static const char *const three[] = { "a", "b", "c" };

	out_str(o, "name", "Name", "abc");
	out_str(o, "missing", "Missing", NULL);
	out_str(o, "empty_string", "Empty string", "");
	out_str(o, "json_only", NULL, "hidden in text");
	out_u64(o, "big", "Big", UINT64_MAX);
	out_u64(o, "max_signed", "Max signed", (uint64_t)INT64_MAX);
	out_u64(o, "above", "Above", (uint64_t)INT64_MAX + 1);
	out_s64(o, "negative", "Negative", -5);
	out_bool(o, "yes", "Yes", true);
	out_bool(o, "no", "No", false);
	out_null(o, "nothing", "Nothing");
	out_u64_as(o, "speed_mbps", "Speed", 100000, "100G");
	out_strv(o, "list", "List", three, 3);
	out_strv(o, "none", "None", NULL, 0);
	out_text(o, "Summary", "text only");
}

static void test_fields(void **state)
{
	(void)state;
	check(seq_fields,
	      "Name: abc\n"
	      "Missing: -\n"
	      "Empty string: -\n"
	      "Big: 18446744073709551615\n"
	      "Max signed: 9223372036854775807\n"
	      "Above: 9223372036854775808\n"
	      "Negative: -5\n"
	      "Yes: yes\n"
	      "No: no\n"
	      "Nothing: -\n"
	      "Speed: 100G\n"
	      "List: a,b,c\n"
	      "None: -\n"
	      "Summary: text only\n",
	      "{\"schema_version\":3,\"name\":\"abc\",\"missing\":null,\"empty_string\":\"\","
	      "\"json_only\":\"hidden in text\",\"big\":\"18446744073709551615\","
	      "\"max_signed\":9223372036854775807,\"above\":\"9223372036854775808\","
	      "\"negative\":-5,\"yes\":true,\"no\":false,\"nothing\":null,"
	      "\"speed_mbps\":100000,\"list\":[\"a\",\"b\",\"c\"],\"none\":[]}\n");
}

/* ---- nested objects and lists ---- */

static void seq_nested(struct out *o)
{
	out_str(o, "before", "Before", "1");
	out_obj_begin(o, "outer", "Outer");
	out_str(o, "inner", "Inner", "v");
	out_obj_begin(o, "deeper", "Deeper");
	out_u64(o, "n", "N", 7);
	out_obj_end(o);
	/* a JSON-only list of objects inside a labelled object */
	out_list_begin(o, "items", NULL);
	out_obj_begin(o, NULL, NULL);
	out_u64(o, "id", NULL, 1);
	out_null(o, "v", NULL);
	out_obj_end(o);
	out_obj_begin(o, NULL, NULL);
	out_u64(o, "id", NULL, 2);
	out_str(o, "v", NULL, "two");
	out_obj_end(o);
	out_list_end(o);
	out_str(o, "after_list", "After list", "still inside Outer");
	out_obj_end(o);
	out_list_begin(o, "names", "Names");
	out_str(o, NULL, "Name", "x");
	out_str(o, NULL, "Name", "y");
	out_list_end(o);
	out_str(o, "after", "After", "2");
}

static void test_nested(void **state)
{
	(void)state;
	check(seq_nested,
	      "Before: 1\n"
	      "Outer:\n"
	      "  Inner: v\n"
	      "  Deeper:\n"
	      "    N: 7\n"
	      "  After list: still inside Outer\n"
	      "Names:\n"
	      "  Name: x\n"
	      "  Name: y\n"
	      "After: 2\n",
	      "{\"schema_version\":3,\"before\":\"1\",\"outer\":{\"inner\":\"v\","
	      "\"deeper\":{\"n\":7},\"items\":[{\"id\":1,\"v\":null},{\"id\":2,\"v\":\"two\"}],"
	      "\"after_list\":\"still inside Outer\"},\"names\":[\"x\",\"y\"],\"after\":\"2\"}\n");
}

/* ---- tables ---- */

static void seq_table(struct out *o)
{
	static const char *const nd[] = { "eth0", "eth1" };

	out_table_begin(o, "rows");

	out_row_begin(o);
	out_str(o, "pci", "PCI", "0000:5e:00.0");
	out_str(o, "pf", "PF", NULL);
	out_u64(o, "n", "N", 12345);
	out_str(o, "json_only", NULL, "j");
	out_strv(o, "netdevs", "NETDEV", nd, 2);
	out_list_begin(o, "ports", NULL);
	out_obj_begin(o, NULL, NULL);
	out_str(o, "netdev", NULL, "eth0");
	out_obj_end(o);
	out_list_end(o);
	out_text(o, "LINK", "up 100G");
	out_row_end(o);

	out_row_begin(o);
	out_str(o, "pci", "PCI", "0000:5e:00.2");
	out_str(o, "pf", "PF", "0000:5e:00.0");
	out_u64(o, "n", "N", 1);
	out_str(o, "json_only", NULL, NULL);
	out_strv(o, "netdevs", "NETDEV", NULL, 0);
	out_list_begin(o, "ports", NULL);
	out_list_end(o);
	/* no LINK cell in this row; a column only this row has */
	out_bool(o, "extra", "EXTRA", true);
	out_row_end(o);

	out_table_end(o);
}

static void test_table(void **state)
{
	(void)state;
	check(seq_table,
	      "PCI           PF            N      NETDEV     LINK     EXTRA\n"
	      "0000:5e:00.0  -             12345  eth0,eth1  up 100G  -\n"
	      "0000:5e:00.2  0000:5e:00.0  1      -          -        yes\n",
	      "{\"schema_version\":3,\"rows\":["
	      "{\"pci\":\"0000:5e:00.0\",\"pf\":null,\"n\":12345,\"json_only\":\"j\","
	      "\"netdevs\":[\"eth0\",\"eth1\"],\"ports\":[{\"netdev\":\"eth0\"}]},"
	      "{\"pci\":\"0000:5e:00.2\",\"pf\":\"0000:5e:00.0\",\"n\":1,\"json_only\":null,"
	      "\"netdevs\":[],\"ports\":[],\"extra\":true}]}\n");
}

/* An empty table: no header line in text, an empty list in JSON. */
static void seq_empty_table(struct out *o)
{
	out_table_begin(o, "devices");
	out_table_end(o);
}

static void test_empty_table(void **state)
{
	(void)state;
	check(seq_empty_table, "", "{\"schema_version\":3,\"devices\":[]}\n");
}

/* Nothing at all: JSON still carries the schema version. */
static void seq_nothing(struct out *o)
{
	(void)o;
}

static void test_nothing(void **state)
{
	(void)state;
	check(seq_nothing, "", "{\"schema_version\":3}\n");
}

/* -p: the same tree, indented by two spaces. */
static void test_pretty(void **state)
{
	char *p;

	(void)state;
	p = run(seq_empty_table, true, true);
	assert_string_equal(p, "{\n  \"schema_version\": 3,\n  \"devices\": []\n}\n");
	free(p);
	p = run(seq_nested, true, true);
	assert_non_null(strstr(p, "\n  \"outer\": {\n    \"inner\": \"v\",\n"));
	free(p);
}

/* A table followed by a record and a second table. */
static void seq_two_tables(struct out *o)
{
	out_table_begin(o, "a");
	out_row_begin(o);
	out_str(o, "x", "X", "1");
	out_row_end(o);
	out_table_end(o);
	out_str(o, "between", "Between", "b");
	out_table_begin(o, "b");
	out_row_begin(o);
	out_str(o, "longer", "LONGER", "2");
	out_str(o, "y", "Y", "22");
	out_row_end(o);
	out_table_end(o);
}

static void test_two_tables(void **state)
{
	(void)state;
	check(seq_two_tables,
	      "X\n1\nBetween: b\nLONGER  Y\n2       22\n",
	      "{\"schema_version\":3,\"a\":[{\"x\":\"1\"}],\"between\":\"b\","
	      "\"b\":[{\"longer\":\"2\",\"y\":\"22\"}]}\n");
}

/* ---- strings: escapes and bytes that are not UTF-8 ---- */

static void seq_escapes(struct out *o)
{
	out_str(o, "quote", NULL, "a\"b\\c/d");
	out_str(o, "controls", NULL, "\t\n\r\b\f\x01\x1f");
	out_str(o, "utf8", NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	out_str(o, "lone_continuation", NULL, "a\x80z");
	out_str(o, "overlong", NULL, "\xc0\xaf");
	out_str(o, "surrogate", NULL, "\xed\xa0\x80");
	out_str(o, "truncated", NULL, "x\xe2\x82");
	out_str(o, "del", NULL, "\x7f");
}

static void test_escapes(void **state)
{
	char *json = run(seq_escapes, true, false);
	json_error_t err;
	json_t *doc;

	(void)state;
	/* As jansson wrote them (same escapes, "/" and UTF-8 as they are);
	 * every invalid byte becomes U+FFFD, so the document stays valid. */
	assert_string_equal(json,
		"{\"schema_version\":3,\"quote\":\"a\\\"b\\\\c/d\","
		"\"controls\":\"\\t\\n\\r\\b\\f\\u0001\\u001F\","
		"\"utf8\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
		"\"lone_continuation\":\"a\xef\xbf\xbdz\","
		"\"overlong\":\"\xef\xbf\xbd\xef\xbf\xbd\","
		"\"surrogate\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\","
		"\"truncated\":\"x\xef\xbf\xbd\xef\xbf\xbd\","
		"\"del\":\"\x7f\"}\n");
	doc = json_loads(json, 0, &err);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "controls")),
			    "\t\n\r\b\f\x01\x1f");
	json_decref(doc);
	free(json);
}

/* ---- a large document, byte for byte against jansson ---- */

/* The same document built with out_* and as a jansson tree: a counters
 * listing of 3,000 rows (some 400 KB: many buffer chunks). */
#define BIG_ROWS 3000

static void seq_big(struct out *o)
{
	out_list_begin(o, "ports", NULL);
	for (int p = 0; p < 3; p++) {
		out_obj_begin(o, NULL, "port");
		out_str(o, "netdev", "Netdev", p ? "eth\"1" : "eth0");
		out_table_begin(o, "counters");
		for (int i = 0; i < BIG_ROWS / 3; i++) {
			char name[48];

			snprintf(name, sizeof(name), "rx_prio%d_bytes\\%d", i % 8, i);
			out_row_begin(o);
			out_str(o, "name", "NAME", name);
			out_u64(o, "value", "VALUE", (uint64_t)i * 1000003u);
			out_s64(o, "delta", NULL, -(int64_t)i);
			out_bool(o, "catalogued", NULL, i % 2);
			out_obj_begin(o, "labels", NULL);
			if (i % 3 == 0)
				out_str(o, "priority", NULL, "3");
			out_obj_end(o);
			out_null(o, "description", NULL);
			out_row_end(o);
		}
		out_table_end(o);
		out_obj_end(o);
	}
	out_list_end(o);
	out_list_begin(o, "empty_list", NULL);
	out_list_end(o);
	out_obj_begin(o, "empty_object", NULL);
	out_obj_end(o);
}

static json_t *big_jansson(void)
{
	json_t *doc = json_object(), *ports = json_array();

	json_object_set_new(doc, "schema_version", json_integer(OUT_SCHEMA_VERSION));
	for (int p = 0; p < 3; p++) {
		json_t *port = json_object(), *rows = json_array();

		json_object_set_new(port, "netdev", json_string(p ? "eth\"1" : "eth0"));
		for (int i = 0; i < BIG_ROWS / 3; i++) {
			json_t *row = json_object(), *labels = json_object();
			char name[48];

			snprintf(name, sizeof(name), "rx_prio%d_bytes\\%d", i % 8, i);
			json_object_set_new(row, "name", json_string(name));
			json_object_set_new(row, "value", json_integer((json_int_t)i * 1000003));
			json_object_set_new(row, "delta", json_integer(-(json_int_t)i));
			json_object_set_new(row, "catalogued", json_boolean(i % 2));
			if (i % 3 == 0)
				json_object_set_new(labels, "priority", json_string("3"));
			json_object_set_new(row, "labels", labels);
			json_object_set_new(row, "description", json_null());
			json_array_append_new(rows, row);
		}
		json_object_set_new(port, "counters", rows);
		json_array_append_new(ports, port);
	}
	json_object_set_new(doc, "ports", ports);
	json_object_set_new(doc, "empty_list", json_array());
	json_object_set_new(doc, "empty_object", json_object());
	return doc;
}

static void test_big_as_jansson(void **state)
{
	json_t *doc = big_jansson();

	(void)state;
	for (int pretty = 0; pretty < 2; pretty++) {
		char *ours = run(seq_big, true, pretty);
		char *theirs = json_dumps(doc, JSON_PRESERVE_ORDER |
					  (pretty ? JSON_INDENT(2) : JSON_COMPACT));
		size_t n = strlen(theirs);

		assert_non_null(theirs);
		assert_true(n > 100000);
		assert_int_equal(strlen(ours), n + 1);
		assert_memory_equal(ours, theirs, n);
		assert_int_equal(ours[n], '\n');
		free(ours);
		free(theirs);
	}
	json_decref(doc);
}

/* A handler that returns with containers still open: out_finish closes
 * them, so what is printed still parses. */
/* ---- fields in a layout of the renderer's own (OUT_ANY/JSON/TEXT) ---- */

static void seq_fmt(struct out *o)
{
	out_fmt_str(o, OUT_ANY, "netdev", "Interface: %s", "eth0");
	out_fmt_str(o, OUT_JSON, "pci_address", NULL, "0000:01:00.0");
	out_printf(o, " (%s)\n", "0000:01:00.0");
	out_fmt_u64(o, OUT_ANY, "pfc_cap", "PFC cap: %s\n", 8);
	out_fmt_bool(o, OUT_ANY, "willing", "willing: %s\n", false);
	out_fmt_null(o, OUT_ANY, "cnp_dscp", "CNP DSCP: %s\n");
	out_fmt_u64(o, OUT_TEXT, "never", "total=%s\n", 7);
	/* a table whose fields are all JSON only: no text at all */
	out_table_begin(o, "dscp2prio");
	out_row_begin(o);
	out_u64(o, "dscp", NULL, 26);
	out_row_end(o);
	out_row_begin(o);
	out_u64(o, "dscp", NULL, 46);
	out_row_end(o);
	out_table_end(o);
}

static void test_fmt(void **state)
{
	(void)state;
	check(seq_fmt,
	      "Interface: eth0 (0000:01:00.0)\nPFC cap: 8\nwilling: no\nCNP DSCP: -\ntotal=7\n",
	      "{\"schema_version\":3,\"netdev\":\"eth0\",\"pci_address\":\"0000:01:00.0\",\"pfc_cap\":8,"
	      "\"willing\":false,\"cnp_dscp\":null,\"dscp2prio\":[{\"dscp\":26},{\"dscp\":46}]}\n");
}

static void seq_unclosed(struct out *o)
{
	out_list_begin(o, "ports", NULL);
	out_obj_begin(o, NULL, "port");
	out_str(o, "netdev", "Netdev", "eth0");
}

static void test_unclosed(void **state)
{
	(void)state;
	check(seq_unclosed, "port:\n  Netdev: eth0\n",
	      "{\"schema_version\":3,\"ports\":[{\"netdev\":\"eth0\"}]}\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_empty_table),
		cmocka_unit_test(test_nothing),
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_two_tables),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_big_as_jansson),
		cmocka_unit_test(test_unclosed),
		cmocka_unit_test(test_fmt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
