/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The child netdevs of a port (lib/netview.h): VLANs and IPoIB partitions,
 * their create and delete requests (pure builders and a parser, so the
 * captured system's emulator takes the bytes the live kernel gets) and
 * the link dump they are listed from.
 *
 * The requests are ip link's: RTM_NEWLINK with NLM_F_CREATE|NLM_F_EXCL
 * (net/core/rtnetlink.c rtnl_newlink: an existing name is -EEXIST, never
 * a change), IFLA_LINK the parent's index, IFLA_IFNAME the name, and
 * IFLA_LINKINFO with the kind and its data; RTM_DELLINK by IFLA_IFNAME.
 * The nests carry no NLA_F_NESTED, as iproute2 sends them (rtnetlink
 * takes both).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdint.h>
#include <sys/socket.h>

#include "mlx-private.h"
#include "netview.h"
#include "nl.h"

const char *mlx_child_kind_name(enum mlx_child_kind k)
{
	return k == MLX_CHILD_VLAN ? "vlan" : k == MLX_CHILD_IPOIB ? "ipoib" : "?";
}

int mlx_child_req_build(void *buf, size_t cap, const struct mlx_child_req *rq)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct mlx_nlbuf b;
	size_t li, data;

	if (!rq->name[0] || strlen(rq->name) >= IFNAMSIZ)
		return -EINVAL;
	mlx_nlb_init(&b, buf, cap);
	if (rq->del) {
		mlx_nlb_msg(&b, RTM_DELLINK, NLM_F_ACK);
		mlx_nlb_put(&b, &ifi, sizeof(ifi));
		mlx_nlb_str(&b, IFLA_IFNAME, rq->name);
		return mlx_nlb_finish(&b);
	}
	/* the ranges the kernel holds them to: vlan_validate (id < 4095,
	 * 802.1Q or 802.1ad); an IPoIB pkey of 0 or 0x8000 is no partition
	 * (ipoib_main.c create_child refuses both) */
	if (rq->kind == MLX_CHILD_VLAN &&
	    (rq->id < 1 || rq->id > 4094 ||
	     (rq->proto && rq->proto != MLX_ETH_P_8021Q && rq->proto != MLX_ETH_P_8021AD) ||
	     rq->negress > MLX_VLAN_QOS_MAX))
		return -EINVAL;
	if (rq->kind == MLX_CHILD_IPOIB && ((rq->id & 0x7fff) == 0 || rq->mode > 1))
		return -EINVAL;
	if (rq->kind >= MLX_CHILD_NKINDS || !rq->parent_index)
		return -EINVAL;
	if (rq->ifindex < 0 || rq->addr_len > sizeof(rq->addr) || rq->mtu > UINT32_MAX)
		return -EINVAL;
	ifi.ifi_index = rq->ifindex;
	if (rq->up) {
		ifi.ifi_flags = IFF_UP;
		ifi.ifi_change = IFF_UP;
	}
	mlx_nlb_msg(&b, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	mlx_nlb_u32(&b, IFLA_LINK, rq->parent_index);
	mlx_nlb_str(&b, IFLA_IFNAME, rq->name);
	if (rq->mtu > 0)
		mlx_nlb_u32(&b, IFLA_MTU, (uint32_t)rq->mtu);
	if (rq->addr_len)
		mlx_nlb_attr(&b, IFLA_ADDRESS, rq->addr, rq->addr_len);
	li = mlx_nlb_nest_start(&b, IFLA_LINKINFO);
	mlx_nlb_str(&b, IFLA_INFO_KIND, mlx_child_kind_name(rq->kind));
	data = mlx_nlb_nest_start(&b, IFLA_INFO_DATA);
	if (rq->kind == MLX_CHILD_VLAN) {
		mlx_nlb_u16(&b, IFLA_VLAN_ID, rq->id);
		if (rq->proto)
			mlx_nlb_u16(&b, IFLA_VLAN_PROTOCOL, htons(rq->proto));   /* be16 */
		if (rq->negress) {
			size_t q = mlx_nlb_nest_start(&b, IFLA_VLAN_EGRESS_QOS);

			for (size_t i = 0; i < rq->negress; i++) {
				struct ifla_vlan_qos_mapping m = { rq->egress[i].from, rq->egress[i].to };

				mlx_nlb_attr(&b, IFLA_VLAN_QOS_MAPPING, &m, sizeof(m));
			}
			mlx_nlb_nest_end(&b, q);
		}
	} else {
		mlx_nlb_u16(&b, IFLA_IPOIB_PKEY, rq->id);
		if (rq->mode >= 0)
			mlx_nlb_u16(&b, IFLA_IPOIB_MODE, (uint16_t)rq->mode);
	}
	mlx_nlb_nest_end(&b, data);
	mlx_nlb_nest_end(&b, li);
	return mlx_nlb_finish(&b);
}

static int why_say(char *why, size_t len, const char *text)
{
	if (why && len)
		snprintf(why, len, "%s", text);
	return -EINVAL;
}

static int parse_data(const struct mlx_nla *d, struct mlx_child_req *out, char *why, size_t wl)
{
	struct mlx_nla a, m;
	size_t off = 0;
	uint16_t u16;
	int r;

	while ((r = mlx_nla_next(d->data, d->len, &off, &a)) == 1) {
		if (out->kind == MLX_CHILD_IPOIB) {
			if (a.type != IFLA_IPOIB_PKEY && a.type != IFLA_IPOIB_MODE &&
			    a.type != IFLA_IPOIB_UMCAST)
				return why_say(why, wl, "an attribute ipoib does not take");
			if (mlx_nla_u16(&a, &u16) < 0)
				return why_say(why, wl, "a short IPoIB attribute");
			if (a.type == IFLA_IPOIB_PKEY)
				out->id = u16;
			else if (a.type == IFLA_IPOIB_MODE)
				out->mode = u16;
			continue;
		}
		if (a.type == IFLA_VLAN_ID || a.type == IFLA_VLAN_PROTOCOL) {
			if (mlx_nla_u16(&a, &u16) < 0)
				return why_say(why, wl, "a short VLAN attribute");
			if (a.type == IFLA_VLAN_ID)
				out->id = u16;
			else
				out->proto = ntohs(u16);
		} else if (a.type == IFLA_VLAN_EGRESS_QOS) {
			size_t o2 = 0;

			while ((r = mlx_nla_next(a.data, a.len, &o2, &m)) == 1) {
				struct ifla_vlan_qos_mapping q;

				if (m.type != IFLA_VLAN_QOS_MAPPING || m.len < sizeof(q))
					return why_say(why, wl, "a malformed egress QoS mapping");
				if (out->negress == MLX_VLAN_QOS_MAX)
					return why_say(why, wl, "too many egress QoS mappings");
				memcpy(&q, m.data, sizeof(q));
				out->egress[out->negress].from = q.from;
				out->egress[out->negress++].to = q.to;
			}
			if (r < 0)
				return why_say(why, wl, "a truncated egress QoS map");
		} else if (a.type != IFLA_VLAN_FLAGS && a.type != IFLA_VLAN_INGRESS_QOS) {
			return why_say(why, wl, "an attribute vlan does not take");
		}
	}
	return r < 0 ? why_say(why, wl, "a truncated link data") : 0;
}

int mlx_child_req_parse(const void *req, size_t len, struct mlx_child_req *out, char *why,
			size_t whylen)
{
	const struct nlmsghdr *h = req;
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a, li;
	char kind[16] = "";
	bool have_data = false;
	struct mlx_nla data = { 0 };
	uint32_t u32;
	int r;

	memset(out, 0, sizeof(*out));
	out->mode = -1;
	if (len < NLMSG_HDRLEN || h->nlmsg_len != len)
		return why_say(why, whylen, "a short or malformed request");
	if (h->nlmsg_type != RTM_NEWLINK && h->nlmsg_type != RTM_DELLINK)
		return -ENOENT;
	/* a NEWLINK without CREATE changes a link (the knobs' MTU): not ours */
	if (h->nlmsg_type == RTM_NEWLINK && !(h->nlmsg_flags & NLM_F_CREATE))
		return -ENOENT;
	out->del = h->nlmsg_type == RTM_DELLINK;
	if (mlx_nlmsg_attrs(h, len, sizeof(struct ifinfomsg), &attrs, &alen) < 0)
		return why_say(why, whylen, "a short request");
	{
		struct ifinfomsg ifi;

		memcpy(&ifi, (const uint8_t *)req + NLMSG_HDRLEN, sizeof(ifi));
		out->ifindex = ifi.ifi_index < 0 ? 0 : ifi.ifi_index;
		out->up = (ifi.ifi_change & IFF_UP) && (ifi.ifi_flags & IFF_UP);
	}
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == IFLA_IFNAME) {
			if (!a.len || a.len > IFNAMSIZ || memchr(a.data, 0, a.len) == NULL)
				return why_say(why, whylen, "a malformed name");
			mlx_nla_str(&a, out->name, sizeof(out->name));
		} else if (a.type == IFLA_LINK) {
			if (mlx_nla_u32(&a, &u32) < 0)
				return why_say(why, whylen, "a short IFLA_LINK");
			out->parent_index = u32;
		} else if (a.type == IFLA_MTU) {
			if (mlx_nla_u32(&a, &u32) < 0)
				return why_say(why, whylen, "a short IFLA_MTU");
			out->mtu = u32;
		} else if (a.type == IFLA_ADDRESS) {
			if (!a.len || a.len > sizeof(out->addr))
				return why_say(why, whylen, "a malformed address");
			memcpy(out->addr, a.data, a.len);
			out->addr_len = a.len;
		} else if (a.type == IFLA_LINKINFO) {
			size_t o2 = 0;

			while ((r = mlx_nla_next(a.data, a.len, &o2, &li)) == 1) {
				if (li.type == IFLA_INFO_KIND)
					mlx_nla_str(&li, kind, sizeof(kind));
				else if (li.type == IFLA_INFO_DATA) {
					data = li;
					have_data = true;
				}
			}
			if (r < 0)
				return why_say(why, whylen, "a truncated link info");
		}
	}
	if (r < 0)
		return why_say(why, whylen, "a truncated attribute");
	if (!out->name[0])
		return why_say(why, whylen, "no interface named");
	if (out->del)
		return 0;
	if (!strcmp(kind, "vlan"))
		out->kind = MLX_CHILD_VLAN;
	else if (!strcmp(kind, "ipoib"))
		out->kind = MLX_CHILD_IPOIB;
	else
		return -ENOENT;
	return have_data ? parse_data(&data, out, why, whylen) : 0;
}

/* ---- the link dump ---- */

struct links {
	struct mlx_link_info *v;
	size_t n, cap;
	int r;
};

static int links_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct links *x = arg;
	struct mlx_link_info li;
	int r = mlx_link_info_decode(h, len, &li);

	if (r == -ENOMSG)
		return 0;
	if (r < 0) {
		x->r = r;
		return 0;
	}
	if (x->n == x->cap) {
		struct mlx_link_info *nv;

		x->cap = x->cap ? x->cap * 2 : 16;
		nv = realloc(x->v, x->cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		x->v = nv;
	}
	x->v[x->n++] = li;
	return 0;
}

int mlx_links_dump(struct mlx_ctx *ctx, struct mlx_link_info **out, size_t *n)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct links x = { NULL, 0, 0, 0 };
	uint8_t buf[128];
	struct mlx_nlbuf b;
	int len, r;

	*out = NULL;
	*n = 0;
	/* the VXLAN view's request, byte for byte: one recording serves both */
	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_nlb_msg(&b, RTM_GETLINK, NLM_F_DUMP);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	mlx_nlb_u32(&b, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	len = mlx_nlb_finish(&b);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_ROUTE, "all", "getlink-dump", buf, (size_t)len, links_cb, &x);
	if (r == 0 && x.r < 0)
		r = mlx_err(ctx, -x.r, "cannot decode the rtnetlink link dump");
	if (r < 0) {
		free(x.v);
		return r;
	}
	*out = x.v;
	*n = x.n;
	return 0;
}

int mlx_child_send(struct mlx_ctx *ctx, const char *object, const struct mlx_child_req *rq)
{
	uint8_t req[512];
	const char *kind = rq->kind == MLX_CHILD_VLAN ? "VLAN" : "IPoIB child";
	const char *ext;
	char what[64];
	int len, q;

	if (!mlx_name_is_safe(rq->name) || strlen(rq->name) >= IFNAMSIZ)
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", rq->name);
	if (!mlx_name_is_safe(object))
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", object);
	len = mlx_child_req_build(req, sizeof(req), rq);
	if (len < 0)
		return mlx_err(ctx, -len, "cannot build the request for '%s'", rq->name);
	q = mlx_nl_query(ctx, MLX_NL_ROUTE, object, rq->del ? "dellink" : "newlink", req, (size_t)len,
			 NULL, NULL);
	if (q >= 0)
		return 0;
	if (rq->del)
		snprintf(what, sizeof(what), "cannot delete '%s'", rq->name);
	else
		snprintf(what, sizeof(what), "cannot add %s '%s'", kind, rq->name);
	ext = mlx_nl_extack(ctx);
	/* rtnl_newlink answers an unknown kind with -EOPNOTSUPP "Unknown
	 * device type": the kernel lacks the module (8021q, ib_ipoib) */
	if (q == -EOPNOTSUPP)
		return mlx_err(ctx, EOPNOTSUPP, "%s: the kernel has no %s links%s%s%s: load module %s",
			       what, mlx_child_kind_name(rq->kind), *ext ? " (the kernel: " : "", ext,
			       *ext ? ")" : "", rq->kind == MLX_CHILD_VLAN ? "8021q" : "ib_ipoib");
	return mlx_err(ctx, -q, "%s: %s%s%s", what, strerror(-q), *ext ? ": " : "", ext);
}
