/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for lib/decode/decode-dcb.c and lib/emul/dcb-emul.c (issue 4): every DCB
 * message we build, compared byte for byte with arrays laid out by hand
 * per include/uapi/linux/dcbnl.h (x86-64: host byte order is little
 * endian, as netlink is); replies laid out as net/dcb/dcbnl.c sends them;
 * validation edges; the tc-bw rounding rule; the emulator's error replies.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/rtnetlink.h>

#include "dcb.h"
#include "kops-fault.h"
#include "nl.h"

static uint8_t buf[4096];

/* RTM_GETDCB, DCB_CMD_IEEE_GET, "eth0" */
static const uint8_t get_eth0[] = {
	0x20, 0, 0, 0,  78, 0,  0x01, 0,  0, 0, 0, 0,  0, 0, 0, 0,   /* nlmsghdr: 32 bytes, REQUEST */
	0, 21, 0, 0,                                               /* dcbmsg: AF_UNSPEC, IEEE_GET */
	9, 0, 1, 0, 'e', 't', 'h', '0', 0, 0, 0, 0,                /* DCB_ATTR_IFNAME */
};

static void test_build_get(void **state)
{
	struct mlx_nlbuf b;
	int n;

	(void)state;
	mlx_nlb_init(&b, buf, sizeof(buf));
	n = mlx_dcb_build_get(&b, DCB_CMD_IEEE_GET, "eth0");
	assert_int_equal(n, sizeof(get_eth0));
	assert_memory_equal(buf, get_eth0, sizeof(get_eth0));
	/* GDCBX differs only in the command byte */
	n = mlx_dcb_build_get(&b, DCB_CMD_GDCBX, "eth0");
	assert_int_equal(n, sizeof(get_eth0));
	assert_int_equal(buf[17], 22);
	assert_int_equal(mlx_dcb_build_get(&b, DCB_CMD_GDCBX, "a-name-longer-than-15"), -EINVAL);
}

/* IEEE_SET with PFC on 3 and 6, cable length 30: struct ieee_pfc at the
 * uapi offsets (pfc_cap 0, pfc_en 1, mbc 2, delay 4..5, requests 8..71,
 * indications 72..135). */
static void test_build_pfc(void **state)
{
	uint8_t want[176];
	struct ieee_pfc pfc;
	struct mlx_dcb_msg m = { .pfc = &pfc };
	struct mlx_nlbuf b;

	(void)state;
	memset(want, 0, sizeof(want));
	memcpy(want, (const uint8_t[]){ 176, 0, 0, 0, 79, 0, 1, 0 }, 8);
	memcpy(want + 16, (const uint8_t[]){ 0, 20, 0, 0 }, 4);                   /* IEEE_SET */
	memcpy(want + 20, (const uint8_t[]){ 9, 0, 1, 0, 'e', 't', 'h', '0' }, 8);
	memcpy(want + 32, (const uint8_t[]){ 144, 0, 13, 0 }, 4);                 /* DCB_ATTR_IEEE */
	memcpy(want + 36, (const uint8_t[]){ 140, 0, 2, 0 }, 4);                  /* ..._PFC */
	want[40] = 8;           /* pfc_cap */
	want[41] = 0x48;        /* pfc_en: priorities 3 and 6 */
	want[44] = 30;          /* delay (u16 at offset 4) */
	want[40 + 8] = 7;       /* requests[0] = 7 (u64 at offset 8) */

	memset(&pfc, 0, sizeof(pfc));
	pfc.pfc_cap = 8;
	pfc.pfc_en = 0x48;
	pfc.delay = 30;
	pfc.requests[0] = 7;
	mlx_nlb_init(&b, buf, sizeof(buf));
	assert_int_equal(mlx_dcb_build_ieee(&b, DCB_CMD_IEEE_SET, "eth0", &m), sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
}

/* IEEE_SET with ETS, MAXRATE and BUFFER: attribute order and struct layouts. */
static void test_build_ets_maxrate_buffer(void **state)
{
	struct ieee_ets ets;
	struct ieee_maxrate mr;
	struct dcbnl_buffer bf;
	struct mlx_dcb_msg m = { .ets = &ets, .maxrate = &mr, .buffer = &bf };
	struct mlx_nlbuf b;
	const uint8_t *p;
	int n;

	(void)state;
	memset(&ets, 0, sizeof(ets));
	memset(&mr, 0, sizeof(mr));
	memset(&bf, 0, sizeof(bf));
	ets.ets_cap = 8;
	ets.tc_tx_bw[3] = 50;
	ets.tc_tsa[3] = IEEE_8021QAZ_TSA_ETS;
	ets.prio_tc[0] = 1;
	mr.tc_maxrate[2] = 25000000;
	bf.prio2buffer[3] = 1;
	bf.buffer_size[1] = 130944;
	bf.total_size = 262016;
	mlx_nlb_init(&b, buf, sizeof(buf));
	n = mlx_dcb_build_ieee(&b, DCB_CMD_IEEE_SET, "eth0", &m);
	/* 32 + nest 4 + ETS (4+59 -> 64) + MAXRATE 68 + BUFFER 48 */
	assert_int_equal(n, 32 + 4 + 64 + 68 + 48);
	p = buf + 36;
	assert_memory_equal(p, ((const uint8_t[]){ 63, 0, 1, 0, 0, 8, 0 }), 7);  /* willing, ets_cap, cbs */
	assert_int_equal(p[4 + 3 + 3], 50);                 /* tc_tx_bw[3] at offset 3 */
	assert_int_equal(p[4 + 19 + 3], 2);                 /* tc_tsa[3] at offset 19 */
	assert_int_equal(p[4 + 27 + 0], 1);                 /* prio_tc[0] at offset 27 */
	assert_memory_equal(p + 59 + 4, ((const uint8_t[]){ 0 }), 1);    /* pad */
	p = buf + 36 + 64;
	assert_memory_equal(p, ((const uint8_t[]){ 68, 0, 7, 0 }), 4);
	assert_memory_equal(p + 4 + 16, ((const uint8_t[]){ 0x40, 0x78, 0x7d, 0x01, 0, 0, 0, 0 }), 8);
	p += 68;
	assert_memory_equal(p, ((const uint8_t[]){ 48, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0 }), 12);
	assert_memory_equal(p + 4 + 8 + 4, ((const uint8_t[]){ 0x80, 0xff, 0x01, 0x00 }), 4);
	assert_memory_equal(p + 4 + 40, ((const uint8_t[]){ 0x80, 0xff, 0x03, 0x00 }), 4);
}

/* IEEE_DEL with two DSCP APP entries; SDCBX. */
static void test_build_app_del_dcbx(void **state)
{
	static const uint8_t want[] = {
		56, 0, 0, 0, 79, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 27, 0, 0,                                   /* IEEE_DEL */
		9, 0, 1, 0, 'e', 't', 'h', '0', 0, 0, 0, 0,
		24, 0, 13, 0,                                  /* DCB_ATTR_IEEE */
		20, 0, 3, 0,                                   /* APP_TABLE */
		8, 0, 1, 0, 5, 3, 26, 0,                       /* {DSCP, prio 3, 26} */
		8, 0, 1, 0, 5, 6, 48, 0,                       /* {DSCP, prio 6, 48} */
	};
	static const uint8_t sdcbx[] = {
		40, 0, 0, 0, 79, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 23, 0, 0,
		9, 0, 1, 0, 'e', 't', 'h', '0', 0, 0, 0, 0,
		5, 0, 14, 0, 0x09, 0, 0, 0,                    /* u8 + 3 bytes of NLA padding */
	};
	struct dcb_app a[2] = { { 5, 3, 26 }, { 5, 6, 48 } };
	struct mlx_dcb_msg m = { .app = a, .napp = 2 };
	struct mlx_nlbuf b;

	(void)state;
	mlx_nlb_init(&b, buf, sizeof(buf));
	assert_int_equal(mlx_dcb_build_ieee(&b, DCB_CMD_IEEE_DEL, "eth0", &m), sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(mlx_dcb_build_sdcbx(&b, "eth0", 0x09), sizeof(sdcbx));
	assert_memory_equal(buf, sdcbx, sizeof(sdcbx));
	assert_int_equal(mlx_dcb_build_ieee(&b, DCB_CMD_IEEE_GET, "eth0", &m), -EINVAL);
}

/* An IEEE_GET reply as dcbnl_ieee_fill() lays it out: IFNAME, IEEE nest
 * (ETS, PFC, APP_TABLE of 2), DCBX. */
static size_t reply_ieee(uint8_t *r)
{
	size_t o = 0;

	memset(r, 0, 512);
#define PUT(...) do { const uint8_t x_[] = { __VA_ARGS__ }; memcpy(r + o, x_, sizeof(x_)); o += sizeof(x_); } while (0)
	PUT(0, 0, 0, 0, 78, 0, 0, 0, 1, 0, 0, 0, 0x92, 0x10, 0, 0);
	PUT(0, 21, 0, 0);
	PUT(9, 0, 1, 0, 'e', 't', 'h', '0', 0, 0, 0, 0);
	PUT(4 + 64 + 140 + 20, 0, 13, 0);
	PUT(63, 0, 1, 0);
	r[o + 1] = 8;                   /* ets_cap */
	r[o + 3 + 3] = 50;              /* tc_tx_bw[3] */
	r[o + 19 + 3] = 2;              /* tc_tsa[3] = ets */
	r[o + 27 + 0] = 1;              /* prio_tc[0] = 1 */
	o += 60;
	PUT(140, 0, 2, 0);
	r[o] = 8;
	r[o + 1] = 0x08;                /* PFC on priority 3 */
	r[o + 4] = 7;                   /* cable length 7 m */
	r[o + 8 + 3 * 8] = 42;          /* requests[3] = 42 */
	o += 136;
	PUT(20, 0, 3, 0);
	PUT(8, 0, 1, 0, 5, 3, 26, 0);
	PUT(8, 0, 1, 0, 5, 6, 48, 0);
	PUT(5, 0, 14, 0, 0x09, 0, 0, 0);
#undef PUT
	r[0] = (uint8_t)o;
	r[1] = (uint8_t)(o >> 8);
	return o;
}

static void test_parse_reply(void **state)
{
	uint8_t r[512];
	size_t len = reply_ieee(r);
	struct mlx_dcb_state st;
	int map[64];

	(void)state;
	memset(&st, 0, sizeof(st));
	assert_int_equal(mlx_dcb_parse((const struct nlmsghdr *)r, len, &st), 0);
	assert_string_equal(st.ifname, "eth0");
	assert_true(st.has_ets && st.has_pfc && st.has_dcbx);
	assert_false(st.has_maxrate || st.has_buffer);
	assert_int_equal(st.ets.ets_cap, 8);
	assert_int_equal(st.ets.tc_tx_bw[3], 50);
	assert_int_equal(st.ets.tc_tsa[3], IEEE_8021QAZ_TSA_ETS);
	assert_int_equal(st.ets.prio_tc[0], 1);
	assert_int_equal(st.pfc.pfc_en, 0x08);
	assert_int_equal(st.pfc.delay, 7);
	assert_int_equal(st.pfc.requests[3], 42);
	assert_int_equal(st.napp, 2);
	assert_int_equal(st.app[1].protocol, 48);
	assert_int_equal(st.app[1].priority, 6);
	assert_int_equal(st.dcbx, 0x09);
	assert_true(mlx_dcb_trust_dscp(&st));
	mlx_dcb_dscp_map(&st, map);
	assert_int_equal(map[26], 3);
	assert_int_equal(map[48], 6);
	assert_int_equal(map[0], -1);

	/* a struct of the wrong size is refused, not misread */
	r[32 + 4] = 62;
	memset(&st, 0, sizeof(st));
	assert_int_equal(mlx_dcb_parse((const struct nlmsghdr *)r, len, &st), -EBADMSG);
	/* a nest running past the message */
	len = reply_ieee(r);
	r[32] = 0xff;
	r[33] = 0x01;
	assert_int_equal(mlx_dcb_parse((const struct nlmsghdr *)r, len, &st), -EBADMSG);
}

static void test_parse_set_reply(void **state)
{
	/* dcbnl_ieee_set(): nla_put_u8(skb, DCB_ATTR_IEEE, err) with err = -EINVAL */
	uint8_t r[] = { 28, 0, 0, 0, 79, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
			0, 20, 0, 0,  5, 0, 13, 0, 0xea, 0, 0, 0 };
	int kerr = 1;

	(void)state;
	assert_int_equal(mlx_dcb_parse_set_reply((const struct nlmsghdr *)r, sizeof(r), &kerr), 0);
	assert_int_equal(kerr, -EINVAL);
	r[24] = 0;
	assert_int_equal(mlx_dcb_parse_set_reply((const struct nlmsghdr *)r, sizeof(r), &kerr), 0);
	assert_int_equal(kerr, 0);
	/* SDCBX: the driver's u8 result, 1 = refused */
	r[17] = 23;
	r[22] = 14;
	r[24] = 1;
	assert_int_equal(mlx_dcb_parse_set_reply((const struct nlmsghdr *)r, sizeof(r), &kerr), 0);
	assert_int_equal(kerr, -EINVAL);
}

static void test_validate(void **state)
{
	struct ieee_ets e;
	struct ieee_pfc p;
	struct dcbnl_buffer b;
	char why[200];

	(void)state;
	memset(&e, 0, sizeof(e));
	e.ets_cap = 8;
	for (int i = 0; i < 8; i++)
		e.tc_tsa[i] = IEEE_8021QAZ_TSA_STRICT;
	assert_int_equal(mlx_dcb_validate_ets(&e, why, sizeof(why)), 0);
	e.tc_tsa[0] = e.tc_tsa[1] = IEEE_8021QAZ_TSA_ETS;
	e.tc_tx_bw[0] = 50;
	e.tc_tx_bw[1] = 49;
	assert_int_equal(mlx_dcb_validate_ets(&e, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "99%"));
	e.tc_tx_bw[1] = 51;
	assert_int_equal(mlx_dcb_validate_ets(&e, why, sizeof(why)), -EINVAL);
	e.tc_tx_bw[1] = 50;
	assert_int_equal(mlx_dcb_validate_ets(&e, why, sizeof(why)), 0);
	e.prio_tc[7] = 7;
	assert_int_equal(mlx_dcb_validate_ets(&e, why, sizeof(why)), 0);
	e.ets_cap = 4;                      /* TCs 0-3 only */
	assert_int_equal(mlx_dcb_validate_ets(&e, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "TC 0-3"));
	e.ets_cap = 8;
	e.tc_tsa[5] = IEEE_8021QAZ_TSA_CB_SHAPER;
	assert_int_equal(mlx_dcb_validate_ets(&e, why, sizeof(why)), -EINVAL);
	e.tc_tsa[5] = IEEE_8021QAZ_TSA_VENDOR;
	e.tc_tx_bw[5] = 101;
	assert_int_equal(mlx_dcb_validate_ets(&e, why, sizeof(why)), -EINVAL);

	memset(&p, 0, sizeof(p));
	p.delay = 999;
	assert_int_equal(mlx_dcb_validate_pfc(&p, why, sizeof(why)), 0);
	p.delay = 1000;
	assert_int_equal(mlx_dcb_validate_pfc(&p, why, sizeof(why)), -EINVAL);

	memset(&b, 0, sizeof(b));
	b.total_size = 1000;
	b.buffer_size[0] = 600;
	b.buffer_size[7] = 400;
	b.prio2buffer[7] = 7;
	assert_int_equal(mlx_dcb_validate_buffer(&b, why, sizeof(why)), 0);
	b.buffer_size[7] = 401;
	assert_int_equal(mlx_dcb_validate_buffer(&b, why, sizeof(why)), -EINVAL);
	b.buffer_size[7] = 400;
	b.prio2buffer[2] = 8;
	assert_int_equal(mlx_dcb_validate_buffer(&b, why, sizeof(why)), -EINVAL);
}

/* mlxtool "modify tc-bw": 100 Mb/s or 1 Gb/s units, rounded down, below
 * 100 Mb/s raised to 100 Mb/s. */
static void test_rate_rounding(void **state)
{
	static const struct { uint64_t in, out; int how; int r; } t[] = {
		{ 0, 0, MLX_RATE_EXACT, 0 },
		{ 1, 100, MLX_RATE_RAISED, 0 },
		{ 99, 100, MLX_RATE_RAISED, 0 },
		{ 100, 100, MLX_RATE_EXACT, 0 },
		{ 199, 100, MLX_RATE_ROUNDED, 0 },
		{ 300, 300, MLX_RATE_EXACT, 0 },
		{ 25500, 25500, MLX_RATE_EXACT, 0 },
		{ 25501, 25000, MLX_RATE_ROUNDED, 0 },   /* 1 Gb/s units above 25.5 Gb/s */
		{ 26000, 26000, MLX_RATE_EXACT, 0 },
		{ 100999, 100000, MLX_RATE_ROUNDED, 0 },
		{ 255000, 255000, MLX_RATE_EXACT, 0 },
		{ 255001, 0, 0, -ERANGE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t out = 0;
		int how = -1;

		assert_int_equal(mlx_dcb_rate_quantize(t[i].in, &out, &how), t[i].r);
		if (t[i].r == 0) {
			assert_int_equal(out, t[i].out);
			assert_int_equal(how, t[i].how);
		}
	}
}

/* The sysfs qos/ formats of OFED en_sysfs.c */
static void test_sysfs(void **state)
{
	uint8_t p2b[8];
	uint32_t sz[8], total;

	(void)state;
	assert_int_equal(mlx_dcb_parse_sysfs_prio2buffer("Priority\tBuffer\n0\t\t0\n1\t\t0\n2\t\t0\n"
							 "3\t\t1\n4\t\t0\n5\t\t0\n6\t\t0\n7\t\t0\n", p2b), 0);
	assert_int_equal(p2b[3], 1);
	assert_int_equal(mlx_dcb_parse_sysfs_buffer_size(
				 "Port buffer size = 262016\nSpare buffer size = 0\n"
				 "Buffer\tSize\txoff_threshold\txon_threshold\n"
				 "0\t130944\t0\t\t0\n1\t130944\t100000\t\t90000\n2\t0\t0\t\t0\n3\t0\t0\t\t0\n"
				 "4\t0\t0\t\t0\n5\t0\t0\t\t0\n6\t0\t0\t\t0\n7\t0\t0\t\t0\n", sz, &total), 0);
	assert_int_equal(total, 262016);
	assert_int_equal(sz[1], 130944);
	assert_int_equal(mlx_dcb_parse_sysfs_prio2buffer("garbage\n", p2b), -EINVAL);
}

/* ---- the emulator, on a minimal sysroot ---- */

static char root[256];
static struct mlx_ctx *ctx;

static void mkdirs(const char *rel)
{
	char p[512], *s;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put_file(const char *rel, const void *data, size_t len)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static int setup_root(void **state)
{
	uint8_t r[512];
	size_t len;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/test-dcb-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	mkdirs("sys/bus/pci/devices");
	mkdirs("sys/class/net/eth0");
	mkdirs("sys/class/net/veth0");
	mkdirs("netlink/route/eth0");
	len = reply_ieee(r);
	put_file("netlink/route/eth0/ieee-get.nl", r, len);
	return mlx_ctx_new(root, &ctx, NULL) < 0 ? -1 : 0;
}

static int teardown_root(void **state)
{
	char cmd[300];

	(void)state;
	mlx_ctx_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* Send one message through the emulator; the kernel's errno. */
static int emul(uint8_t cmd, const char *ifname, const struct mlx_dcb_msg *m)
{
	struct mlx_nlbuf b;
	uint8_t *reply = NULL;
	size_t rlen = 0;
	int n, r, kerr = 0;
	struct nlmsghdr h;

	mlx_nlb_init(&b, buf, sizeof(buf));
	n = mlx_dcb_build_ieee(&b, cmd, ifname, m);
	assert_true(n > 0);
	assert_int_equal(mlx_dcb_emul(ctx, buf, (size_t)n, &reply, &rlen), 0);
	assert_true(rlen >= NLMSG_HDRLEN);
	memcpy(&h, reply, sizeof(h));
	if (h.nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr e;

		memcpy(&e, reply + NLMSG_HDRLEN, sizeof(e));
		free(reply);
		return e.error;
	}
	assert_int_equal(h.nlmsg_type, RTM_SETDCB);
	r = mlx_dcb_parse_set_reply((const struct nlmsghdr *)reply, rlen, &kerr);
	free(reply);
	assert_int_equal(r, 0);
	return kerr;
}

static void test_emul_errors(void **state)
{
	struct dcb_app dflt = { IEEE_8021QAZ_APP_SEL_ETHERTYPE, 3, 0 };   /* default-prio */
	struct dcb_app big = { IEEE_8021QAZ_APP_SEL_DSCP, 3, 64 };
	struct dcb_app wrongprio = { IEEE_8021QAZ_APP_SEL_DSCP, 5, 26 };
	struct dcb_app ok = { IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 };
	struct mlx_dcb_msg m = { .app = &dflt, .napp = 1 };
	struct ieee_maxrate mr;
	struct ieee_ets ets;
	struct mlx_dcb_state st;

	(void)state;
	/* mlx5 ieee_setapp: only DSCP with protocol < 64 */
	assert_int_equal(emul(DCB_CMD_IEEE_SET, "eth0", &m), -EINVAL);
	m.app = &big;
	assert_int_equal(emul(DCB_CMD_IEEE_SET, "eth0", &m), -EINVAL);
	/* ieee_delapp: -ENOENT when the priority is not the current one */
	m.app = &wrongprio;
	assert_int_equal(emul(DCB_CMD_IEEE_DEL, "eth0", &m), -ENOENT);
	/* dcb_doit: no DCB ops -> EOPNOTSUPP; no netdev -> ENODEV */
	m.app = &ok;
	assert_int_equal(emul(DCB_CMD_IEEE_SET, "veth0", &m), -EOPNOTSUPP);
	assert_int_equal(emul(DCB_CMD_IEEE_SET, "nosuch0", &m), -ENODEV);
	/* setmaxrate above 255 Gb/s */
	memset(&mr, 0, sizeof(mr));
	mr.tc_maxrate[1] = 256000000ULL;
	m = (struct mlx_dcb_msg){ .maxrate = &mr };
	assert_int_equal(emul(DCB_CMD_IEEE_SET, "eth0", &m), -EINVAL);
	/* setets: ETS shares of 99 -> EINVAL; the port keeps its ETS */
	memset(&ets, 0, sizeof(ets));
	ets.tc_tsa[0] = IEEE_8021QAZ_TSA_ETS;
	ets.tc_tx_bw[0] = 99;
	m = (struct mlx_dcb_msg){ .ets = &ets };
	assert_int_equal(emul(DCB_CMD_IEEE_SET, "eth0", &m), -EINVAL);
	assert_int_equal(mlx_dcb_get(ctx, "eth0", &st), 0);
	assert_int_equal(st.ets.tc_tx_bw[3], 50);

	/* a kernel that fails the 2nd APP entry with EIO (the operations
	 * table wrapped by the test): the first stays applied, as in the
	 * kernel, and the error comes back through the boundary */
	assert_int_equal(kfault_install(ctx, "app 5 2"), 0);
	{
		struct dcb_app two[2] = { { 5, 1, 10 }, { 5, 2, 20 } };

		m = (struct mlx_dcb_msg){ .app = two, .napp = 2 };
		assert_int_equal(mlx_dcb_send(ctx, "eth0", DCB_CMD_IEEE_SET, &m, 0), -EIO);
	}
	assert_int_equal(mlx_dcb_get(ctx, "eth0", &st), 0);
	assert_int_equal(st.napp, 3);
	{
		int map[64];

		mlx_dcb_dscp_map(&st, map);
		assert_int_equal(map[10], 1);
		assert_int_equal(map[20], -1);
	}
}

/* A malformed request is refused byte for byte. */
static void test_parse_req(void **state)
{
	struct mlx_dcb_req *rq = calloc(1, sizeof(*rq));
	uint8_t r[sizeof(get_eth0)];
	char why[200];

	(void)state;
	assert_non_null(rq);
	memcpy(r, get_eth0, sizeof(r));
	assert_int_equal(mlx_dcb_parse_req(r, sizeof(r), rq, why, sizeof(why)), 0);
	assert_string_equal(rq->ifname, "eth0");
	r[18] = 1;                                  /* dcb_pad */
	assert_int_equal(mlx_dcb_parse_req(r, sizeof(r), rq, why, sizeof(why)), -EINVAL);
	memcpy(r, get_eth0, sizeof(r));
	r[0] = 0x24;                                /* nlmsg_len != length */
	assert_int_equal(mlx_dcb_parse_req(r, sizeof(r), rq, why, sizeof(why)), -EINVAL);
	memcpy(r, get_eth0, sizeof(r));
	r[28] = 'x';                                /* IFNAME without its NUL */
	assert_int_equal(mlx_dcb_parse_req(r, sizeof(r), rq, why, sizeof(why)), -EINVAL);
	free(rq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_get),
		cmocka_unit_test(test_build_pfc),
		cmocka_unit_test(test_build_ets_maxrate_buffer),
		cmocka_unit_test(test_build_app_del_dcbx),
		cmocka_unit_test(test_parse_reply),
		cmocka_unit_test(test_parse_set_reply),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_rate_rounding),
		cmocka_unit_test(test_sysfs),
		cmocka_unit_test(test_parse_req),
		cmocka_unit_test_setup_teardown(test_emul_errors, setup_root, teardown_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
