/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every input the libFuzzer harnesses (tests/fuzz/) found to break a
 * decoder or parser, kept as a unit test: each case is the reduced input
 * and the property its harness checks, and it failed before the fix named
 * in its comment.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include <linux/devlink.h>

#include "dmn.h"
#include "health.h"
#include "mlx-private.h"
#include "snapshot.h"
#include "vsec.h"

/*
 * fuzz-dmn-name: mlx_dmn_name cut each component to 48 bytes, but
 * mlx_dmn_name_parse keeps type and source in 32-byte fields and refused
 * the longer ones, so an incident made with a type or source of 32..48
 * characters was invisible to `dump-me-now list` and to retention (never
 * counted, never replaced).  Reduced from the crash input
 * "mlx5_0\0manual\0cl" + 34 x 0xff + "i\0a reason".
 */
static void test_dmn_name_long_source(void **state)
{
	struct timespec ts = { .tv_sec = 1700000000, .tv_nsec = 0 };
	char name[MLX_DMN_NAME_MAX + 1], src[40], typ[48];
	struct mlx_dmn_entry e;

	(void)state;
	memset(src, 'x', sizeof(src) - 1);
	src[sizeof(src) - 1] = '\0';
	assert_int_equal(mlx_dmn_name(name, sizeof(name), "mlx5_0", "manual", src, "a reason", &ts,
				      4242, 0), 0);
	assert_int_equal(mlx_dmn_name_parse(name, &e), 0);
	assert_int_equal(strncmp(e.source, src, strlen(e.source)), 0);

	memset(typ, 'T', sizeof(typ) - 1);
	typ[sizeof(typ) - 1] = '\0';
	assert_int_equal(mlx_dmn_name(name, sizeof(name), "mlx5_0", typ, "cli", "r", &ts, 1, 2), 0);
	assert_int_equal(mlx_dmn_name_parse(name, &e), 0);
	assert_int_equal(e.pid, 1);
	assert_int_equal(e.counter, 2);
}

/*
 * fuzz-cr-ranges: the bound check "addr + 4 * size > 2^30" wrapped for an
 * address near 2^64 (16 hex digits are accepted), so "0xFFFFFFFFFFFFFFFC,1"
 * passed and became a block at CR address 0xfffffffc, outside the 30-bit
 * space the gateway can address.  The harness's invariant (every block
 * inside the space) caught it.
 */
static void test_cr_ranges_address_wrap(void **state)
{
	static const char *const bad[] = {
		"0xFFFFFFFFFFFFFFFC,1\n",
		"fffffffffffffff0,4\n",
		"0x40000000,1\n",
		"0x3ffffffc,2\n",
	};
	struct mlx_cr_range *r;
	size_t n, line;
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = NULL;
		assert_int_equal(mlx_cr_ranges_parse(bad[i], strlen(bad[i]), &r, &n, &line, err,
						     sizeof(err)), -EINVAL);
		assert_null(r);
		assert_int_equal(line, 1);
	}
	/* The last dword of the space is still fine. */
	assert_int_equal(mlx_cr_ranges_parse("0x3ffffffc,1\n", 13, &r, &n, &line, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(r[0].addr, 0x3ffffffc);
	free(r);
}

/*
 * fuzz-dmn-name (60 s run, SEGV in memchr): in "dmn--..." the "--" found
 * by strstr starts inside the "dmn-" prefix, so the length of the first
 * component's search, sep - (name + 4), was -1 as a size_t and memchr read
 * far past the name.  Any folder named so in the dump root crashed
 * `dump-me-now list` and the retention of the next dump.
 */
static void test_dmn_name_parse_dash_prefix(void **state)
{
	static const char *const bad[] = {
		"dmn--",
		"dmn--2024.01.31-12.00.00.000-1.0",
		"dmn---a-b-c--2024.01.31-12.00.00.000-1.0",
		"dmn-",
	};
	struct mlx_dmn_entry e;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *copy = strdup(bad[i]);   /* exact size: ASan sees an overread */

		assert_non_null(copy);
		assert_int_equal(mlx_dmn_name_parse(copy, &e), -EINVAL);
		free(copy);
	}
}

/*
 * fuzz-fmsg (issue 29): a value before any object (at depth 0) was freed
 * by attach() and then read for the message ("an item outside the
 * top-level object"): a use after free, which ASan reports here.
 * Reduced from the crash input: OBJ_VALUE_TYPE u8, OBJ_VALUE_DATA 7.
 */
static void test_fmsg_value_outside_object(void **state)
{
	static const uint8_t in[] = {
		5, 0, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 0, MLX_FMSG_U8, 0, 0, 0,
		5, 0, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, 0, 7, 0, 0, 0,
	};
	struct mlx_fmsg_parser p;
	char err[160];
	uint8_t *copy = malloc(sizeof(in));

	(void)state;
	memcpy(copy, in, sizeof(in));
	mlx_fmsg_init(&p);
	assert_int_equal(mlx_fmsg_feed(&p, copy, sizeof(in), err, sizeof(err)), -EBADMSG);
	assert_string_equal(err, "an item outside the top-level object");
	mlx_fmsg_parser_free(&p);
	free(copy);
}

/* A capture's mlxcli-snapshot.json ending in a short \u escape: the
 * reader took "%4x" of fewer digits and stepped 5 bytes on, past the end
 * of the text (fuzz-snapshot-meta, issue 29; ASan reads it here). */
static void test_snapshot_meta_short_escape(void **state)
{
	static const char *const texts[] = {
		"{\"hostname\":\"\\u1", "{\"hostname\":\"\\u00", "{\"hostname\":\"a\\u004",
	};
	char out[64];

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t n = strlen(texts[i]);
		char *t = malloc(n + 1);   /* exact: a read past it is ASan's */

		memcpy(t, texts[i], n + 1);
		assert_false(mlx_snapshot_meta_value(t, "hostname", out, sizeof(out)));
		free(t);
	}
	assert_true(mlx_snapshot_meta_value("{\"hostname\": \"a\\u0041\"}", "hostname", out,
					    sizeof(out)));
	assert_string_equal(out, "aA");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dmn_name_long_source),
		cmocka_unit_test(test_cr_ranges_address_wrap),
		cmocka_unit_test(test_dmn_name_parse_dash_prefix),
		cmocka_unit_test(test_fmsg_value_outside_object),
		cmocka_unit_test(test_snapshot_meta_short_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
