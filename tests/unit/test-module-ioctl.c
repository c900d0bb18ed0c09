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
 * A kernel with the netlink request serves a CMIS module with two banks
 * from the same kind of table: bank 1's page 11h must be asked for.
 * A snapshot taken on such a kernel records the ioctl replies, and the
 * capture answers them: the same decode, the same "no module".
 */
#include "config.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mlx-private.h"
#include "module-fixtures.h"
#include "nl.h"
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

/* A 5.13+ kernel's MODULE_EEPROM_GET: the half page the request names,
 * from k.pages (i2c 0x50 only), or -EINVAL as net/ethtool/eeprom.c
 * answers for a page the module does not have. */
static struct {
	uint8_t bank, page;
	uint16_t offset;
	const uint8_t *data;     /* 128 bytes */
} pages[16];
static size_t npages;

static int new_kernel_nl(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
			 const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	uint32_t offset = 0, length = 0;
	uint8_t page = 0, bank = 0, reply[512];
	struct genlmsghdr g = { .cmd = ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, .version = ETHTOOL_GENL_VERSION };
	struct mlx_nlbuf b;
	int n;

	(void)object, (void)request;
	k.nl_calls++;
	assert_int_equal(fam, MLX_NL_ETHTOOL);
	assert_int_equal(mlx_nlmsg_attrs(req, len, GENL_HDRLEN, &attrs, &alen), 0);
	while (mlx_nla_next(attrs, alen, &off, &a) == 1) {
		if (a.type == ETHTOOL_A_MODULE_EEPROM_OFFSET)
			mlx_nla_u32(&a, &offset);
		else if (a.type == ETHTOOL_A_MODULE_EEPROM_LENGTH)
			mlx_nla_u32(&a, &length);
		else if (a.type == ETHTOOL_A_MODULE_EEPROM_PAGE)
			mlx_nla_u8(&a, &page);
		else if (a.type == ETHTOOL_A_MODULE_EEPROM_BANK)
			mlx_nla_u8(&a, &bank);
	}
	assert_int_equal(length, 128);
	for (size_t i = 0; i < npages; i++) {
		if (pages[i].bank != bank || pages[i].page != page || pages[i].offset != offset)
			continue;
		mlx_nlb_init(&b, reply, sizeof(reply));
		mlx_nlb_msg(&b, 0, 0);
		mlx_nlb_put(&b, &g, sizeof(g));
		mlx_nlb_attr(&b, ETHTOOL_A_MODULE_EEPROM_DATA, pages[i].data, 128);
		n = mlx_nlb_finish(&b);
		assert_true(n > 0);
		return mlx_nl_replay(ctx, reply, (size_t)n, cb, arg);
	}
	return mlx_err(ctx, EINVAL, "no such page");
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
	assert_non_null(strstr(mlx_errmsg(*state), "no network interface 'old0'"));
	/* a module type the driver has no flat layout for: said so */
	k.info_err = -EINVAL;
	assert_int_equal(mlx_module_read(*state, "old0", &m), -EINVAL);
	assert_non_null(strstr(mlx_errmsg(*state), "SIOCETHTOOL GMODULEINFO/GMODULEEEPROM failed"));
	k.info_err = 0;
	k.type = ETH_MODULE_SFF_8472;
	k.len = 512;
	k.eeprom_err = -EIO;
	assert_int_equal(mlx_module_read(*state, "old0", &m), -EOPNOTSUPP);
}

/* CMIS with banks 0-1 (page 01h byte 142 = 1): after the lower page,
 * 00h, 01h, 02h and bank 0's 11h, bank 1's 11h; lanes 9-16 its own. */
static void test_cmis_second_bank(void **state)
{
	struct mlx_module m;
	struct dump d;
	uint8_t p11b1[128];

	if (!load_dump("cmis5-qsfp-dd-400g-eoptolink-EOLD-168HG-10-1-junos-eeprom-pages-00-01-02-03-10-11.txt",
		       NULL, NULL, &d))
		skip();
	kops.nl_request = new_kernel_nl;
	npages = 0;
	for (int i = 0; i < d.npages; i++) {
		if (d.pg[i].page == 1)
			d.pg[i].b[142] = (uint8_t)((d.pg[i].b[142] & ~0x03) | 0x01);
		if (d.pg[i].page == 0)
			pages[npages++] = (typeof(pages[0])){ 0, 0, 0, d.pg[i].b };
		pages[npages++] = (typeof(pages[0])){ 0, (uint8_t)d.pg[i].page, 128, d.pg[i].b + 128 };
		if (d.pg[i].page == 0x11) {
			memcpy(p11b1, d.pg[i].b + 128, 128);
			p11b1[170 - 128] ^= 0x01;      /* lane 9's bias differs from lane 1's */
			pages[npages++] = (typeof(pages[0])){ 1, 0x11, 128, p11b1 };
		}
	}
	assert_int_equal(mlx_module_read(*state, "new0", &m), 0);
	assert_int_equal(k.ioctl_calls, 0);
	assert_int_equal(m.decode_rc, 0);
	assert_int_equal(m.nreq, 6);
	assert_int_equal(m.req[5].bank, 1);
	assert_int_equal(m.req[5].page, 0x11);
	assert_int_equal(m.info.nbanks, 2);
	assert_int_equal(m.info.nlanes, 16);
	assert_true(m.info.lane[8].bias_ma.valid);
	assert_true(m.info.lane[8].bias_ma.v != m.info.lane[0].bias_ma.v);
	expect_near(m.info.lane[9].rx_power_mw.v, m.info.lane[1].rx_power_mw.v, 1e-12);
}

/* A snapshot on an old kernel (lib/backend/ethtool-record.c): while it
 * records, the ioctl replies are kept, and the capture answers them as
 * the kernel did: the module decodes the same, an empty cage is the same
 * "nothing answers", a port never asked is "the capture has no reply". */
static void test_recorded_replay(void **state)
{
	char dir[] = "/tmp/mlx-modrec.XXXXXX", cmd[96];
	struct mlx_ctx *cap;
	struct mlx_module *m = malloc(sizeof(*m)), *live = malloc(sizeof(*live));
	struct dump d;
	int p0 = -1, p3 = -1;

	assert_non_null(m);
	assert_non_null(live);
	if (!load_dump(ER4, "QSFP IDEEPROM", NULL, &d))
		skip();
	for (int i = 0; i < d.npages; i++) {
		if (d.pg[i].page == 0)
			p0 = i;
		if (d.pg[i].page == 3)
			p3 = i;
	}
	memcpy(k.eeprom, d.pg[p0].b, 256);
	memcpy(k.eeprom + 512, d.pg[p3].b + 128, 128);
	k.type = ETH_MODULE_SFF_8636;
	k.len = ETH_MODULE_SFF_8636_MAX_LEN;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(mlx_nl_set_capture(*state, dir), 0);
	assert_int_equal(mlx_module_read(*state, "old0", live), 0);
	k.info_err = -EIO;
	assert_int_equal(mlx_module_read(*state, "old1", m), -EOPNOTSUPP);
	assert_int_equal(mlx_nl_set_capture(*state, NULL), 0);

	/* a capture has its PCI bus directory, as a snapshot's has */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/bus/pci/devices", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(mlx_ctx_new(dir, &cap, NULL), 0);
	assert_int_equal(mlx_module_read(cap, "old0", m), 0);
	assert_int_equal(m->decode_rc, 0);
	same_info(&m->info, &live->info);
	assert_int_equal(m->nreq, live->nreq);
	assert_memory_equal(m->data, live->data, sizeof(m->data));
	assert_int_equal(mlx_module_read(cap, "old1", m), -EOPNOTSUPP);
	assert_non_null(strstr(mlx_errmsg(cap), "nothing answers"));
	assert_int_equal(mlx_module_read(cap, "old2", m), -ENODATA);
	mlx_ctx_free(cap);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(m);
	free(live);
	dump_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sff8472_512, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sff8636_256_and_640, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_module, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cmis_second_bank, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recorded_replay, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
