/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the decoders of issue 27's views (lib/netview.h): replies
 * laid out byte by byte here from the uapi numbers in the order the
 * kernel fills them (net/ethtool/tunnels.c, net/ethtool/rss.c,
 * net/core/rtnetlink.c), the procfs and sysfs texts in the kernel's own
 * formats, and the real IPoIB address of
 * FIX ip-link/mlx5-ipoib-ip-link-show-vf-node-port-guid-2019.txt (read in
 * place); then every truncation and garbage case.
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
#include <arpa/inet.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <cmocka.h>

#include "mlx.h"
#include "netview.h"
#include "netview-private.h"
#include "nl-writer.h"

static void genl_msg(struct w *w, uint8_t cmd)
{
	struct nlmsghdr h = { .nlmsg_type = 0x15, .nlmsg_seq = 1, .nlmsg_pid = 4242 };
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };

	memset(w->b, 0, sizeof(w->b));
	memcpy(w->b, &h, sizeof(h));
	memcpy(w->b + 16, &g, sizeof(g));
	w->n = 20;
}

static void rt_msg(struct w *w, uint16_t type, const void *fixed, size_t len)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_seq = 1, .nlmsg_pid = 4242 };

	memset(w->b, 0, sizeof(w->b));
	memcpy(w->b, &h, sizeof(h));
	memcpy(w->b + 16, fixed, len);
	w->n = NLMSG_ALIGN(16 + len);
}

static const struct nlmsghdr *done(struct w *w)
{
	uint32_t l = (uint32_t)w->n;

	memcpy(w->b, &l, 4);
	return (const struct nlmsghdr *)w->b;
}

static void u32a(struct w *w, uint16_t t, uint32_t v) { attr(w, t, &v, 4); }
static void stra(struct w *w, uint16_t t, const char *s) { attr(w, t, s, strlen(s) + 1); }

static void header(struct w *w, uint16_t t, const char *ifname)
{
	size_t h = attr(w, NLA_F_NESTED | t, NULL, 0);

	u32a(w, ETHTOOL_A_HEADER_DEV_INDEX, 4);
	stra(w, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	nest_end(w, h);
}

/* A tunnel table as tunnels.c writes it: SIZE, TYPES (a verbose NOMASK
 * bitset naming the set types), ENTRY {PORT be16, TYPE u32}... */
static void table(struct w *w, uint32_t size, int type, const uint16_t *ports, size_t n)
{
	size_t t = attr(w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_UDP_TABLE, NULL, 0), bs, bits, bit;

	u32a(w, ETHTOOL_A_TUNNEL_UDP_TABLE_SIZE, size);
	bs = attr(w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_UDP_TABLE_TYPES, NULL, 0);
	attr(w, ETHTOOL_A_BITSET_NOMASK, NULL, 0);
	u32a(w, ETHTOOL_A_BITSET_SIZE, 3);
	bits = attr(w, NLA_F_NESTED | ETHTOOL_A_BITSET_BITS, NULL, 0);
	if (type >= 0) {
		bit = attr(w, NLA_F_NESTED | ETHTOOL_A_BITSET_BITS_BIT, NULL, 0);
		u32a(w, ETHTOOL_A_BITSET_BIT_INDEX, (uint32_t)type);
		stra(w, ETHTOOL_A_BITSET_BIT_NAME, mlx_tunnel_type_name(type));
		nest_end(w, bit);
	}
	nest_end(w, bits);
	nest_end(w, bs);
	for (size_t i = 0; i < n; i++) {
		size_t e = attr(w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_UDP_TABLE_ENTRY, NULL, 0);
		uint16_t be = htons(ports[i]);

		attr(w, ETHTOOL_A_TUNNEL_UDP_ENTRY_PORT, &be, 2);
		u32a(w, ETHTOOL_A_TUNNEL_UDP_ENTRY_TYPE, 0);
		nest_end(w, e);
	}
	nest_end(w, t);
}

/* mlx5's reply: a VXLAN table of 3 with 4790 in it, the static IANA one. */
static void mlx5_tunnel_reply(struct w *w)
{
	static const uint16_t p1[] = { 4790 }, p2[] = { 4789 };
	size_t ports;

	genl_msg(w, ETHTOOL_MSG_TUNNEL_INFO_GET_REPLY);
	header(w, ETHTOOL_A_TUNNEL_INFO_HEADER, "enp59s0f0np0");
	ports = attr(w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_INFO_UDP_PORTS, NULL, 0);
	table(w, 3, MLX_TUNNEL_VXLAN, p1, 1);
	table(w, 1, -1, p2, 1);
	nest_end(w, ports);
}

static void test_tunnel_info(void **state)
{
	struct mlx_tunnel_info *ti = malloc(sizeof(*ti));
	struct w w;

	(void)state;
	mlx5_tunnel_reply(&w);
	assert_int_equal(mlx_tunnel_info_decode(done(&w), w.n, ti), 0);
	assert_string_equal(ti->ifname, "enp59s0f0np0");
	assert_int_equal(ti->ntables, 2);
	assert_int_equal(ti->t[0].size, 3);
	assert_int_equal(ti->t[0].types, 1u << MLX_TUNNEL_VXLAN);
	assert_int_equal(ti->t[0].n, 1);
	assert_int_equal(ti->t[0].e[0].port, 4790);
	assert_int_equal(ti->t[0].e[0].type, MLX_TUNNEL_VXLAN);
	assert_int_equal(ti->t[1].types, 0);
	assert_int_equal(ti->t[1].e[0].port, 4789);
	assert_string_equal(mlx_tunnel_type_name(MLX_TUNNEL_VXLAN_GPE), "vxlan-gpe");
	assert_null(mlx_tunnel_type_name(7));
	/* every cut of the message: no crash, an error or a partial decode */
	for (size_t cut = 0; cut < w.n; cut++)
		(void)mlx_tunnel_info_decode((const struct nlmsghdr *)w.b, cut, ti);
	/* another command's reply is not ours */
	genl_msg(&w, ETHTOOL_MSG_FEC_GET_REPLY);
	assert_int_equal(mlx_tunnel_info_decode(done(&w), w.n, ti), -ENOMSG);
	free(ti);
}

static void test_tunnel_garbage(void **state)
{
	struct mlx_tunnel_info *ti = malloc(sizeof(*ti));
	struct w w;
	size_t ports, t, e;
	uint8_t one = 1;

	(void)state;
	/* an entry without a port */
	genl_msg(&w, ETHTOOL_MSG_TUNNEL_INFO_GET_REPLY);
	ports = attr(&w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_INFO_UDP_PORTS, NULL, 0);
	t = attr(&w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_UDP_TABLE, NULL, 0);
	e = attr(&w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_UDP_TABLE_ENTRY, NULL, 0);
	u32a(&w, ETHTOOL_A_TUNNEL_UDP_ENTRY_TYPE, 0);
	nest_end(&w, e);
	nest_end(&w, t);
	nest_end(&w, ports);
	assert_int_equal(mlx_tunnel_info_decode(done(&w), w.n, ti), -EBADMSG);
	/* a one-byte port */
	genl_msg(&w, ETHTOOL_MSG_TUNNEL_INFO_GET_REPLY);
	ports = attr(&w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_INFO_UDP_PORTS, NULL, 0);
	t = attr(&w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_UDP_TABLE, NULL, 0);
	e = attr(&w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_UDP_TABLE_ENTRY, NULL, 0);
	attr(&w, ETHTOOL_A_TUNNEL_UDP_ENTRY_PORT, &one, 1);
	nest_end(&w, e);
	nest_end(&w, t);
	nest_end(&w, ports);
	assert_int_equal(mlx_tunnel_info_decode(done(&w), w.n, ti), -EBADMSG);
	/* more entries than kept: bounded, the size says how many */
	genl_msg(&w, ETHTOOL_MSG_TUNNEL_INFO_GET_REPLY);
	ports = attr(&w, NLA_F_NESTED | ETHTOOL_A_TUNNEL_INFO_UDP_PORTS, NULL, 0);
	{
		uint16_t many[MLX_TUNNEL_MAX_ENTRIES + 10];

		for (size_t i = 0; i < sizeof(many) / sizeof(many[0]); i++)
			many[i] = (uint16_t)(10000 + i);
		table(&w, MLX_TUNNEL_MAX_ENTRIES + 10, MLX_TUNNEL_GENEVE, many,
		      sizeof(many) / sizeof(many[0]));
	}
	nest_end(&w, ports);
	assert_int_equal(mlx_tunnel_info_decode(done(&w), w.n, ti), 0);
	assert_int_equal(ti->t[0].n, MLX_TUNNEL_MAX_ENTRIES);
	assert_int_equal(ti->t[0].size, MLX_TUNNEL_MAX_ENTRIES + 10);
	assert_int_equal(ti->t[0].types, 1u << MLX_TUNNEL_GENEVE);
	free(ti);
}

static void test_tunnel_request(void **state)
{
	uint8_t buf[128];
	int len = mlx_tunnel_info_build(buf, sizeof(buf), "eth0");
	const struct genlmsghdr *g = (const void *)(buf + 16);

	(void)state;
	assert_true(len > 20);
	assert_int_equal(g->cmd, ETHTOOL_MSG_TUNNEL_INFO_GET);
	/* the header nest with NLA_F_NESTED (ethtool validates strictly) */
	assert_int_equal(buf[22] | buf[23] << 8, NLA_F_NESTED | ETHTOOL_A_TUNNEL_INFO_HEADER);
	assert_int_equal(mlx_tunnel_info_build(buf, 24, "eth0"), -EMSGSIZE);
	len = mlx_rss_build(buf, sizeof(buf), "eth0");
	assert_true(len > 20);
	assert_int_equal(((const struct genlmsghdr *)(buf + 16))->cmd, 38);
}

static void rss_reply(struct w *w, size_t nindir, size_t keylen, bool flows, bool u64)
{
	uint32_t indir[512];
	uint8_t key[200];

	for (size_t i = 0; i < nindir; i++)
		indir[i] = (uint32_t)(i % 6);
	for (size_t i = 0; i < keylen; i++)
		key[i] = (uint8_t)(0x6d + i);
	genl_msg(w, MLX_ETHTOOL_MSG_RSS_GET_REPLY);
	header(w, MLX_ETHTOOL_A_RSS_HEADER, "eth0");
	u32a(w, MLX_ETHTOOL_A_RSS_HFUNC, 1);
	attr(w, MLX_ETHTOOL_A_RSS_INDIR, indir, nindir * 4);
	attr(w, MLX_ETHTOOL_A_RSS_HKEY, key, keylen);
	if (flows) {
		size_t f = attr(w, NLA_F_NESTED | MLX_ETHTOOL_A_RSS_FLOW_HASH, NULL, 0);
		uint64_t v = RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 | RXH_L4_B_2_3;

		if (u64)
			attr(w, MLX_ETHTOOL_A_FLOW_TCP4, &v, 8);
		else
			u32a(w, MLX_ETHTOOL_A_FLOW_TCP4, (uint32_t)v);
		u32a(w, MLX_ETHTOOL_A_FLOW_IP6, RXH_IP_SRC | RXH_IP_DST);
		nest_end(w, f);
	}
}

static void test_rss(void **state)
{
	struct mlx_rss *r = malloc(sizeof(*r));
	const char *names[12];
	size_t n;
	struct w w;

	(void)state;
	rss_reply(&w, 256, 40, true, false);
	assert_int_equal(mlx_rss_decode(done(&w), w.n, r), 0);
	assert_int_equal(r->indir_size, 256);
	assert_int_equal(r->indir[7], 1);
	assert_int_equal(r->key_len, 40);
	assert_int_equal(r->key[1], 0x6e);
	assert_string_equal(mlx_rss_hfunc_name(r->hfunc), "toeplitz");
	assert_true(r->have_flows);
	assert_int_equal(r->flow[0], 0xf0);       /* tcp4 */
	assert_int_equal(r->flow[5], 0x30);       /* ip6 */
	assert_int_equal(r->flow[1], -1);         /* udp4: not said */
	n = mlx_rss_fields((uint64_t)r->flow[0], names, 12);
	assert_int_equal(n, 4);
	assert_string_equal(names[0], "ip-src");
	assert_string_equal(names[3], "l4-bytes-2-3");
	/* NLA_UINT: 8 bytes too */
	rss_reply(&w, 128, 40, true, true);
	assert_int_equal(mlx_rss_decode(done(&w), w.n, r), 0);
	assert_int_equal(r->flow[0], 0xf0);
	/* no flow hash: a kernel before 6.17 */
	rss_reply(&w, 128, 40, false, false);
	assert_int_equal(mlx_rss_decode(done(&w), w.n, r), 0);
	assert_false(r->have_flows);
	for (size_t cut = 0; cut < w.n; cut++)
		(void)mlx_rss_decode((const struct nlmsghdr *)w.b, cut, r);
	/* a key longer than any device's, an indirection table of odd bytes */
	rss_reply(&w, 16, MLX_RSS_MAX_KEY + 1, false, false);
	assert_int_equal(mlx_rss_decode(done(&w), w.n, r), -EBADMSG);
	genl_msg(&w, MLX_ETHTOOL_MSG_RSS_GET_REPLY);
	attr(&w, MLX_ETHTOOL_A_RSS_INDIR, "abcdef", 6);
	assert_int_equal(mlx_rss_decode(done(&w), w.n, r), -EBADMSG);
	assert_null(mlx_rss_hfunc_name(3));
	free(r);
}

static void test_link_info(void **state)
{
	struct ifinfomsg ifi = { .ifi_index = 7, .ifi_flags = IFF_UP | IFF_PROMISC, .ifi_type = 32 };
	struct mlx_link_info li;
	uint8_t addr[20] = { 0, 0, 0x0a, 0x2d, 0xfe, 0x80 };
	uint16_t pkey = 0x8001, mode = 1, port = htons(4790);
	struct w w;
	size_t n, d;

	(void)state;
	rt_msg(&w, RTM_NEWLINK, &ifi, sizeof(ifi));
	stra(&w, IFLA_IFNAME, "ib0.8001");
	u32a(&w, IFLA_PROMISCUITY, 2);
	u32a(&w, IFLA_ALLMULTI, 1);
	u32a(&w, IFLA_NUM_TX_QUEUES, 16);
	u32a(&w, IFLA_LINK, 6);
	attr(&w, IFLA_ADDRESS, addr, sizeof(addr));
	n = attr(&w, IFLA_LINKINFO, NULL, 0);
	stra(&w, IFLA_INFO_KIND, "ipoib");
	d = attr(&w, IFLA_INFO_DATA, NULL, 0);
	attr(&w, IFLA_IPOIB_PKEY, &pkey, 2);
	attr(&w, IFLA_IPOIB_MODE, &mode, 2);
	nest_end(&w, d);
	nest_end(&w, n);
	assert_int_equal(mlx_link_info_decode(done(&w), w.n, &li), 0);
	assert_string_equal(li.ifname, "ib0.8001");
	assert_int_equal(li.promiscuity, 2);
	assert_int_equal(li.allmulti, 1);
	assert_int_equal(li.num_tx_queues, 16);
	assert_int_equal(li.num_rx_queues, -1);
	assert_int_equal(li.link, 6);
	assert_int_equal(li.addr_len, 20);
	assert_string_equal(li.kind, "ipoib");
	assert_int_equal(li.pkey, 0x8001);
	assert_int_equal(li.mode, 1);
	assert_int_equal(li.umcast, -1);
	assert_true(li.flags & IFF_PROMISC);
	for (size_t cut = 0; cut < w.n; cut++)
		(void)mlx_link_info_decode((const struct nlmsghdr *)w.b, cut, &li);
	/* a VXLAN device: port be16 (IFLA_VXLAN_PORT), VNI, lower device */
	rt_msg(&w, RTM_NEWLINK, &ifi, sizeof(ifi));
	stra(&w, IFLA_IFNAME, "vx4790");
	n = attr(&w, IFLA_LINKINFO, NULL, 0);
	stra(&w, IFLA_INFO_KIND, "vxlan");
	d = attr(&w, IFLA_INFO_DATA, NULL, 0);
	u32a(&w, IFLA_VXLAN_ID, 4790);
	attr(&w, IFLA_VXLAN_PORT, &port, 2);
	u32a(&w, IFLA_VXLAN_LINK, 4);
	nest_end(&w, d);
	nest_end(&w, n);
	assert_int_equal(mlx_link_info_decode(done(&w), w.n, &li), 0);
	assert_string_equal(li.vxlan.ifname, "vx4790");
	assert_int_equal(li.vxlan.port, 4790);
	assert_int_equal(li.vxlan.vni, 4790);
	assert_int_equal(li.vxlan.link, 4);
	assert_true(li.vxlan.up);
	/* a short u32, another message type */
	rt_msg(&w, RTM_NEWLINK, &ifi, sizeof(ifi));
	attr(&w, IFLA_PROMISCUITY, "ab", 2);
	assert_int_equal(mlx_link_info_decode(done(&w), w.n, &li), -EBADMSG);
	rt_msg(&w, RTM_NEWADDR, &ifi, sizeof(ifi));
	assert_int_equal(mlx_link_info_decode(done(&w), w.n, &li), -ENOMSG);
}

/* A VLAN as vlan_fill_info sends it: protocol be16, id, flags, the egress
 * map; MTU and operstate at the top level. */
static void test_link_info_vlan(void **state)
{
	struct ifinfomsg ifi = { .ifi_index = 104, .ifi_type = 1 };
	struct mlx_link_info li;
	uint16_t id = 100, proto = htons(0x88a8);
	struct ifla_vlan_flags fl = { 1, 0xffffffff };
	struct ifla_vlan_qos_mapping m1 = { 3, 3 }, m2 = { 5, 6 };
	uint8_t oper = 6;
	struct w w;
	size_t n, d, q;

	(void)state;
	rt_msg(&w, RTM_NEWLINK, &ifi, sizeof(ifi));
	stra(&w, IFLA_IFNAME, "vlan100");
	u32a(&w, IFLA_MTU, 9000);
	attr(&w, IFLA_OPERSTATE, &oper, 1);
	u32a(&w, IFLA_LINK, 4);
	n = attr(&w, IFLA_LINKINFO, NULL, 0);
	stra(&w, IFLA_INFO_KIND, "vlan");
	d = attr(&w, IFLA_INFO_DATA, NULL, 0);
	attr(&w, IFLA_VLAN_PROTOCOL, &proto, 2);
	attr(&w, IFLA_VLAN_ID, &id, 2);
	attr(&w, IFLA_VLAN_FLAGS, &fl, sizeof(fl));
	q = attr(&w, IFLA_VLAN_EGRESS_QOS, NULL, 0);
	attr(&w, IFLA_VLAN_QOS_MAPPING, &m1, sizeof(m1));
	attr(&w, IFLA_VLAN_QOS_MAPPING, &m2, sizeof(m2));
	nest_end(&w, q);
	nest_end(&w, d);
	nest_end(&w, n);
	assert_int_equal(mlx_link_info_decode(done(&w), w.n, &li), 0);
	assert_string_equal(li.kind, "vlan");
	assert_int_equal(li.vlan_id, 100);
	assert_int_equal(li.vlan_proto, 0x88a8);
	assert_int_equal(li.mtu, 9000);
	assert_int_equal(li.operstate, 6);
	assert_int_equal(li.link, 4);
	assert_int_equal(li.vlan_negress, 2);
	assert_int_equal(li.vlan_egress[1].from, 5);
	assert_int_equal(li.vlan_egress[1].to, 6);
	for (size_t cut = 0; cut < w.n; cut++)
		(void)mlx_link_info_decode((const struct nlmsghdr *)w.b, cut, &li);
	/* a mapping shorter than struct ifla_vlan_qos_mapping */
	rt_msg(&w, RTM_NEWLINK, &ifi, sizeof(ifi));
	n = attr(&w, IFLA_LINKINFO, NULL, 0);
	stra(&w, IFLA_INFO_KIND, "vlan");
	d = attr(&w, IFLA_INFO_DATA, NULL, 0);
	q = attr(&w, IFLA_VLAN_EGRESS_QOS, NULL, 0);
	attr(&w, IFLA_VLAN_QOS_MAPPING, &m1, 4);
	nest_end(&w, q);
	nest_end(&w, d);
	nest_end(&w, n);
	assert_int_equal(mlx_link_info_decode(done(&w), w.n, &li), -EBADMSG);
	/* a VLAN without data: id unknown, not 0 */
	rt_msg(&w, RTM_NEWLINK, &ifi, sizeof(ifi));
	n = attr(&w, IFLA_LINKINFO, NULL, 0);
	stra(&w, IFLA_INFO_KIND, "vlan");
	nest_end(&w, n);
	assert_int_equal(mlx_link_info_decode(done(&w), w.n, &li), 0);
	assert_int_equal(li.vlan_id, -1);
	assert_int_equal(li.mtu, -1);
	assert_int_equal(li.operstate, -1);
}

/* The create and delete requests, byte for byte as ip link sends them
 * (written here by the test's own writer), and parsed back. */
static void test_child_requests(void **state)
{
	struct mlx_child_req rq = { .kind = MLX_CHILD_VLAN, .parent_index = 4, .id = 200,
				    .proto = 0x88a8, .mode = -1, .negress = 1 };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWLINK,
			      .nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK };
	struct ifla_vlan_qos_mapping m = { 3, 5 };
	struct mlx_child_req back;
	uint16_t id = 200, proto = htons(0x88a8), pkey = 0x8002, mode = 1;
	uint8_t buf[512];
	char why[80];
	struct w w;
	size_t n, d, q;
	int len;

	(void)state;
	snprintf(rq.name, sizeof(rq.name), "v200");
	rq.egress[0].from = 3;
	rq.egress[0].to = 5;
	memset(w.b, 0, sizeof(w.b));
	memcpy(w.b, &h, sizeof(h));
	memcpy(w.b + 16, &ifi, sizeof(ifi));
	w.n = 32;
	u32a(&w, IFLA_LINK, 4);
	stra(&w, IFLA_IFNAME, "v200");
	n = attr(&w, IFLA_LINKINFO, NULL, 0);
	stra(&w, IFLA_INFO_KIND, "vlan");
	d = attr(&w, IFLA_INFO_DATA, NULL, 0);
	attr(&w, IFLA_VLAN_ID, &id, 2);
	attr(&w, IFLA_VLAN_PROTOCOL, &proto, 2);
	q = attr(&w, IFLA_VLAN_EGRESS_QOS, NULL, 0);
	attr(&w, IFLA_VLAN_QOS_MAPPING, &m, sizeof(m));
	nest_end(&w, q);
	nest_end(&w, d);
	nest_end(&w, n);
	done(&w);
	len = mlx_child_req_build(buf, sizeof(buf), &rq);
	assert_int_equal(len, (int)w.n);
	assert_memory_equal(buf, w.b, w.n);
	assert_int_equal(mlx_child_req_parse(buf, (size_t)len, &back, why, sizeof(why)), 0);
	assert_int_equal(back.kind, MLX_CHILD_VLAN);
	assert_false(back.del);
	assert_string_equal(back.name, "v200");
	assert_int_equal(back.parent_index, 4);
	assert_int_equal(back.id, 200);
	assert_int_equal(back.proto, 0x88a8);
	assert_int_equal(back.negress, 1);
	assert_int_equal(back.egress[0].to, 5);
	for (int cut = 0; cut < len; cut++)
		assert_int_not_equal(mlx_child_req_parse(buf, (size_t)cut, &back, why, sizeof(why)), 0);
	/* the kernel's ranges, refused before a byte is sent */
	rq.id = 0;
	assert_int_equal(mlx_child_req_build(buf, sizeof(buf), &rq), -EINVAL);
	rq.id = 4095;
	assert_int_equal(mlx_child_req_build(buf, sizeof(buf), &rq), -EINVAL);
	rq.id = 5;
	rq.proto = 0x0800;
	assert_int_equal(mlx_child_req_build(buf, sizeof(buf), &rq), -EINVAL);
	/* IPoIB: kind "ipoib", pkey and mode u16 (ipoib_policy) */
	memset(&rq, 0, sizeof(rq));
	rq.kind = MLX_CHILD_IPOIB;
	rq.parent_index = 20;
	rq.id = 0x8002;
	rq.mode = 1;
	snprintf(rq.name, sizeof(rq.name), "ib0.8002");
	memset(w.b, 0, sizeof(w.b));
	memcpy(w.b, &h, sizeof(h));
	memcpy(w.b + 16, &ifi, sizeof(ifi));
	w.n = 32;
	u32a(&w, IFLA_LINK, 20);
	stra(&w, IFLA_IFNAME, "ib0.8002");
	n = attr(&w, IFLA_LINKINFO, NULL, 0);
	stra(&w, IFLA_INFO_KIND, "ipoib");
	d = attr(&w, IFLA_INFO_DATA, NULL, 0);
	attr(&w, IFLA_IPOIB_PKEY, &pkey, 2);
	attr(&w, IFLA_IPOIB_MODE, &mode, 2);
	nest_end(&w, d);
	nest_end(&w, n);
	done(&w);
	len = mlx_child_req_build(buf, sizeof(buf), &rq);
	assert_int_equal(len, (int)w.n);
	assert_memory_equal(buf, w.b, w.n);
	assert_int_equal(mlx_child_req_parse(buf, (size_t)len, &back, why, sizeof(why)), 0);
	assert_int_equal(back.kind, MLX_CHILD_IPOIB);
	assert_int_equal(back.id, 0x8002);
	assert_int_equal(back.mode, 1);
	rq.id = 0x8000;
	assert_int_equal(mlx_child_req_build(buf, sizeof(buf), &rq), -EINVAL);
	/* made again (a put-back): its index, up, MTU and address */
	rq.id = 0x8002;
	rq.ifindex = 21;
	rq.up = true;
	rq.mtu = 65520;
	rq.addr_len = 20;
	memset(rq.addr, 0xab, 20);
	len = mlx_child_req_build(buf, sizeof(buf), &rq);
	assert_true(len > 0);
	assert_int_equal(((struct ifinfomsg *)(buf + 16))->ifi_index, 21);
	assert_int_equal(((struct ifinfomsg *)(buf + 16))->ifi_change, IFF_UP);
	assert_int_equal(mlx_child_req_parse(buf, (size_t)len, &back, why, sizeof(why)), 0);
	assert_int_equal(back.ifindex, 21);
	assert_true(back.up);
	assert_int_equal(back.mtu, 65520);
	assert_int_equal(back.addr_len, 20);
	assert_memory_equal(back.addr, rq.addr, 20);
	/* delete: RTM_DELLINK by name */
	rq.del = true;
	len = mlx_child_req_build(buf, sizeof(buf), &rq);
	assert_true(len > 0);
	assert_int_equal(((struct nlmsghdr *)buf)->nlmsg_type, RTM_DELLINK);
	assert_int_equal(mlx_child_req_parse(buf, (size_t)len, &back, why, sizeof(why)), 0);
	assert_true(back.del);
	assert_string_equal(back.name, "ib0.8002");
	/* not ours: a NEWLINK that changes a link (no CREATE), another kind */
	h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	h.nlmsg_len = (uint32_t)w.n;
	memcpy(w.b, &h, sizeof(h));
	assert_int_equal(mlx_child_req_parse(w.b, w.n, &back, why, sizeof(why)), -ENOENT);
}

static void test_fdb(void **state)
{
	struct ndmsg nd = { .ndm_family = AF_BRIDGE, .ndm_ifindex = 4, .ndm_state = NUD_PERMANENT,
			    .ndm_flags = NTF_SELF };
	uint8_t mc[6] = { 0x33, 0x33, 0xff, 0x5e, 0, 0 }, uc[6] = { 0x02, 0xc5, 0, 0x5e, 0xaa, 1 };
	uint8_t big[21] = { 0 };
	struct mlx_hw_addr a;
	struct w w;

	(void)state;
	rt_msg(&w, RTM_NEWNEIGH, &nd, sizeof(nd));
	attr(&w, NDA_LLADDR, mc, 6);
	assert_int_equal(mlx_fdb_decode(done(&w), w.n, 4, &a), 1);
	assert_string_equal(a.text, "33:33:ff:5e:00:00");
	assert_true(a.multicast);
	assert_int_equal(mlx_fdb_decode(done(&w), w.n, 5, &a), 0);     /* another port's */
	rt_msg(&w, RTM_NEWNEIGH, &nd, sizeof(nd));
	attr(&w, NDA_LLADDR, uc, 6);
	assert_int_equal(mlx_fdb_decode(done(&w), w.n, 4, &a), 1);
	assert_false(a.multicast);
	rt_msg(&w, RTM_NEWNEIGH, &nd, sizeof(nd));
	attr(&w, NDA_LLADDR, big, sizeof(big));
	assert_int_equal(mlx_fdb_decode(done(&w), w.n, 4, &a), -EBADMSG);
	rt_msg(&w, RTM_NEWNEIGH, &nd, sizeof(nd));
	assert_int_equal(mlx_fdb_decode(done(&w), 8, 4, &a), -EBADMSG);
}

static void test_dev_mcast(void **state)
{
	/* dev_mc_seq_show: "%-4d %-15s %-5d %-5d %*phN\n" */
	static const char text[] =
		"1    lo              1     0     01005e000001\n"
		"4    enp94s0f0np0    1     1     01005e000001\n"
		"4    enp94s0f0np0    2     0     3333ff5e0000\n"
		"20   ib0             1     1     00ffffffff12401bffff00000000000000000001\n";
	struct mlx_hw_addr *v;
	size_t n;

	(void)state;
	assert_int_equal(mlx_dev_mcast_parse(text, sizeof(text) - 1, "enp94s0f0np0", &v, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[1].text, "33:33:ff:5e:00:00");
	assert_int_equal(v[1].users, 2);
	assert_true(v[0].global);
	free(v);
	assert_int_equal(mlx_dev_mcast_parse(text, sizeof(text) - 1, "ib0", &v, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].text, "00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:00:00:00:01");
	free(v);
	assert_int_equal(mlx_dev_mcast_parse("4 eth0 1 0 01005e00000\n", 24, "eth0", &v, &n), -EBADMSG);
	assert_int_equal(mlx_dev_mcast_parse("4 eth0 1 2 01005e000001\n", 24, "eth0", &v, &n), -EBADMSG);
	assert_int_equal(mlx_dev_mcast_parse("4 eth0 1 0 01005e0000zz\n", 24, "eth0", &v, &n), -EBADMSG);
	assert_int_equal(mlx_dev_mcast_parse("", 0, "eth0", &v, &n), 0);
	assert_int_equal(n, 0);
}

static void test_cpus(void **state)
{
	struct mlx_cpuset c, d;
	char buf[64];

	(void)state;
	assert_int_equal(mlx_cpulist_parse("20-39,60-79\n", &c), 0);
	assert_int_equal(mlx_cpuset_count(&c), 40);
	assert_string_equal(mlx_cpulist_format(&c, buf, sizeof(buf)), "20-39,60-79");
	assert_int_equal(mlx_cpulist_parse("2", &d), 0);
	assert_false(mlx_cpuset_subset(&d, &c));
	assert_int_equal(mlx_cpulist_parse("25", &d), 0);
	assert_true(mlx_cpuset_subset(&d, &c));
	assert_int_equal(mlx_cpulist_parse("", &d), 0);
	assert_true(mlx_cpuset_empty(&d));
	assert_int_equal(mlx_cpulist_parse("3-1", &d), -EINVAL);
	assert_int_equal(mlx_cpulist_parse("1,,2", &d), -EINVAL);
	assert_int_equal(mlx_cpulist_parse("0-5000", &d), -ERANGE);
	assert_int_equal(mlx_cpulist_parse("a", &d), -EINVAL);
	/* the mask form of 80 CPUs: CPU 20, then CPUs 0 and 64 */
	assert_int_equal(mlx_cpumask_parse("0000,00000000,00100000\n", &c), 0);
	assert_string_equal(mlx_cpulist_format(&c, buf, sizeof(buf)), "20");
	assert_int_equal(mlx_cpumask_parse("0001,00000000,00000001", &c), 0);
	assert_string_equal(mlx_cpulist_format(&c, buf, sizeof(buf)), "0,64");
	assert_int_equal(mlx_cpumask_parse("0000,00000000,00000000", &c), 0);
	assert_true(mlx_cpuset_empty(&c));
	assert_int_equal(mlx_cpumask_parse("f", &c), 0);
	assert_string_equal(mlx_cpulist_format(&c, buf, sizeof(buf)), "0-3");
	assert_int_equal(mlx_cpumask_parse("123456789", &c), -EINVAL);
	assert_int_equal(mlx_cpumask_parse("ff,,ff", &c), -EINVAL);
	assert_int_equal(mlx_cpumask_parse("xyz", &c), -EINVAL);
	assert_int_equal(mlx_cpumask_parse("", &c), -EINVAL);
	/* a list longer than the buffer is cut with "..." */
	assert_int_equal(mlx_cpulist_parse("0,2,4,6,8,10,12,14,16,18,20,22", &c), 0);
	assert_string_equal(mlx_cpulist_format(&c, buf, 12), "0,2,4,6,...");
}

static void test_irq_names(void **state)
{
	char bdf[32];
	int idx;

	(void)state;
	assert_int_equal(mlx_irq_name_parse("mlx5_comp3@pci:0000:5e:00.0", &idx, bdf, sizeof(bdf)),
			 MLX_IRQ_COMP);
	assert_int_equal(idx, 3);
	assert_string_equal(bdf, "0000:5e:00.0");
	assert_int_equal(mlx_irq_name_parse("mlx5_async0@pci:0000:5e:00.0", &idx, NULL, 0), MLX_IRQ_ASYNC);
	assert_int_equal(idx, 0);
	assert_int_equal(mlx_irq_name_parse("mlx5_ctrl@pci:0000:08:00.0", &idx, bdf, sizeof(bdf)),
			 MLX_IRQ_CTRL);
	assert_int_equal(idx, -1);
	assert_int_equal(mlx_irq_name_parse("mlx5_compX@pci:0000:08:00.0", &idx, NULL, 0), MLX_IRQ_OTHER);
	assert_int_equal(mlx_irq_name_parse("virtio2-input.0", &idx, bdf, sizeof(bdf)), MLX_IRQ_OTHER);
	assert_string_equal(bdf, "");
	assert_string_equal(mlx_irq_kind_name(MLX_IRQ_COMP), "completion");
}

static void test_ipoib(void **state)
{
	/* ipoib_mcg_seq_show and ipoib_path_seq_show, as ipoib_fs.c prints */
	static const char mcg[] =
		"GID: ff12:401b:ffff:0:0:0:ffff:ffff\n"
		"  created: 4294937296\n"
		"  queuelen:         0\n"
		"  complete:       yes\n"
		"  send_only:       no\n"
		"\n";
	static const char path[] =
		"GID: fe80:0:0:0:ec0d:9a03:44:3701\n"
		"  complete:    yes\n"
		"  DLID:     0x0012\n"
		"  SL:            0\n"
		"  rate:      100.0 Gb/sec\n"
		"\n"
		"GID: fe80:0:0:0:ec0d:9a03:44:3702\n"
		"  complete:     no\n"
		"\n";
	struct mlx_ipoib_ep *v;
	uint16_t pk;
	size_t n;

	(void)state;
	assert_int_equal(mlx_ipoib_debugfs_parse(mcg, sizeof(mcg) - 1, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].gid, "ff12:401b:ffff:0:0:0:ffff:ffff");
	assert_true(v[0].complete);
	assert_int_equal(v[0].send_only, 0);
	assert_int_equal(v[0].queuelen, 0);
	free(v);
	assert_int_equal(mlx_ipoib_debugfs_parse(path, sizeof(path) - 1, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].dlid, 0x12);
	assert_string_equal(v[0].rate, "100.0 Gb/sec");
	assert_false(v[1].complete);
	assert_int_equal(v[1].dlid, -1);
	free(v);
	/* a field before any GID, a line without ':' */
	assert_int_equal(mlx_ipoib_debugfs_parse("  complete: yes\n", 16, &v, &n), -EBADMSG);
	assert_int_equal(mlx_ipoib_debugfs_parse("GID fe80\n", 9, &v, &n), -EBADMSG);
	assert_int_equal(mlx_ipoib_debugfs_parse("", 0, &v, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(mlx_pkey_parse("0xffff\n", &pk), 0);
	assert_int_equal(pk, 0xffff);
	assert_int_equal(mlx_pkey_parse("0x10000", &pk), -EINVAL);
	assert_int_equal(mlx_pkey_parse("ffff", &pk), -EINVAL);
}

/* The real IPoIB address of an mlx5 port (the fixture's "link/infiniband"). */
static void test_ipoib_fixture(void **state)
{
	const char *fx = getenv("FIXTURES");
	char path[512], line[512], *p;
	uint8_t a[20];
	size_t n = 0;
	uint32_t qpn;
	char gid[48];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/ip-link/mlx5-ipoib-ip-link-show-vf-node-port-guid-2019.txt",
		 fx ? fx : "../shared/fixtures");
	f = fopen(path, "r");
	if (!f) {
		printf("# SKIP: no fixture %s\n", path);
		skip();
	}
	while (fgets(line, sizeof(line), f) && !(p = strstr(line, "link/infiniband ")))
		;
	fclose(f);
	p = strstr(line, "link/infiniband ");
	assert_non_null(p);
	p += strlen("link/infiniband ");
	while (n < 20 && sscanf(p, "%2hhx", &a[n]) == 1) {
		n++;
		p += 3;
	}
	assert_int_equal(n, 20);
	assert_int_equal(mlx_ipoib_addr(a, n, &qpn, gid, sizeof(gid)), 0);
	/* 00:00:0a:2d: flags 0, QPN 0x000a2d; then the GID fe80::ec0d:9a03:44:368d */
	assert_int_equal(qpn, 0xa2d);
	assert_string_equal(gid, "fe80:0000:0000:0000:ec0d:9a03:0044:368d");
	assert_int_equal(mlx_ipoib_addr(a, 6, &qpn, gid, sizeof(gid)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tunnel_info),
		cmocka_unit_test(test_tunnel_garbage),
		cmocka_unit_test(test_tunnel_request),
		cmocka_unit_test(test_rss),
		cmocka_unit_test(test_link_info),
		cmocka_unit_test(test_link_info_vlan),
		cmocka_unit_test(test_child_requests),
		cmocka_unit_test(test_fdb),
		cmocka_unit_test(test_dev_mcast),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_irq_names),
		cmocka_unit_test(test_ipoib),
		cmocka_unit_test(test_ipoib_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
