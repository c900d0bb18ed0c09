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

#include "dmn.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dmn_name_long_source),
		cmocka_unit_test(test_cr_ranges_address_wrap),
		cmocka_unit_test(test_dmn_name_parse_dash_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
