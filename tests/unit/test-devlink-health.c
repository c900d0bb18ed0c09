/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for lib/decode/decode-devlink-health.c: the fmsg stream decoder, the
 * HEALTH_REPORTER_GET reply, the LINKSTATE_GET reply and the requests.
 * Replies are laid out here with a writer of its own, as the kernel sends
 * them (net/devlink/health.c devlink_nl_health_reporter_fill and
 * devlink_fmsg_prepare_skb; net/ethtool/linkstate.c): nests with
 * NLA_F_NESTED, flag items zero-length, a value as OBJ_VALUE_TYPE then
 * OBJ_VALUE_DATA, the stream spread over several messages.
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
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <cmocka.h>

#include "health.h"
#include "mlx.h"
#include "nl.h"
#include "nl-writer.h"

static void str(struct w *w, uint16_t t, const char *s) { attr(w, t, s, strlen(s) + 1); }
static void u8a(struct w *w, uint16_t t, uint8_t v) { attr(w, t, &v, 1); }
static void u32a(struct w *w, uint16_t t, uint32_t v) { attr(w, t, &v, 4); }
static void u64a(struct w *w, uint16_t t, uint64_t v) { attr(w, t, &v, 8); }
static void flag(struct w *w, uint16_t t) { attr(w, t, NULL, 0); }

static size_t nest_start(struct w *w, uint16_t t) { return attr(w, t | NLA_F_NESTED, NULL, 0); }

/* struct nlmsghdr + struct genlmsghdr, the family id 0x14 */
static size_t msg_start(struct w *w, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr h = { .nlmsg_type = 0x14, .nlmsg_flags = flags, .nlmsg_seq = 1 };
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };
	size_t at = w->n;

	memcpy(w->b + w->n, &h, sizeof(h));
	memcpy(w->b + w->n + NLMSG_HDRLEN, &g, sizeof(g));
	w->n += NLMSG_HDRLEN + GENL_HDRLEN;
	return at;
}

static void msg_end(struct w *w, size_t at)
{
	uint32_t len = (uint32_t)(w->n - at);

	memcpy(w->b + at, &len, 4);
}

/* fmsg items */
static void f_val_u8(struct w *w, uint8_t v) { u8a(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 1); u8a(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, v); }
static void f_pair_start(struct w *w, const char *name)
{
	flag(w, DEVLINK_ATTR_FMSG_PAIR_NEST_START);
	str(w, DEVLINK_ATTR_FMSG_OBJ_NAME, name);
}
static void f_end(struct w *w) { flag(w, DEVLINK_ATTR_FMSG_NEST_END); }

/* The fw reporter's dump as mlx5 builds it (REF:§6.3), cut in two
 * messages in the middle of the "health buffer" object. */
static size_t build_fw_dump(struct w *w, size_t *cut)
{
	size_t m, f;

	w->n = 0;
	m = msg_start(w, DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, NLM_F_MULTI);
	str(w, DEVLINK_ATTR_BUS_NAME, "pci");
	f = nest_start(w, DEVLINK_ATTR_FMSG);
	flag(w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	f_pair_start(w, "Syndrome");
	f_val_u8(w, 0x7);
	f_end(w);
	f_pair_start(w, "Description");
	u8a(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 10);
	str(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, "irisc not responding");
	f_end(w);
	f_pair_start(w, "health buffer");
	flag(w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	f_pair_start(w, "assert_var");
	flag(w, DEVLINK_ATTR_FMSG_ARR_NEST_START);
	nest_end(w, f);
	msg_end(w, m);
	*cut = w->n;
	/* second message */
	m = msg_start(w, DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, NLM_F_MULTI);
	f = nest_start(w, DEVLINK_ATTR_FMSG);
	for (uint32_t i = 0; i < 3; i++) {
		u8a(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 3);
		u32a(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, 0x100 + i);
	}
	f_end(w);                 /* array */
	f_end(w);                 /* pair assert_var */
	f_pair_start(w, "time");
	attr(w, DEVLINK_ATTR_PAD, NULL, 0);       /* nla_put_u64_64bit's pad */
	u8a(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 4);
	u64a(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, 0x123456789abcULL);
	f_end(w);
	f_pair_start(w, "valid");
	u8a(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 6);
	u8a(w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, 1);
	f_end(w);
	f_end(w);                 /* object health buffer */
	f_end(w);                 /* pair health buffer */
	f_end(w);                 /* root */
	nest_end(w, f);
	msg_end(w, m);
	return w->n;
}

static int feed_all(struct mlx_fmsg_parser *p, const uint8_t *b, size_t len, char *err)
{
	size_t off = 0;
	int r = 0;

	while (off + NLMSG_HDRLEN <= len) {
		const struct nlmsghdr *h = (const struct nlmsghdr *)(b + off);
		size_t l = h->nlmsg_len;

		if (l < NLMSG_HDRLEN || l > len - off)
			l = len - off;  /* a truncated last message: as much as there is */
		r = mlx_fmsg_feed_msg(p, h, l, err, 160);
		if (r < 0)
			return r;
		off += NLMSG_ALIGN(l);
	}
	return r;
}

static void test_fmsg_nested_two_messages(void **state)
{
	static struct w w;
	struct mlx_fmsg_parser p;
	struct mlx_fmsg_node *t = NULL;
	const struct mlx_fmsg_node *hb, *av, *v;
	char err[160] = "";
	size_t cut, len = build_fw_dump(&w, &cut);

	(void)state;
	mlx_fmsg_init(&p);
	assert_int_equal(feed_all(&p, w.b, len, err), 0);
	assert_int_equal(mlx_fmsg_finish(&p, &t, err, sizeof(err)), 0);
	assert_non_null(t);
	assert_int_equal(t->kind, MLX_FMSG_OBJ);
	assert_int_equal(t->n, 3);
	v = mlx_fmsg_get(t, "Syndrome");
	assert_non_null(v);
	assert_int_equal(v->vtype, MLX_FMSG_U8);
	assert_int_equal(v->u, 7);
	v = mlx_fmsg_get(t, "Description");
	assert_string_equal(v->s, "irisc not responding");
	hb = mlx_fmsg_get(t, "health buffer");
	assert_int_equal(hb->kind, MLX_FMSG_OBJ);
	av = mlx_fmsg_get(hb, "assert_var");
	assert_int_equal(av->kind, MLX_FMSG_ARR);
	assert_int_equal(av->n, 3);
	assert_null(av->child[1]->name);
	assert_int_equal(av->child[2]->u, 0x102);
	assert_int_equal(mlx_fmsg_get(hb, "time")->u, 0x123456789abcULL);
	assert_int_equal(mlx_fmsg_get(hb, "valid")->vtype, MLX_FMSG_FLAG);
	assert_int_equal(mlx_fmsg_get(hb, "valid")->u, 1);
	mlx_fmsg_free(t);
}

/* Every cut of the stream: the first message alone leaves nests open; any
 * byte-truncated buffer is refused or decodes a prefix, never read past. */
static void test_fmsg_truncated(void **state)
{
	static struct w w;
	struct mlx_fmsg_parser p;
	struct mlx_fmsg_node *t = NULL;
	char err[160] = "";
	size_t cut, len = build_fw_dump(&w, &cut);

	(void)state;
	mlx_fmsg_init(&p);
	assert_int_equal(feed_all(&p, w.b, cut, err), 0);
	assert_int_equal(mlx_fmsg_finish(&p, &t, err, sizeof(err)), -EBADMSG);
	assert_null(t);
	assert_non_null(strstr(err, "truncated: 5 nests left open"));
	mlx_fmsg_parser_free(&p);
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = malloc(n ? n : 1);     /* exact size: ASan sees an over-read */
		int r;

		memcpy(copy, w.b, n);
		mlx_fmsg_init(&p);
		r = feed_all(&p, copy, n, err);
		if (r == 0)
			r = mlx_fmsg_finish(&p, &t, err, sizeof(err));
		assert_true(r < 0);          /* nothing short of the whole is complete */
		mlx_fmsg_parser_free(&p);
		free(copy);
	}
	/* an attribute header whose length runs past its nest */
	{
		uint8_t bad[8] = { 12, 0, DEVLINK_ATTR_FMSG_OBJ_NAME, 0, 'a', 0, 0, 0 };

		mlx_fmsg_init(&p);
		assert_int_equal(mlx_fmsg_feed(&p, bad, sizeof(bad), err, sizeof(err)), -EBADMSG);
		mlx_fmsg_parser_free(&p);
	}
}

static void test_fmsg_unknown_and_old_flags(void **state)
{
	struct w w = { .n = 0 };
	struct mlx_fmsg_parser p;
	struct mlx_fmsg_node *t = NULL;
	const struct mlx_fmsg_node *v;
	char err[160] = "";

	(void)state;
	flag(&w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	attr(&w, 250, "??", 2);                     /* an attribute of a newer kernel */
	f_pair_start(&w, "odd");
	u8a(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 99);   /* a type this decoder does not know */
	attr(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, "\x01\x02\x03", 3);
	f_end(&w);
	f_pair_start(&w, "true_old");              /* older kernels: zero-length DATA */
	u8a(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 6);
	flag(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA);
	f_end(&w);
	f_pair_start(&w, "false_old");             /* ... and no DATA at all */
	u8a(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 6);
	f_end(&w);
	f_end(&w);
	mlx_fmsg_init(&p);
	assert_int_equal(mlx_fmsg_feed(&p, w.b, w.n, err, sizeof(err)), 0);
	assert_int_equal(p.unknown_types, 1);
	assert_int_equal(mlx_fmsg_finish(&p, &t, err, sizeof(err)), 0);
	v = mlx_fmsg_get(t, "odd");
	assert_int_equal(v->vtype, 99);
	assert_int_equal(v->binlen, 3);
	assert_memory_equal(v->bin, "\x01\x02\x03", 3);
	assert_int_equal(mlx_fmsg_get(t, "true_old")->u, 1);
	assert_int_equal(mlx_fmsg_get(t, "false_old")->u, 0);
	mlx_fmsg_free(t);
}

/* netdevsim 6.1's dummy reporter (drivers/net/netdevsim/health.c
 * nsim_dev_dummy_fmsg_put), as the kernel lab's Debian 12 kernel sends
 * it: after the pair "test_nest" a devlink_fmsg_arr_pair_nest_end that
 * no start opened (two NEST_ENDs), then more pairs, then the root's end.
 * The kernel does not check the nesting and iproute2 prints every pair at
 * the top; so does the decoder (it refused the stream: "items after the
 * top-level object closed"). */
static void test_fmsg_stray_ends(void **state)
{
	struct w w = { .n = 0 };
	struct mlx_fmsg_parser p;
	struct mlx_fmsg_node *t = NULL;
	const struct mlx_fmsg_node *v;
	char err[160] = "";

	(void)state;
	flag(&w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);     /* devlink: the root */
	f_pair_start(&w, "test_u8");
	f_val_u8(&w, 1);
	f_end(&w);
	f_pair_start(&w, "test_nest");
	flag(&w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	f_pair_start(&w, "nested_test_u8");
	f_val_u8(&w, 0);
	f_end(&w);
	f_end(&w);
	f_end(&w);
	f_end(&w);                /* the stray arr_pair_nest_end */
	f_end(&w);
	f_pair_start(&w, "test_u32_array");
	flag(&w, DEVLINK_ATTR_FMSG_ARR_NEST_START);
	for (uint32_t i = 0; i < 3; i++) {
		u8a(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 3);
		u32a(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, i);
	}
	f_end(&w);
	f_end(&w);
	f_end(&w);                /* devlink: the root's end */
	mlx_fmsg_init(&p);
	assert_int_equal(mlx_fmsg_feed(&p, w.b, w.n, err, sizeof(err)), 0);
	assert_int_equal(mlx_fmsg_finish(&p, &t, err, sizeof(err)), 0);
	assert_int_equal(mlx_fmsg_get(t, "test_u8")->u, 1);
	v = mlx_fmsg_get(mlx_fmsg_get(t, "test_nest"), "nested_test_u8");
	assert_non_null(v);
	v = mlx_fmsg_get(t, "test_u32_array");
	assert_non_null(v);
	assert_int_equal(v->n, 3);
	assert_int_equal(v->child[2]->u, 2);
	mlx_fmsg_free(t);
}

static void test_fmsg_structure_errors(void **state)
{
	struct mlx_fmsg_parser p;
	char err[160];
	struct w w;

	(void)state;
	/* a value directly in an object */
	w.n = 0;
	flag(&w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	f_val_u8(&w, 1);
	mlx_fmsg_init(&p);
	assert_int_equal(mlx_fmsg_feed(&p, w.b, w.n, err, sizeof(err)), -EBADMSG);
	mlx_fmsg_parser_free(&p);
	/* NEST_END with nothing open */
	w.n = 0;
	f_end(&w);
	mlx_fmsg_init(&p);
	assert_int_equal(mlx_fmsg_feed(&p, w.b, w.n, err, sizeof(err)), -EBADMSG);
	mlx_fmsg_parser_free(&p);
	/* a pair closed without a value */
	w.n = 0;
	flag(&w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	f_pair_start(&w, "x");
	f_end(&w);
	mlx_fmsg_init(&p);
	assert_int_equal(mlx_fmsg_feed(&p, w.b, w.n, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "'x'"));
	mlx_fmsg_parser_free(&p);
	/* DATA without TYPE */
	w.n = 0;
	flag(&w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	f_pair_start(&w, "x");
	u8a(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, 1);
	mlx_fmsg_init(&p);
	assert_int_equal(mlx_fmsg_feed(&p, w.b, w.n, err, sizeof(err)), -EBADMSG);
	mlx_fmsg_parser_free(&p);
	/* a u32 value with 2 data bytes */
	w.n = 0;
	flag(&w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	f_pair_start(&w, "x");
	u8a(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE, 3);
	attr(&w, DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA, "\x01\x02", 2);
	mlx_fmsg_init(&p);
	assert_int_equal(mlx_fmsg_feed(&p, w.b, w.n, err, sizeof(err)), -EBADMSG);
	mlx_fmsg_parser_free(&p);
}

static void test_fmsg_depth_bound(void **state)
{
	static struct w w;
	struct mlx_fmsg_parser p;
	char err[160];

	(void)state;
	w.n = 0;
	flag(&w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	for (int i = 0; i < 40; i++) {
		f_pair_start(&w, "n");
		flag(&w, DEVLINK_ATTR_FMSG_OBJ_NEST_START);
	}
	mlx_fmsg_init(&p);
	assert_int_equal(mlx_fmsg_feed(&p, w.b, w.n, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "deeper than 32"));
	mlx_fmsg_parser_free(&p);
}

/* HEALTH_REPORTER_GET: a device reporter, a port reporter, another
 * device's (an older kernel's dump of every device), truncated. */
static size_t reporter_msg(struct w *w, const char *dev, const char *name, int64_t port,
			   bool recover)
{
	size_t m, n;

	w->n = 0;
	m = msg_start(w, DEVLINK_CMD_HEALTH_REPORTER_GET, NLM_F_MULTI);
	str(w, DEVLINK_ATTR_BUS_NAME, "pci");
	str(w, DEVLINK_ATTR_DEV_NAME, dev);
	if (port >= 0)
		u32a(w, DEVLINK_ATTR_PORT_INDEX, (uint32_t)port);
	n = nest_start(w, DEVLINK_ATTR_HEALTH_REPORTER);
	str(w, DEVLINK_ATTR_HEALTH_REPORTER_NAME, name);
	u8a(w, DEVLINK_ATTR_HEALTH_REPORTER_STATE, 1);
	u64a(w, DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, 3);
	u64a(w, DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, 2);
	if (recover) {
		u64a(w, DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD, 500);
		u8a(w, DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER, 1);
	}
	u64a(w, DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS, 4321);
	u64a(w, DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS, 1700000000123456789ULL);
	u8a(w, DEVLINK_ATTR_HEALTH_REPORTER_AUTO_DUMP, 0);
	nest_end(w, n);
	msg_end(w, m);
	return w->n;
}

static void test_reporter_decode(void **state)
{
	struct mlx_health h;
	struct w w;
	char err[160] = "";
	size_t len;

	(void)state;
	memset(&h, 0, sizeof(h));
	len = reporter_msg(&w, "0000:08:00.0", "fw_fatal", -1, true);
	assert_int_equal(mlx_health_reporter_decode((struct nlmsghdr *)w.b, len, "pci", "0000:08:00.0",
						    &h, err, sizeof(err)), 0);
	len = reporter_msg(&w, "0000:08:00.0", "tx", 65535, false);
	assert_int_equal(mlx_health_reporter_decode((struct nlmsghdr *)w.b, len, "pci", "0000:08:00.0",
						    &h, err, sizeof(err)), 0);
	len = reporter_msg(&w, "0000:09:00.0", "fw", -1, false);
	assert_int_equal(mlx_health_reporter_decode((struct nlmsghdr *)w.b, len, "pci", "0000:08:00.0",
						    &h, err, sizeof(err)), 0);
	assert_int_equal(h.n, 2);
	assert_string_equal(h.r[0].name, "fw_fatal");
	assert_int_equal(h.r[0].port_index, -1);
	assert_int_equal(h.r[0].state, 1);
	assert_string_equal(mlx_health_state_str(h.r[0].state), "error");
	assert_int_equal(h.r[0].err_count, 3);
	assert_int_equal(h.r[0].recover_count, 2);
	assert_true(h.r[0].has_grace && h.r[0].auto_recover);
	assert_int_equal(h.r[0].grace_period_ms, 500);
	assert_true(h.r[0].has_auto_dump && !h.r[0].auto_dump);
	assert_int_equal(h.r[0].dump_ts_ns, 1700000000123456789ULL);
	assert_string_equal(h.r[1].name, "tx");
	assert_int_equal(h.r[1].port_index, 65535);
	assert_false(h.r[1].has_grace);
	/* truncated anywhere: refused, never read past */
	len = reporter_msg(&w, "0000:08:00.0", "rx", -1, true);
	for (size_t n = NLMSG_HDRLEN + GENL_HDRLEN; n < len; n++) {
		struct mlx_health h2;
		uint8_t *copy = malloc(n);
		int r;

		memcpy(copy, w.b, n);
		memset(&h2, 0, sizeof(h2));
		r = mlx_health_reporter_decode((struct nlmsghdr *)copy, n, "pci", "0000:08:00.0", &h2, err,
					       sizeof(err));
		assert_int_equal(r, -EBADMSG);
		free(copy);
	}
	/* not a HEALTH_REPORTER_GET */
	w.n = 0;
	len = msg_start(&w, DEVLINK_CMD_INFO_GET, 0);
	msg_end(&w, len);
	assert_int_equal(mlx_health_reporter_decode((struct nlmsghdr *)w.b, w.n, "pci", "x", &h, err,
						    sizeof(err)), -EBADMSG);
}

static void test_linkstate(void **state)
{
	struct mlx_linkstate ls;
	struct w w = { .n = 0 };
	char err[160] = "";
	size_t m, hd;

	(void)state;
	m = msg_start(&w, ETHTOOL_MSG_LINKSTATE_GET_REPLY, 0);
	hd = nest_start(&w, ETHTOOL_A_LINKSTATE_HEADER);
	u32a(&w, ETHTOOL_A_HEADER_DEV_INDEX, 5);
	str(&w, ETHTOOL_A_HEADER_DEV_NAME, "eth1");
	nest_end(&w, hd);
	u8a(&w, ETHTOOL_A_LINKSTATE_LINK, 0);
	u8a(&w, ETHTOOL_A_LINKSTATE_EXT_STATE, ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY);
	u8a(&w, ETHTOOL_A_LINKSTATE_EXT_SUBSTATE, ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_ALOS);
	msg_end(&w, m);
	assert_int_equal(mlx_linkstate_decode((struct nlmsghdr *)w.b, w.n, &ls, err, sizeof(err)), 0);
	assert_int_equal(ls.link, 0);
	assert_int_equal(ls.sqi, -1);
	assert_string_equal(mlx_link_ext_state_str(ls.ext_state), "bad signal integrity");
	assert_string_equal(mlx_link_ext_substate_str(ls.ext_state, ls.ext_substate), "serdes ALOS");
	assert_string_equal(mlx_link_ext_state_str(ETHTOOL_LINK_EXT_STATE_NO_CABLE), "no cable");
	assert_string_equal(mlx_link_ext_state_str(ETHTOOL_LINK_EXT_STATE_MODULE), "module");
	assert_null(mlx_link_ext_state_str(200));
	assert_null(mlx_link_ext_substate_str(ETHTOOL_LINK_EXT_STATE_NO_CABLE, 1));
	/* cut in the middle of the last attribute */
	assert_int_equal(mlx_linkstate_decode((struct nlmsghdr *)w.b, w.n - 3, &ls, err, sizeof(err)),
			 -EBADMSG);
}

static void test_builders(void **state)
{
	uint8_t b[256];
	const struct nlmsghdr *h = (const struct nlmsghdr *)b;
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int len, seen = 0;

	(void)state;
	len = mlx_health_build(b, sizeof(b), DEVLINK_CMD_HEALTH_REPORTER_GET, "pci", "0000:08:00.0",
			       NULL, -1);
	assert_true(len > 0);
	assert_true(h->nlmsg_flags & NLM_F_DUMP);
	len = mlx_health_build(b, sizeof(b), DEVLINK_CMD_HEALTH_REPORTER_DIAGNOSE, "pci", "0000:08:00.0",
			       "tx", 65535);
	assert_false(h->nlmsg_flags & NLM_F_DUMP);
	assert_int_equal(mlx_nlmsg_attrs(h, (size_t)len, GENL_HDRLEN, &attrs, &alen), 0);
	while (mlx_nla_next(attrs, alen, &off, &a) == 1) {
		uint32_t u;

		if (a.type == DEVLINK_ATTR_PORT_INDEX && mlx_nla_u32(&a, &u) == 0 && u == 65535)
			seen |= 1;
		if (a.type == DEVLINK_ATTR_HEALTH_REPORTER_NAME && !strcmp((const char *)a.data, "tx"))
			seen |= 2;
	}
	assert_int_equal(seen, 3);
	len = mlx_health_build(b, sizeof(b), DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, "pci", "x", "fw", -1);
	assert_true(h->nlmsg_flags & NLM_F_DUMP);
	/* RECOVER answers nothing but its ack: without NLM_F_ACK the kernel
	 * sends nothing and the reader waits forever (the kernel lab's
	 * netdevsim, `health recover`) */
	len = mlx_health_build(b, sizeof(b), DEVLINK_CMD_HEALTH_REPORTER_RECOVER, "pci", "x", "tx", 1);
	assert_true(len > 0);
	assert_true(h->nlmsg_flags & NLM_F_ACK);
	len = mlx_health_build(b, sizeof(b), DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR, "pci", "x", "fw", -1);
	assert_true(h->nlmsg_flags & NLM_F_ACK);
	len = mlx_devlink_reload_build(b, sizeof(b), "pci", "0000:08:00.0", DEVLINK_RELOAD_ACTION_DRIVER_REINIT);
	assert_true(len > 0);
	assert_true(h->nlmsg_flags & NLM_F_ACK);
	assert_int_equal(b[NLMSG_HDRLEN], DEVLINK_CMD_RELOAD);
	off = 0;
	seen = 0;
	assert_int_equal(mlx_nlmsg_attrs(h, (size_t)len, GENL_HDRLEN, &attrs, &alen), 0);
	while (mlx_nla_next(attrs, alen, &off, &a) == 1)
		if (a.type == DEVLINK_ATTR_RELOAD_ACTION && a.len >= 1 && a.data[0] == 1)
			seen = 1;
	assert_int_equal(seen, 1);
	/* LINKSTATE_GET: the header nest carries NLA_F_NESTED (strict family) */
	len = mlx_linkstate_build(b, sizeof(b), "va");
	assert_true(len > 0);
	assert_int_equal(b[NLMSG_HDRLEN], ETHTOOL_MSG_LINKSTATE_GET);
	{
		uint16_t t;

		memcpy(&t, b + NLMSG_HDRLEN + GENL_HDRLEN + 2, 2);
		assert_int_equal(t, NLA_F_NESTED | ETHTOOL_A_LINKSTATE_HEADER);
	}
	assert_int_equal(mlx_health_build(b, 24, DEVLINK_CMD_HEALTH_REPORTER_GET, "pci", "0000:08:00.0",
					  NULL, -1), -EMSGSIZE);
}

static void test_cmd_stat_order(void **state)
{
	struct mlx_cmd_stat v[3];

	(void)state;
	memset(v, 0, sizeof(v));
	snprintf(v[0].name, sizeof(v[0].name), "B");
	v[0].n = 5;
	snprintf(v[1].name, sizeof(v[1].name), "C");
	v[1].n = 50;
	snprintf(v[2].name, sizeof(v[2].name), "A");
	v[2].n = 5;
	qsort(v, 3, sizeof(v[0]), mlx_cmd_stat_cmp);
	assert_string_equal(v[0].name, "C");
	assert_string_equal(v[1].name, "A");
	assert_string_equal(v[2].name, "B");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmsg_nested_two_messages),
		cmocka_unit_test(test_fmsg_truncated),
		cmocka_unit_test(test_fmsg_unknown_and_old_flags),
		cmocka_unit_test(test_fmsg_structure_errors),
		cmocka_unit_test(test_fmsg_stray_ends),
		cmocka_unit_test(test_fmsg_depth_bound),
		cmocka_unit_test(test_reporter_decode),
		cmocka_unit_test(test_linkstate),
		cmocka_unit_test(test_builders),
		cmocka_unit_test(test_cmd_stat_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
