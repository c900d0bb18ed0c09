/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The queries of the VXLAN and packet-filter views (lib/netview.h): each
 * netlink request goes through mlx_nl_query, so a snapshot records its
 * reply and a captured system replays it into the same decoder.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>

#include "mlx-private.h"
#include "netview.h"
#include "nl.h"
#include "params.h"

static int check_ifname(struct mlx_ctx *ctx, const char *ifname)
{
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= IFNAMSIZ)
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", ifname);
	return 0;
}

/* ---- tunnel info ---- */

struct one {
	void *out;
	int (*decode)(const struct nlmsghdr *h, size_t len, void *out);
	int r;
	bool got;
};

static int one_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct one *o = arg;
	int r = o->decode(h, len, o->out);

	if (r == -ENOMSG)
		return 0;       /* another message (an echo): not ours */
	o->got = true;
	o->r = r;
	return 0;
}

static int dec_tunnel(const struct nlmsghdr *h, size_t len, void *out)
{
	return mlx_tunnel_info_decode(h, len, out);
}

static int dec_link(const struct nlmsghdr *h, size_t len, void *out)
{
	return mlx_link_info_decode(h, len, out);
}

/* One request, one decoded reply into @out.  -ENODATA when the kernel
 * (or the capture) answered nothing the decoder took. */
static int query_one(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
		     const char *request, const void *req, size_t len, struct one *o, const char *what)
{
	int r = mlx_nl_query(ctx, fam, object, request, req, len, one_cb, o);

	if (r < 0)
		return r;
	if (o->r < 0)
		return mlx_err(ctx, -o->r, "cannot decode the %s reply of '%s'", what, object);
	return o->got ? 0 : mlx_err(ctx, ENODATA, "no %s reply for '%s'", what, object);
}

int mlx_tunnel_info_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_tunnel_info *out)
{
	struct one o = { out, dec_tunnel, 0, false };
	uint8_t req[128];
	int len, r;

	memset(out, 0, sizeof(*out));
	r = check_ifname(ctx, ifname);
	if (r < 0)
		return r;
	len = mlx_tunnel_info_build(req, sizeof(req), ifname);
	if (len < 0)
		return len;
	r = query_one(ctx, MLX_NL_ETHTOOL, ifname, "tunnel-info-get", req, (size_t)len, &o,
		      "ethtool tunnel info");
	if (r == -EOPNOTSUPP) {
		const char *why = mlx_nl_extack(ctx);

		/* net/ethtool/tunnels.c: "device does not report tunnel offload info" */
		r = mlx_err(ctx, EOPNOTSUPP, "'%s' reports no UDP tunnel offload%s%s%s", ifname,
			    *why ? " (the kernel: " : "", why, *why ? ")" : "");
	}
	return r;
}

/* The tunnel offload features (include/linux/netdev_features.h names,
 * net/ethtool/common.c netdev_features_strings). */
const char *const mlx_tunnel_features[] = {
	"tx-udp_tnl-segmentation", "tx-udp_tnl-csum-segmentation", "rx-udp_tunnel-port-offload",
	"tx-gre-segmentation", "tx-gre-csum-segmentation", "tx-ipxip4-segmentation",
	"tx-ipxip6-segmentation", NULL,
};

int mlx_tunnel_features_get(struct mlx_ctx *ctx, struct mlx_params_cache *pc, const char *ifname,
			    struct mlx_tunnel_features *out)
{
	struct mlx_eth_features *f;
	int r;

	for (size_t i = 0; i < MLX_TUNNEL_NFEATURES; i++)
		out->active[i] = out->fixed[i] = -1;
	r = check_ifname(ctx, ifname);
	if (r < 0)
		return r;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	/* params' one features dump for the host ("features-dump") */
	r = mlx_params_features(ctx, pc, ifname, f);
	for (size_t i = 0; r == 0 && mlx_tunnel_features[i]; i++) {
		int hw;

		out->active[i] = mlx_bitset_get(&f->active, mlx_tunnel_features[i]);
		if (out->active[i] < 0)
			continue;
		hw = f->have_hw ? mlx_bitset_get(&f->hw, mlx_tunnel_features[i]) : 1;
		out->fixed[i] = hw == 0 || (f->have_nochange &&
					    mlx_bitset_get(&f->nochange, mlx_tunnel_features[i]) == 1);
	}
	free(f);
	return r;
}

/* ---- RTM_GETLINK ---- */

int mlx_link_info_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_link_info *out)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct one o = { out, dec_link, 0, false };
	uint8_t buf[128];
	struct mlx_nlbuf b;
	int len, r;

	memset(out, 0, sizeof(*out));
	r = check_ifname(ctx, ifname);
	if (r < 0)
		return r;
	/* the request lib/rdma/gid.c sends: one recording serves both */
	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_nlb_msg(&b, RTM_GETLINK, 0);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	mlx_nlb_str(&b, IFLA_IFNAME, ifname);
	len = mlx_nlb_finish(&b);
	if (len < 0)
		return len;
	return query_one(ctx, MLX_NL_ROUTE, ifname, "getlink-linkinfo", buf, (size_t)len, &o,
			 "rtnetlink link");
}

/* The VXLAN netdevs: the kind "vxlan" links of the one link dump
 * (mlx_links_dump, which the VLAN and IPoIB views read too). */
int mlx_vxlan_devs_get(struct mlx_ctx *ctx, struct mlx_vxlan_dev **out, size_t *n)
{
	struct mlx_link_info *li;
	struct mlx_vxlan_dev *v = NULL;
	size_t nl, k = 0;
	int r;

	*out = NULL;
	*n = 0;
	r = mlx_links_dump(ctx, &li, &nl);
	if (r < 0)
		return r;
	for (size_t i = 0; i < nl; i++)
		k += !strcmp(li[i].kind, "vxlan");
	if (k && !(v = calloc(k, sizeof(*v)))) {
		free(li);
		return -ENOMEM;
	}
	k = 0;
	for (size_t i = 0; i < nl; i++)
		if (!strcmp(li[i].kind, "vxlan"))
			v[k++] = li[i].vxlan;
	free(li);
	*out = v;
	*n = k;
	return 0;
}

/* ---- packet filter ---- */

struct fdb {
	struct mlx_filter *f;
	size_t cuc, cmc;
	int r;
};

static int push(struct mlx_hw_addr **v, size_t *n, size_t *cap, const struct mlx_hw_addr *a)
{
	if (*n == *cap) {
		struct mlx_hw_addr *nv;

		*cap = *cap ? *cap * 2 : 8;
		nv = realloc(*v, *cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		*v = nv;
	}
	(*v)[(*n)++] = *a;
	return 0;
}

static int fdb_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct fdb *d = arg;
	struct mlx_hw_addr a;
	int r = mlx_fdb_decode(h, len, d->f->link.ifindex, &a);

	if (r < 0) {
		d->r = r;
		return 0;
	}
	if (r == 0)
		return 0;
	return a.multicast ? push(&d->f->mc, &d->f->nmc, &d->cmc, &a) :
			     push(&d->f->uc, &d->f->nuc, &d->cuc, &a);
}

int mlx_filter_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_filter *out)
{
	struct ifinfomsg ifi = { .ifi_family = AF_BRIDGE };
	struct fdb d = { out, 0, 0, 0 };
	uint8_t buf[64];
	struct mlx_nlbuf b;
	char *text = NULL;
	size_t tlen = 0;
	int len, r;

	memset(out, 0, sizeof(*out));
	r = check_ifname(ctx, ifname);
	if (r < 0)
		return r;
	snprintf(out->ifname, sizeof(out->ifname), "%s", ifname);
	out->link_err = mlx_link_info_get(ctx, ifname, &out->link);
	if (out->link_err == -ENODEV)
		return mlx_err(ctx, ENODEV, "no network interface '%s'", ifname);
	/* The fdb dump of this interface alone: the legacy request form (an
	 * ifinfomsg whose ifi_index is the port, net/core/rtnetlink.c
	 * valid_fdb_dump_legacy), which every kernel since 4.12 takes on a
	 * socket without strict checking. */
	if (out->link_err == 0) {
		ifi.ifi_index = out->link.ifindex;
		mlx_nlb_init(&b, buf, sizeof(buf));
		mlx_nlb_msg(&b, RTM_GETNEIGH, NLM_F_DUMP);
		mlx_nlb_put(&b, &ifi, sizeof(ifi));
		len = mlx_nlb_finish(&b);
		if (len < 0)
			return len;
		r = mlx_nl_query(ctx, MLX_NL_ROUTE, ifname, "fdb-dump", buf, (size_t)len, fdb_cb, &d);
		if (r == 0 && d.r < 0)
			r = mlx_err(ctx, -d.r, "cannot decode the fdb dump of '%s'", ifname);
		if (r == -ENOMEM)
			return r;
		if (r == 0) {
			out->lists_source = "rtnetlink";
			mlx_err_clear(ctx);
			return 0;
		}
		out->lists_err = r;
		/* what was kept from a failed dump is not the whole list */
		free(out->uc);
		free(out->mc);
		out->uc = out->mc = NULL;
		out->nuc = out->nmc = 0;
	}
	/* /proc/net/dev_mcast: the multicast list only, with its counts (an
	 * IPoIB port, whose fdb dump the kernel refuses: ARPHRD_INFINIBAND) */
	r = mlx_read_file(ctx, "/proc/net/dev_mcast", &text, &tlen);
	if (r == 0) {
		r = mlx_dev_mcast_parse(text, tlen, ifname, &out->mc, &out->nmc);
		free(text);
		if (r == 0) {
			out->lists_source = "/proc/net/dev_mcast";
			out->lists_err = 0;
		} else if (r == -ENOMEM) {
			return r;
		} else {
			out->lists_err = r;
		}
	} else if (!out->lists_err) {
		out->lists_err = r;
	}
	mlx_err_clear(ctx);
	return 0;
}

void mlx_filter_free(struct mlx_filter *f)
{
	free(f->uc);
	free(f->mc);
	f->uc = f->mc = NULL;
	f->nuc = f->nmc = 0;
}
