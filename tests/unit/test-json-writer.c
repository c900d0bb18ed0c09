/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the one JSON writer (lib/core/json-writer.c): the bytes
 * are jansson's (json_dumps with JSON_PRESERVE_ORDER, compact or
 * JSON_INDENT(2)) for the same document, which users' parsers and the
 * expected files saw; what jansson cannot write (a u64 above INT64_MAX,
 * bytes that are not UTF-8) has its documented form; errors are reported
 * by mlx_json_finish(), never a half document.  jansson is here only to
 * build the reference.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "json-writer.h"

static char *done(struct mlx_json *j)
{
	char *s;
	size_t len;

	assert_int_equal(mlx_json_finish(j), 0);
	s = mlx_json_take(j, &len);
	assert_non_null(s);
	assert_int_equal(strlen(s), len);
	mlx_json_free(j);
	return s;
}

/* The same document through the writer and through jansson. */
static void doc(struct mlx_json *j)
{
	mlx_json_obj_begin(j, NULL);
	mlx_json_int(j, "schema_version", 2);
	mlx_json_str(j, "name", "enp94s0f0np0");
	mlx_json_str(j, "esc", "a\"b\\c\n\t\x01/é");
	mlx_json_null(j, "none");
	mlx_json_bool(j, "yes", true);
	mlx_json_int(j, "neg", INT64_MIN);
	mlx_json_arr_begin(j, "empty");
	mlx_json_end(j);
	mlx_json_obj_begin(j, "empty_obj");
	mlx_json_end(j);
	mlx_json_arr_begin(j, "list");
	mlx_json_u64(j, NULL, 1);
	mlx_json_obj_begin(j, NULL);
	mlx_json_str(j, "k", NULL);
	mlx_json_end(j);
	mlx_json_end(j);
	mlx_json_end(j);
}

static json_t *ref(void)
{
	json_t *o = json_object(), *l = json_array(), *x = json_object();

	json_object_set_new(o, "schema_version", json_integer(2));
	json_object_set_new(o, "name", json_string("enp94s0f0np0"));
	json_object_set_new(o, "esc", json_string("a\"b\\c\n\t\x01/é"));
	json_object_set_new(o, "none", json_null());
	json_object_set_new(o, "yes", json_true());
	json_object_set_new(o, "neg", json_integer(INT64_MIN));
	json_object_set_new(o, "empty", json_array());
	json_object_set_new(o, "empty_obj", json_object());
	json_array_append_new(l, json_integer(1));
	json_object_set_new(x, "k", json_null());
	json_array_append_new(l, x);
	json_object_set_new(o, "list", l);
	return o;
}

static void as_jansson(bool pretty)
{
	struct mlx_json *j = mlx_json_new(pretty);
	json_t *r = ref();
	char *want = json_dumps(r, JSON_PRESERVE_ORDER | (pretty ? JSON_INDENT(2) : JSON_COMPACT));
	char *got;

	assert_non_null(j);
	doc(j);
	got = done(j);
	assert_non_null(want);
	/* json_dumps ends without a newline; a document on a stream has one */
	assert_int_equal(strlen(got), strlen(want) + 1);
	assert_memory_equal(got, want, strlen(want));
	assert_int_equal(got[strlen(want)], '\n');
	free(got);
	free(want);
	json_decref(r);
}

static void test_compact_as_jansson(void **state)
{
	(void)state;
	as_jansson(false);
}

static void test_pretty_as_jansson(void **state)
{
	(void)state;
	as_jansson(true);
}

static void test_beyond_jansson(void **state)
{
	struct mlx_json *j = mlx_json_new(false);
	static const uint8_t bin[] = { 0x00, 0xab, 0x7f };
	char *s;

	(void)state;
	mlx_json_arr_begin(j, NULL);
	mlx_json_u64(j, NULL, UINT64_MAX);                 /* a string: json_int_t is signed */
	mlx_json_u64(j, NULL, (uint64_t)INT64_MAX);        /* still a number */
	mlx_json_str(j, NULL, "bad\xff" "byte \xc3(");     /* not UTF-8: U+FFFD each */
	mlx_json_hex(j, NULL, bin, sizeof(bin));
	mlx_json_hex(j, NULL, bin, 0);
	mlx_json_end(j);
	s = done(j);
	assert_string_equal(s, "[\"18446744073709551615\",9223372036854775807,"
			    "\"bad\xef\xbf\xbd" "byte \xef\xbf\xbd(\",\"00ab7f\",\"\"]\n");
	free(s);
}

static void test_unclosed_and_fwrite(void **state)
{
	struct mlx_json *j = mlx_json_new(true);
	char *buf = NULL, *s;
	size_t len = 0;
	FILE *f;

	(void)state;
	mlx_json_obj_begin(j, NULL);
	mlx_json_arr_begin(j, "a");
	mlx_json_int(j, NULL, 1);
	assert_int_equal(mlx_json_depth(j), 2);
	assert_int_equal(mlx_json_finish(j), 0);         /* closes what is open */
	assert_int_equal(mlx_json_depth(j), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(mlx_json_fwrite(j, f), 0);
	assert_int_equal(fclose(f), 0);
	s = mlx_json_take(j, NULL);
	assert_string_equal(buf, "{\n  \"a\": [\n    1\n  ]\n}\n");
	assert_string_equal(s, buf);
	free(s);
	free(buf);
	mlx_json_free(j);
}

static void test_too_deep(void **state)
{
	struct mlx_json *j = mlx_json_new(false);

	(void)state;
	for (int i = 0; i <= MLX_JSON_MAX_DEPTH; i++)
		mlx_json_arr_begin(j, NULL);
	assert_int_equal(mlx_json_finish(j), -EOVERFLOW);
	mlx_json_free(j);
}

static void test_large(void **state)
{
	struct mlx_json *j = mlx_json_new(false);
	size_t len;
	char *s;

	(void)state;
	/* many chunks: what is written is never moved or lost */
	mlx_json_arr_begin(j, NULL);
	for (int i = 0; i < 300000; i++)
		mlx_json_int(j, NULL, i);
	mlx_json_end(j);
	assert_int_equal(mlx_json_finish(j), 0);
	s = mlx_json_take(j, &len);
	assert_non_null(s);
	assert_true(len > 16384 * 4);
	assert_memory_equal(s, "[0,1,2,", 7);
	assert_memory_equal(s + len - 9, ",299999]\n", 9);
	free(s);
	mlx_json_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compact_as_jansson),
		cmocka_unit_test(test_pretty_as_jansson),
		cmocka_unit_test(test_beyond_jansson),
		cmocka_unit_test(test_unclosed_and_fwrite),
		cmocka_unit_test(test_too_deep),
		cmocka_unit_test(test_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
