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
#include "mlx-private.h"
#include "nl.h"

/* The names of one source of one port, catalogued.  Never freed before
 * the state: samples point into it. */
struct cnames {
	uint8_t src;
	bool stale;                 /* replaced by a newer listing */
	char key[128];              /* ifname, "mlx5_0/1", BDF */
	char **names;
	struct mlx_cat_match *m;
	size_t n;
	int err;                    /* listing failed: do not retry each sample */
	bool netlink;               /* ethtool names from netlink */
	struct cnames *next;
};

struct mlx_cstate {
	struct cnames *head;
};

struct mlx_cstate *mlx_cstate_new(void)
{
	return calloc(1, sizeof(struct mlx_cstate));
}

static void cnames_free(struct cnames *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	free(c->m);
	free(c);
}

void mlx_cstate_free(struct mlx_cstate *st)
{
	if (!st)
		return;
	while (st->head) {
		struct cnames *c = st->head;

		st->head = c->next;
		cnames_free(c);
	}
	free(st);
}

static struct cnames *cn_find(struct mlx_cstate *st, enum mlx_csrc src, const char *key)
{
	for (struct cnames *c = st->head; c; c = c->next)
		if (c->src == src && !c->stale && !strcmp(c->key, key))
			return c;
	return NULL;
}

/* A new listing for (src, key) from @names (taken over); the previous one
 * stays allocated for the samples that use it. */
static struct cnames *cn_add(struct mlx_cstate *st, enum mlx_csrc src, const char *key,
			     char **names, size_t n, int err)
{
	struct cnames *old = cn_find(st, src, key), *c = calloc(1, sizeof(*c));

	if (!c)
		goto nomem;
	c->m = calloc(n ? n : 1, sizeof(*c->m));
	if (!c->m)
		goto nomem;
	c->src = (uint8_t)src;
	snprintf(c->key, sizeof(c->key), "%s", key);
	c->names = names;
	c->n = n;
	c->err = err;
	for (size_t i = 0; i < n; i++)
		mlx_cat_lookup(src, names[i], &c->m[i]);
	if (old)
		old->stale = true;
	c->next = st->head;
	st->head = c;
	return c;
nomem:
	free(c);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return NULL;
}

static int port_push(struct mlx_counter_port *p, const struct cnames *cn, size_t i, bool valid,
		     uint64_t raw)
{
	struct mlx_counter *c;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 256;
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
struct link_stats {
	char name[IFNAMSIZ];
	uint64_t v[32];
	size_t n;
};

struct link_table {
	struct link_stats *e;
	size_t n, cap;
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
	while (mlx_nla_next(attrs, alen, &off, &a) == 1) {
		if (a.type == IFLA_IFNAME) {
			mlx_nla_str(&a, e.name, sizeof(e.name));
		} else if (a.type == IFLA_STATS64) {
			e.n = a.len / sizeof(uint64_t);
			if (e.n > 32)
				e.n = 32;
			memcpy(e.v, a.data, e.n * sizeof(uint64_t));   /* unaligned-safe */
		}
	}
	if (!e.name[0] || !e.n)
		return 0;
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

static int dump_link_stats(struct mlx_ctx *ctx, struct link_table *t)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct mlx_nlbuf b;
	uint8_t buf[64];
	int len, r;

	memset(t, 0, sizeof(*t));
	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_nlb_msg(&b, RTM_GETLINK, NLM_F_DUMP);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	len = mlx_nlb_finish(&b);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_ROUTE, "all", "getlink-stats", buf, (size_t)len, link_cb, t);
	if (r < 0) {
		free(t->e);
		memset(t, 0, sizeof(*t));
		return r;
	}
	if (t->n)
		qsort(t->e, t->n, sizeof(*t->e), link_cmp);
	return 0;
}

static int sample_link(struct mlx_cstate *st, const struct link_table *t,
		       struct mlx_counter_port *p)
{
	struct link_stats key;
	const struct link_stats *e;
	struct cnames *cn;
	char k[16];

	snprintf(key.name, sizeof(key.name), "%s", p->ifname);
	e = t->n ? bsearch(&key, t->e, t->n, sizeof(*t->e), link_cmp) : NULL;
	if (!e)
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
	bool any = false, same;

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
	same = cn && cn->n == n;
	for (size_t i = 0; same && i < n; i++)
		same = !strcmp(cn->names[i], names[i]);
	if (same) {
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

	r = mlx_ethtool_stat_names(ctx, ifname, NULL, &en);
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
	r = mlx_ethtool_stat_values(ctx, p->ifname, NULL, vals, &n);
	if ((r == -ESTALE || (r == 0 && n != cn->n)) && tries++ == 0 && mlx_is_live(ctx)) {
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
		snprintf(path, sizeof(path), "/sys/class/net/%s", p->ifname);
		if (!mlx_name_is_safe(p->ifname) || !mlx_exists(ctx, path)) {
			p->gone = true;
			return 0;
		}
		if (!p->bdf[0]) {
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
		if (r == -ENODEV && mlx_is_live(ctx)) {
			p->gone = true;           /* vanished between the check and the ioctl */
			return 0;
		}
		p->err[MLX_CSRC_ETHTOOL] = r;
	}
	if ((srcs & (1u << MLX_CSRC_NETDEV)) && p->ifname[0]) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/statistics", p->ifname);
		r = links ? sample_link(st, links, p) : -ENOENT;
		if (r == -ENOENT)       /* not in the dump (or offline): sysfs */
			r = sample_dir(ctx, st, p, MLX_CSRC_NETDEV, p->ifname, path);
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

	/* Live: every netdev's statistics in one dump (see sample_link()). */
	if ((srcs & (1u << MLX_CSRC_NETDEV)) && mlx_is_live(ctx) && nt > 0)
		have_links = dump_link_stats(ctx, &links) == 0;
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

int mlx_counters_capture(struct mlx_ctx *ctx, const struct mlx_devices *devs, const char *dir)
{
	if (!mlx_is_live(ctx))
		return 0;        /* a sysroot's netlink/ tree is copied whole */
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		for (size_t k = 0; k < fn->nports; k++) {
			struct mlx_ethtool_names en;
			uint64_t *vals;
			size_t n;

			if (mlx_ethtool_stat_names(ctx, fn->ports[k].ifname, dir, &en) < 0)
				continue;
			n = en.n;
			vals = calloc(n + 1, sizeof(*vals));
			if (vals)
				mlx_ethtool_stat_values(ctx, fn->ports[k].ifname, dir, vals, &n);
			free(vals);
			mlx_ethtool_names_free(&en);
		}
	}
	mlx_err_clear(ctx);
	return 0;
}
