/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the netlink decoders and builders: lib/decode/decode-rtnl-vf.c
 * (RTM_NEWLINK IFLA_VFINFO_LIST), lib/decode/decode-devlink-info.c (devlink dev
 * info, eswitch), lib/backend/nl-attr.c and the reply walker of lib/backend/nl.c.  Replies
 * are laid out here byte by byte with the UAPI structs, as the kernel
 * sends them (net/core/rtnetlink.c rtnl_fill_vfinfo, net/devlink/dev.c).
 * The devlink case uses the facts of the real capture
 * FIX: devlink/cx7-devlink-dev-info-with-serials.txt (checked against the
 * file when $FIXTURES is present).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <cmocka.h>

#include "devlink.h"
#include "mlx.h"
#include "nl.h"
#include "nl-writer.h"
#include "sriov.h"

static void hdr(struct w *w, uint16_t type, uint16_t flags, const void *fixed, size_t flen)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = flags, .nlmsg_seq = 7,
			      .nlmsg_pid = 4242 };

	memset(w->b, 0, sizeof(w->b));
	memcpy(w->b, &h, sizeof(h));
	memcpy(w->b + 16, fixed, flen);
	w->n = 16 + ((flen + 3) & ~(size_t)3);
}

static void finish(struct w *w)
{
	uint32_t l = (uint32_t)w->n;

	memcpy(w->b, &l, 4);
}

static const uint8_t mac0[6] = { 0x02, 0xc5, 0x00, 0x5e, 0x01, 0x02 };

static void vf_nest(struct w *w, uint32_t vf, const uint8_t *mac, uint32_t vlan, uint32_t qos,
		    uint32_t minr, uint32_t maxr, uint32_t spoof, uint32_t trust, uint32_t state,
		    bool stats)
{
	size_t info = attr(w, IFLA_VF_INFO, NULL, 0);
	struct ifla_vf_mac m = { .vf = vf };
	struct ifla_vf_vlan v = { .vf = vf, .vlan = vlan, .qos = qos };
	struct ifla_vf_rate r = { .vf = vf, .min_tx_rate = minr, .max_tx_rate = maxr };
	struct ifla_vf_tx_rate t = { .vf = vf, .rate = maxr };
	struct ifla_vf_spoofchk sp = { .vf = vf, .setting = spoof };
	struct ifla_vf_link_state ls = { .vf = vf, .link_state = state };
	struct ifla_vf_trust tr = { .vf = vf, .setting = trust };
	struct ifla_vf_vlan_info vi = { .vf = vf, .vlan = vlan, .qos = qos,
					.vlan_proto = htons(0x88a8) };
	size_t list, st;

	memcpy(m.mac, mac, 6);
	attr(w, IFLA_VF_MAC, &m, sizeof(m));
	attr(w, IFLA_VF_VLAN, &v, sizeof(v));
	attr(w, IFLA_VF_RATE, &r, sizeof(r));
	attr(w, IFLA_VF_TX_RATE, &t, sizeof(t));
	attr(w, IFLA_VF_SPOOFCHK, &sp, sizeof(sp));
	attr(w, IFLA_VF_LINK_STATE, &ls, sizeof(ls));
	attr(w, IFLA_VF_TRUST, &tr, sizeof(tr));
	list = attr(w, IFLA_VF_VLAN_LIST, NULL, 0);
	attr(w, IFLA_VF_VLAN_INFO, &vi, sizeof(vi));
	nest_end(w, list);
	if (stats) {
		uint64_t vals[] = { 11, 22, 3300, 4400, 5, 6 };

		st = attr(w, IFLA_VF_STATS, NULL, 0);
		for (uint16_t i = 0; i < 6; i++)
			attr(w, i, &vals[i], 8);
		attr(w, IFLA_VF_STATS_RX_DROPPED, &(uint64_t){ 7 }, 8);
		attr(w, IFLA_VF_STATS_TX_DROPPED, &(uint64_t){ 8 }, 8);
		nest_end(w, st);
	}
	nest_end(w, info);
}

/* RTM_NEWLINK of a PF with two VFs. */
static void newlink(struct w *w)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_type = 1, .ifi_index = 4 };
	uint32_t num = 2, mtu = 1500;
	size_t list;

	hdr(w, RTM_NEWLINK, 0, &ifi, sizeof(ifi));
	attr(w, IFLA_IFNAME, "enp94s0f0np0", 13);
	attr(w, IFLA_MTU, &mtu, 4);
	attr(w, IFLA_NUM_VF, &num, 4);
	list = attr(w, IFLA_VFINFO_LIST, NULL, 0);
	vf_nest(w, 0, mac0, 100, 3, 1000, 10000, 1, 0, IFLA_VF_LINK_STATE_ENABLE, true);
	/* (u32)-1: what rtnetlink sends when the driver leaves a setting unset */
	vf_nest(w, 1, (const uint8_t[6]){ 0 }, 0, 0, 0, 0, (uint32_t)-1, (uint32_t)-1,
		IFLA_VF_LINK_STATE_AUTO, false);
	nest_end(w, list);
	finish(w);
}

static int decode_copy(const uint8_t *b, size_t n, struct mlx_link_vfs *l, char *err, size_t el)
{
	uint8_t *c = malloc(n ? n : 1);
	int r;

	memcpy(c, b, n);
	r = mlx_rtnl_vf_decode((const struct nlmsghdr *)c, n, l, err, el);
	free(c);
	return r;
}

static void test_vf_decode(void **state)
{
	struct w w;
	struct mlx_link_vfs l;
	char err[160] = "";

	(void)state;
	newlink(&w);
	assert_int_equal(decode_copy(w.b, w.n, &l, err, sizeof(err)), 0);
	assert_string_equal(l.ifname, "enp94s0f0np0");
	assert_int_equal(l.ifindex, 4);
	assert_true(l.has_num_vf);
	assert_int_equal(l.num_vf, 2);
	assert_int_equal(l.nvf, 2);
	assert_memory_equal(l.vf[0].mac, mac0, 6);
	assert_int_equal(l.vf[0].vlan, 100);
	assert_int_equal(l.vf[0].qos, 3);
	assert_int_equal(l.vf[0].vlan_proto, 0x88a8);
	assert_int_equal(l.vf[0].min_tx_rate, 1000);
	assert_int_equal(l.vf[0].max_tx_rate, 10000);
	assert_int_equal(l.vf[0].spoofchk, 1);
	assert_int_equal(l.vf[0].trust, 0);
	assert_int_equal(l.vf[0].link_state, IFLA_VF_LINK_STATE_ENABLE);
	assert_true(l.vf[0].stats.present);
	assert_int_equal(l.vf[0].stats.rx_packets, 11);
	assert_int_equal(l.vf[0].stats.tx_bytes, 4400);
	assert_int_equal(l.vf[0].stats.multicast, 6);
	assert_int_equal(l.vf[0].stats.tx_dropped, 8);
	assert_int_equal(l.vf[1].vf, 1);
	assert_int_equal(l.vf[1].spoofchk, -1);
	assert_int_equal(l.vf[1].trust, -1);
	assert_false(l.vf[1].stats.present);
	assert_string_equal(mlx_vf_link_state_str(l.vf[1].link_state), "auto");
	mlx_link_vfs_free(&l);
}

static void test_vf_decode_truncated(void **state)
{
	struct w w;
	struct mlx_link_vfs l;
	char err[160];

	(void)state;
	newlink(&w);
	/* Cut short with the header's length unchanged: refused. */
	for (size_t n = 0; n < w.n; n++) {
		assert_int_equal(decode_copy(w.b, n, &l, err, sizeof(err)), -EBADMSG);
		assert_null(l.vf);
	}
	/* Cut short with a consistent header: the attribute walk must notice. */
	for (size_t n = 16 + 16; n < w.n; n++) {
		struct w c = w;
		uint32_t len = (uint32_t)n;
		int r;

		memcpy(c.b, &len, 4);
		r = decode_copy(c.b, n, &l, err, sizeof(err));
		if (r == 0)
			mlx_link_vfs_free(&l);
		else
			assert_int_equal(r, -EBADMSG);
	}
}

static void test_vf_short_struct(void **state)
{
	struct ifinfomsg ifi = { .ifi_index = 4 };
	struct w w;
	struct mlx_link_vfs l;
	char err[160] = "";
	size_t list, info;

	(void)state;
	hdr(&w, RTM_NEWLINK, 0, &ifi, sizeof(ifi));
	list = attr(&w, IFLA_VFINFO_LIST, NULL, 0);
	info = attr(&w, IFLA_VF_INFO, NULL, 0);
	attr(&w, IFLA_VF_MAC, "\0\0\0\0\x02\x00", 6);   /* 6 of 36 bytes */
	nest_end(&w, info);
	nest_end(&w, list);
	finish(&w);
	assert_int_equal(decode_copy(w.b, w.n, &l, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "IFLA_VF_MAC"));
	/* Not an RTM_NEWLINK at all. */
	hdr(&w, RTM_NEWADDR, 0, &ifi, sizeof(ifi));
	finish(&w);
	assert_int_equal(decode_copy(w.b, w.n, &l, err, sizeof(err)), -EBADMSG);
}

static void test_getlink_request(void **state)
{
	uint8_t buf[128];
	struct nlmsghdr h;
	struct ifinfomsg ifi;
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	bool mask = false;
	uint32_t v;
	int n;

	(void)state;
	n = mlx_rtnl_getlink_vf_build(buf, sizeof(buf), 4, "enp94s0f0np0");
	assert_true(n > 0);
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.nlmsg_len, n);
	assert_int_equal(h.nlmsg_type, RTM_GETLINK);
	assert_int_equal(h.nlmsg_flags, NLM_F_REQUEST);
	memcpy(&ifi, buf + 16, sizeof(ifi));
	assert_int_equal(ifi.ifi_index, 4);
	assert_int_equal(mlx_nlmsg_attrs((struct nlmsghdr *)buf, (size_t)n, sizeof(ifi), &attrs,
					 &alen), 0);
	while (mlx_nla_next(attrs, alen, &off, &a) == 1)
		if (a.type == IFLA_EXT_MASK) {
			assert_int_equal(mlx_nla_u32(&a, &v), 0);
			assert_int_equal(v, RTEXT_FILTER_VF);
			mask = true;
		}
	assert_true(mask);
	/* By name when the index is unknown; too small a buffer fails. */
	assert_true(mlx_rtnl_getlink_vf_build(buf, sizeof(buf), -1, "veth0") > n - 4);
	assert_int_equal(mlx_rtnl_getlink_vf_build(buf, 20, 4, NULL), -EMSGSIZE);
}

static void test_setlink_request(void **state)
{
	uint8_t buf[256];
	struct mlx_vf_set s = { .attr = MLX_VF_SET_VLAN, .vf = 3, .vlan = 42, .qos = 5 };
	const uint8_t *attrs;
	size_t alen, off = 0, o2 = 0, o3 = 0;
	struct mlx_nla list, info, a;
	struct ifla_vf_vlan v;
	struct nlmsghdr h;
	int n;

	(void)state;
	n = mlx_rtnl_setlink_vf_build(buf, sizeof(buf), 4, &s);
	assert_true(n > 0);
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.nlmsg_type, RTM_SETLINK);
	assert_true(h.nlmsg_flags & NLM_F_ACK);
	assert_int_equal(mlx_nlmsg_attrs((struct nlmsghdr *)buf, (size_t)n,
					 sizeof(struct ifinfomsg), &attrs, &alen), 0);
	assert_int_equal(mlx_nla_next(attrs, alen, &off, &list), 1);
	assert_int_equal(list.type, IFLA_VFINFO_LIST);
	assert_int_equal(mlx_nla_next(list.data, list.len, &o2, &info), 1);
	assert_int_equal(info.type, IFLA_VF_INFO);
	assert_int_equal(mlx_nla_next(info.data, info.len, &o3, &a), 1);
	assert_int_equal(a.type, IFLA_VF_VLAN);
	assert_int_equal(a.len, sizeof(v));
	memcpy(&v, a.data, sizeof(v));
	assert_int_equal(v.vf, 3);
	assert_int_equal(v.vlan, 42);
	assert_int_equal(v.qos, 5);
}

static void test_encode_roundtrip(void **state)
{
	struct w w;
	struct mlx_link_vfs l, l2;
	struct mlx_vf_set s = { .attr = MLX_VF_SET_TRUST, .vf = 1, .on = true };
	uint8_t out[8192];
	char err[160] = "";
	int n;

	(void)state;
	newlink(&w);
	assert_int_equal(decode_copy(w.b, w.n, &l, err, sizeof(err)), 0);
	mlx_vf_apply(&l.vf[1], &s);
	n = mlx_rtnl_vf_encode((const struct nlmsghdr *)w.b, w.n, &l, out, sizeof(out));
	assert_true(n > 0);
	assert_int_equal(decode_copy(out, (size_t)n, &l2, err, sizeof(err)), 0);
	assert_string_equal(l2.ifname, "enp94s0f0np0");
	assert_int_equal(l2.nvf, 2);
	assert_int_equal(l2.vf[1].trust, 1);
	assert_int_equal(l2.vf[0].vlan, 100);
	assert_int_equal(l2.vf[0].vlan_proto, 0x88a8);
	assert_int_equal(l2.vf[0].stats.tx_dropped, 8);
	mlx_link_vfs_free(&l);
	mlx_link_vfs_free(&l2);
}

static void test_parse_mac(void **state)
{
	uint8_t m[6];

	(void)state;
	assert_int_equal(mlx_parse_mac("02:00:00:aa:BB:0f", m), 0);
	assert_int_equal(m[4], 0xbb);
	assert_int_equal(mlx_parse_mac("02:00:00:aa:bb", m), -EINVAL);
	assert_int_equal(mlx_parse_mac("02:00:00:aa:bb:0f:11", m), -EINVAL);
	assert_int_equal(mlx_parse_mac("02-00-00-aa-bb-0f", m), -EINVAL);
	assert_int_equal(mlx_parse_mac("0g:00:00:aa:bb:0f", m), -EINVAL);
}

/* The one MAC formatter (by hand, not snprintf): lower-case hex, and cut
 * like snprintf in a short buffer. */
static void test_fmt_mac(void **state)
{
	const uint8_t m[6] = { 0x02, 0xc5, 0x00, 0x5e, 0xAB, 0xff };
	char buf[18], small[8];

	(void)state;
	mlx_fmt_mac(m, buf, sizeof(buf));
	assert_string_equal(buf, "02:c5:00:5e:ab:ff");
	mlx_fmt_mac(m, small, sizeof(small));
	assert_string_equal(small, "02:c5:0");
}

/* ---- devlink ---- */

static void version(struct w *w, uint16_t kind, const char *name, const char *value)
{
	size_t at = attr(w, kind, NULL, 0);

	attr(w, DEVLINK_ATTR_INFO_VERSION_NAME, name, strlen(name) + 1);
	attr(w, DEVLINK_ATTR_INFO_VERSION_VALUE, value, strlen(value) + 1);
	nest_end(w, at);
}

/* The first PF of FIX: devlink/cx7-devlink-dev-info-with-serials.txt. */
static void cx7_info(struct w *w, const char *stored)
{
	struct genlmsghdr g = { .cmd = DEVLINK_CMD_INFO_GET, .version = 1 };

	hdr(w, 0x14, 0, &g, sizeof(g));
	attr(w, DEVLINK_ATTR_BUS_NAME, "pci", 4);
	attr(w, DEVLINK_ATTR_DEV_NAME, "0000:08:00.0", 13);
	attr(w, DEVLINK_ATTR_INFO_DRIVER_NAME, "mlx5_core", 10);
	attr(w, DEVLINK_ATTR_INFO_SERIAL_NUMBER, "e4397f872caeed218000846daa7d2f49", 33);
	attr(w, DEVLINK_ATTR_INFO_BOARD_SERIAL_NUMBER, "MT2314XZ00YA", 13);
	version(w, DEVLINK_ATTR_INFO_VERSION_FIXED, "fw.psid", "MT_0000000894");
	version(w, DEVLINK_ATTR_INFO_VERSION_RUNNING, "fw.version", "28.41.1000");
	version(w, DEVLINK_ATTR_INFO_VERSION_RUNNING, "fw", "28.41.1000");
	version(w, DEVLINK_ATTR_INFO_VERSION_STORED, "fw.version", stored);
	version(w, DEVLINK_ATTR_INFO_VERSION_STORED, "fw", stored);
	finish(w);
}

static void test_devlink_info_cx7(void **state)
{
	struct w w;
	struct mlx_devlink_info d;
	char err[160] = "";
	const char *fx = getenv("FIXTURES");

	(void)state;
	cx7_info(&w, "28.41.1000");
	assert_int_equal(mlx_devlink_info_decode((struct nlmsghdr *)w.b, w.n, &d, err, sizeof(err)),
			 0);
	assert_string_equal(d.bus, "pci");
	assert_string_equal(d.dev, "0000:08:00.0");
	assert_string_equal(d.driver, "mlx5_core");
	assert_string_equal(d.serial, "e4397f872caeed218000846daa7d2f49");
	assert_string_equal(d.board_serial, "MT2314XZ00YA");
	assert_int_equal(d.nfixed, 1);
	assert_int_equal(d.nrunning, 2);
	assert_int_equal(d.nstored, 2);
	assert_string_equal(mlx_devlink_version(d.fixed, d.nfixed, "fw.psid"), "MT_0000000894");
	assert_string_equal(mlx_devlink_version(d.running, d.nrunning, "fw"), "28.41.1000");
	assert_null(mlx_devlink_version(d.running, d.nrunning, "fw.undi"));

	/* The literals above are the capture's: check them against the file. */
	if (fx && *fx) {
		char path[1024], *text;
		FILE *f;
		long n;

		snprintf(path, sizeof(path), "%s/devlink/cx7-devlink-dev-info-with-serials.txt", fx);
		f = fopen(path, "r");
		if (!f) {
			fprintf(stderr, "# %s absent: skipping the comparison\n", path);
			return;
		}
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		text = calloc(1, (size_t)n + 1);
		assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
		fclose(f);
		assert_non_null(strstr(text, "pci/0000:08:00.0:\n  driver mlx5_core\n"));
		assert_non_null(strstr(text, "serial_number e4397f872caeed218000846daa7d2f49"));
		assert_non_null(strstr(text, "board.serial_number MT2314XZ00YA"));
		assert_non_null(strstr(text, "fw.psid MT_0000000894"));
		assert_non_null(strstr(text, "fw.version 28.41.1000"));
		free(text);
	}
}

static void test_devlink_info_truncated(void **state)
{
	struct w w;
	struct mlx_devlink_info d;
	char err[160];

	(void)state;
	cx7_info(&w, "28.41.1000");
	for (size_t n = 0; n < w.n; n++) {
		uint8_t *c = malloc(n ? n : 1);

		memcpy(c, w.b, n);
		assert_int_equal(mlx_devlink_info_decode((struct nlmsghdr *)c, n, &d, err,
							 sizeof(err)), -EBADMSG);
		free(c);
	}
}

static void test_devlink_version_without_name(void **state)
{
	struct genlmsghdr g = { .cmd = DEVLINK_CMD_INFO_GET, .version = 1 };
	struct w w;
	struct mlx_devlink_info d;
	char err[160] = "";
	size_t at;

	(void)state;
	hdr(&w, 0x14, 0, &g, sizeof(g));
	at = attr(&w, DEVLINK_ATTR_INFO_VERSION_RUNNING, NULL, 0);
	attr(&w, DEVLINK_ATTR_INFO_VERSION_VALUE, "1.2.3", 6);
	nest_end(&w, at);
	finish(&w);
	assert_int_equal(mlx_devlink_info_decode((struct nlmsghdr *)w.b, w.n, &d, err, sizeof(err)),
			 -EBADMSG);
	assert_non_null(strstr(err, "without a name"));
	/* Another command's reply is not an info reply. */
	g.cmd = DEVLINK_CMD_ESWITCH_GET;
	hdr(&w, 0x14, 0, &g, sizeof(g));
	finish(&w);
	assert_int_equal(mlx_devlink_info_decode((struct nlmsghdr *)w.b, w.n, &d, err, sizeof(err)),
			 -EBADMSG);
}

static void test_devlink_eswitch(void **state)
{
	struct genlmsghdr g = { .cmd = DEVLINK_CMD_ESWITCH_GET, .version = 1 };
	struct mlx_eswitch e;
	uint8_t req[128];
	struct w w;
	uint16_t mode = DEVLINK_ESWITCH_MODE_SWITCHDEV;
	int n;

	(void)state;
	hdr(&w, 0x14, 0, &g, sizeof(g));
	attr(&w, DEVLINK_ATTR_BUS_NAME, "pci", 4);
	attr(&w, DEVLINK_ATTR_DEV_NAME, "0000:08:00.0", 13);
	attr(&w, DEVLINK_ATTR_ESWITCH_MODE, &mode, 2);
	attr(&w, DEVLINK_ATTR_ESWITCH_ENCAP_MODE, "\x01", 1);
	finish(&w);
	assert_int_equal(mlx_devlink_eswitch_decode((struct nlmsghdr *)w.b, w.n, &e), 0);
	assert_int_equal(e.mode, DEVLINK_ESWITCH_MODE_SWITCHDEV);
	assert_int_equal(e.encap_mode, 1);
	assert_int_equal(e.inline_mode, -1);
	assert_string_equal(mlx_eswitch_mode_str(e.mode), "switchdev");

	n = mlx_devlink_build(req, sizeof(req), DEVLINK_CMD_ESWITCH_SET, "pci", "0000:08:00.0", 0);
	assert_true(n > 0);
	assert_int_equal(req[16], DEVLINK_CMD_ESWITCH_SET);
	assert_int_equal(req[17], DEVLINK_GENL_VERSION);
	assert_true(((struct nlmsghdr *)req)->nlmsg_flags & NLM_F_ACK);
}

/* ---- the reply walker (the same code live and offline) ---- */

static int count_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	(void)h;
	(void)len;
	(*(int *)arg)++;
	return 0;
}

static void test_replay_stream(void **state)
{
	struct mlx_ctx *ctx = NULL;
	uint8_t stream[16384];
	size_t n = 0;
	struct w w;
	int count = 0;
	struct nlmsghdr done = { .nlmsg_len = 20, .nlmsg_type = NLMSG_DONE,
				 .nlmsg_flags = NLM_F_MULTI };

	(void)state;
	assert_int_equal(mlx_ctx_new("/", &ctx, NULL), 0);
	/* A dump: two multi-part messages, then NLMSG_DONE (carrying 0). */
	for (int i = 0; i < 2; i++) {
		newlink(&w);
		((struct nlmsghdr *)w.b)->nlmsg_flags = NLM_F_MULTI;
		memcpy(stream + n, w.b, w.n);
		n += w.n;
	}
	memcpy(stream + n, &done, 16);
	memset(stream + n + 16, 0, 4);
	n += 20;
	assert_int_equal(mlx_nl_replay(ctx, stream, n, count_cb, &count), 0);
	assert_int_equal(count, 2);

	/* An error with the kernel's extended ack text (NLM_F_CAPPED: the
	 * request header only, then NLMSGERR_ATTR_MSG). */
	{
		struct nlmsgerr e = { .error = -EOPNOTSUPP };
		struct nlmsghdr h = { .nlmsg_type = NLMSG_ERROR,
				      .nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS };

		memset(w.b, 0, sizeof(w.b));
		memcpy(w.b + 16, &e, sizeof(e));
		w.n = 16 + sizeof(e);
		attr(&w, NLMSGERR_ATTR_MSG, "Port function not supported", 28);
		h.nlmsg_len = (uint32_t)w.n;
		memcpy(w.b, &h, sizeof(h));
		count = 0;
		assert_int_equal(mlx_nl_replay(ctx, w.b, w.n, count_cb, &count), -EOPNOTSUPP);
		assert_int_equal(count, 0);
		assert_string_equal(mlx_nl_extack(ctx), "Port function not supported");
	}
	/* A message longer than the stream: refused, not read. */
	newlink(&w);
	assert_int_equal(mlx_nl_replay(ctx, w.b, w.n - 8, count_cb, &count), -EBADMSG);
	mlx_ctx_free(ctx);
}

/* Every ethtool request carries the header nest (attribute 1), a dump an
 * empty one: Debian 12's 6.1 refuses a dump without it with EINVAL
 * ("request header missing"), which emptied params and state there. */
static void eth_req_header(const uint8_t *buf, int n, uint16_t nlflags, uint8_t cmd,
			   const char *ifname, uint32_t hflags)
{
	struct nlmsghdr h;
	struct genlmsghdr g;
	const uint8_t *attrs;
	size_t alen, off = 0, o2 = 0;
	struct mlx_nla a, f;
	char name[32] = "";
	uint32_t flags = 0;
	int nattrs = 0;

	assert_true(n > 0);
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.nlmsg_len, n);
	assert_int_equal(h.nlmsg_flags, NLM_F_REQUEST | nlflags);
	memcpy(&g, buf + NLMSG_HDRLEN, sizeof(g));
	assert_int_equal(g.cmd, cmd);
	assert_int_equal(g.version, ETHTOOL_GENL_VERSION);
	assert_int_equal(mlx_nlmsg_attrs((struct nlmsghdr *)buf, (size_t)n, sizeof(g), &attrs, &alen), 0);
	assert_int_equal(mlx_nla_next(attrs, alen, &off, &a), 1);
	assert_int_equal(a.type, ETHTOOL_A_STRSET_HEADER);
	assert_true((attrs[2] | attrs[3] << 8) & NLA_F_NESTED);
	while (mlx_nla_next(a.data, a.len, &o2, &f) == 1) {
		nattrs++;
		if (f.type == ETHTOOL_A_HEADER_DEV_NAME)
			mlx_nla_str(&f, name, sizeof(name));
		else if (f.type == ETHTOOL_A_HEADER_FLAGS)
			assert_int_equal(mlx_nla_u32(&f, &flags), 0);
		else
			fail_msg("unexpected header attribute %u", f.type);
	}
	assert_string_equal(name, ifname ? ifname : "");
	assert_int_equal(flags, hflags);
	assert_int_equal(nattrs, !!ifname + !!hflags);
}

static void test_ethtool_request_header(void **state)
{
	uint8_t buf[128];
	struct mlx_nlbuf b;

	(void)state;
	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_ethtool_req_start(&b, ETHTOOL_MSG_CHANNELS_GET, NLM_F_DUMP, NULL, 0);
	eth_req_header(buf, mlx_nlb_finish(&b), NLM_F_DUMP, ETHTOOL_MSG_CHANNELS_GET, NULL, 0);
	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_ethtool_req_start(&b, ETHTOOL_MSG_PAUSE_GET, 0, "va", ETHTOOL_FLAG_STATS);
	eth_req_header(buf, mlx_nlb_finish(&b), 0, ETHTOOL_MSG_PAUSE_GET, "va", ETHTOOL_FLAG_STATS);
	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_ethtool_req_start(&b, ETHTOOL_MSG_RINGS_SET, NLM_F_ACK, "enp8s0f0", 0);
	eth_req_header(buf, mlx_nlb_finish(&b), NLM_F_ACK, ETHTOOL_MSG_RINGS_SET, "enp8s0f0", 0);
	/* too small a buffer: the builder marks the overflow */
	mlx_nlb_init(&b, buf, 24);
	mlx_ethtool_req_start(&b, ETHTOOL_MSG_RINGS_SET, NLM_F_ACK, "enp8s0f0", 0);
	assert_int_equal(mlx_nlb_finish(&b), -EMSGSIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vf_decode),
		cmocka_unit_test(test_vf_decode_truncated),
		cmocka_unit_test(test_vf_short_struct),
		cmocka_unit_test(test_getlink_request),
		cmocka_unit_test(test_setlink_request),
		cmocka_unit_test(test_encode_roundtrip),
		cmocka_unit_test(test_parse_mac),
		cmocka_unit_test(test_fmt_mac),
		cmocka_unit_test(test_devlink_info_cx7),
		cmocka_unit_test(test_devlink_info_truncated),
		cmocka_unit_test(test_devlink_version_without_name),
		cmocka_unit_test(test_devlink_eswitch),
		cmocka_unit_test(test_replay_stream),
		cmocka_unit_test(test_ethtool_request_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
