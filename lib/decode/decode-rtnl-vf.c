/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtnetlink VF information: decode RTM_NEWLINK's IFLA_VFINFO_LIST, build
 * the RTM_GETLINK/RTM_SETLINK requests, re-encode a VF list.  Pure: bytes
 * in, struct out.  Layouts: include/uapi/linux/if_link.h; attribute order
 * as net/core/rtnetlink.c rtnl_fill_vfinfo() emits it.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "nl.h"
#include "sriov.h"

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

void mlx_link_vfs_free(struct mlx_link_vfs *l)
{
	free(l->vf);
	l->vf = NULL;
	l->nvf = 0;
}

/* Struct-typed VF attributes: each must carry at least its struct. */
static int vf_struct(const struct mlx_nla *a, void *out, size_t n, const char *name,
		     char *err, size_t errlen)
{
	if (a->len < n)
		return bad(err, errlen, "%s is %zu bytes, shorter than its %zu-byte struct", name,
			   a->len, n);
	memcpy(out, a->data, n);
	return 0;
}

/*
 * The {vf, setting} attributes (spoofchk, trust, rss_query_en: the same
 * layout): -1 where the driver says "not supported" (setting ~0), else 0/1.
 */
static int vf_setting(const struct mlx_nla *a, const char *name, int *out, char *err,
		      size_t errlen)
{
	struct ifla_vf_spoofchk t;      /* the layout all three share: */
	_Static_assert(sizeof(struct ifla_vf_trust) == sizeof(t) &&
		       offsetof(struct ifla_vf_trust, setting) == offsetof(struct ifla_vf_spoofchk, setting) &&
		       sizeof(struct ifla_vf_rss_query_en) == sizeof(t) &&
		       offsetof(struct ifla_vf_rss_query_en, setting) ==
		       offsetof(struct ifla_vf_spoofchk, setting), "ifla_vf_{spoofchk,trust,rss_query_en}");

	if (vf_struct(a, &t, sizeof(t), name, err, errlen))
		return -EBADMSG;
	*out = t.setting == (uint32_t)-1 ? -1 : (int)!!t.setting;
	return 0;
}

static int decode_stats(const struct mlx_nla *nest, struct mlx_vf_stats *st, char *err,
			size_t errlen)
{
	struct mlx_nla a;
	size_t off = 0;
	int r;

	st->present = true;
	while ((r = mlx_nla_next(nest->data, nest->len, &off, &a)) == 1) {
		uint64_t v;
		uint64_t *dst = NULL;

		switch (a.type) {
		case IFLA_VF_STATS_RX_PACKETS: dst = &st->rx_packets; break;
		case IFLA_VF_STATS_TX_PACKETS: dst = &st->tx_packets; break;
		case IFLA_VF_STATS_RX_BYTES: dst = &st->rx_bytes; break;
		case IFLA_VF_STATS_TX_BYTES: dst = &st->tx_bytes; break;
		case IFLA_VF_STATS_BROADCAST: dst = &st->broadcast; break;
		case IFLA_VF_STATS_MULTICAST: dst = &st->multicast; break;
		case IFLA_VF_STATS_RX_DROPPED: dst = &st->rx_dropped; break;
		case IFLA_VF_STATS_TX_DROPPED: dst = &st->tx_dropped; break;
		default: break;   /* IFLA_VF_STATS_PAD and newer counters */
		}
		if (!dst)
			continue;
		if (mlx_nla_u64(&a, &v) < 0)
			return bad(err, errlen, "VF statistic %u is %zu bytes, not 8", a.type, a.len);
		*dst = v;
	}
	return r < 0 ? bad(err, errlen, "truncated attribute in IFLA_VF_STATS") : 0;
}

static int decode_vf(const struct mlx_nla *nest, struct mlx_vf_info *vf, char *err, size_t errlen)
{
	struct mlx_nla a;
	size_t off = 0;
	int r;

	memset(vf, 0, sizeof(*vf));
	vf->spoofchk = vf->trust = vf->rss_query_en = vf->link_state = -1;
	while ((r = mlx_nla_next(nest->data, nest->len, &off, &a)) == 1) {
		switch (a.type) {
		case IFLA_VF_MAC: {
			struct ifla_vf_mac m;

			if (vf_struct(&a, &m, sizeof(m), "IFLA_VF_MAC", err, errlen))
				return -EBADMSG;
			vf->vf = m.vf;
			memcpy(vf->mac, m.mac, 6);
			vf->has_mac = true;
			break;
		}
		case IFLA_VF_VLAN: {
			struct ifla_vf_vlan v;

			if (vf_struct(&a, &v, sizeof(v), "IFLA_VF_VLAN", err, errlen))
				return -EBADMSG;
			vf->vf = v.vf;
			vf->vlan = v.vlan;
			vf->qos = v.qos;
			vf->has_vlan = true;
			break;
		}
		case IFLA_VF_VLAN_LIST: {
			struct mlx_nla in;
			size_t o2 = 0;
			int r2;

			while ((r2 = mlx_nla_next(a.data, a.len, &o2, &in)) == 1) {
				struct ifla_vf_vlan_info vi;

				if (in.type != IFLA_VF_VLAN_INFO)
					continue;
				if (vf_struct(&in, &vi, sizeof(vi), "IFLA_VF_VLAN_INFO", err, errlen))
					return -EBADMSG;
				vf->vlan_proto = ntohs(vi.vlan_proto);
				break;   /* the first entry is the one iproute2 shows */
			}
			if (r2 < 0)
				return bad(err, errlen, "truncated attribute in IFLA_VF_VLAN_LIST");
			break;
		}
		case IFLA_VF_TX_RATE: {
			struct ifla_vf_tx_rate t;

			if (vf_struct(&a, &t, sizeof(t), "IFLA_VF_TX_RATE", err, errlen))
				return -EBADMSG;
			if (!vf->has_rate)
				vf->max_tx_rate = t.rate;
			break;
		}
		case IFLA_VF_RATE: {
			struct ifla_vf_rate t;

			if (vf_struct(&a, &t, sizeof(t), "IFLA_VF_RATE", err, errlen))
				return -EBADMSG;
			vf->min_tx_rate = t.min_tx_rate;
			vf->max_tx_rate = t.max_tx_rate;
			vf->has_rate = true;
			break;
		}
		case IFLA_VF_SPOOFCHK:
			if (vf_setting(&a, "IFLA_VF_SPOOFCHK", &vf->spoofchk, err, errlen))
				return -EBADMSG;
			break;
		case IFLA_VF_TRUST:
			if (vf_setting(&a, "IFLA_VF_TRUST", &vf->trust, err, errlen))
				return -EBADMSG;
			break;
		case IFLA_VF_RSS_QUERY_EN:
			if (vf_setting(&a, "IFLA_VF_RSS_QUERY_EN", &vf->rss_query_en, err, errlen))
				return -EBADMSG;
			break;
		case IFLA_VF_LINK_STATE: {
			struct ifla_vf_link_state t;

			if (vf_struct(&a, &t, sizeof(t), "IFLA_VF_LINK_STATE", err, errlen))
				return -EBADMSG;
			vf->link_state = t.link_state <= 2 ? (int)t.link_state : -1;
			break;
		}
		case IFLA_VF_IB_NODE_GUID:
		case IFLA_VF_IB_PORT_GUID: {
			struct ifla_vf_guid g;

			if (vf_struct(&a, &g, sizeof(g), "IFLA_VF_IB_*_GUID", err, errlen))
				return -EBADMSG;
			if (a.type == IFLA_VF_IB_NODE_GUID)
				vf->node_guid = g.guid;
			else
				vf->port_guid = g.guid;
			vf->has_guids = true;
			break;
		}
		case IFLA_VF_STATS:
			if (decode_stats(&a, &vf->stats, err, errlen) < 0)
				return -EBADMSG;
			break;
		default:
			break;
		}
	}
	if (r < 0)
		return bad(err, errlen, "truncated attribute in IFLA_VF_INFO");
	return 0;
}

int mlx_rtnl_vf_decode(const struct nlmsghdr *h, size_t len, struct mlx_link_vfs *out,
		       char *err, size_t errlen)
{
	struct ifinfomsg ifi;
	const uint8_t *attrs;
	size_t alen, off = 0, n = 0;
	struct mlx_nla a, list = { 0 };
	bool have_list = false;
	int r;

	memset(out, 0, sizeof(*out));
	out->ifindex = -1;
	if (len < NLMSG_HDRLEN)
		return bad(err, errlen, "message of %zu bytes is shorter than a netlink header", len);
	if (h->nlmsg_type != RTM_NEWLINK)
		return bad(err, errlen, "message type %u is not RTM_NEWLINK", h->nlmsg_type);
	if (mlx_nlmsg_attrs(h, len, sizeof(ifi), &attrs, &alen) < 0)
		return bad(err, errlen, "RTM_NEWLINK of %u bytes is truncated (buffer %zu)",
			   h->nlmsg_len, len);
	memcpy(&ifi, (const uint8_t *)h + NLMSG_HDRLEN, sizeof(ifi));
	out->ifindex = ifi.ifi_index;

	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == IFLA_IFNAME) {
			mlx_nla_str(&a, out->ifname, sizeof(out->ifname));
		} else if (a.type == IFLA_NUM_VF) {
			if (mlx_nla_u32(&a, &out->num_vf) < 0)
				return bad(err, errlen, "IFLA_NUM_VF is %zu bytes, not 4", a.len);
			out->has_num_vf = true;
		} else if (a.type == IFLA_VFINFO_LIST) {
			list = a;
			have_list = true;
		}
	}
	if (r < 0)
		return bad(err, errlen, "truncated attribute in RTM_NEWLINK at offset %zu", off);
	if (!have_list)
		return 0;

	/* Count, then fill: one allocation whatever the VF count. */
	off = 0;
	while ((r = mlx_nla_next(list.data, list.len, &off, &a)) == 1)
		n += a.type == IFLA_VF_INFO;
	if (r < 0)
		return bad(err, errlen, "truncated attribute in IFLA_VFINFO_LIST");
	if (!n)
		return 0;
	out->vf = calloc(n, sizeof(*out->vf));
	if (!out->vf)
		return -ENOMEM;
	off = 0;
	while (mlx_nla_next(list.data, list.len, &off, &a) == 1) {
		if (a.type != IFLA_VF_INFO)
			continue;
		if (decode_vf(&a, &out->vf[out->nvf], err, errlen) < 0) {
			mlx_link_vfs_free(out);
			return -EBADMSG;
		}
		out->nvf++;
	}
	return 0;
}

int mlx_rtnl_getlink_vf_build(void *buf, size_t cap, int ifindex, const char *ifname)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex > 0 ? ifindex : 0 };
	struct mlx_nlbuf b;

	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, RTM_GETLINK, 0);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	if (ifindex <= 0 && ifname)
		mlx_nlb_str(&b, IFLA_IFNAME, ifname);
	/* Without RTEXT_FILTER_VF the kernel leaves the VF list out
	 * (rtnetlink.c rtnl_vfinfo_size / rtnl_fill_vf). */
	mlx_nlb_u32(&b, IFLA_EXT_MASK, RTEXT_FILTER_VF);
	return mlx_nlb_finish(&b);
}

static void put_vf_attr(struct mlx_nlbuf *b, const struct mlx_vf_set *s)
{
	switch (s->attr) {
	case MLX_VF_SET_MAC: {
		struct ifla_vf_mac m = { .vf = s->vf };

		memcpy(m.mac, s->mac, 6);
		mlx_nlb_attr(b, IFLA_VF_MAC, &m, sizeof(m));
		break;
	}
	case MLX_VF_SET_VLAN: {
		struct ifla_vf_vlan v = { .vf = s->vf, .vlan = s->vlan, .qos = s->qos };

		mlx_nlb_attr(b, IFLA_VF_VLAN, &v, sizeof(v));
		break;
	}
	case MLX_VF_SET_RATE: {
		struct ifla_vf_rate t = { .vf = s->vf, .min_tx_rate = s->min_tx_rate,
					  .max_tx_rate = s->max_tx_rate };

		mlx_nlb_attr(b, IFLA_VF_RATE, &t, sizeof(t));
		break;
	}
	case MLX_VF_SET_SPOOFCHK: {
		struct ifla_vf_spoofchk t = { .vf = s->vf, .setting = s->on };

		mlx_nlb_attr(b, IFLA_VF_SPOOFCHK, &t, sizeof(t));
		break;
	}
	case MLX_VF_SET_TRUST: {
		struct ifla_vf_trust t = { .vf = s->vf, .setting = s->on };

		mlx_nlb_attr(b, IFLA_VF_TRUST, &t, sizeof(t));
		break;
	}
	case MLX_VF_SET_STATE: {
		struct ifla_vf_link_state t = { .vf = s->vf, .link_state = s->link_state };

		mlx_nlb_attr(b, IFLA_VF_LINK_STATE, &t, sizeof(t));
		break;
	}
	}
}

int mlx_rtnl_setlink_vf_build(void *buf, size_t cap, int ifindex, const struct mlx_vf_set *s)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };
	struct mlx_nlbuf b;
	size_t list, info;

	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, RTM_SETLINK, NLM_F_ACK);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	list = mlx_nlb_nest_start(&b, IFLA_VFINFO_LIST);
	info = mlx_nlb_nest_start(&b, IFLA_VF_INFO);
	put_vf_attr(&b, s);
	mlx_nlb_nest_end(&b, info);
	mlx_nlb_nest_end(&b, list);
	return mlx_nlb_finish(&b);
}

/* One VF attribute of a request into @s; its payload's size is the
 * struct's (do_setvfinfo checks the same with nla_policy ifla_vf_policy). */
static int get_vf_attr(const struct mlx_nla *a, struct mlx_vf_set *s)
{
	union {
		struct ifla_vf_mac mac;
		struct ifla_vf_vlan vlan;
		struct ifla_vf_rate rate;
		struct ifla_vf_spoofchk spoofchk;
		struct ifla_vf_trust trust;
		struct ifla_vf_link_state state;
	} u;
	static const struct { uint16_t type; enum mlx_vf_attr attr; size_t size; } t[] = {
		{ IFLA_VF_MAC, MLX_VF_SET_MAC, sizeof(struct ifla_vf_mac) },
		{ IFLA_VF_VLAN, MLX_VF_SET_VLAN, sizeof(struct ifla_vf_vlan) },
		{ IFLA_VF_RATE, MLX_VF_SET_RATE, sizeof(struct ifla_vf_rate) },
		{ IFLA_VF_SPOOFCHK, MLX_VF_SET_SPOOFCHK, sizeof(struct ifla_vf_spoofchk) },
		{ IFLA_VF_TRUST, MLX_VF_SET_TRUST, sizeof(struct ifla_vf_trust) },
		{ IFLA_VF_LINK_STATE, MLX_VF_SET_STATE, sizeof(struct ifla_vf_link_state) },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (a->type != t[i].type)
			continue;
		if (a->len < t[i].size)
			return -EINVAL;
		memset(s, 0, sizeof(*s));
		memcpy(&u, a->data, t[i].size);
		s->attr = t[i].attr;
		switch (t[i].attr) {
		case MLX_VF_SET_MAC:
			s->vf = u.mac.vf;
			memcpy(s->mac, u.mac.mac, 6);
			break;
		case MLX_VF_SET_VLAN:
			s->vf = u.vlan.vf;
			s->vlan = u.vlan.vlan;
			s->qos = u.vlan.qos;
			break;
		case MLX_VF_SET_RATE:
			s->vf = u.rate.vf;
			s->min_tx_rate = u.rate.min_tx_rate;
			s->max_tx_rate = u.rate.max_tx_rate;
			break;
		case MLX_VF_SET_SPOOFCHK:
			s->vf = u.spoofchk.vf;
			s->on = u.spoofchk.setting != 0;
			break;
		case MLX_VF_SET_TRUST:
			s->vf = u.trust.vf;
			s->on = u.trust.setting != 0;
			break;
		case MLX_VF_SET_STATE:
			s->vf = u.state.vf;
			s->link_state = u.state.link_state;
			break;
		}
		return 0;
	}
	return -EINVAL;
}

/* The one attribute in buf[0..len): -EINVAL when there are none, more,
 * or a broken one (the kernel's policy refuses such a request too). */
static int only_attr(const uint8_t *buf, size_t len, struct mlx_nla *a)
{
	size_t off = 0;
	struct mlx_nla extra;

	if (mlx_nla_next(buf, len, &off, a) != 1)
		return -EINVAL;
	return mlx_nla_next(buf, len, &off, &extra) == 0 ? 0 : -EINVAL;
}

int mlx_rtnl_setlink_vf_parse(const void *req, size_t len, int *ifindex, struct mlx_vf_set *s,
			      char *why, size_t whylen)
{
	struct nlmsghdr h;
	struct ifinfomsg ifi;
	const uint8_t *attrs;
	size_t alen;
	struct mlx_nla list, info, vf;

	snprintf(why, whylen, "shorter than its headers");
	if (len < NLMSG_HDRLEN + sizeof(ifi))
		return -EINVAL;
	memcpy(&h, req, sizeof(h));
	if (h.nlmsg_len != len || h.nlmsg_type != RTM_SETLINK || !(h.nlmsg_flags & NLM_F_REQUEST)) {
		snprintf(why, whylen, "not one RTM_SETLINK request (type %u, length %u of %zu)",
			 h.nlmsg_type, h.nlmsg_len, len);
		return -EINVAL;
	}
	if (mlx_nlmsg_attrs(req, len, sizeof(ifi), &attrs, &alen) < 0)
		return -EINVAL;
	memcpy(&ifi, (const uint8_t *)req + NLMSG_HDRLEN, sizeof(ifi));
	if (ifi.ifi_index <= 0) {
		snprintf(why, whylen, "no interface index");
		return -EINVAL;
	}
	snprintf(why, whylen, "not one IFLA_VFINFO_LIST with one IFLA_VF_INFO");
	if (only_attr(attrs, alen, &list) < 0 || list.type != IFLA_VFINFO_LIST ||
	    only_attr(list.data, list.len, &info) < 0 || info.type != IFLA_VF_INFO)
		return -EINVAL;
	snprintf(why, whylen, "not one known VF attribute of its size");
	if (only_attr(info.data, info.len, &vf) < 0 || get_vf_attr(&vf, s) < 0)
		return -EINVAL;
	*ifindex = ifi.ifi_index;
	why[0] = '\0';
	return 0;
}

void mlx_vf_apply(struct mlx_vf_info *vf, const struct mlx_vf_set *s)
{
	switch (s->attr) {
	case MLX_VF_SET_MAC:
		memcpy(vf->mac, s->mac, 6);
		vf->has_mac = true;
		break;
	case MLX_VF_SET_VLAN:
		vf->vlan = s->vlan;
		vf->qos = s->qos;
		vf->has_vlan = true;
		if (!vf->vlan_proto)
			vf->vlan_proto = 0x8100;
		break;
	case MLX_VF_SET_RATE:
		vf->min_tx_rate = s->min_tx_rate;
		vf->max_tx_rate = s->max_tx_rate;
		vf->has_rate = true;
		break;
	case MLX_VF_SET_SPOOFCHK:
		vf->spoofchk = s->on;
		break;
	case MLX_VF_SET_TRUST:
		vf->trust = s->on;
		break;
	case MLX_VF_SET_STATE:
		vf->link_state = (int)s->link_state;
		break;
	}
}

static void put_setting(struct mlx_nlbuf *b, uint16_t type, uint32_t vf, int v)
{
	struct ifla_vf_spoofchk t = { .vf = vf, .setting = v < 0 ? (uint32_t)-1 : (uint32_t)v };

	mlx_nlb_attr(b, type, &t, sizeof(t));
}

static void encode_vf(struct mlx_nlbuf *b, const struct mlx_vf_info *vf)
{
	size_t info = mlx_nlb_nest_start(b, IFLA_VF_INFO);

	if (vf->has_mac) {
		struct ifla_vf_mac m = { .vf = vf->vf };

		memcpy(m.mac, vf->mac, 6);
		mlx_nlb_attr(b, IFLA_VF_MAC, &m, sizeof(m));
	}
	if (vf->has_vlan) {
		struct ifla_vf_vlan v = { .vf = vf->vf, .vlan = vf->vlan, .qos = vf->qos };

		mlx_nlb_attr(b, IFLA_VF_VLAN, &v, sizeof(v));
	}
	if (vf->has_rate) {
		struct ifla_vf_rate t = { .vf = vf->vf, .min_tx_rate = vf->min_tx_rate,
					  .max_tx_rate = vf->max_tx_rate };
		struct ifla_vf_tx_rate t2 = { .vf = vf->vf, .rate = vf->max_tx_rate };

		mlx_nlb_attr(b, IFLA_VF_RATE, &t, sizeof(t));
		mlx_nlb_attr(b, IFLA_VF_TX_RATE, &t2, sizeof(t2));
	}
	put_setting(b, IFLA_VF_SPOOFCHK, vf->vf, vf->spoofchk);
	if (vf->link_state >= 0) {
		struct ifla_vf_link_state t = { .vf = vf->vf, .link_state = (uint32_t)vf->link_state };

		mlx_nlb_attr(b, IFLA_VF_LINK_STATE, &t, sizeof(t));
	}
	put_setting(b, IFLA_VF_RSS_QUERY_EN, vf->vf, vf->rss_query_en);
	put_setting(b, IFLA_VF_TRUST, vf->vf, vf->trust);
	if (vf->has_vlan) {
		struct ifla_vf_vlan_info vi = { .vf = vf->vf, .vlan = vf->vlan, .qos = vf->qos,
						.vlan_proto = htons(vf->vlan_proto ? vf->vlan_proto
								    : 0x8100) };
		size_t l = mlx_nlb_nest_start(b, IFLA_VF_VLAN_LIST);

		mlx_nlb_attr(b, IFLA_VF_VLAN_INFO, &vi, sizeof(vi));
		mlx_nlb_nest_end(b, l);
	}
	if (vf->stats.present) {
		size_t s = mlx_nlb_nest_start(b, IFLA_VF_STATS);

		mlx_nlb_u64(b, IFLA_VF_STATS_RX_PACKETS, vf->stats.rx_packets);
		mlx_nlb_u64(b, IFLA_VF_STATS_TX_PACKETS, vf->stats.tx_packets);
		mlx_nlb_u64(b, IFLA_VF_STATS_RX_BYTES, vf->stats.rx_bytes);
		mlx_nlb_u64(b, IFLA_VF_STATS_TX_BYTES, vf->stats.tx_bytes);
		mlx_nlb_u64(b, IFLA_VF_STATS_BROADCAST, vf->stats.broadcast);
		mlx_nlb_u64(b, IFLA_VF_STATS_MULTICAST, vf->stats.multicast);
		mlx_nlb_u64(b, IFLA_VF_STATS_RX_DROPPED, vf->stats.rx_dropped);
		mlx_nlb_u64(b, IFLA_VF_STATS_TX_DROPPED, vf->stats.tx_dropped);
		mlx_nlb_nest_end(b, s);
	}
	mlx_nlb_nest_end(b, info);
}

int mlx_rtnl_vf_encode(const struct nlmsghdr *orig, size_t origlen,
		       const struct mlx_link_vfs *l, void *buf, size_t cap)
{
	const uint8_t *attrs;
	size_t alen, off = 0, list;
	struct mlx_nlbuf b;
	struct nlmsghdr h;
	struct mlx_nla a;
	int r;

	if (mlx_nlmsg_attrs(orig, origlen, sizeof(struct ifinfomsg), &attrs, &alen) < 0)
		return -EBADMSG;
	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, RTM_NEWLINK, 0);
	mlx_nlb_put(&b, (const uint8_t *)orig + NLMSG_HDRLEN, sizeof(struct ifinfomsg));
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		const struct nlattr *na = (const struct nlattr *)(a.data - NLA_HDRLEN);

		if (a.type == IFLA_NUM_VF || a.type == IFLA_VFINFO_LIST)
			continue;
		mlx_nlb_attr(&b, na->nla_type, a.data, a.len);
	}
	if (r < 0)
		return -EBADMSG;
	mlx_nlb_u32(&b, IFLA_NUM_VF, (uint32_t)l->nvf);
	if (l->nvf) {
		list = mlx_nlb_nest_start(&b, IFLA_VFINFO_LIST);
		for (size_t i = 0; i < l->nvf; i++)
			encode_vf(&b, &l->vf[i]);
		mlx_nlb_nest_end(&b, list);
	}
	r = mlx_nlb_finish(&b);
	if (r < 0)
		return r;
	/* Keep the reply's own header fields (flags, seq, pid). */
	memcpy(&h, orig, sizeof(h));
	h.nlmsg_len = (uint32_t)r;
	memcpy(buf, &h, sizeof(h));
	return r;
}

void mlx_fmt_mac(const uint8_t mac[6], char *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";

	/* by hand, not snprintf: `state` of a host with thousands of VFs
	 * formats one per VF, and snprintf costs some 3,000 instructions */
	if (len < 18) {
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3],
			 mac[4], mac[5]);
		return;
	}
	for (int i = 0; i < 6; i++) {
		buf[3 * i] = hex[mac[i] >> 4];
		buf[3 * i + 1] = hex[mac[i] & 15];
		buf[3 * i + 2] = i < 5 ? ':' : '\0';
	}
}

int mlx_parse_mac(const char *s, uint8_t mac[6])
{
	for (int i = 0; i < 6; i++) {
		int v = 0;

		for (int k = 0; k < 2; k++, s++) {
			char c = *s;

			v <<= 4;
			if (c >= '0' && c <= '9')
				v |= c - '0';
			else if (c >= 'a' && c <= 'f')
				v |= c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				v |= c - 'A' + 10;
			else
				return -EINVAL;
		}
		mac[i] = (uint8_t)v;
		if (i < 5 && *s++ != ':')
			return -EINVAL;
	}
	return *s ? -EINVAL : 0;
}

const char *mlx_vf_link_state_str(int st)
{
	switch (st) {
	case IFLA_VF_LINK_STATE_AUTO: return "auto";
	case IFLA_VF_LINK_STATE_ENABLE: return "enable";
	case IFLA_VF_LINK_STATE_DISABLE: return "disable";
	default: return NULL;
	}
}
