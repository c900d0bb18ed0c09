/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counter collection: one pass over every source of every port per sample
 * (contract in lib/counters.h).  Names are listed and catalogued once per
 * run and kept in struct mlx_cstate; a later sample only reads values.
 */
#include "config.h"

#include <errno.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counters.h"
#include "counters-cache.h"
#include "mlx-private.h"
#include "nl.h"

static int port_push(struct mlx_counter_port *p, const struct cnames *cn, size_t i, bool valid,
		     uint64_t raw)
{
	struct mlx_counter *c;

	if (p->n == p->cap) {
		/* Room for the rest of this listing and the netdev and AER
		 * sources after it (25 and a few) at once, or double. */
		size_t cap = p->n + (cn->n - i) + 32 > p->cap * 2 ? p->n + (cn->n - i) + 32 :
			     p->cap * 2;
		struct mlx_counter *nc = realloc(p->c, cap * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		p->c = nc;
		p->cap = cap;
	}
	c = &p->c[p->n++];
	c->name = cn->names[i];
	c->m = &cn->m[i];
	c->src = cn->src;
	c->valid = valid;
	c->raw = raw;
	if (cn->m[i].scale > 1 && raw > UINT64_MAX / cn->m[i].scale)
		c->value = UINT64_MAX;
	else
		c->value = raw * cn->m[i].scale;
	return 0;
}

/* ---- sysfs directories of one-value files -------------------------------- */

static int sample_dir(struct mlx_ctx *ctx, struct mlx_cstate *st, struct mlx_counter_port *p,
		      enum mlx_csrc src, const char *key, const char *dir)
{
	struct cnames *cn = cn_find(st, src, key);
	char path[PATH_MAX];
	int r;

	if (!cn) {
		char **names = NULL;
		size_t n = 0;

		r = mlx_list_dir(ctx, dir, &names, &n);
		if (r < 0) {
			names = NULL;
			n = 0;
		}
		cn = cn_add(st, src, key, names, n, r < 0 ? r : 0);
		if (!cn)
			return -ENOMEM;
	}
	if (cn->err)
		return cn->err;
	for (size_t i = 0; i < cn->n; i++) {
		uint64_t v = 0;

		snprintf(path, sizeof(path), "%s/%s", dir, cn->names[i]);
		r = mlx_read_u64(ctx, path, &v);
		/* "N/A (no PMA)" and friends: unavailable, not fatal
		 * (node_exporter#966). */
		if (port_push(p, cn, i, r == 0, r == 0 ? v : 0) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* ---- netdev statistics, live: one RTM_GETLINK dump for every netdev -------
 *
 * `ip -s link` gets the statistics of every interface from one dump; so do
 * we on a live system, instead of 24 sysfs files per netdev (the same
 * struct rtnl_link_stats64: net-sysfs.c netstat_show() and rtnl_fill_stats()
 * both call dev_get_stats()).  A captured system has no such dump and keeps
 * its statistics/ files, which sample_dir() reads.
 */
/* Up to this many netdevs are asked about one by one, beyond it with one
 * dump (link statistics, ethtool names). */
#define FEW_TARGETS 8

static const char *tg_ifname(const struct mlx_ctarget *t)
{
	return t->port ? (t->port->ifname[0] ? t->port->ifname : NULL) : t->ifname;
}

struct link_stats {
	char name[IFNAMSIZ];
	char parent[64];           /* IFLA_PARENT_DEV_NAME when on the PCI bus */
	bool has_parent;           /* the attribute was there (any bus) */
	uint64_t v[32];
	size_t n;                  /* 0: no IFLA_STATS64 */
};

struct link_table {
	struct link_stats *e;
	size_t n, cap;
	/* Whether an entry without a parent has none: the kernel sends
	 * IFLA_PARENT_DEV_NAME (Linux 5.16) only for a device with a parent,
	 * so its absence means something only on a kernel that has it. */
	bool parents_known;
};

/* Field names of struct rtnl_link_stats64, in its order (uapi if_link.h);
 * a newer kernel's extra fields are named by index. */
static const char *const stats64_names[] = {
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_errors", "tx_errors",
	"rx_dropped", "tx_dropped", "multicast", "collisions", "rx_length_errors",
	"rx_over_errors", "rx_crc_errors", "rx_frame_errors", "rx_fifo_errors",
	"rx_missed_errors", "tx_aborted_errors", "tx_carrier_errors", "tx_fifo_errors",
	"tx_heartbeat_errors", "tx_window_errors", "rx_compressed", "tx_compressed",
	"rx_nohandler", "rx_otherhost_dropped",
};
_Static_assert(offsetof(struct rtnl_link_stats64, rx_nohandler) == 23 * sizeof(uint64_t),
	       "stats64_names[] follows struct rtnl_link_stats64");

static int link_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct link_table *t = arg;
	struct link_stats e = { .n = 0 };
	const uint8_t *attrs;
	struct mlx_nla a;
	size_t alen, off = 0;

	if (h->nlmsg_type != RTM_NEWLINK ||
	    mlx_nlmsg_attrs(h, len, sizeof(struct ifinfomsg), &attrs, &alen) < 0)
		return 0;
	char bus[16] = "";

	while (mlx_nla_next(attrs, alen, &off, &a) == 1) {
		if (a.type == IFLA_IFNAME) {
			mlx_nla_str(&a, e.name, sizeof(e.name));
		} else if (a.type == IFLA_PARENT_DEV_NAME) {
			mlx_nla_str(&a, e.parent, sizeof(e.parent));
			e.has_parent = true;
		} else if (a.type == IFLA_PARENT_DEV_BUS_NAME) {
			mlx_nla_str(&a, bus, sizeof(bus));
		} else if (a.type == IFLA_STATS64) {
			e.n = a.len / sizeof(uint64_t);
			if (e.n > 32)
				e.n = 32;
			memcpy(e.v, a.data, e.n * sizeof(uint64_t));   /* unaligned-safe */
		}
	}
	if (!e.name[0])
		return 0;
	if (strcmp(bus, "pci"))      /* an auxiliary device (SF), a platform device */
		e.parent[0] = '\0';
	if (e.has_parent)
		t->parents_known = true;
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 64;
		struct link_stats *ne = realloc(t->e, nc * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		t->e = ne;
		t->cap = nc;
	}
	t->e[t->n++] = e;
	return 0;
}

static int link_cmp(const void *a, const void *b)
{
	return strcmp(((const struct link_stats *)a)->name, ((const struct link_stats *)b)->name);
}

/* RTM_GETLINK for @ifname, or a dump of every netdev when NULL. */
static int get_links(struct mlx_ctx *ctx, struct link_table *t, const char *ifname)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct mlx_nlbuf b;
	uint8_t buf[64];
	int len, r;

	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_nlb_msg(&b, RTM_GETLINK, ifname ? 0 : NLM_F_DUMP);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	if (ifname)
		mlx_nlb_str(&b, IFLA_IFNAME, ifname);
	len = mlx_nlb_finish(&b);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_ROUTE, ifname ? ifname : "all", "getlink-stats", buf,
			 (size_t)len, link_cb, t);
	return ifname && (r == -ENODEV || r == -ENOENT) ? 0 : r;    /* gone: not in the table */
}

/*
 * The link table of the targets' netdevs: one dump of every netdev (what
 * `ip -s link` reads), or, for a few targets on a host with many netdevs,
 * one request each, so that `counters -d eth0` does not pay for 2,000
 * veths.
 */
static int load_links(struct mlx_ctx *ctx, struct link_table *t, const struct mlx_ctarget *tg,
		      size_t nt)
{
	size_t nif = 0;
	int r = 0;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < nt; i++)
		nif += tg_ifname(&tg[i]) != NULL;
	if (!nif)
		return -ENOENT;
	if (nif > FEW_TARGETS) {
		r = get_links(ctx, t, NULL);
	} else {
		for (size_t i = 0; i < nt && r == 0; i++)
			if (tg_ifname(&tg[i]) && mlx_name_is_safe(tg_ifname(&tg[i])))
				r = get_links(ctx, t, tg_ifname(&tg[i]));
	}
	if (r < 0) {
		free(t->e);
		memset(t, 0, sizeof(*t));
		mlx_err_clear(ctx);
		return r;
	}
	mlx_err_clear(ctx);        /* a netdev that was gone is not an error */
	if (t->n)
		qsort(t->e, t->n, sizeof(*t->e), link_cmp);
	if (!t->parents_known)
		t->parents_known = mlx_kernel_at_least(5, 16);
	return 0;
}

static const struct link_stats *link_find(const struct link_table *t, const char *ifname)
{
	struct link_stats key;

	snprintf(key.name, sizeof(key.name), "%s", ifname);
	return t->n ? bsearch(&key, t->e, t->n, sizeof(*t->e), link_cmp) : NULL;
}

static int sample_link(struct mlx_cstate *st, const struct link_stats *e,
		       struct mlx_counter_port *p)
{
	struct cnames *cn;
	char k[16];

	if (!e || !e->n)
		return -ENOENT;
	/* One names list per field count, shared by every netdev. */
	snprintf(k, sizeof(k), "rtnl/%zu", e->n);
	cn = cn_find(st, MLX_CSRC_NETDEV, k);
	if (!cn) {
		char **names = calloc(e->n + 1, sizeof(*names));

		if (!names)
			return -ENOMEM;
		for (size_t i = 0; i < e->n; i++) {
			char idx[32];

			snprintf(idx, sizeof(idx), "stats64_field_%zu", i);
			names[i] = strdup(i < sizeof(stats64_names) / sizeof(*stats64_names)
					  ? stats64_names[i] : idx);
			if (!names[i]) {
				mlx_strv_free(names);
				return -ENOMEM;
			}
		}
		cn = cn_add(st, MLX_CSRC_NETDEV, k, names, e->n, 0);
		if (!cn)
			return -ENOMEM;
	}
	for (size_t i = 0; i < e->n; i++)
		if (port_push(p, cn, i, true, e->v[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* ---- AER: "Name count" lines in three files ------------------------------ */

static int sample_aer(struct mlx_ctx *ctx, struct mlx_cstate *st, struct mlx_counter_port *p)
{
	static const char *const files[][2] = {
		{ "aer_dev_correctable", "correctable_" },
		{ "aer_dev_nonfatal", "nonfatal_" },
		{ "aer_dev_fatal", "fatal_" },
	};
	char *names[128];
	uint64_t vals[128];
	size_t n = 0;
	struct cnames *cn;
	bool any = false;

	for (size_t f = 0; f < 3; f++) {
		char path[PATH_MAX], *data = NULL, *save = NULL;

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", p->bdf, files[f][0]);
		if (mlx_read_file(ctx, path, &data, NULL) < 0)
			continue;
		any = true;
		for (char *line = strtok_r(data, "\n", &save); line && n < 128;
		     line = strtok_r(NULL, "\n", &save)) {
			char name[96], *sp = strrchr(line, ' ');
			uint64_t v;

			if (!sp || mlx_parse_u64(sp + 1, &v) < 0)
				continue;
			*sp = '\0';
			if (!strncmp(line, "TOTAL_ERR_", 10))
				snprintf(name, sizeof(name), "%s", line);
			else
				snprintf(name, sizeof(name), "%s%s", files[f][1], line);
			names[n] = strdup(name);
			if (!names[n])
				break;
			vals[n++] = v;
		}
		free(data);
	}
	if (!any)
		return -ENOENT;
	cn = cn_find(st, MLX_CSRC_AER, p->bdf);
	if (cn_same(cn, names, n)) {
		for (size_t i = 0; i < n; i++)
			free(names[i]);
	} else {
		char **v = calloc(n ? n : 1, sizeof(*v));

		if (!v) {
			for (size_t i = 0; i < n; i++)
				free(names[i]);
			return -ENOMEM;
		}
		memcpy(v, names, n * sizeof(*v));
		cn = cn_add(st, MLX_CSRC_AER, p->bdf, v, n, 0);
		if (!cn)
			return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (port_push(p, cn, i, true, vals[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* ---- ethtool --------------------------------------------------------------- */

static int ethtool_names(struct mlx_ctx *ctx, struct mlx_cstate *st, const char *ifname,
			 struct cnames **out)
{
	struct mlx_ethtool_names en;
	int r;

	r = mlx_ethtool_stat_names(ctx, ifname, &en);
	if (r < 0)
		return r;
	*out = cn_add(st, MLX_CSRC_ETHTOOL, ifname, en.names, en.n, 0);
	if (*out)
		(*out)->netlink = en.from_netlink;
	return *out ? 0 : -ENOMEM;
}

static int sample_ethtool(struct mlx_ctx *ctx, struct mlx_cstate *st, struct mlx_counter_port *p)
{
	struct cnames *cn = cn_find(st, MLX_CSRC_ETHTOOL, p->ifname);
	uint64_t *vals;
	size_t n;
	int r, tries = 0;

	if (cn && cn->err)
		return cn->err;
again:
	if (!cn) {
		r = ethtool_names(ctx, st, p->ifname, &cn);
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			/* Remember the failure (a netdev without ethtool stats). */
			if (!cn_add(st, MLX_CSRC_ETHTOOL, p->ifname, NULL, 0, r))
				return -ENOMEM;
			return r;
		}
	}
	n = cn->n;
	p->names_netlink = cn->netlink;
	vals = calloc(n + 1, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	r = mlx_ethtool_stat_values(ctx, p->ifname, vals, &n);
	if ((r == -ESTALE || (r == 0 && n != cn->n)) && tries++ == 0) {
		/* Channels changed since the names were fetched. */
		free(vals);
		cn->stale = true;
		cn = NULL;
		goto again;
	}
	if (r == 0 && n != cn->n)
		r = mlx_err(ctx, EBADMSG, "'%s' has %zu statistics names but %zu values",
			    p->ifname, cn->n, n);
	for (size_t i = 0; r == 0 && i < n; i++)
		if (port_push(p, cn, i, true, vals[i]) < 0)
			r = -ENOMEM;
	free(vals);
	return r;
}

struct preload_arg {
	struct mlx_cstate *st;
	int err;
};

static int preload_cb(const char *ifname, struct mlx_ethtool_names *en, void *arg)
{
	struct preload_arg *a = arg;
	struct cnames *cn;

	if (cn_find(a->st, MLX_CSRC_ETHTOOL, ifname)) {
		mlx_ethtool_names_free(en);
		return 0;
	}
	/* No statistics: remembered as the ioctl would have answered. */
	cn = cn_add(a->st, MLX_CSRC_ETHTOOL, ifname, en->names, en->n,
		    en->names ? 0 : -EOPNOTSUPP);
	if (!cn) {
		a->err = -ENOMEM;
		return -ENOMEM;
	}
	cn->netlink = true;
	return 0;
}

/*
 * The ethtool names of many netdevs from one STRSET_GET dump instead of
 * one request each.  Worth it when the targets without cached names are
 * many and a good part of the host's netdevs (@nlinks; 0: unknown); a
 * dump the kernel cuts short leaves the rest to sample_ethtool()'s own
 * request.
 */
static int preload_ethtool_names(struct mlx_ctx *ctx, struct mlx_cstate *st,
				 const struct mlx_ctarget *t, size_t nt, size_t nlinks)
{
	struct preload_arg a = { .st = st, .err = 0 };
	size_t missing = 0;

	for (size_t i = 0; i < nt; i++)
		if (tg_ifname(&t[i]) && !cn_find(st, MLX_CSRC_ETHTOOL, tg_ifname(&t[i])))
			missing++;
	if (missing <= FEW_TARGETS || missing * 4 < nlinks)
		return 0;
	mlx_ethtool_stat_names_dump(ctx, preload_cb, &a);
	mlx_err_clear(ctx);
	return a.err;
}

/* ---- one sample ------------------------------------------------------------ */

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int sample_port(struct mlx_ctx *ctx, struct mlx_cstate *st, const struct mlx_ctarget *t,
		       unsigned srcs, const struct link_table *links, struct mlx_counter_port *p)
{
	const struct link_stats *le = NULL;
	char path[PATH_MAX], key[128];
	int r;

	if (t->fn)
		snprintf(p->bdf, sizeof(p->bdf), "%s", t->fn->bdf);
	p->fn = t->fn;
	p->port_label = 1;
	if (t->port) {
		snprintf(p->ifname, sizeof(p->ifname), "%s", t->port->ifname);
		snprintf(p->rdma_dev, sizeof(p->rdma_dev), "%s", t->port->rdma_dev);
		p->rdma_port = t->port->rdma_port;
		p->port_label = p->rdma_port ? (int)p->rdma_port :
				t->port->dev_port >= 0 ? t->port->dev_port + 1 : 1;
	} else if (t->ifname) {
		snprintf(p->ifname, sizeof(p->ifname), "%s", t->ifname);
	}
	if (p->ifname[0]) {
		/* Live, the link dump says which netdevs exist and their
		 * PCI parents; offline (or without the dump), sysfs. */
		if (!links)
			snprintf(path, sizeof(path), "/sys/class/net/%s", p->ifname);
		if (!mlx_name_is_safe(p->ifname) ||
		    (links ? !(le = link_find(links, p->ifname)) : !mlx_exists(ctx, path))) {
			p->gone = true;
			return 0;
		}
		p->no_device = le && links->parents_known && !le->has_parent;
		if (!p->bdf[0] && le && links->parents_known) {
			snprintf(p->bdf, sizeof(p->bdf), "%s", le->parent);
		} else if (!p->bdf[0]) {
			char bdf[64];

			snprintf(path, sizeof(path), "/sys/class/net/%s/device", p->ifname);
			if (mlx_readlink_base(ctx, path, bdf, sizeof(bdf)) == 0)
				snprintf(p->bdf, sizeof(p->bdf), "%s", bdf);
		}
	}
	for (unsigned s = 0; s < MLX_CSRC_N; s++)
		p->err[s] = -ENOENT;
	if ((srcs & (1u << MLX_CSRC_ETHTOOL)) && p->ifname[0]) {
		r = sample_ethtool(ctx, st, p);
		if (r == -ENOMEM)
			return r;
		if (r == -ENODEV) {
			p->gone = true;           /* vanished between the check and the ioctl */
			return 0;
		}
		p->err[MLX_CSRC_ETHTOOL] = r;
	}
	if ((srcs & (1u << MLX_CSRC_NETDEV)) && p->ifname[0]) {
		r = sample_link(st, le, p);
		if (r == -ENOENT) {     /* not in the dump (or offline): sysfs */
			snprintf(path, sizeof(path), "/sys/class/net/%s/statistics", p->ifname);
			r = sample_dir(ctx, st, p, MLX_CSRC_NETDEV, p->ifname, path);
		}
		if (r == -ENOMEM)
			return r;
		p->err[MLX_CSRC_NETDEV] = r;
	}
	if (p->rdma_dev[0] && p->rdma_port && mlx_name_is_safe(p->rdma_dev)) {
		static const struct { enum mlx_csrc s; const char *dir; } rd[] = {
			{ MLX_CSRC_HW, "hw_counters" }, { MLX_CSRC_IB, "counters" },
		};

		for (size_t i = 0; i < 2; i++) {
			if (!(srcs & (1u << rd[i].s)))
				continue;
			snprintf(key, sizeof(key), "%s/%u", p->rdma_dev, p->rdma_port);
			snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/%s",
				 p->rdma_dev, p->rdma_port, rd[i].dir);
			r = sample_dir(ctx, st, p, rd[i].s, key, path);
			if (r == -ENOMEM)
				return r;
			p->err[rd[i].s] = r;
		}
	}
	if ((srcs & (1u << MLX_CSRC_AER)) && p->bdf[0] && mlx_name_is_safe(p->bdf)) {
		r = sample_aer(ctx, st, p);
		if (r == -ENOMEM)
			return r;
		p->err[MLX_CSRC_AER] = r;
	}
	return 0;
}

int mlx_counters_sample(struct mlx_ctx *ctx, struct mlx_cstate *st,
			const struct mlx_ctarget *t, size_t nt, unsigned srcs,
			struct mlx_counters *out)
{
	int r = 0;

	memset(out, 0, sizeof(*out));
	out->ports = calloc(nt ? nt : 1, sizeof(*out->ports));
	if (!out->ports)
		return -ENOMEM;
	out->nports = nt;
	clock_gettime(CLOCK_REALTIME, &out->wall);
	out->t = now_mono();
	struct link_table links = { 0 };
	bool have_links = false;

	/* Which netdevs exist, their PCI parents and their statistics from
	 * rtnetlink (see sample_link()); the ethtool names of many netdevs
	 * from one dump.  A captured system holds no such replies (ENODATA):
	 * sysfs and the per-netdev recordings answer instead. */
	if (nt > 0)
		have_links = load_links(ctx, &links, t, nt) == 0;
	if (srcs & (1u << MLX_CSRC_ETHTOOL))
		r = preload_ethtool_names(ctx, st, t, nt, have_links ? links.n : 0);
	for (size_t i = 0; i < nt && r == 0; i++)
		r = sample_port(ctx, st, &t[i], srcs, have_links ? &links : NULL, &out->ports[i]);
	free(links.e);
	/* The time of the sample is the middle of the pass. */
	out->t = (out->t + now_mono()) / 2;
	if (r < 0)
		mlx_counters_free(out);
	return r;
}

void mlx_counters_free(struct mlx_counters *c)
{
	for (size_t i = 0; c->ports && i < c->nports; i++)
		free(c->ports[i].c);
	free(c->ports);
	memset(c, 0, sizeof(*c));
}

const struct mlx_counter *mlx_counters_find(const struct mlx_counter_port *p,
					    enum mlx_csrc src, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->c[i].src == src && !strcmp(p->c[i].name, name))
			return &p->c[i];
	return NULL;
}

bool mlx_counter_change(const struct mlx_counter_port *prev, size_t k,
			const struct mlx_counter *c, double seconds, struct mlx_crate *out)
{
	const struct mlx_counter *pc;
	uint64_t d;

	memset(out, 0, sizeof(*out));
	if (!prev || prev->gone || !c->valid || (c->m->flags & MLX_CF_GAUGE))
		return false;
	pc = k < prev->n && prev->c[k].name == c->name && prev->c[k].src == c->src ?
	     &prev->c[k] : mlx_counters_find(prev, c->src, c->name);
	if (!pc || !pc->valid)
		return false;
	d = mlx_counter_delta(pc->raw, c->raw, c->m->width, &out->reset);
	/* the IB data counters count 4-octet words (scale 4) */
	out->delta = c->m->scale > 1 && d > UINT64_MAX / c->m->scale ? UINT64_MAX :
		     d * (c->m->scale ? c->m->scale : 1);
	out->per_second = out->reset ? 0.0 : mlx_counter_rate(out->delta, seconds);
	return true;
}

int mlx_counters_capture(struct mlx_ctx *ctx, const struct mlx_devices *devs)
{
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		for (size_t k = 0; k < fn->nports; k++) {
			struct mlx_ethtool_names en;
			uint64_t *vals;
			size_t n;

			if (mlx_ethtool_stat_names(ctx, fn->ports[k].ifname, &en) < 0)
				continue;
			n = en.n;
			vals = calloc(n + 1, sizeof(*vals));
			if (vals)
				mlx_ethtool_stat_values(ctx, fn->ports[k].ifname, vals, &n);
			free(vals);
			mlx_ethtool_names_free(&en);
		}
	}
	mlx_err_clear(ctx);
	return 0;
}
