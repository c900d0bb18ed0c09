/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GID table of an RDMA port (lib/rdma.h), as show_gids reads it:
 * /sys/class/infiniband/<dev>/ports/<p>/gids/<i> (the GID, "%pI6" text),
 * gid_attrs/types/<i> ("IB/RoCE v1" or "RoCE v2") and gid_attrs/ndevs/<i>
 * (the netdev the GID belongs to; drivers/infiniband/core/sysfs.c).  An
 * empty slot reads as all zeros, and its attribute files fail (EINVAL):
 * they are not read, which is what keeps this fast where show_gids took
 * minutes (mlnx-tools PR#58).  The VLAN of a GID's netdev comes from
 * rtnetlink (IFLA_LINKINFO "vlan", IFLA_VLAN_ID), recorded with snapshots.
 *
 * Also the two pure rules of the RoCE view: where the CM's ToS lands, and
 * the active MTU of a RoCE port.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "mlx-private.h"
#include "nl.h"
#include "rdma.h"

int mlx_gid_parse(const char *text, uint8_t gid[16])
{
	char buf[64];
	size_t n;

	if (!text)
		return -EINVAL;
	n = strcspn(text, " \t\r\n");
	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return inet_pton(AF_INET6, buf, gid) == 1 ? 0 : -EINVAL;
}

enum mlx_gid_type mlx_gid_type_parse(const char *text, bool ethernet)
{
	if (!text)
		return MLX_GID_UNKNOWN;
	if (!strncmp(text, "RoCE v2", 7) && (!text[7] || text[7] == '\n'))
		return MLX_GID_ROCE_V2;
	/* sysfs prints "IB/RoCE v1" for both (ib_cache_gid_type_str) */
	if (!strncmp(text, "IB/RoCE v1", 10) && (!text[10] || text[10] == '\n'))
		return ethernet ? MLX_GID_ROCE_V1 : MLX_GID_IB;
	return MLX_GID_UNKNOWN;
}

const char *mlx_gid_type_name(enum mlx_gid_type t)
{
	static const char *const names[] = { "IB", "RoCE v1", "RoCE v2" };

	return (unsigned)t < 3 ? names[t] : NULL;
}

bool mlx_gid_is_zero(const uint8_t gid[16])
{
	for (int i = 0; i < 16; i++)
		if (gid[i])
			return false;
	return true;
}

bool mlx_gid_ipv4(const uint8_t gid[16], char *buf, size_t len)
{
	static const uint8_t pre[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (len)
		buf[0] = '\0';
	if (memcmp(gid, pre, sizeof(pre)))
		return false;
	return len >= INET_ADDRSTRLEN && inet_ntop(AF_INET, gid + 12, buf, (socklen_t)len);
}

int mlx_rtnl_vlan_id(const struct nlmsghdr *h, size_t len, int *vid)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r, found = -ENOENT;

	*vid = -1;
	if (len < NLMSG_HDRLEN || h->nlmsg_type != RTM_NEWLINK)
		return -EBADMSG;
	if (mlx_nlmsg_attrs(h, len, sizeof(struct ifinfomsg), &attrs, &alen) < 0)
		return -EBADMSG;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		size_t ioff = 0;
		struct mlx_nla i;
		char kind[16] = "";
		struct mlx_nla data = { 0 };
		bool has_data = false;

		if (a.type != IFLA_LINKINFO)
			continue;
		while ((r = mlx_nla_next(a.data, a.len, &ioff, &i)) == 1) {
			if (i.type == IFLA_INFO_KIND)
				mlx_nla_str(&i, kind, sizeof(kind));
			else if (i.type == IFLA_INFO_DATA) {
				data = i;
				has_data = true;
			}
		}
		if (r < 0)
			return -EBADMSG;
		if (strcmp(kind, "vlan") || !has_data)
			continue;
		ioff = 0;
		while ((r = mlx_nla_next(data.data, data.len, &ioff, &i)) == 1) {
			uint16_t v;

			if (i.type != IFLA_VLAN_ID)
				continue;
			if (mlx_nla_u16(&i, &v) < 0 || v > 4095)
				return -EBADMSG;
			*vid = v;
			found = 0;
		}
		if (r < 0)
			return -EBADMSG;
	}
	return r < 0 ? -EBADMSG : found;
}

static int on_link(const struct nlmsghdr *h, size_t len, void *arg)
{
	int *vid = arg, v;

	if (mlx_rtnl_vlan_id(h, len, &v) == 0)
		*vid = v;
	return 0;
}

/* The VLAN of @ifname: RTM_GETLINK, recorded as "getlink-linkinfo". */
static int netdev_vlan(struct mlx_ctx *ctx, const char *ifname)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	uint8_t buf[128];
	struct mlx_nlbuf b;
	int len, vid = -1;

	if (!mlx_name_is_safe(ifname))
		return -1;
	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_nlb_msg(&b, RTM_GETLINK, 0);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	mlx_nlb_str(&b, IFLA_IFNAME, ifname);
	len = mlx_nlb_finish(&b);
	if (len < 0 || mlx_nl_query(ctx, MLX_NL_ROUTE, ifname, "getlink-linkinfo", buf, (size_t)len,
				    on_link, &vid) < 0)
		vid = -1;
	mlx_err_clear(ctx);
	return vid;
}

static int cmp_num(const void *a, const void *b)
{
	long x = strtol(*(char *const *)a, NULL, 10), y = strtol(*(char *const *)b, NULL, 10);

	return (x > y) - (x < y);
}

int mlx_gids_get(struct mlx_ctx *ctx, const char *dev, unsigned port, bool ethernet,
		 struct mlx_gid **out, size_t *nout)
{
	char dir[160], path[224], buf[64], **names = NULL;
	struct { char netdev[16]; int vlan; } cache[8];
	size_t n = 0, nc = 0, cap = 0, count = 0;
	struct mlx_gid *v = NULL;
	int r;

	*out = NULL;
	*nout = 0;
	if (!mlx_name_is_safe(dev))
		return mlx_err(ctx, EINVAL, "'%s' is not an RDMA device name", dev);
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u", dev, port);
	snprintf(path, sizeof(path), "%s/gids", dir);
	r = mlx_list_dir(ctx, path, &names, &n);
	if (r < 0)
		return mlx_err(ctx, r, "cannot list the GIDs of %s port %u: %s", dev, port,
			       strerror(-r));
	qsort(names, n, sizeof(*names), cmp_num);
	for (size_t i = 0; i < n; i++) {
		struct mlx_gid g;
		uint64_t idx;

		if (mlx_parse_u64(names[i], &idx) < 0 || idx > 65535)
			continue;
		memset(&g, 0, sizeof(g));
		g.index = (unsigned)idx;
		g.vlan = -1;
		snprintf(path, sizeof(path), "%s/gids/%s", dir, names[i]);
		if (mlx_read_str(ctx, path, g.text, sizeof(g.text)) < 0 ||
		    mlx_gid_parse(g.text, g.gid) < 0 || mlx_gid_is_zero(g.gid))
			continue;
		snprintf(path, sizeof(path), "%s/gid_attrs/types/%s", dir, names[i]);
		g.type = mlx_read_str(ctx, path, buf, sizeof(buf)) == 0 ?
			 mlx_gid_type_parse(buf, ethernet) : MLX_GID_UNKNOWN;
		snprintf(path, sizeof(path), "%s/gid_attrs/ndevs/%s", dir, names[i]);
		if (mlx_read_str(ctx, path, buf, sizeof(buf)) == 0 && mlx_name_is_safe(buf))
			snprintf(g.netdev, sizeof(g.netdev), "%s", buf);
		mlx_gid_ipv4(g.gid, g.ipv4, sizeof(g.ipv4));
		if (g.netdev[0]) {
			size_t c;

			for (c = 0; c < nc && strcmp(cache[c].netdev, g.netdev); c++)
				;
			if (c == nc && nc < 8) {
				snprintf(cache[nc].netdev, sizeof(cache[nc].netdev), "%s", g.netdev);
				cache[nc++].vlan = netdev_vlan(ctx, g.netdev);
			}
			g.vlan = c < nc ? cache[c].vlan : netdev_vlan(ctx, g.netdev);
		}
		if (count == cap) {
			struct mlx_gid *nv;

			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				mlx_strv_free(names);
				return -ENOMEM;
			}
			v = nv;
		}
		v[count++] = g;
	}
	mlx_strv_free(names);
	mlx_err_clear(ctx);
	*out = v;
	*nout = count;
	return 0;
}

/* ---- the RoCE view (pure) ----------------------------------------------- */

void mlx_roce_tos_prio(int tos, int trust_dscp, const int8_t dscp2prio[64], int *dscp, int *prio)
{
	*dscp = tos >= 0 && tos <= 255 ? tos >> 2 : -1;
	*prio = -1;
	if (*dscp < 0 || trust_dscp < 0)
		return;
	if (trust_dscp == 0)
		*prio = 0;
	else
		*prio = dscp2prio && dscp2prio[*dscp] >= 0 && dscp2prio[*dscp] < 8 ?
			dscp2prio[*dscp] : 0;
}

unsigned mlx_roce_active_mtu(unsigned netdev_mtu)
{
	/* IB_GRH_BYTES 40 + IB_UDP_BYTES 8 + IB_BTH_BYTES 12 + IB_EXT_XRC_BYTES
	 * 4 + IB_EXT_ATOMICETH_BYTES 28 + IB_ICRC_BYTES 4 */
	unsigned m;

	if (netdev_mtu < 96 + 256)
		return 0;
	m = netdev_mtu - 96;
	for (unsigned ib = 4096; ib >= 256; ib /= 2)
		if (m >= ib)
			return ib;
	return 0;
}
