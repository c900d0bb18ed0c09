/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's side of `vlan add|del` and `ipoib add|del` on a captured
 * system: the RTM_NEWLINK (NLM_F_CREATE, kind "vlan" or "ipoib") and
 * RTM_DELLINK requests lib/netview/child-links.c builds for the live
 * kernel, parsed back, change the recorded link dump
 * (netlink/route/all/getlink-dump.nl) as the next dump would answer:
 *  - a new child is one more RTM_NEWLINK, in index order: the index asked
 *    for (-EBUSY when a link has it) or the next free one, the parent's
 *    link type, the MTU and address asked for or the parent's (a VLAN
 *    takes its real device's: vlan_dev.c vlan_dev_init), down unless
 *    IFF_UP was asked (a new link is down: IF_OPER_DOWN; up, its real
 *    device's operstate), IFLA_LINK the parent, and the kind's data as
 *    vlan_fill_info (id, protocol, flags REORDER_HDR: vlan_netlink.c
 *    vlan_newlink's default; the egress entries with a PCP) or
 *    ipoib_fill_info (the pkey as sent, mode, umcast 0) fill it;
 *  - the kernel's refusals with its errno and words: no parent (-ENODEV
 *    "link does not exist"), a VLAN id out of range (-ERANGE "Invalid
 *    VLAN id"), a protocol other than 802.1Q/802.1ad (-EPROTONOSUPPORT),
 *    a VLAN id the parent has (-EEXIST "VLAN device already exists"), a
 *    name taken (-EEXIST, rtnl_newlink with NLM_F_EXCL), an IPoIB parent
 *    that is not ARPHRD_INFINIBAND (-ENODEV) or is a child (-EINVAL), a
 *    pkey 0 or 0x8000 (-EINVAL, ipoib_vlan.c __ipoib_vlan_add; a pkey
 *    another rtnetlink child has is no error: is_child_unique holds only
 *    the legacy sysfs children to one per pkey);
 *    a delete of no such link (-ENODEV) or of a link with no kind, a
 *    device's port (-EOPNOTSUPP: rtnl_dellink has no ops to call).
 * The file is replaced whole (mlx_replace_file: the transaction's journal
 * keeps the old one).  What the sysfs tree of a capture shows (the IPoIB
 * view's /sys/class/net) is not made: the emulator changes netlink only.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "emul.h"
#include "mlx-private.h"
#include "netview.h"
#include "nl.h"
#include "snapshot.h"

static bool nd_takes(enum mlx_nl_family fam, const void *req, size_t len)
{
	struct mlx_child_req rq;

	return fam == MLX_NL_ROUTE && mlx_child_req_parse(req, len, &rq, NULL, 0) == 0;
}

static int refuse(struct mlx_ctx *ctx, int err, const char *extack)
{
	mlx_nl_set_extack(ctx, extack);
	return -err;
}

/* The new child's RTM_NEWLINK, as the dump would carry it. */
static int child_msg(uint8_t *buf, size_t cap, const struct mlx_child_req *rq,
		     const struct mlx_link_info *p, const struct nlmsghdr *like, int index)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nlmsghdr h;
	struct mlx_nlbuf b;
	size_t li, data;
	int len;

	ifi.ifi_type = p->type;
	ifi.ifi_index = index;
	ifi.ifi_flags = p->flags & ~(unsigned)(IFF_UP | IFF_RUNNING | IFF_LOWER_UP);
	/* up when asked (rtnl_newlink's ifi_change), running with its real
	 * device: a VLAN's operstate is its real device's (vlan_dev.c
	 * netif_stacked_transfer_operstate) */
	if (rq->up)
		ifi.ifi_flags |= IFF_UP | (p->flags & (unsigned)(IFF_RUNNING | IFF_LOWER_UP));
	mlx_nlb_init(&b, buf, cap);
	mlx_nlb_msg(&b, RTM_NEWLINK, 0);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	mlx_nlb_str(&b, IFLA_IFNAME, rq->name);
	if (rq->mtu > 0 || p->mtu >= 0)
		mlx_nlb_u32(&b, IFLA_MTU, (uint32_t)(rq->mtu > 0 ? rq->mtu : p->mtu));
	/* a parent recorded without IFLA_OPERSTATE: its flags say (RUNNING) */
	mlx_nlb_u8(&b, IFLA_OPERSTATE, !rq->up ? IF_OPER_DOWN :
		   p->operstate >= 0 ? (uint8_t)p->operstate :
		   (p->flags & IFF_RUNNING) ? IF_OPER_UP : IF_OPER_DOWN);
	mlx_nlb_u32(&b, IFLA_LINK, (uint32_t)p->ifindex);
	if (rq->addr_len)
		mlx_nlb_attr(&b, IFLA_ADDRESS, rq->addr, rq->addr_len);
	else if (p->addr_len)
		mlx_nlb_attr(&b, IFLA_ADDRESS, p->addr, p->addr_len);
	li = mlx_nlb_nest_start(&b, IFLA_LINKINFO);
	mlx_nlb_str(&b, IFLA_INFO_KIND, mlx_child_kind_name(rq->kind));
	data = mlx_nlb_nest_start(&b, IFLA_INFO_DATA);
	if (rq->kind == MLX_CHILD_VLAN) {
		struct ifla_vlan_flags fl = { 1 /* VLAN_FLAG_REORDER_HDR */, 0xffffffff };
		size_t q;

		mlx_nlb_u16(&b, IFLA_VLAN_PROTOCOL, htons(rq->proto ? rq->proto : MLX_ETH_P_8021Q));
		mlx_nlb_u16(&b, IFLA_VLAN_ID, rq->id);
		mlx_nlb_attr(&b, IFLA_VLAN_FLAGS, &fl, sizeof(fl));
		/* vlan_fill_info walks the map's 16 hash buckets (priority &
		 * 0xF) in order, and lists only the entries with a PCP */
		q = mlx_nlb_nest_start(&b, IFLA_VLAN_EGRESS_QOS);
		for (unsigned bucket = 0; bucket < 16; bucket++)
			for (size_t i = 0; i < rq->negress; i++) {
				struct ifla_vlan_qos_mapping m = { rq->egress[i].from, rq->egress[i].to };

				if (m.to && (m.from & 0xf) == bucket)
					mlx_nlb_attr(&b, IFLA_VLAN_QOS_MAPPING, &m, sizeof(m));
			}
		mlx_nlb_nest_end(&b, q);
	} else {
		mlx_nlb_u16(&b, IFLA_IPOIB_PKEY, rq->id);   /* as sent: __ipoib_vlan_add */
		mlx_nlb_u16(&b, IFLA_IPOIB_MODE, rq->mode > 0 ? 1 : 0);
		mlx_nlb_u16(&b, IFLA_IPOIB_UMCAST, 0);
	}
	mlx_nlb_nest_end(&b, data);
	mlx_nlb_nest_end(&b, li);
	len = mlx_nlb_finish(&b);
	if (len < 0)
		return len;
	/* a part of the recorded dump: its sequence and port id, NLM_F_MULTI */
	memcpy(&h, buf, sizeof(h));
	h.nlmsg_flags = NLM_F_MULTI;
	h.nlmsg_seq = like->nlmsg_seq;
	h.nlmsg_pid = like->nlmsg_pid;
	memcpy(buf, &h, sizeof(h));
	return len;
}

struct scan {
	struct mlx_link_info *v;        /* each RTM_NEWLINK, decoded */
	size_t *off, *mlen;             /* ... its offset and aligned length in the file */
	size_t n;
	size_t done;                    /* NLMSG_DONE's offset (the end when none) */
};

static void scan_free(struct scan *s)
{
	free(s->v);
	free(s->off);
	free(s->mlen);
}

static int scan(const uint8_t *b, size_t len, struct scan *s)
{
	size_t off = 0, cap = 0;

	memset(s, 0, sizeof(*s));
	s->done = len;
	while (off + NLMSG_HDRLEN <= len) {
		struct nlmsghdr h;

		memcpy(&h, b + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - off)
			return -EBADMSG;
		if (h.nlmsg_type == NLMSG_DONE) {
			s->done = off;
			break;
		}
		if (h.nlmsg_type == RTM_NEWLINK) {
			if (s->n == cap) {
				size_t nc = cap ? cap * 2 : 16;
				void *a = realloc(s->v, nc * sizeof(*s->v));

				if (!a)
					return -ENOMEM;
				s->v = a;
				a = realloc(s->off, nc * sizeof(*s->off));
				if (!a)
					return -ENOMEM;
				s->off = a;
				a = realloc(s->mlen, nc * sizeof(*s->mlen));
				if (!a)
					return -ENOMEM;
				s->mlen = a;
				cap = nc;
			}
			if (mlx_link_info_decode((const struct nlmsghdr *)(b + off), h.nlmsg_len,
						 &s->v[s->n]) < 0)
				return -EBADMSG;
			s->off[s->n] = off;
			s->mlen[s->n++] = NLMSG_ALIGN(h.nlmsg_len) <= len - off ? NLMSG_ALIGN(h.nlmsg_len) :
					  h.nlmsg_len;
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
	}
	return 0;
}

static long by_name(const struct scan *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].ifname, name))
			return (long)i;
	return -1;
}

/* The new file: the dump with @rq done, or the kernel's refusal. */
static int edit(struct mlx_ctx *ctx, uint8_t **pb, size_t *plen, const struct mlx_child_req *rq)
{
	uint8_t *b = *pb, msg[512], *nb = NULL;
	size_t len = *plen, at;
	struct scan s;
	long p = -1, k;
	int maxidx = 0, ml, r, index;

	r = scan(b, len, &s);
	if (r < 0) {
		scan_free(&s);
		return r == -ENOMEM ? r : mlx_err(ctx, EBADMSG, "the recorded link dump is malformed");
	}
	if (rq->del) {
		k = by_name(&s, rq->name);
		r = k < 0 ? refuse(ctx, ENODEV, "") :
		    !s.v[k].kind[0] ? refuse(ctx, EOPNOTSUPP, "") : 0;
		if (r == 0) {
			memmove(b + s.off[k], b + s.off[k] + s.mlen[k], len - s.off[k] - s.mlen[k]);
			*plen = len - s.mlen[k];
		}
		scan_free(&s);
		return r;
	}
	for (size_t i = 0; i < s.n; i++) {
		if ((uint32_t)s.v[i].ifindex == rq->parent_index)
			p = (long)i;
		if (s.v[i].ifindex > maxidx)
			maxidx = s.v[i].ifindex;
	}
	r = 0;
	if (p < 0)
		r = refuse(ctx, ENODEV, rq->kind == MLX_CHILD_VLAN ? "link does not exist" : "");
	else if (rq->kind == MLX_CHILD_VLAN && (rq->id >= 4095))
		r = refuse(ctx, ERANGE, "Invalid VLAN id");
	else if (rq->kind == MLX_CHILD_VLAN && rq->proto && rq->proto != MLX_ETH_P_8021Q &&
		 rq->proto != MLX_ETH_P_8021AD)
		r = refuse(ctx, EPROTONOSUPPORT, "Invalid VLAN protocol");
	else if (rq->kind == MLX_CHILD_IPOIB && s.v[p].type != ARPHRD_INFINIBAND)
		r = refuse(ctx, ENODEV, "");
	else if (rq->kind == MLX_CHILD_IPOIB && (rq->id == 0 || rq->id == MLX_IPOIB_FULL_MEMBER))
		r = refuse(ctx, EINVAL, "");
	else if (rq->kind == MLX_CHILD_IPOIB && !strcmp(s.v[p].kind, "ipoib") && s.v[p].link &&
		 s.v[p].link != s.v[p].ifindex)
		r = refuse(ctx, EINVAL, "");
	else if (by_name(&s, rq->name) >= 0)
		r = refuse(ctx, EEXIST, "");
	/* an index asked for that a link has: register_netdevice's
	 * dev_index_reserve refuses it */
	for (size_t i = 0; r == 0 && rq->ifindex && i < s.n; i++)
		if (s.v[i].ifindex == rq->ifindex)
			r = refuse(ctx, EBUSY, "");
	for (size_t i = 0; r == 0 && i < s.n; i++) {
		const struct mlx_link_info *c = &s.v[i];

		if (c->link != s.v[p].ifindex || c->ifindex == s.v[p].ifindex ||
		    strcmp(c->kind, mlx_child_kind_name(rq->kind)))
			continue;
		if (rq->kind == MLX_CHILD_VLAN && c->vlan_id == rq->id)
			r = refuse(ctx, EEXIST, "VLAN device already exists");

	}
	if (r == 0) {
		index = rq->ifindex ? rq->ifindex : maxidx + 1;
		ml = child_msg(msg, sizeof(msg), rq, &s.v[p], (const struct nlmsghdr *)(b + s.off[p]),
			       index);
		r = ml < 0 ? mlx_err(ctx, -ml, "cannot build the link of '%s'", rq->name) : 0;
		if (r == 0 && !(nb = realloc(b, len + (size_t)ml)))
			r = -ENOMEM;
		/* in index order, as the kernel's dump walks its index hash
		 * (a link made again is where it was) */
		at = s.done;
		for (size_t i = 0; r == 0 && i < s.n; i++)
			if (s.v[i].ifindex > index) {
				at = s.off[i];
				break;
			}
		if (r == 0) {
			memmove(nb + at + ml, nb + at, len - at);
			memcpy(nb + at, msg, (size_t)ml);
			*pb = nb;
			*plen = len + (size_t)ml;
		}
	}
	scan_free(&s);
	return r;
}

static int nd_request(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req, size_t len,
		      mlx_nl_cb cb, void *arg)
{
	struct mlx_child_req rq;
	char why[80] = "", path[512];
	char *data = NULL;
	size_t dlen;
	int r;

	(void)fam;
	(void)cb;
	(void)arg;
	if (mlx_child_req_parse(req, len, &rq, why, sizeof(why)) < 0) {
		mlx_nl_set_extack(ctx, why);
		return -EINVAL;
	}
	if (mlx_netlink_capture_path(path, sizeof(path), "route", "all", "getlink-dump") < 0)
		return mlx_err(ctx, EINVAL, "no path for the link dump");
	r = mlx_read_file(ctx, path, &data, &dlen);
	if (r == -ENOENT)
		return mlx_err(ctx, EOPNOTSUPP, "the captured system %s has no link dump to change",
			       mlx_root(ctx));
	if (r < 0)
		return mlx_err(ctx, -r, "cannot read %s: %s", path, strerror(-r));
	r = edit(ctx, (uint8_t **)&data, &dlen, &rq);
	if (r == 0)
		r = mlx_replace_file(ctx, path, data, dlen);
	free(data);
	return r < 0 ? r : 0;
}

/* the captured boundary's entry (emul.h) */
const struct mlx_emul mlx_emul_netdevs = {
	.name = "netdevs",
	.nl_takes = nd_takes,
	.nl_request = nd_request,
};
