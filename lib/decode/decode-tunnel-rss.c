/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pure decoders of two ethtool netlink replies (include/uapi/linux/
 * ethtool_netlink.h; the kernel builds them in net/ethtool/tunnels.c and
 * net/ethtool/rss.c):
 *
 *  TUNNEL_INFO_GET_REPLY: header, then UDP_PORTS { TABLE { SIZE u32,
 *    TYPES bitset, ENTRY { PORT be16, TYPE u32 }... }... }.  A driver that
 *    declares UDP_TUNNEL_NIC_INFO_STATIC_IANA_VXLAN (mlx5: en_main.c
 *    mlx5e_vxlan_set_netdev_info) gets one more table of size 1 with no
 *    types holding the IANA VXLAN port 4789.
 *  RSS_GET_REPLY: header, CONTEXT u32 (a context other than 0), HFUNC u32
 *    (a bit per ETH_RSS_HASH_*), INDIR (u32 array), HKEY (bytes), INPUT_XFRM
 *    u32, and since Linux 6.17 FLOW_HASH { <flow type> uint (RXH_* bits) }.
 *
 * Debian 12's headers (Linux 6.1) predate ETHTOOL_MSG_RSS_GET (6.4), so
 * its numbers are written here from the uapi enum, checked against the 6.1
 * enum's last members below.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "netview.h"
#include "nl.h"
#include "params.h"
#include "netview-private.h"

/* ETHTOOL_MSG_RSS_GET follows ETHTOOL_MSG_PSE_SET, its reply
 * ETHTOOL_MSG_PSE_GET_REPLY (include/uapi/linux/ethtool_netlink.h since 6.4). */
_Static_assert(ETHTOOL_MSG_PSE_SET + 1 == MLX_ETHTOOL_MSG_RSS_GET, "RSS_GET follows PSE_SET");
_Static_assert(ETHTOOL_MSG_PSE_GET_REPLY + 1 == MLX_ETHTOOL_MSG_RSS_GET_REPLY,
	       "RSS_GET_REPLY follows PSE_GET_REPLY");

const char *mlx_tunnel_type_name(int type)
{
	/* udp_tunnel_type_names, net/ethtool/common.c */
	static const char *const names[MLX_TUNNEL_NTYPES] = { "vxlan", "geneve", "vxlan-gpe" };

	return type >= 0 && type < MLX_TUNNEL_NTYPES ? names[type] : NULL;
}

int mlx_tunnel_info_build(void *buf, size_t cap, const char *ifname)
{
	struct genlmsghdr g = { .cmd = ETHTOOL_MSG_TUNNEL_INFO_GET, .version = ETHTOOL_GENL_VERSION };
	struct mlx_nlbuf b;
	size_t nest;

	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, 0, 0);
	mlx_nlb_put(&b, &g, sizeof(g));
	nest = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_TUNNEL_INFO_HEADER);
	mlx_nlb_str(&b, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mlx_nlb_nest_end(&b, nest);
	return mlx_nlb_finish(&b);
}

int mlx_rss_build(void *buf, size_t cap, const char *ifname)
{
	struct genlmsghdr g = { .cmd = MLX_ETHTOOL_MSG_RSS_GET, .version = ETHTOOL_GENL_VERSION };
	struct mlx_nlbuf b;
	size_t nest;

	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, 0, 0);
	mlx_nlb_put(&b, &g, sizeof(g));
	nest = mlx_nlb_nest_start(&b, NLA_F_NESTED | MLX_ETHTOOL_A_RSS_HEADER);
	mlx_nlb_str(&b, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mlx_nlb_nest_end(&b, nest);
	return mlx_nlb_finish(&b);
}

/* The attributes of a genl reply of command @cmd (-ENOMSG another). */
static int genl_attrs(const struct nlmsghdr *h, size_t len, uint8_t cmd, const uint8_t **attrs,
		      size_t *alen)
{
	uint8_t got;
	int r = mlx_genlmsg_attrs(h, len, &got, attrs, alen);

	return r < 0 ? r : got == cmd ? 0 : -ENOMSG;
}

static int tunnel_entry(const struct mlx_nla *a, struct mlx_tunnel_table *t)
{
	size_t off = 0;
	struct mlx_nla e;
	uint16_t port = 0;
	uint32_t type = UINT32_MAX;
	bool have_port = false;
	int r;

	while ((r = mlx_nla_next(a->data, a->len, &off, &e)) == 1) {
		if (e.type == ETHTOOL_A_TUNNEL_UDP_ENTRY_PORT) {
			uint16_t be;

			if (mlx_nla_u16(&e, &be) < 0)
				return -EBADMSG;
			port = ntohs(be);
			have_port = true;
		} else if (e.type == ETHTOOL_A_TUNNEL_UDP_ENTRY_TYPE && mlx_nla_u32(&e, &type) < 0) {
			return -EBADMSG;
		}
	}
	if (r < 0 || !have_port)
		return -EBADMSG;
	if (t->n < MLX_TUNNEL_MAX_ENTRIES) {
		t->e[t->n].port = port;
		t->e[t->n].type = type < MLX_TUNNEL_NTYPES ? (int)type : -1;
		t->n++;
	}
	return 0;
}

static int tunnel_table(const struct mlx_nla *a, struct mlx_tunnel_table *t)
{
	size_t off = 0;
	struct mlx_nla e;
	int r;

	while ((r = mlx_nla_next(a->data, a->len, &off, &e)) == 1) {
		switch (e.type) {
		case ETHTOOL_A_TUNNEL_UDP_TABLE_SIZE:
			if (mlx_nla_u32(&e, &t->size) < 0)
				return -EBADMSG;
			break;
		case ETHTOOL_A_TUNNEL_UDP_TABLE_TYPES: {
			struct mlx_bitset *bs = malloc(sizeof(*bs));

			if (!bs)
				return -ENOMEM;
			r = mlx_ethtool_bitset_decode(e.data, e.len, bs);
			for (size_t i = 0; r == 0 && i < bs->n; i++)
				if (bs->bit[i].value && bs->bit[i].index < MLX_TUNNEL_NTYPES)
					t->types |= 1u << bs->bit[i].index;
			free(bs);
			if (r < 0)
				return -EBADMSG;
			break;
		}
		case ETHTOOL_A_TUNNEL_UDP_TABLE_ENTRY:
			r = tunnel_entry(&e, t);
			if (r < 0)
				return r;
			break;
		}
	}
	return r < 0 ? -EBADMSG : 0;
}

int mlx_tunnel_info_decode(const struct nlmsghdr *h, size_t len, struct mlx_tunnel_info *out)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r;

	memset(out, 0, sizeof(*out));
	r = genl_attrs(h, len, ETHTOOL_MSG_TUNNEL_INFO_GET_REPLY, &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		size_t o2 = 0;
		struct mlx_nla t;

		if (a.type == ETHTOOL_A_TUNNEL_INFO_HEADER) {
			if (mlx_ethtool_header_decode(&a, out->ifname, sizeof(out->ifname), NULL) < 0)
				return -EBADMSG;
			continue;
		}
		if (a.type != ETHTOOL_A_TUNNEL_INFO_UDP_PORTS)
			continue;
		while ((r = mlx_nla_next(a.data, a.len, &o2, &t)) == 1) {
			struct mlx_tunnel_table tab;

			if (t.type != ETHTOOL_A_TUNNEL_UDP_TABLE)
				continue;
			memset(&tab, 0, sizeof(tab));
			r = tunnel_table(&t, &tab);
			if (r < 0)
				return r;
			if (out->ntables < MLX_TUNNEL_MAX_TABLES)
				out->t[out->ntables++] = tab;
		}
		if (r < 0)
			return -EBADMSG;
	}
	return r < 0 ? -EBADMSG : 0;
}

/* ---- RSS ---- */

const char *const mlx_rss_flow_names[MLX_RSS_NFLOWS] = {
	"tcp4", "udp4", "tcp6", "udp6", "ip4", "ip6", "sctp4", "sctp6",
};

/* ETHTOOL_A_FLOW_* (uapi, 6.17) of each name above. */
static const uint16_t flow_attr[MLX_RSS_NFLOWS] = {
	MLX_ETHTOOL_A_FLOW_TCP4, MLX_ETHTOOL_A_FLOW_UDP4, MLX_ETHTOOL_A_FLOW_TCP6,
	MLX_ETHTOOL_A_FLOW_UDP6, MLX_ETHTOOL_A_FLOW_IP4, MLX_ETHTOOL_A_FLOW_IP6,
	MLX_ETHTOOL_A_FLOW_SCTP4, MLX_ETHTOOL_A_FLOW_SCTP6,
};

const char *mlx_rss_hfunc_name(uint32_t hfunc)
{
	/* rss_hash_func_strings, net/ethtool/common.c: the bit ETH_RSS_HASH_*_BIT */
	switch (hfunc) {
	case 1u << 0: return "toeplitz";
	case 1u << 1: return "xor";
	case 1u << 2: return "crc32";
	default: return NULL;
	}
}

size_t mlx_rss_fields(uint64_t rxh, const char **names, size_t max)
{
	/* RXH_* (include/uapi/linux/ethtool.h), named as ethtool -n prints
	 * them, in its order */
	static const struct { uint64_t bit; const char *name; } f[] = {
		{ RXH_L2DA, "l2-da" }, { RXH_VLAN, "vlan" }, { RXH_L3_PROTO, "l3-proto" },
		{ RXH_IP_SRC, "ip-src" }, { RXH_IP_DST, "ip-dst" },
		{ RXH_L4_B_0_1, "l4-bytes-0-1" }, { RXH_L4_B_2_3, "l4-bytes-2-3" },
		{ 1u << 8, "gtp-teid" }, { 1u << 9, "ip6-flow-label" },
		{ RXH_DISCARD, "discard" },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]) && n < max; i++)
		if (rxh & f[i].bit)
			names[n++] = f[i].name;
	return n;
}

/* An NLA_UINT: 4 or 8 bytes. */
static int nla_uint(const struct mlx_nla *a, uint64_t *v)
{
	uint32_t v32;

	if (a->len == 8)
		return mlx_nla_u64(a, v);
	if (a->len != 4 || mlx_nla_u32(a, &v32) < 0)
		return -EBADMSG;
	*v = v32;
	return 0;
}

int mlx_rss_decode(const struct nlmsghdr *h, size_t len, struct mlx_rss *out)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < MLX_RSS_NFLOWS; i++)
		out->flow[i] = -1;
	r = genl_attrs(h, len, MLX_ETHTOOL_MSG_RSS_GET_REPLY, &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		switch (a.type) {
		case MLX_ETHTOOL_A_RSS_CONTEXT:
			if (mlx_nla_u32(&a, &out->context) < 0)
				return -EBADMSG;
			break;
		case MLX_ETHTOOL_A_RSS_HFUNC:
			if (mlx_nla_u32(&a, &out->hfunc) < 0)
				return -EBADMSG;
			break;
		case MLX_ETHTOOL_A_RSS_INPUT_XFRM:
			if (mlx_nla_u32(&a, &out->input_xfrm) < 0)
				return -EBADMSG;
			break;
		case MLX_ETHTOOL_A_RSS_INDIR:
			if (a.len % 4)
				return -EBADMSG;
			out->indir_size = a.len / 4;
			out->nindir = out->indir_size < MLX_RSS_MAX_INDIR ? out->indir_size :
				      MLX_RSS_MAX_INDIR;
			memcpy(out->indir, a.data, out->nindir * 4);
			break;
		case MLX_ETHTOOL_A_RSS_HKEY:
			if (a.len > MLX_RSS_MAX_KEY)
				return -EBADMSG;
			out->key_len = a.len;
			memcpy(out->key, a.data, a.len);
			break;
		case MLX_ETHTOOL_A_RSS_FLOW_HASH: {
			size_t o2 = 0;
			struct mlx_nla f;

			out->have_flows = true;
			while ((r = mlx_nla_next(a.data, a.len, &o2, &f)) == 1) {
				uint64_t v;

				if (nla_uint(&f, &v) < 0)
					return -EBADMSG;
				for (size_t i = 0; i < MLX_RSS_NFLOWS; i++)
					if (flow_attr[i] == f.type)
						out->flow[i] = (int64_t)(v & INT64_MAX);
			}
			if (r < 0)
				return -EBADMSG;
			break;
		}
		}
	}
	return r < 0 ? -EBADMSG : 0;
}
