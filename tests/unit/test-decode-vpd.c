/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for lib/decode/decode-vpd.c and the SR-IOV capability decoding of
 * lib/decode/decode-pcicfg.c, on byte arrays.  The VPD of two real adapters is
 * re-encoded here from their lspci -vvv captures (files cited below); when
 * $FIXTURES is present the captured text is read too and every keyword
 * value must match what the decoder returns.  Every decode runs on an
 * exactly-sized heap copy, so a read past the end trips ASan.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pcicfg.h"
#include "vpd.h"

struct kw {
	const char *k, *v;
};

/* PCI 3.0 VPD: 0x82 id string, 0x90 VPD-R ending in RV (checksum), 0x91
 * VPD-W with the keywords and one RW fill area of @rw_free bytes, 0x78. */
static size_t build_vpd(uint8_t *b, const char *product, const struct kw *ro, unsigned rv_res,
			const struct kw *rw, unsigned rw_free)
{
	size_t n = 0, start, plen = strlen(product);
	uint8_t sum = 0;

	b[n++] = 0x82;
	b[n++] = (uint8_t)plen;
	b[n++] = (uint8_t)(plen >> 8);
	memcpy(b + n, product, plen);
	n += plen;
	b[n++] = 0x90;
	start = n;
	n += 2;
	for (const struct kw *k = ro; k && k->k; k++) {
		size_t l = strlen(k->v);

		memcpy(b + n, k->k, 2);
		b[n + 2] = (uint8_t)l;
		memcpy(b + n + 3, k->v, l);
		n += 3 + l;
	}
	memcpy(b + n, "RV", 2);
	b[n + 2] = (uint8_t)(1 + rv_res);
	n += 3;
	b[start] = (uint8_t)(n + 1 + rv_res - start - 2);
	b[start + 1] = (uint8_t)((n + 1 + rv_res - start - 2) >> 8);
	for (size_t i = 0; i < n; i++)
		sum = (uint8_t)(sum + b[i]);
	b[n++] = (uint8_t)-sum;
	memset(b + n, 0, rv_res);
	n += rv_res;
	if (rw) {
		b[n++] = 0x91;
		start = n;
		n += 2;
		for (const struct kw *k = rw; k->k; k++) {
			size_t l = strlen(k->v);

			memcpy(b + n, k->k, 2);
			b[n + 2] = (uint8_t)l;
			memcpy(b + n + 3, k->v, l);
			n += 3 + l;
		}
		if (rw_free) {
			memcpy(b + n, "RW", 2);
			b[n + 2] = (uint8_t)rw_free;
			memset(b + n + 3, 0, rw_free);
			n += 3 + rw_free;
		}
		b[start] = (uint8_t)(n - start - 2);
		b[start + 1] = (uint8_t)((n - start - 2) >> 8);
	}
	b[n++] = 0x78;
	return n;
}

static int decode_copy(const uint8_t *b, size_t n, struct mlx_vpd *v, char *err, size_t errlen)
{
	uint8_t *c = malloc(n ? n : 1);
	int r;

	assert_non_null(c);
	memcpy(c, b, n);
	r = mlx_vpd_decode(c, n, v, err, errlen);
	free(c);
	return r;
}

/* FIX: lspci-vvv/cx3-pf-15b3_1003-mcx353a-lspci-vvv.txt (values verbatim,
 * trailing blanks included; the SN was redacted to '#' by the publisher). */
static const char cx3_product[] = "CX353A - ConnectX-3 QSFP";
static const struct kw cx3_ro[] = {
	{ "PN", "MCX353A-FCBT         " }, { "EC", "A3" },
	{ "SN", "MT##########            " }, { "V0", "PCIe Gen3 x8    " }, { NULL, NULL },
};
static const struct kw cx3_rw[] = {
	{ "V1", "N/A   " }, { "YA", "N/A                     " }, { NULL, NULL },
};

/* FIX: lspci-vvv/cx7-pf1-15b3_1021-lspci-vvv.txt */
static const char cx7_product[] = "NVIDIA ConnectX-7 Ethernet adapter card, 200 GbE , Dual-port "
				  "QSFP112, PCIe 5.0 x16, Crypto and Secure Boot";
static const struct kw cx7_ro[] = {
	{ "PN", "MCX713106AC-VEAT" }, { "EC", "A5" }, { "V2", "MCX713106AC-VEAT" },
	{ "SN", "MT2304XZ02VD" }, { "V3", "6e988f87fb9ced118000946dae47a24a" },
	{ "VA", "MLX:MN=MLNX:CSKU=V2:UUID=V3:PCI=V0:MODL=CX713106A" }, { "V0", "PCIeGen5 x16" },
	{ "VU", "MT2304XZ02VDMLNXS0D0F1" }, { NULL, NULL },
};

static void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* Compare the decoded fields with the "[KW] Name: value" lines of a real
 * lspci -vvv capture. */
static void check_against_capture(const char *rel, const struct mlx_vpd *v, const char *product)
{
	const char *fx = getenv("FIXTURES");
	char path[1024], line[512];
	unsigned matched = 0;
	bool in_vpd = false;
	FILE *f;

	if (!fx || !*fx) {
		fprintf(stderr, "# FIXTURES not set: skipping the comparison with %s\n", rel);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", fx, rel);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "# %s absent: skipping the comparison\n", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '['), *colon;
		char kw[3];

		rtrim(line);
		if (strstr(line, "Capabilities: ")) {
			in_vpd = strstr(line, "Vital Product Data") != NULL;
			continue;
		}
		if (!in_vpd)
			continue;
		if (strstr(line, "Product Name: ")) {
			assert_string_equal(strstr(line, "Product Name: ") + 14, product);
			continue;
		}
		if (!p || p[3] != ']' || !(colon = strchr(p, ':')))
			continue;
		memcpy(kw, p + 1, 2);
		kw[2] = '\0';
		if (!strcmp(kw, "RV") || !strcmp(kw, "RW"))
			continue;
		assert_non_null(mlx_vpd_get(v, kw));
		assert_string_equal(mlx_vpd_get(v, kw), colon + 2);
		matched++;
	}
	fclose(f);
	assert_true(matched >= 5);
}

static void test_cx3_capture(void **state)
{
	uint8_t b[1024];
	struct mlx_vpd v;
	char err[160] = "";
	size_t n = build_vpd(b, cx3_product, cx3_ro, 0, cx3_rw, 105);

	(void)state;
	assert_int_equal(decode_copy(b, n, &v, err, sizeof(err)), 0);
	assert_string_equal(v.product, cx3_product);
	assert_string_equal(mlx_vpd_get(&v, "PN"), "MCX353A-FCBT");
	assert_string_equal(mlx_vpd_get(&v, "EC"), "A3");
	assert_string_equal(mlx_vpd_get(&v, "V0"), "PCIe Gen3 x8");
	assert_string_equal(mlx_vpd_get(&v, "YA"), "N/A");
	assert_true(v.has_rv && v.checksum_ok);
	assert_int_equal(v.rv_reserved, 0);
	assert_int_equal(v.rw_free, 105);
	assert_int_equal(v.len, n);
	assert_true(v.f[v.n - 1].rw);
	check_against_capture("lspci-vvv/cx3-pf-15b3_1003-mcx353a-lspci-vvv.txt", &v, cx3_product);
}

static void test_cx7_capture(void **state)
{
	uint8_t b[1024];
	struct mlx_vpd v;
	char err[160] = "";
	size_t n = build_vpd(b, cx7_product, cx7_ro, 1, NULL, 0);

	(void)state;
	assert_int_equal(decode_copy(b, n, &v, err, sizeof(err)), 0);
	assert_string_equal(mlx_vpd_get(&v, "SN"), "MT2304XZ02VD");
	assert_string_equal(mlx_vpd_get(&v, "VU"), "MT2304XZ02VDMLNXS0D0F1");
	assert_int_equal(v.n, 8);
	assert_int_equal(v.rv_reserved, 1);
	assert_true(v.checksum_ok);
	check_against_capture("lspci-vvv/cx7-pf1-15b3_1021-lspci-vvv.txt", &v, cx7_product);
}

static void test_every_prefix_fails_cleanly(void **state)
{
	uint8_t b[1024];
	struct mlx_vpd v;
	char err[160];
	size_t n = build_vpd(b, cx7_product, cx7_ro, 1, NULL, 0);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		err[0] = '\0';
		assert_int_equal(decode_copy(b, i, &v, err, sizeof(err)), -EBADMSG);
		assert_true(err[0] != '\0');
	}
}

static void test_truncated_resource(void **state)
{
	uint8_t b[1024];
	struct mlx_vpd v;
	char err[160] = "";
	size_t n = build_vpd(b, cx3_product, cx3_ro, 0, NULL, 0);

	(void)state;
	/* The VPD-R length claims 200 bytes more than there are. */
	b[3 + strlen(cx3_product) + 1] += 200;
	assert_int_equal(decode_copy(b, n, &v, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "past the end"));
}

static void test_wrong_tags(void **state)
{
	static const uint8_t small[] = { 0x10, 0x78 };
	static const uint8_t large[] = { 0x83, 0x01, 0x00, 'x', 0x78 };
	static const uint8_t no_id[] = { 0x90, 0x00, 0x00, 0x78 };
	struct mlx_vpd v;
	char err[160] = "";

	(void)state;
	assert_int_equal(decode_copy(small, sizeof(small), &v, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "tag 0x10"));
	assert_int_equal(decode_copy(large, sizeof(large), &v, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "tag 0x83"));
	assert_int_equal(decode_copy(no_id, sizeof(no_id), &v, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "identifier"));
}

static void test_bad_checksum(void **state)
{
	uint8_t b[1024];
	struct mlx_vpd v;
	char err[160] = "";
	size_t n = build_vpd(b, cx3_product, cx3_ro, 0, NULL, 0);

	(void)state;
	b[5] ^= 0x01;     /* one bit of the product name */
	assert_int_equal(decode_copy(b, n, &v, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "checksum"));
	assert_true(v.has_rv);
	assert_false(v.checksum_ok);
	/* The fields are still there, for a warning rather than silence. */
	assert_string_equal(mlx_vpd_get(&v, "EC"), "A3");
}

static void test_missing_end_tag(void **state)
{
	uint8_t b[1024];
	struct mlx_vpd v;
	char err[160] = "";
	size_t n = build_vpd(b, cx3_product, cx3_ro, 0, cx3_rw, 10);

	(void)state;
	assert_int_equal(decode_copy(b, n - 1, &v, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "end tag"));
}

static void test_keyword_past_section(void **state)
{
	uint8_t b[1024];
	struct mlx_vpd v;
	char err[160] = "";
	size_t n = build_vpd(b, cx3_product, cx3_ro, 0, NULL, 0);
	size_t pn = 3 + strlen(cx3_product) + 3;   /* first keyword of VPD-R */

	(void)state;
	assert_memory_equal(b + pn, "PN", 2);
	b[pn + 2] = 250;
	assert_int_equal(decode_copy(b, n, &v, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "'PN'"));
}

/* ---- SR-IOV extended capability (REF §4.4 layout) ---- */

static void put16(uint8_t *c, size_t off, uint16_t v)
{
	c[off] = (uint8_t)v;
	c[off + 1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *c, size_t off, uint32_t v)
{
	put16(c, off, (uint16_t)v);
	put16(c, off + 2, (uint16_t)(v >> 16));
}

/* A type-0 header (15b3:1003, no standard capabilities) and an SR-IOV
 * capability at 0x100 with the cx3 capture's values
 * (FIX: lspci/cx3-mt27500-15b3_1003-lspci-vvvx.txt: Initial/Total 63,
 * offset 1, stride 1, VF device 0x1004, page sizes 0x7ff / 1). */
static void sriov_config(uint8_t *c)
{
	memset(c, 0, 4096);
	put16(c, 0, 0x15b3);
	put16(c, 2, 0x1003);
	c[0x0b] = 0x02;
	put32(c, 0x100, 0x10 | 1u << 16 | 0u << 20);
	put16(c, 0x108, 0x0019);
	put16(c, 0x10c, 63);
	put16(c, 0x10e, 63);
	put16(c, 0x110, 4);
	put16(c, 0x114, 1);
	put16(c, 0x116, 1);
	put16(c, 0x11a, 0x1004);
	put32(c, 0x11c, 0x7ff);
	put32(c, 0x120, 1);
}

static void test_sriov_cap(void **state)
{
	uint8_t *c = malloc(4096);
	struct mlx_pci_config cfg;

	(void)state;
	sriov_config(c);
	assert_int_equal(mlx_pci_config_decode(c, 4096, &cfg), 0);
	assert_true(cfg.sriov.present);
	assert_int_equal(cfg.sriov.offset, 0x100);
	assert_int_equal(cfg.sriov.initial_vfs, 63);
	assert_int_equal(cfg.sriov.total_vfs, 63);
	assert_int_equal(cfg.sriov.num_vfs, 4);
	assert_int_equal(cfg.sriov.vf_offset, 1);
	assert_int_equal(cfg.sriov.vf_stride, 1);
	assert_int_equal(cfg.sriov.vf_device, 0x1004);
	assert_int_equal(cfg.sriov.sup_pgsize, 0x7ff);
	assert_int_equal(cfg.sriov.ctrl & 0x01, 1);
	free(c);
}

static void test_sriov_cap_truncated(void **state)
{
	uint8_t full[4096];
	struct mlx_pci_config cfg;

	(void)state;
	sriov_config(full);
	/* Every length that cuts into the capability: no read past the end,
	 * fields beyond the cut stay zero. */
	for (size_t len = 0x100; len < 0x140; len += 2) {
		uint8_t *c = malloc(len);

		memcpy(c, full, len);
		assert_int_equal(mlx_pci_config_decode(c, len, &cfg), 0);
		if (cfg.sriov.present && len < 0x11c)
			assert_int_equal(cfg.sriov.vf_device, len >= 0x11c ? 0x1004 : 0);
		free(c);
	}
	/* 64 bytes only (an unprivileged read): no extended capabilities. */
	assert_int_equal(mlx_pci_config_decode(full, 64, &cfg), 0);
	assert_false(cfg.sriov.present);
	assert_true(cfg.ext_caps_truncated);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cx3_capture),
		cmocka_unit_test(test_cx7_capture),
		cmocka_unit_test(test_every_prefix_fails_cleanly),
		cmocka_unit_test(test_truncated_resource),
		cmocka_unit_test(test_wrong_tags),
		cmocka_unit_test(test_bad_checksum),
		cmocka_unit_test(test_missing_end_tag),
		cmocka_unit_test(test_keyword_past_section),
		cmocka_unit_test(test_sriov_cap),
		cmocka_unit_test(test_sriov_cap_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
