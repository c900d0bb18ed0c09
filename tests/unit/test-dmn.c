/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for lib/core/sha256.c (FIPS 180-2 appendix B test vectors) and the
 * pure parts of lib/debug/dmn.c: the key=value configuration parser, incident
 * names, and the retention plan (manual: DumpMeNowTotalCount,
 * DumpMeNowPreservedCountMin).
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

#include "dmn.h"
#include "sha256.h"

static void hash(const void *d, size_t len, char hex[65])
{
	struct mlx_sha256 s;
	uint8_t out[32];

	mlx_sha256_init(&s);
	mlx_sha256_update(&s, d, len);
	mlx_sha256_final(&s, out);
	mlx_sha256_hex(out, hex);
}

static void test_sha256_fips(void **state)
{
	static const char two_block[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[65];
	struct mlx_sha256 s;
	uint8_t out[32], *a;

	(void)state;
	/* FIPS 180-2 B.1: "abc" */
	hash("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* B.2: the 448-bit message, two blocks after padding */
	hash(two_block, strlen(two_block), hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* B.3: one million 'a', fed in uneven pieces */
	a = malloc(1000000);
	memset(a, 'a', 1000000);
	mlx_sha256_init(&s);
	for (size_t off = 0, k = 1; off < 1000000; off += k, k = k * 7 % 1000 + 1)
		mlx_sha256_update(&s, a + off, off + k > 1000000 ? 1000000 - off : k);
	mlx_sha256_final(&s, out);
	mlx_sha256_hex(out, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
	/* the empty message */
	hash("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* 55 and 56 bytes: the padding boundary */
	hash(two_block, 55, hex);
	assert_int_equal(strlen(hex), 64);
}

struct kv {
	char keys[8][64], vals[8][128];
	int n;
};

static int kv_cb(const char *k, const char *v, void *arg)
{
	struct kv *kv = arg;

	if (!strcmp(k, "bad"))
		return -EINVAL;
	if (!strcmp(k, "nosuch"))
		return -ENOENT;
	snprintf(kv->keys[kv->n], 64, "%s", k);
	snprintf(kv->vals[kv->n], 128, "%s", v);
	kv->n++;
	return 0;
}

static int conf(const char *t, struct kv *kv, size_t *line)
{
	char err[128];

	memset(kv, 0, sizeof(*kv));
	return mlx_conf_parse(t, strlen(t), kv_cb, kv, line, err, sizeof(err));
}

static void test_conf_parse(void **state)
{
	struct kv kv;
	size_t line;

	(void)state;
	assert_int_equal(conf("", &kv, &line), 0);
	assert_int_equal(kv.n, 0);
	assert_int_equal(conf("# c\n\n  dmn_dir = /var/x y \r\ndmn_total_count=4", &kv, &line), 0);
	assert_int_equal(kv.n, 2);
	assert_string_equal(kv.keys[0], "dmn_dir");
	assert_string_equal(kv.vals[0], "/var/x y");
	assert_string_equal(kv.vals[1], "4");
	assert_int_equal(conf("a=\n", &kv, &line), 0);
	assert_string_equal(kv.vals[0], "");
	assert_int_equal(conf("a=b=c\n", &kv, &line), 0);
	assert_string_equal(kv.vals[0], "b=c");
	assert_int_equal(conf("ok=1\nnoequals\n", &kv, &line), -EINVAL);
	assert_int_equal(line, 2);
	assert_int_equal(conf("=v\n", &kv, &line), -EINVAL);
	assert_int_equal(conf("Dmn=1\n", &kv, &line), -EINVAL);
	assert_int_equal(conf("a b=1\n", &kv, &line), -EINVAL);
	assert_int_equal(conf("\n\nbad=1\n", &kv, &line), -EINVAL);
	assert_int_equal(line, 3);
	{
		/* An unknown key (the callback's -ENOENT) is an error, said so. */
		char err[64];

		memset(&kv, 0, sizeof(kv));
		assert_int_equal(mlx_conf_parse("a=1\n# c\nnosuch = 2\n", 19, kv_cb, &kv, &line, err,
						sizeof(err)), -ENOENT);
		assert_int_equal(line, 3);
		assert_string_equal(err, "unknown key 'nosuch'");
	}
	{
		static const char t[] = "a=1\nb\0=2\n";
		char err[64];

		memset(&kv, 0, sizeof(kv));
		assert_int_equal(mlx_conf_parse(t, sizeof(t) - 1, kv_cb, &kv, &line, err, sizeof(err)),
				 -EINVAL);
		assert_int_equal(line, 2);
	}
}

static void test_names(void **state)
{
	struct timespec ts = { 1492069742, 747000000 };   /* 2017-04-13 07:49:02.747 UTC */
	struct mlx_dmn_entry e, f;
	char n[256];

	(void)state;
	assert_int_equal(mlx_dmn_name(n, sizeof(n), "0000:08:00.0", "GENERAL", "USER", "link down/up", &ts,
				      123, 4), 0);
	assert_string_equal(n, "dmn-0000_08_00.0-GENERAL-USER-link_down_up--2017.04.13-07.49.02.747-123.4");
	assert_null(strchr(n, ':'));
	assert_int_equal(mlx_dmn_name_parse(n, &e), 0);
	assert_string_equal(e.device, "0000_08_00.0");
	/* the folder spells the address with '_' (no ':' in a path on every
	 * file system); the entry gives it back as an address */
	assert_string_equal(e.pci_address, "0000:08:00.0");
	assert_string_equal(e.reason, "link_down_up");
	assert_string_equal(e.stamp, "2017.04.13-07.49.02.747");
	assert_int_equal(e.pid, 123);
	assert_int_equal(e.counter, 4);
	/* the separator cannot be smuggled in, NULL reason is NA */
	assert_int_equal(mlx_dmn_name(n, sizeof(n), "d", "T", "S", NULL, &ts, 1, 0), 0);
	assert_int_equal(mlx_dmn_name_parse(n, &f), 0);
	assert_string_equal(f.reason, "NA");
	assert_string_equal(f.pci_address, "");         /* "d" is no address: unknown */
	assert_int_equal(mlx_dmn_name(n, sizeof(n), "mlx5_0", "T", "S", NULL, &ts, 1, 0), 0);
	assert_int_equal(mlx_dmn_name_parse(n, &f), 0);
	assert_string_equal(f.pci_address, "");         /* never "mlx5:0" */
	assert_true(mlx_dmn_entry_cmp(&f, &e) < 0);       /* same stamp, lower pid */
	assert_int_equal(mlx_dmn_name(n, 20, "d", "T", "S", NULL, &ts, 1, 0), -ENAMETOOLONG);
	/* not incidents */
	assert_int_equal(mlx_dmn_name_parse(".tmp-dmn-a-b-c-d--2017.04.13-07.49.02.747-1.0", &e), -EINVAL);
	assert_int_equal(mlx_dmn_name_parse("dmn-a-b-c--2017.04.13-07.49.02.747-1.0", &e), -EINVAL);
	assert_int_equal(mlx_dmn_name_parse("dmn-a-b-c-d-e--2017.04.13-07.49.02.747-1.0", &e), -EINVAL);
	assert_int_equal(mlx_dmn_name_parse("dmn-a-b-c-d--2017.04.13-07.49.02.74-1.0", &e), -EINVAL);
	assert_int_equal(mlx_dmn_name_parse("dmn-a-b-c-d--2017.04.13-07.49.02.747-1.", &e), -EINVAL);
	assert_int_equal(mlx_dmn_name_parse("dmn-a-b-c-d--2017.04.13-07.49.02.747-1.0x", &e), -EINVAL);
	assert_int_equal(mlx_dmn_name_parse("dmn-a-b-c-d--2017.04.13-07.49.02.747-1.0", &e), 0);
}

/* Simulate T/P over many incidents: exactly the manual's outcome. */
static void test_retention(void **state)
{
	int kept[64];
	size_t n = 0, first, count;

	(void)state;
	for (int id = 1; id <= 10; id++) {
		assert_int_equal(mlx_dmn_may_create(n, 4, 2), 0);
		kept[n++] = id;
		mlx_dmn_plan(n, 4, 2, &first, &count);
		assert_true(first + count <= n);
		memmove(&kept[first], &kept[first + count], (n - first - count) * sizeof(int));
		n -= count;
		assert_true(n <= 4);
	}
	assert_int_equal(n, 4);
	assert_int_equal(kept[0], 1);
	assert_int_equal(kept[1], 2);
	assert_int_equal(kept[2], 9);
	assert_int_equal(kept[3], 10);
	/* T = 0: disabled */
	assert_int_equal(mlx_dmn_may_create(0, 0, 0), -ECANCELED);
	/* P >= T: all kept; no more once full */
	assert_int_equal(mlx_dmn_may_create(3, 4, 8), 0);
	assert_int_equal(mlx_dmn_may_create(4, 4, 8), -ENOSPC);
	assert_int_equal(mlx_dmn_may_create(4, 4, 4), -ENOSPC);
	mlx_dmn_plan(4, 4, 8, &first, &count);
	assert_int_equal(count, 0);
	/* P = 0: a plain ring */
	mlx_dmn_plan(5, 4, 0, &first, &count);
	assert_int_equal(first, 0);
	assert_int_equal(count, 1);
	/* lowered total: several go at once, never a preserved or the newest */
	mlx_dmn_plan(10, 3, 2, &first, &count);
	assert_int_equal(first, 2);
	assert_int_equal(count, 7);
	mlx_dmn_plan(10, 3, 2, &first, &count);
	assert_true(first + count <= 9);
	/* the manual's defaults */
	assert_int_equal(MLX_DMN_TOTAL_DEFAULT, 128);
	assert_int_equal(MLX_DMN_PRESERVED_DEFAULT, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_fips),
		cmocka_unit_test(test_conf_parse),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_retention),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
