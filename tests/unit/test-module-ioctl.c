/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The module EEPROM on a kernel without ETHTOOL_MSG_MODULE_EEPROM_GET
 * (before 5.13): mlx_module_read() falls back to SIOCETHTOOL
 * GMODULEINFO + GMODULEEEPROM through the kernel boundary and splits the
 * flat buffer into the pages the decoders take.  The kernel is the one
 * thing faked here, at the boundary (a wrapped struct mlx_kops): its
 * netlink answers -EOPNOTSUPP as such a kernel does, its ioctl hands out
 * a real module's bytes from $FIXTURES/module in the layouts
 * include/uapi/linux/ethtool.h gives (SFF-8472 A0h+A2h 512 bytes,
 * SFF-8636 256 bytes or 640 with upper pages 01h-03h).  The decode of the
 * fallback must equal the decode of the same bytes handed in as pages.
 */
#include "config.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlx-private.h"
#include "module-fixtures.h"
#include "phy.h"

#define FINISAR_SFP28 "sfp28-finisar-FTLF8536P4BCL-ethtool-m-raw-on-512B-bin-dentos-prestera.xxd.txt"
#define ER4 "sff8636-qsfp28-er4-qsfptek-QT-QSFP28-ER4-junos-show-qsfp-info-lower-upper00-page03.txt"

/* the fake kernel: what its module says over the ioctl */
static struct {
	uint32_t type, len;          /* GMODULEINFO */
	uint8_t eeprom[1024];
	int info_err, eeprom_err;
	unsigned nl_calls, ioctl_calls;
} k;

static int old_kernel_nl(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
			 const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg)
{
	(void)fam, (void)object, (void)request, (void)req, (void)len, (void)cb, (void)arg;
	k.nl_calls++;
	/* net/ethtool/netlink.c before 5.13: an unknown command */
	return mlx_err(ctx, EOPNOTSUPP, "Operation not supported");
}

static int old_kernel_ethtool(struct mlx_ctx *ctx, const char *ifname, void *data)
{
	uint32_t cmd;

	(void)ctx;
	(void)ifname;
	k.ioctl_calls++;
	memcpy(&cmd, data, sizeof(cmd));
	if (cmd == ETHTOOL_GMODULEINFO) {
		struct ethtool_modinfo *mi = data;

		if (k.info_err)
			return k.info_err;
		mi->type = k.type;
		mi->eeprom_len = k.len;
		return 0;
	}
	if (cmd == ETHTOOL_GMODULEEEPROM) {
		struct ethtool_eeprom *ee = data;

		if (k.eeprom_err)
			return k.eeprom_err;
		/* net/ethtool/ioctl.c ethtool_get_any_eeprom: within eeprom_len */
		if (ee->offset + ee->len > k.len)
			return -EINVAL;
		memcpy(ee->data, k.eeprom + ee->offset, ee->len);
		return 0;
	}
	return -EOPNOTSUPP;
}

static struct mlx_kops kops;

static int setup(void **state)
{
	struct mlx_ctx *ctx;

	assert_int_equal(mlx_ctx_new("/", &ctx, NULL), 0);
	kops = *mlx_ctx_kops(ctx);
	kops.nl_request = old_kernel_nl;
	kops.ethtool_ioctl = old_kernel_ethtool;
	mlx_ctx_set_kops(ctx, &kops);
	memset(&k, 0, sizeof(k));
	*state = ctx;
	return 0;
}

static int teardown(void **state)
{
	mlx_ctx_free(*state);
	return 0;
}

/* The decode of @e, the reference the fallback must equal. */
static void reference(const struct mlx_mod_eeprom *e, struct mlx_mod_info *mi)
{
	char err[128];

	assert_int_equal(mlx_mod_decode(e, mi, err, sizeof(err)), 0);
}

static void same_info(const struct mlx_mod_info *a, const struct mlx_mod_info *b)
{
	assert_int_equal(a->std, b->std);
	assert_string_equal(a->vendor, b->vendor);
	assert_string_equal(a->part_number, b->part_number);
	assert_string_equal(a->serial, b->serial);
	assert_int_equal(a->dom, b->dom);
	assert_int_equal(a->nlanes, b->nlanes);
	assert_int_equal(a->temperature_c.valid, b->temperature_c.valid);
	expect_near(a->temperature_c.v, b->temperature_c.v, 1e-12);
	assert_int_equal(a->temperature_th.valid, b->temperature_th.valid);
	expect_near(a->temperature_th.high_alarm, b->temperature_th.high_alarm, 1e-12);
	for (unsigned i = 0; i < a->nlanes; i++) {
		expect_near(a->lane[i].rx_power_mw.v, b->lane[i].rx_power_mw.v, 1e-12);
		expect_near(a->lane[i].bias_ma.v, b->lane[i].bias_ma.v, 1e-12);
	}
}

/* SFF-8472: A0h 0-255 then A2h 0-255, four half pages. */
static void test_sff8472_512(void **state)
{
	struct mlx_module m;
	struct mlx_mod_eeprom e;
	struct mlx_mod_info want;
	struct dump d;

	if (!load_dump(FINISAR_SFP28, NULL, "hexdump version", &d))
		skip();
	assert_int_equal(d.flat_len, 512);
	to_eeprom(&d, 512, &e);
	reference(&e, &want);
	assert_true(want.dom);
	k.type = ETH_MODULE_SFF_8472;
	k.len = ETH_MODULE_SFF_8472_LEN;
	memcpy(k.eeprom, d.flatbuf, 512);
	assert_int_equal(mlx_module_read(*state, "old0", &m), 0);
	assert_int_equal(k.nl_calls, 1);            /* the netlink try, then the ioctl */
	assert_int_equal(k.ioctl_calls, 2);
	assert_int_equal(m.decode_rc, 0);
	same_info(&m.info, &want);
	assert_int_equal(m.nreq, 4);
	assert_int_equal(m.req[2].i2c, MLX_MOD_I2C_A2);
	assert_int_equal(m.req[2].offset, 0);
	assert_int_equal(m.req[3].offset, 128);
	assert_int_equal(m.got[3], 128);
	assert_memory_equal(m.data[2], d.flatbuf + 256, 128);
	dump_free(&d);
}

/* SFF-8636 the two ways the kernel lays it out: 256 bytes (lower + page
 * 00h: no thresholds) and 640 (upper pages 01h, 02h, 03h at 256, 384, 512). */
static void test_sff8636_256_and_640(void **state)
{
	struct mlx_module m;
	struct mlx_mod_eeprom e;
	struct mlx_mod_info want;
	struct dump d;
	int p0 = -1, p3 = -1;

	if (!load_dump(ER4, "QSFP IDEEPROM", NULL, &d))
		skip();
	for (int i = 0; i < d.npages; i++) {
		if (d.pg[i].page == 0)
			p0 = i;
		if (d.pg[i].page == 3)
			p3 = i;
	}
	assert_true(p0 >= 0 && p3 >= 0);
	to_eeprom(&d, 0, &e);
	reference(&e, &want);
	assert_true(want.temperature_th.valid);
	memcpy(k.eeprom, d.pg[p0].b, 256);
	memcpy(k.eeprom + 512, d.pg[p3].b + 128, 128);
	k.type = ETH_MODULE_SFF_8636;

	k.len = ETH_MODULE_SFF_8636_MAX_LEN;
	assert_int_equal(mlx_module_read(*state, "old0", &m), 0);
	assert_int_equal(m.decode_rc, 0);
	same_info(&m.info, &want);
	assert_int_equal(m.nreq, 5);
	assert_int_equal(m.req[4].page, 3);
	assert_int_equal(m.req[4].offset, 128);
	assert_int_equal(m.req[2].page, 1);

	k.len = ETH_MODULE_SFF_8636_LEN;
	assert_int_equal(mlx_module_read(*state, "old0", &m), 0);
	assert_int_equal(m.decode_rc, 0);
	assert_int_equal(m.nreq, 2);
	assert_string_equal(m.info.serial, want.serial);
	expect_near(m.info.temperature_c.v, want.temperature_c.v, 1e-12);
	assert_false(m.info.temperature_th.valid);  /* page 03h was not read */
	dump_free(&d);
}

/* No module, or a driver without the ioctl either (veth): "no module",
 * -EOPNOTSUPP, the same story as the netlink path; mlx5's -EIO too. */
static void test_no_module(void **state)
{
	struct mlx_module m;

	k.info_err = -EOPNOTSUPP;
	assert_int_equal(mlx_module_read(*state, "old0", &m), -EOPNOTSUPP);
	assert_non_null(strstr(mlx_errmsg(*state), "no module on 'old0'"));
	assert_non_null(strstr(mlx_errmsg(*state), "SIOCETHTOOL"));
	k.info_err = -EIO;
	assert_int_equal(mlx_module_read(*state, "old0", &m), -EOPNOTSUPP);
	assert_non_null(strstr(mlx_errmsg(*state), "nothing answers"));
	k.info_err = -ENODEV;
	assert_int_equal(mlx_module_read(*state, "old0", &m), -ENODEV);
	k.info_err = 0;
	k.type = ETH_MODULE_SFF_8472;
	k.len = 512;
	k.eeprom_err = -EIO;
	assert_int_equal(mlx_module_read(*state, "old0", &m), -EOPNOTSUPP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sff8472_512, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sff8636_256_and_640, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_module, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
