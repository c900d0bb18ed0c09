/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for `params set`'s requests (lib/params/params-write.c) and
 * their emulator (lib/emul/params-emul.c): each builder's bytes checked
 * field by field against the uapi layout (include/uapi/linux/netlink.h,
 * genetlink.h, ethtool_netlink.h, devlink.h, rtnetlink.h), as the kernel
 * parses them; the parse of the same bytes (the emulator's view); the
 * malformed requests the emulator refuses with -EINVAL; the catalogue's
 * validation of values.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "mlx-private.h"
#include "nl.h"
#include "params.h"
#include "write.h"

/* An nlattr at @off of @b: its length, type (flags kept) and payload. */
static uint16_t at_len(const uint8_t *b, size_t off) { uint16_t v; memcpy(&v, b + off, 2); return v; }
static uint16_t at_type(const uint8_t *b, size_t off) { uint16_t v; memcpy(&v, b + off + 2, 2); return v; }
static uint32_t u32_at(const uint8_t *b, size_t off) { uint32_t v; memcpy(&v, b + off, 4); return v; }

/* A captured context on an empty directory: the emulator's refusals come
 * before any file is read. */
static char dir[] = "/tmp/mlxcli-params-XXXXXX";
static bool dir_made;
static const char *const levels[] = { "sys", "sys/bus", "sys/bus/pci", "sys/bus/pci/devices" };

static struct mlx_ctx *empty_ctx(void)
{
	struct mlx_ctx *ctx = NULL;

	char sub[96];

	/* made once (not "while the name still ends in X": mkdtemp's last
	 * random letter is an 'X' one time in 62, and a second mkdtemp of a
	 * name without the six X's fails with EINVAL: seen in make check) */
	if (!dir_made) {
		assert_non_null(mkdtemp(dir));
		dir_made = true;
		/* what mlx_ctx_new asks of a captured system */
		for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
			snprintf(sub, sizeof(sub), "%s/%s", dir, levels[i]);
			assert_int_equal(mkdir(sub, 0700), 0);
		}
	}
	assert_int_equal(mlx_ctx_new(dir, &ctx, NULL), 0);
	return ctx;
}

static const struct mlx_knob *knob(const char *name)
{
	const struct mlx_knob *k = mlx_knob_find(name);

	assert_non_null(k);
	return k;
}

/* nlmsghdr 16, genlmsghdr 4, then the header nest {DEV_NAME "eth1"} */
static size_t check_eth_head(const uint8_t *b, int len, uint8_t cmd)
{
	struct nlmsghdr h;

	assert_true(len > 40);
	memcpy(&h, b, sizeof(h));
	assert_int_equal(h.nlmsg_len, (uint32_t)len);
	assert_true(h.nlmsg_flags & NLM_F_REQUEST);
	assert_true(h.nlmsg_flags & NLM_F_ACK);
	assert_int_equal(b[16], cmd);                      /* genlmsghdr.cmd */
	assert_int_equal(b[17], ETHTOOL_GENL_VERSION);
	/* ethnl_parse_header_dev_get: a nest, NLA_F_NESTED (strict policy) */
	assert_int_equal(at_type(b, 20), ETHTOOL_A_RINGS_HEADER | NLA_F_NESTED);
	/* nest header + the name attribute, padded (nla_nest_end counts the tail) */
	assert_int_equal(at_len(b, 20), 4 + NLA_ALIGN(4 + 5));
	assert_int_equal(at_type(b, 24), ETHTOOL_A_HEADER_DEV_NAME);
	assert_int_equal(at_len(b, 24), 4 + 5);
	assert_string_equal((const char *)b + 28, "eth1");
	return 20 + NLA_ALIGN(at_len(b, 20));
}

static void test_rings_set(void **state)
{
	uint8_t b[256];
	struct mlx_val v = mlx_val_uint(4096);
	struct mlx_params_set s;
	char why[96];
	int fam = -1, len;
	size_t off;

	(void)state;
	len = mlx_params_req_build(knob("rx_ring"), "eth1", NULL, NULL, 0, &v, b, sizeof(b), &fam);
	assert_int_equal(fam, MLX_NL_ETHTOOL);
	off = check_eth_head(b, len, ETHTOOL_MSG_RINGS_SET);
	assert_int_equal(at_type(b, off), ETHTOOL_A_RINGS_RX);
	assert_int_equal(at_len(b, off), 8);
	assert_int_equal(u32_at(b, off + 4), 4096);
	assert_int_equal((size_t)len, off + 8);
	assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_int_equal(s.src, MLX_KS_RING);
	assert_string_equal(s.ifname, "eth1");
	assert_int_equal(s.attr, ETHTOOL_A_RINGS_RX);
	assert_int_equal(s.u, 4096);
	assert_false(s.is_u8);

	/* the coalescing switches are u8 (ethnl_update_bool32's NLA_U8) */
	v = mlx_val_bool(false);
	len = mlx_params_req_build(knob("adaptive_rx"), "eth1", NULL, NULL, 0, &v, b, sizeof(b), &fam);
	off = check_eth_head(b, len, ETHTOOL_MSG_COALESCE_SET);
	assert_int_equal(at_type(b, off), ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX);
	assert_int_equal(at_len(b, off), 5);
	assert_int_equal(b[off + 4], 0);
	assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_true(s.is_u8);
	assert_int_equal(s.u, 0);

	v = mlx_val_uint(8);
	len = mlx_params_req_build(knob("combined_channels"), "eth1", NULL, NULL, 0, &v, b, sizeof(b), &fam);
	off = check_eth_head(b, len, ETHTOOL_MSG_CHANNELS_SET);
	assert_int_equal(at_type(b, off), ETHTOOL_A_CHANNELS_COMBINED_COUNT);
	assert_int_equal(u32_at(b, off + 4), 8);
}

/* FEATURES_SET: WANTED { BITS { BIT { NAME, VALUE? } } }, no NOMASK, so
 * only the named bit changes (ethnl_update_bitset32). */
static void test_bit_set(void **state)
{
	uint8_t b[256];
	struct mlx_val v = mlx_val_bool(true);
	struct mlx_params_set s;
	char why[96];
	int fam, len;
	size_t off;

	(void)state;
	len = mlx_params_req_build(knob("tso6"), "eth1", NULL, NULL, 0, &v, b, sizeof(b), &fam);
	off = check_eth_head(b, len, ETHTOOL_MSG_FEATURES_SET);
	assert_int_equal(at_type(b, off), ETHTOOL_A_FEATURES_WANTED | NLA_F_NESTED);
	assert_int_equal(at_type(b, off + 4), ETHTOOL_A_BITSET_BITS | NLA_F_NESTED);
	assert_int_equal(at_type(b, off + 8), ETHTOOL_A_BITSET_BITS_BIT | NLA_F_NESTED);
	assert_int_equal(at_type(b, off + 12), ETHTOOL_A_BITSET_BIT_NAME);
	assert_string_equal((const char *)b + off + 16, "tx-tcp6-segmentation");
	off += 12 + NLA_ALIGN(at_len(b, off + 12));
	assert_int_equal(at_type(b, off), ETHTOOL_A_BITSET_BIT_VALUE);
	assert_int_equal(at_len(b, off), 4);
	assert_int_equal((size_t)len, off + 4);
	assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_int_equal(s.src, MLX_KS_FEATURE);
	assert_string_equal(s.name, "tx-tcp6-segmentation");
	assert_int_equal(s.nbits, 1);
	assert_true(s.on);
	/* a group's pattern names no bit: its members come from the device */
	assert_int_equal(mlx_params_req_build(knob("tso"), "eth1", NULL, NULL, 0, &v, b, sizeof(b), &fam),
			 -EINVAL);

	/* off: no VALUE flag; a private flag goes in PRIVFLAGS_FLAGS */
	v = mlx_val_bool(false);
	len = mlx_params_req_build(knob("rx_cqe_compress"), "eth1", NULL, NULL, 0, &v, b, sizeof(b), &fam);
	off = check_eth_head(b, len, ETHTOOL_MSG_PRIVFLAGS_SET);
	assert_int_equal(at_type(b, off), ETHTOOL_A_PRIVFLAGS_FLAGS | NLA_F_NESTED);
	assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_int_equal(s.src, MLX_KS_PRIVFLAG);
	assert_string_equal(s.name, "rx_cqe_compress");
	assert_false(s.on);
	assert_int_equal((size_t)len, off + at_len(b, off));
}

/* A group (ethtool -K tso off): one FEATURES_SET naming every member,
 * each without VALUE (off), in one WANTED bitset; parsed back whole */
static void test_group_set(void **state)
{
	static const char names[4][MLX_BIT_NAME] = {
		"tx-tcp-segmentation", "tx-tcp-ecn-segmentation", "tx-tcp-mangleid-segmentation",
		"tx-tcp6-segmentation",
	};
	uint8_t b[1024];
	struct mlx_params_set s;
	char why[96];
	int len;
	size_t off, bits, end;
	unsigned n = 0;

	(void)state;
	len = mlx_params_req_features("eth1", names, 4, false, b, sizeof(b));
	off = check_eth_head(b, len, ETHTOOL_MSG_FEATURES_SET);
	assert_int_equal(at_type(b, off), ETHTOOL_A_FEATURES_WANTED | NLA_F_NESTED);
	assert_int_equal((size_t)len, off + at_len(b, off));
	bits = off + 4;
	assert_int_equal(at_type(b, bits), ETHTOOL_A_BITSET_BITS | NLA_F_NESTED);
	end = bits + at_len(b, bits);
	for (off = bits + 4; off < end; off += NLA_ALIGN(at_len(b, off)), n++) {
		assert_int_equal(at_type(b, off), ETHTOOL_A_BITSET_BITS_BIT | NLA_F_NESTED);
		/* NAME only: no VALUE, so off */
		assert_int_equal(at_type(b, off + 4), ETHTOOL_A_BITSET_BIT_NAME);
		assert_string_equal((const char *)b + off + 8, names[n]);
		assert_int_equal(at_len(b, off), 4 + NLA_ALIGN(at_len(b, off + 4)));
	}
	assert_int_equal(n, 4);
	assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_int_equal(s.src, MLX_KS_FEATURE);
	assert_int_equal(s.nbits, 4);
	for (unsigned i = 0; i < 4; i++) {
		assert_string_equal(s.bits[i].name, names[i]);
		assert_false(s.bits[i].on);
	}
	/* on: a VALUE flag in each */
	len = mlx_params_req_features("eth1", names, 2, true, b, sizeof(b));
	assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_true(s.nbits == 2 && s.bits[0].on && s.bits[1].on);
	/* none, too many, a nameless one, no room */
	assert_int_equal(mlx_params_req_features("eth1", names, 0, true, b, sizeof(b)), -EINVAL);
	assert_int_equal(mlx_params_req_features("eth1", names, MLX_FEATURE_GROUP_MAX + 1, true, b,
						 sizeof(b)), -EINVAL);
	{
		static const char empty[1][MLX_BIT_NAME] = { "" };

		assert_int_equal(mlx_params_req_features("eth1", empty, 1, true, b, sizeof(b)), -EINVAL);
	}
	assert_int_equal(mlx_params_req_features("eth1", names, 4, true, b, 64), -EMSGSIZE);
	/* a private-flags request of two bits is malformed (one knob, one bit) */
	{
		struct mlx_nlbuf nb;
		struct genlmsghdr g = { .cmd = ETHTOOL_MSG_PRIVFLAGS_SET, .version = 1 };
		size_t h, f, bs, x;

		mlx_nlb_init(&nb, b, sizeof(b));
		mlx_nlb_msg(&nb, 0x15, NLM_F_ACK);
		mlx_nlb_put(&nb, &g, sizeof(g));
		h = mlx_nlb_nest_start(&nb, 1 | NLA_F_NESTED);
		mlx_nlb_str(&nb, ETHTOOL_A_HEADER_DEV_NAME, "eth1");
		mlx_nlb_nest_end(&nb, h);
		f = mlx_nlb_nest_start(&nb, ETHTOOL_A_PRIVFLAGS_FLAGS | NLA_F_NESTED);
		bs = mlx_nlb_nest_start(&nb, ETHTOOL_A_BITSET_BITS | NLA_F_NESTED);
		for (int i = 0; i < 2; i++) {
			x = mlx_nlb_nest_start(&nb, ETHTOOL_A_BITSET_BITS_BIT | NLA_F_NESTED);
			mlx_nlb_str(&nb, ETHTOOL_A_BITSET_BIT_NAME, i ? "a" : "b");
			mlx_nlb_nest_end(&nb, x);
		}
		mlx_nlb_nest_end(&nb, bs);
		mlx_nlb_nest_end(&nb, f);
		len = mlx_nlb_finish(&nb);
		assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, b, (size_t)len, &s, why,
						      sizeof(why)), -EINVAL);
	}
}

static void test_mtu(void **state)
{
	uint8_t b[128];
	struct mlx_val v = mlx_val_uint(9000);
	struct mlx_params_set s;
	struct ifinfomsg ifi;
	char why[96];
	int fam, len;
	size_t off = NLMSG_HDRLEN + sizeof(ifi);

	(void)state;
	len = mlx_params_req_build(knob("mtu"), "eth1", NULL, NULL, 0, &v, b, sizeof(b), &fam);
	assert_int_equal(fam, MLX_NL_ROUTE);
	assert_int_equal(((struct nlmsghdr *)b)->nlmsg_type, RTM_SETLINK);
	memcpy(&ifi, b + NLMSG_HDRLEN, sizeof(ifi));
	/* rtnl_setlink: index 0, the device found by IFLA_IFNAME */
	assert_int_equal(ifi.ifi_index, 0);
	assert_int_equal(at_type(b, off), IFLA_IFNAME);
	assert_string_equal((const char *)b + off + 4, "eth1");
	off += NLA_ALIGN(at_len(b, off));
	assert_int_equal(at_type(b, off), IFLA_MTU);
	assert_int_equal(u32_at(b, off + 4), 9000);
	assert_int_equal((size_t)len, off + 8);
	assert_int_equal(mlx_params_req_parse(MLX_NL_ROUTE, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_int_equal(s.src, MLX_KS_MTU);
	assert_int_equal(s.u, 9000);
}

static void test_devlink(void **state)
{
	uint8_t b[256];
	struct mlx_val v = mlx_val_bool(false);
	struct mlx_params_set s;
	char why[96];
	int fam, len;
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN, data = 0;
	struct mlx_nla a;
	size_t o = 0;

	(void)state;
	len = mlx_params_req_build(knob("esw_port_metadata"), NULL, NULL, "0000:08:00.0", MLX_DL_BOOL, &v,
				   b, sizeof(b), &fam);
	assert_int_equal(fam, MLX_NL_DEVLINK);
	assert_int_equal(b[NLMSG_HDRLEN], DEVLINK_CMD_PARAM_SET);
	/* a bool false: no DATA at all (devlink_param_value_get_from_info) */
	while (mlx_nla_next(b + off, (size_t)len - off, &o, &a) == 1) {
		if (a.type == DEVLINK_ATTR_PARAM_VALUE_DATA)
			data++;
		if (a.type == DEVLINK_ATTR_PARAM_VALUE_CMODE)
			assert_int_equal(a.data[0], DEVLINK_PARAM_CMODE_RUNTIME);
		if (a.type == DEVLINK_ATTR_PARAM_TYPE)
			assert_int_equal(a.data[0], MLX_DL_BOOL);
	}
	assert_int_equal(data, 0);
	assert_int_equal(mlx_params_req_parse(MLX_NL_DEVLINK, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_string_equal(s.dev, "0000:08:00.0");
	assert_string_equal(s.name, "esw_port_metadata");
	assert_false(s.on);

	v = mlx_val_str("smfs");
	len = mlx_params_req_build(knob("flow_steering_mode"), NULL, NULL, "0000:08:00.0", MLX_DL_STRING,
				   &v, b, sizeof(b), &fam);
	assert_int_equal(mlx_params_req_parse(MLX_NL_DEVLINK, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_string_equal(s.str, "smfs");

	/* a u16 parameter cannot carry 70000; a u32 one can */
	v = mlx_val_uint(70000);
	assert_int_equal(mlx_params_req_build(knob("fdb_large_groups"), NULL, NULL, "0000:08:00.0",
					      MLX_DL_U16, &v, b, sizeof(b), &fam), -EINVAL);
	len = mlx_params_req_build(knob("fdb_large_groups"), NULL, NULL, "0000:08:00.0", MLX_DL_U32, &v,
				   b, sizeof(b), &fam);
	assert_int_equal(mlx_params_req_parse(MLX_NL_DEVLINK, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_int_equal(s.u, 70000);
	/* a devlink instance on another bus (netdevsim's, --any-netdev) is
	 * named by its own bus, not "pci" */
	len = mlx_params_req_build(knob("max_macs"), NULL, "netdevsim", "netdevsim7", MLX_DL_U32, &v,
				   b, sizeof(b), &fam);
	assert_int_equal(mlx_params_req_parse(MLX_NL_DEVLINK, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_string_equal(s.bus, "netdevsim");
	assert_string_equal(s.dev, "netdevsim7");
	assert_int_equal(s.cmode, DEVLINK_PARAM_CMODE_RUNTIME);
	/* a driverinit value (netdevsim's max_macs: set for the next reload) */
	len = mlx_params_req_build_cmode(knob("max_macs"), NULL, "netdevsim", "netdevsim7", MLX_DL_U32,
					 DEVLINK_PARAM_CMODE_DRIVERINIT, &v, b, sizeof(b), &fam);
	assert_int_equal(mlx_params_req_parse(MLX_NL_DEVLINK, b, (size_t)len, &s, why, sizeof(why)), 0);
	assert_int_equal(s.cmode, DEVLINK_PARAM_CMODE_DRIVERINIT);
	assert_int_equal(s.u, 70000);
	assert_int_equal(mlx_params_req_build_cmode(knob("max_macs"), NULL, NULL, "0000:08:00.0",
						    MLX_DL_U32, 9, &v, b, sizeof(b), &fam), -EINVAL);
	/* module parameters and rdma_cm are files: no request */
	v = mlx_val_uint(1);
	assert_int_equal(mlx_params_req_build(knob("debug_mask"), "eth1", NULL, NULL, 0, &v, b, sizeof(b),
					      &fam), -EOPNOTSUPP);
}

/* What is not ours is -ENOENT; ours but malformed -EINVAL, and the
 * emulator refuses it with -EINVAL before it touches a file. */
static void test_malformed(void **state)
{
	uint8_t b[256], two[300];
	struct mlx_val v = mlx_val_uint(512);
	struct mlx_params_set s;
	struct mlx_ctx *ctx;
	char why[96];
	int fam, len;

	(void)state;
	len = mlx_params_req_build(knob("rx_ring"), "eth1", NULL, NULL, 0, &v, b, sizeof(b), &fam);
	assert_true(len > 0);
	ctx = empty_ctx();

	/* a GET is not a set */
	b[NLMSG_HDRLEN] = ETHTOOL_MSG_RINGS_GET;
	assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, b, (size_t)len, &s, why, sizeof(why)),
			 -ENOENT);
	b[NLMSG_HDRLEN] = ETHTOOL_MSG_RINGS_SET;
	/* the length says more than was given */
	assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, b, (size_t)len - 4, &s, why,
					      sizeof(why)), -EINVAL);
	assert_int_equal(mlx_emul_params(ctx, MLX_NL_ETHTOOL, b, (size_t)len - 4), -EINVAL);
	/* two settings in one request */
	memcpy(two, b, (size_t)len);
	memcpy(two + len, b + len - 8, 8);
	((struct nlmsghdr *)two)->nlmsg_len = (uint32_t)len + 8;
	assert_int_equal(mlx_params_req_parse(MLX_NL_ETHTOOL, two, (size_t)len + 8, &s, why,
					      sizeof(why)), -EINVAL);
	assert_int_equal(mlx_emul_params(ctx, MLX_NL_ETHTOOL, two, (size_t)len + 8), -EINVAL);
	/* an attribute that runs past the message */
	memcpy(two, b, (size_t)len);
	two[len - 8] = 0x40;
	assert_int_equal(mlx_emul_params(ctx, MLX_NL_ETHTOOL, two, (size_t)len), -EINVAL);
	/* a devlink PARAM_SET without its type */
	{
		struct mlx_nlbuf nb;
		struct genlmsghdr g = { .cmd = DEVLINK_CMD_PARAM_SET, .version = 1 };
		int l;

		mlx_nlb_init(&nb, two, sizeof(two));
		mlx_nlb_msg(&nb, 0, NLM_F_ACK);
		mlx_nlb_put(&nb, &g, sizeof(g));
		mlx_nlb_str(&nb, DEVLINK_ATTR_BUS_NAME, "pci");
		mlx_nlb_str(&nb, DEVLINK_ATTR_DEV_NAME, "0000:08:00.0");
		mlx_nlb_str(&nb, DEVLINK_ATTR_PARAM_NAME, "flow_steering_mode");
		l = mlx_nlb_finish(&nb);
		assert_int_equal(mlx_emul_params(ctx, MLX_NL_DEVLINK, two, (size_t)l), -EINVAL);
	}
	mlx_ctx_free(ctx);
}

static void test_values(void **state)
{
	struct mlx_ctx *ctx;
	struct mlx_plan pl = { 0 };
	struct mlx_val v;

	(void)state;
	ctx = empty_ctx();
	/* a ring's and the MTU's range are the device's: the plan checks
	 * them (issue 25); here only the type's */
	assert_int_equal(mlx_params_parse_value(ctx, knob("rx_ring"), "63", &v), 0);
	assert_int_equal(mlx_params_parse_value(ctx, knob("rx_ring"), "-1", &v), -EINVAL);
	assert_int_equal(mlx_params_parse_value(ctx, knob("rx_ring"), "64", &v), 0);
	assert_int_equal(v.u, 64);
	assert_int_equal(mlx_params_parse_value(ctx, knob("mtu"), "16000", &v), 0);
	assert_int_equal(mlx_params_parse_value(ctx, knob("mtu"), "4294967296", &v), -ERANGE);
	/* the catalogue's own ranges still hold where the device has none */
	assert_int_equal(mlx_params_parse_value(ctx, knob("rx_usecs"), "4096", &v), -ERANGE);
	assert_int_equal(mlx_params_parse_value(ctx, knob("lro"), "maybe", &v), -EINVAL);
	assert_int_equal(mlx_params_parse_value(ctx, knob("lro"), "on", &v), 0);
	assert_true(v.kind == MLX_VAL_BOOL && v.b);
	assert_int_equal(mlx_params_parse_value(ctx, knob("flow_steering_mode"), "xfs", &v), -EINVAL);
	assert_int_equal(mlx_params_plan_set(ctx, &pl, "rx_rnig", "1024"), -EINVAL);
	assert_int_equal(mlx_params_plan_set(ctx, &pl, "rx_ring", "1024"), 0);
	assert_int_equal(mlx_params_plan_set(ctx, &pl, "rx_ring", "2048"), -EINVAL);  /* twice */
	/* a default nobody knows cannot be returned to */
	assert_int_equal(mlx_params_plan_reset(ctx, &pl, "combined_channels"), -ENODATA);
	assert_int_equal(mlx_params_plan_reset(ctx, &pl, "lro"), 0);
	assert_int_equal(pl.n, 2);
	assert_false(pl.c[1].new.b);
	assert_int_equal(pl.c[1].arg, 1);       /* a reset: the plan checks the driver */
	assert_int_equal(pl.c[0].arg, 0);
	/* a name the catalogue lacks is a private flag the device may have:
	 * an on|off value is planned, anything else is no knob */
	assert_int_equal(mlx_params_plan_set(ctx, &pl, "sniffer", "on"), 0);
	assert_int_equal(pl.c[2].id, MLX_PARAMS_ID_PRIVFLAG);
	assert_string_equal(pl.c[2].setting, "sniffer");
	assert_true(pl.c[2].new.kind == MLX_VAL_BOOL && pl.c[2].new.b);
	assert_int_equal(mlx_params_plan_set(ctx, &pl, "sniffer2", "7"), -EINVAL);
	assert_int_equal(mlx_params_plan_set(ctx, &pl, "../x", "on"), -EINVAL);
	assert_int_equal(mlx_params_plan_set(ctx, &pl, "a-name-longer-than-a-bitset-name-32", "on"),
			 -EINVAL);
	/* MLNX_OFED's three are catalogued */
	assert_int_equal(mlx_params_plan_set(ctx, &pl, "skb_xmit_more", "on"), 0);
	assert_true(pl.c[3].id >= 0);
	assert_string_equal(knob("tx_xdp_hw_checksum")->dflt, "off");
	/* firmware NV settings (issue 27): total_vfs is 0..65535 (mlx5's
	 * validate compares a u16), enable_sriov a bool; both apply at a
	 * firmware reset, and no default is known (nothing resets them) */
	assert_int_equal(mlx_params_parse_value(ctx, knob("total_vfs"), "0", &v), 0);
	assert_int_equal(mlx_params_parse_value(ctx, knob("total_vfs"), "65535", &v), 0);
	assert_int_equal(v.u, 65535);
	assert_int_equal(mlx_params_parse_value(ctx, knob("total_vfs"), "65536", &v), -ERANGE);
	assert_int_equal(mlx_params_parse_value(ctx, knob("enable_sriov"), "false", &v), 0);
	assert_true(v.kind == MLX_VAL_BOOL && !v.b);
	assert_int_equal(mlx_params_parse_value(ctx, knob("enable_sriov"), "2", &v), -EINVAL);
	assert_int_equal(knob("total_vfs")->apply, MLX_KA_FIRMWARE);
	assert_int_equal(knob("enable_sriov")->apply, MLX_KA_FIRMWARE);
	assert_int_equal(mlx_params_plan_reset(ctx, &pl, "total_vfs"), -ENODATA);
	/* cqe_compress_type: lib/nv_param.c's two words, nothing else */
	assert_int_equal(mlx_params_parse_value(ctx, knob("cqe_compress_type"), "aggressive", &v), 0);
	assert_int_equal(mlx_params_parse_value(ctx, knob("cqe_compress_type"), "fast", &v), -EINVAL);
	assert_int_equal(knob("cqe_compress_type")->apply, MLX_KA_FIRMWARE);
	mlx_plan_free(&pl);
	mlx_ctx_free(ctx);
}

/* One recorded PARAM_GET reply (net/devlink/param.c devlink_nl_param_fill)
 * with a value of @type in cmode @cmode. */
static void dl_reply_cmode(struct mlx_nlbuf *b, const char *name, uint8_t type, uint8_t cmode,
			   const void *data, size_t dlen)
{
	struct genlmsghdr g = { .cmd = DEVLINK_CMD_PARAM_GET, .version = 1 };
	size_t p, l, v;

	mlx_nlb_msg(b, 0x14, NLM_F_MULTI);
	mlx_nlb_put(b, &g, sizeof(g));
	mlx_nlb_str(b, DEVLINK_ATTR_BUS_NAME, "pci");
	mlx_nlb_str(b, DEVLINK_ATTR_DEV_NAME, "0000:08:00.0");
	p = mlx_nlb_nest_start(b, DEVLINK_ATTR_PARAM | NLA_F_NESTED);
	mlx_nlb_str(b, DEVLINK_ATTR_PARAM_NAME, name);
	mlx_nlb_u8(b, DEVLINK_ATTR_PARAM_TYPE, type);
	l = mlx_nlb_nest_start(b, DEVLINK_ATTR_PARAM_VALUES_LIST | NLA_F_NESTED);
	v = mlx_nlb_nest_start(b, DEVLINK_ATTR_PARAM_VALUE | NLA_F_NESTED);
	mlx_nlb_u8(b, DEVLINK_ATTR_PARAM_VALUE_CMODE, cmode);
	if (data)
		mlx_nlb_attr(b, DEVLINK_ATTR_PARAM_VALUE_DATA, data, dlen);
	mlx_nlb_nest_end(b, v);
	mlx_nlb_nest_end(b, l);
	mlx_nlb_nest_end(b, p);
}

/* ... in cmode runtime */
static void dl_reply(struct mlx_nlbuf *b, const char *name, uint8_t type, const void *data,
		     size_t dlen)
{
	dl_reply_cmode(b, name, type, DEVLINK_PARAM_CMODE_RUNTIME, data, dlen);
}

/* Decode every message of a dump file into @out (by order). */
static size_t decode_dump(const uint8_t *buf, size_t len, struct mlx_devlink_param *out, size_t max)
{
	size_t off = 0, n = 0;

	while (off + NLMSG_HDRLEN <= len && n < max) {
		const struct nlmsghdr *h = (const void *)(buf + off);

		assert_int_equal(mlx_devlink_param_decode(h, h->nlmsg_len, &out[n]), 0);
		n++;
		off += NLMSG_ALIGN(h->nlmsg_len);
	}
	assert_int_equal(off, len);
	return n;
}

/* The emulator on a recorded param-dump: an integer in place, a bool's
 * flag removed and added, a string that grows; the messages after the
 * edited one stay whole (the splice fixes every enclosing length). */
static void test_emul_devlink(void **state)
{
	static const char *const dirs[] = { "netlink", "netlink/devlink", "netlink/devlink/all" };
	uint8_t file[1024], req[256];
	struct mlx_devlink_param dp[4];
	struct mlx_nlbuf b;
	struct mlx_ctx *ctx;
	struct mlx_val v;
	char path[128], *data = NULL;
	uint32_t u = 15;
	size_t len;
	int fam, rl, flen;
	FILE *fp;

	(void)state;
	ctx = empty_ctx();
	mlx_nlb_init(&b, file, sizeof(file));
	dl_reply(&b, "fdb_large_groups", MLX_DL_U32, &u, 4);
	flen = mlx_nlb_finish(&b);
	mlx_nlb_init(&b, file + flen, sizeof(file) - (size_t)flen);
	dl_reply(&b, "esw_port_metadata", MLX_DL_BOOL, "", 0);
	flen += mlx_nlb_finish(&b);
	mlx_nlb_init(&b, file + flen, sizeof(file) - (size_t)flen);
	dl_reply(&b, "flow_steering_mode", MLX_DL_STRING, "dmfs", 5);
	flen += mlx_nlb_finish(&b);
	/* a firmware NV setting (mlx5's total_vfs: cmode permanent only) */
	u = 8;
	mlx_nlb_init(&b, file + flen, sizeof(file) - (size_t)flen);
	dl_reply_cmode(&b, "total_vfs", MLX_DL_U32, DEVLINK_PARAM_CMODE_PERMANENT, &u, 4);
	flen += mlx_nlb_finish(&b);
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, dirs[i]);
		assert_int_equal(mkdir(path, 0700), 0);
	}
	snprintf(path, sizeof(path), "%s/netlink/devlink/all/param-dump.nl", dir);
	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(fwrite(file, 1, (size_t)flen, fp), (size_t)flen);
	fclose(fp);

	v = mlx_val_uint(70000);
	rl = mlx_params_req_build(knob("fdb_large_groups"), NULL, NULL, "0000:08:00.0", MLX_DL_U32, &v,
				  req, sizeof(req), &fam);
	assert_int_equal(mlx_emul_params(ctx, fam, req, (size_t)rl), 0);
	v = mlx_val_bool(false);
	rl = mlx_params_req_build(knob("esw_port_metadata"), NULL, NULL, "0000:08:00.0", MLX_DL_BOOL, &v,
				  req, sizeof(req), &fam);
	assert_int_equal(mlx_emul_params(ctx, fam, req, (size_t)rl), 0);
	/* a string longer than the recorded one (the parser takes any) */
	{
		struct mlx_knob k = *knob("flow_steering_mode");

		v = mlx_val_str("smfs-longer-name");
		rl = mlx_params_req_build(&k, NULL, NULL, "0000:08:00.0", MLX_DL_STRING, &v, req,
					  sizeof(req), &fam);
		assert_int_equal(mlx_emul_params(ctx, fam, req, (size_t)rl), 0);
	}
	assert_int_equal(mlx_read_file(ctx, "/netlink/devlink/all/param-dump.nl", &data, &len), 0);
	assert_int_equal(decode_dump((const uint8_t *)data, len, dp, 4), 4);
	assert_int_equal(dp[0].val[0].u, 70000);
	assert_false(dp[1].val[0].have);
	assert_string_equal(dp[2].val[0].str, "smfs-longer-name");
	free(data);

	/* and back on: the flag comes back */
	v = mlx_val_bool(true);
	rl = mlx_params_req_build(knob("esw_port_metadata"), NULL, NULL, "0000:08:00.0", MLX_DL_BOOL, &v,
				  req, sizeof(req), &fam);
	assert_int_equal(mlx_emul_params(ctx, fam, req, (size_t)rl), 0);
	assert_int_equal(mlx_read_file(ctx, "/netlink/devlink/all/param-dump.nl", &data, &len), 0);
	assert_int_equal(decode_dump((const uint8_t *)data, len, dp, 4), 4);
	assert_true(dp[1].val[0].have && dp[1].val[0].u == 1);
	assert_string_equal(dp[2].val[0].str, "smfs-longer-name");
	free(data);
	/* a request of another type than the parameter's: -EINVAL
	 * (net/devlink/param.c), nothing edited */
	v = mlx_val_uint(1);
	rl = mlx_params_req_build(knob("esw_port_metadata"), NULL, NULL, "0000:08:00.0", MLX_DL_U32, &v,
				  req, sizeof(req), &fam);
	assert_true(rl > 0);
	assert_int_equal(mlx_emul_params(ctx, fam, req, (size_t)rl), -EINVAL);
	/* the firmware NV setting: a runtime request finds no runtime value
	 * (-EINVAL); cmode permanent edits the stored one */
	v = mlx_val_uint(16);
	rl = mlx_params_req_build(knob("total_vfs"), NULL, NULL, "0000:08:00.0", MLX_DL_U32, &v, req,
				  sizeof(req), &fam);
	assert_int_equal(mlx_emul_params(ctx, fam, req, (size_t)rl), -EINVAL);
	rl = mlx_params_req_build_cmode(knob("total_vfs"), NULL, NULL, "0000:08:00.0", MLX_DL_U32,
					DEVLINK_PARAM_CMODE_PERMANENT, &v, req, sizeof(req), &fam);
	assert_int_equal(mlx_emul_params(ctx, fam, req, (size_t)rl), 0);
	assert_int_equal(mlx_read_file(ctx, "/netlink/devlink/all/param-dump.nl", &data, &len), 0);
	assert_int_equal(decode_dump((const uint8_t *)data, len, dp, 4), 4);
	assert_true(dp[1].val[0].have && dp[1].val[0].u == 1);
	assert_int_equal(dp[3].val[0].cmode, DEVLINK_PARAM_CMODE_PERMANENT);
	assert_int_equal(dp[3].val[0].u, 16);
	free(data);
	/* a parameter the dump does not have: -EINVAL, as devlink answers */
	v = mlx_val_uint(3);
	rl = mlx_params_req_build(knob("io_eq_size"), NULL, NULL, "0000:08:00.0", MLX_DL_U32, &v, req,
				  sizeof(req), &fam);
	assert_int_equal(mlx_emul_params(ctx, fam, req, (size_t)rl), -EINVAL);
	unlink(path);
	for (size_t i = 3; i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", dir, dirs[i]);
		rmdir(path);
	}
	mlx_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rings_set),
		cmocka_unit_test(test_bit_set),
		cmocka_unit_test(test_group_set),
		cmocka_unit_test(test_mtu),
		cmocka_unit_test(test_devlink),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_emul_devlink),
	};

	int r = cmocka_run_group_tests(tests, NULL, NULL);

	if (dir_made)
	{
		char sub[96];

		for (size_t i = sizeof(levels) / sizeof(levels[0]); i-- > 0;) {
			snprintf(sub, sizeof(sub), "%s/%s", dir, levels[i]);
			(void)rmdir(sub);
		}
		(void)rmdir(dir);
	}
	return r;
}
