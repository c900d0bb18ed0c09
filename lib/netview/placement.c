/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which CPUs serve a port (lib/netview.h "IRQ and RSS placement").
 *
 * The IRQs of a PCI function are the names in its msi_irqs/ directory
 * (drivers/pci/msi/sysfs: one file per vector, named by the Linux IRQ
 * number); /proc/irq/<N>/ holds the affinity the administrator set
 * (smp_affinity_list), the one the interrupt controller applied
 * (effective_affinity_list, which may be one CPU of the set), the node
 * the descriptor lives on, and one directory named after each action
 * (kernel/irq/proc.c register_handler_proc): for mlx5 "mlx5_comp<N>@pci:
 * <BDF>", the completion vector of channel N (en_main.c opens channel ix
 * on completion vector ix).  The NUMA node and its CPUs are the function's
 * numa_node and local_cpulist; XPS and RPS are each queue's xps_cpus and
 * rps_cpus (net/core/net-sysfs.c); RSS is ETHTOOL_MSG_RSS_GET.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/ethtool.h>

#include "mlx-private.h"
#include "netview.h"
#include "netview-private.h"
#include "nl.h"

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = ((const struct mlx_irq *)a)->irq, y = ((const struct mlx_irq *)b)->irq;

	return (x > y) - (x < y);
}

static void read_irq(struct mlx_ctx *ctx, struct mlx_irq *q)
{
	char path[96], buf[4096], **names = NULL;
	size_t n = 0;
	int64_t node;

	q->node = -1;
	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", q->irq);
	q->have_affinity = mlx_read_str(ctx, path, buf, sizeof(buf)) == 0 &&
			   mlx_cpulist_parse(buf, &q->affinity) == 0;
	snprintf(path, sizeof(path), "/proc/irq/%u/effective_affinity_list", q->irq);
	q->have_effective = mlx_read_str(ctx, path, buf, sizeof(buf)) == 0 &&
			    mlx_cpulist_parse(buf, &q->effective) == 0;
	snprintf(path, sizeof(path), "/proc/irq/%u/node", q->irq);
	if (mlx_read_s64(ctx, path, &node) == 0 && node >= -1 && node < 65536)
		q->node = (int)node;
	/* the action's name: the one directory among the files */
	snprintf(path, sizeof(path), "/proc/irq/%u", q->irq);
	if (mlx_list_dir(ctx, path, &names, &n) == 0) {
		for (size_t i = 0; i < n && !q->name[0]; i++) {
			char sub[192];

			snprintf(sub, sizeof(sub), "%s/%s", path, names[i]);
			if (mlx_name_is_safe(names[i]) && mlx_is_dir(ctx, sub))
				snprintf(q->name, sizeof(q->name), "%s", names[i]);
		}
		mlx_strv_free(names);
	}
	q->kind = q->name[0] ? mlx_irq_name_parse(q->name, &q->index, NULL, 0) : MLX_IRQ_OTHER;
	if (!q->name[0])
		q->index = -1;
}

static int read_irqs(struct mlx_ctx *ctx, const char *bdf, struct mlx_placement *p)
{
	char path[128], **names = NULL;
	size_t n = 0;
	int r;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/msi_irqs", bdf);
	r = mlx_list_dir(ctx, path, &names, &n);
	if (r < 0)
		return r;
	p->irq = calloc(n ? n : 1, sizeof(*p->irq));
	if (!p->irq) {
		mlx_strv_free(names);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		if (mlx_parse_u64(names[i], &v) < 0 || v > 1u << 24)
			continue;
		p->irq[p->nirq].irq = (unsigned)v;
		read_irq(ctx, &p->irq[p->nirq]);
		p->nirq++;
	}
	mlx_strv_free(names);
	qsort(p->irq, p->nirq, sizeof(*p->irq), cmp_uint);
	return 0;
}

/* "tx-3" -> 3 for @prefix "tx-"; -1 otherwise. */
static long queue_index(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix);
	uint64_t v;

	if (strncmp(name, prefix, pl) || mlx_parse_u64(name + pl, &v) < 0 || v > 65535)
		return -1;
	return (long)v;
}

static int read_maps(struct mlx_ctx *ctx, const char *ifname, const char *prefix, const char *file,
		     struct mlx_queue_map **out, size_t *nout)
{
	char path[160], buf[1200], **names = NULL;
	size_t n = 0, count = 0;
	int r;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	r = mlx_list_dir(ctx, path, &names, &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++)
		if (queue_index(names[i], prefix) >= 0)
			count++;
	*out = calloc(count ? count : 1, sizeof(**out));
	if (!*out) {
		mlx_strv_free(names);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		long q = queue_index(names[i], prefix);
		struct mlx_queue_map *m;

		if (q < 0 || (size_t)q >= count)
			continue;       /* sparse numbering: the kernel numbers 0..n-1 */
		m = &(*out)[q];
		m->queue = (unsigned)q;
		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/%s/%s", ifname, names[i], file);
		m->have = mlx_read_str(ctx, path, buf, sizeof(buf)) == 0 &&
			  mlx_cpumask_parse(buf, &m->cpus) == 0;
	}
	mlx_strv_free(names);
	*nout = count;
	return 0;
}

struct rss_one {
	struct mlx_rss *out;
	int r;
	bool got;
};

static int rss_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct rss_one *o = arg;
	int r = mlx_rss_decode(h, len, o->out);

	if (r == -ENOMSG)
		return 0;
	o->r = r;
	o->got = true;
	return 0;
}

/*
 * Before Linux 6.4 (Debian 12's 6.1, RHEL 8 and 9) the RSS of a port is an
 * ioctl: ETHTOOL_GRSSH twice (the sizes, then the table and key) and
 * ETHTOOL_GRXFH per flow type for the hash fields (net/ethtool/ioctl.c).
 * A snapshot records both (lib/backend/ethtool-record.c).
 */
static const uint32_t ioctl_flow[MLX_RSS_NFLOWS] = {
	TCP_V4_FLOW, UDP_V4_FLOW, TCP_V6_FLOW, UDP_V6_FLOW, IPV4_FLOW, IPV6_FLOW,
	SCTP_V4_FLOW, SCTP_V6_FLOW,
};

static int rss_ioctl(struct mlx_ctx *ctx, const char *ifname, struct mlx_rss *out)
{
	struct ethtool_rxfh head = { .cmd = ETHTOOL_GRSSH };
	struct ethtool_rxfh *full;
	size_t cfg;
	int r;

	r = mlx_kernel_ethtool(ctx, ifname, &head);
	if (r < 0)
		return r;
	if (head.indir_size > MLX_RSS_MAX_INDIR * 16 || head.key_size > MLX_RSS_MAX_KEY)
		return -EBADMSG;
	cfg = (size_t)head.indir_size * 4 + head.key_size;
	full = calloc(1, sizeof(*full) + cfg);
	if (!full)
		return -ENOMEM;
	full->cmd = ETHTOOL_GRSSH;
	full->indir_size = head.indir_size;
	full->key_size = head.key_size;
	r = mlx_kernel_ethtool(ctx, ifname, full);
	if (r == 0) {
		memset(out, 0, sizeof(*out));
		for (size_t i = 0; i < MLX_RSS_NFLOWS; i++)
			out->flow[i] = -1;
		/* ETH_RSS_HASH_*_BIT numbers a bit; the reply holds the mask */
		out->hfunc = full->hfunc;
		out->indir_size = full->indir_size;
		out->nindir = out->indir_size < MLX_RSS_MAX_INDIR ? out->indir_size : MLX_RSS_MAX_INDIR;
		memcpy(out->indir, full->rss_config, out->nindir * 4);
		out->key_len = full->key_size;
		memcpy(out->key, (const uint8_t *)full->rss_config + (size_t)full->indir_size * 4,
		       out->key_len);
	}
	free(full);
	if (r < 0)
		return r;
	for (size_t i = 0; i < MLX_RSS_NFLOWS; i++) {
		struct ethtool_rxnfc nfc = { .cmd = ETHTOOL_GRXFH, .flow_type = ioctl_flow[i] };

		if (mlx_kernel_ethtool(ctx, ifname, &nfc) == 0) {
			out->flow[i] = (int64_t)(nfc.data & INT64_MAX);
			out->have_flows = true;
		}
	}
	return 0;
}

int mlx_rss_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_rss *out)
{
	struct rss_one o = { out, 0, false };
	uint8_t req[128];
	int len, r;

	memset(out, 0, sizeof(*out));
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= IFNAMSIZ)
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", ifname);
	len = mlx_rss_build(req, sizeof(req), ifname);
	if (len < 0)
		return len;
	r = mlx_nl_query(ctx, MLX_NL_ETHTOOL, ifname, "rss-get", req, (size_t)len, rss_cb, &o);
	if (r == 0 && o.r < 0)
		return mlx_err(ctx, -o.r, "cannot decode the ethtool RSS reply of '%s'", ifname);
	if (r == 0 && o.got)
		return 0;
	if (r == -ENODEV)
		return r;
	/* no RSS_GET (a kernel before 6.4, or a capture of one): the ioctls */
	r = rss_ioctl(ctx, ifname, out);
	if (r == 0) {
		mlx_err_clear(ctx);
		return 0;
	}
	if (r == -ENOMEM)
		return r;
	if (r == -EOPNOTSUPP || r == -EINVAL)
		return mlx_err(ctx, EOPNOTSUPP, "'%s' has no RSS the kernel can report", ifname);
	if (r == -ENODATA)
		return mlx_err(ctx, ENODATA, "the capture has no RSS of '%s' (neither the "
			       "ETHTOOL_MSG_RSS_GET reply nor the GRSSH ioctl)", ifname);
	return mlx_err(ctx, -r, "cannot read the RSS of '%s': %s", ifname, strerror(-r));
}

static int port_placement(struct mlx_ctx *ctx, const char *ifname, struct mlx_port_placement *pp)
{
	int r;

	snprintf(pp->ifname, sizeof(pp->ifname), "%s", ifname);
	pp->xps_err = read_maps(ctx, ifname, "tx-", "xps_cpus", &pp->xps, &pp->ntx);
	if (pp->xps_err == -ENOMEM)
		return -ENOMEM;
	r = read_maps(ctx, ifname, "rx-", "rps_cpus", &pp->rps, &pp->nrx);
	if (r == -ENOMEM)
		return r;
	pp->rss_err = mlx_rss_get(ctx, ifname, &pp->rss);
	if (pp->rss_err == -ENOMEM)
		return -ENOMEM;
	mlx_err_clear(ctx);
	return 0;
}

static void read_node(struct mlx_ctx *ctx, const char *bdf, struct mlx_placement *p)
{
	char path[128], buf[4096];
	int64_t node;

	p->numa_node = -1;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/numa_node", bdf);
	if (mlx_read_s64(ctx, path, &node) == 0 && node >= 0 && node < 65536)
		p->numa_node = (int)node;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/local_cpulist", bdf);
	p->have_local = mlx_read_str(ctx, path, buf, sizeof(buf)) == 0 &&
			mlx_cpulist_parse(buf, &p->local) == 0 && !mlx_cpuset_empty(&p->local);
	p->have_online = mlx_read_str(ctx, "/sys/devices/system/cpu/online", buf, sizeof(buf)) == 0 &&
			 mlx_cpulist_parse(buf, &p->online) == 0;
}

int mlx_placement_get(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_placement *out)
{
	int r = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->bdf, sizeof(out->bdf), "%s", fn->bdf);
	read_node(ctx, fn->bdf, out);
	out->irq_err = read_irqs(ctx, fn->bdf, out);
	if (out->irq_err == -ENOMEM)
		return -ENOMEM;
	out->port = calloc(fn->nports ? fn->nports : 1, sizeof(*out->port));
	if (!out->port)
		return -ENOMEM;
	for (size_t i = 0; i < fn->nports && r == 0; i++) {
		if (!fn->ports[i].ifname[0])
			continue;
		r = port_placement(ctx, fn->ports[i].ifname, &out->port[out->nport++]);
	}
	mlx_err_clear(ctx);
	return r;
}

int mlx_placement_netdev(struct mlx_ctx *ctx, const char *ifname, struct mlx_placement *out)
{
	char path[128], bdf[64];

	memset(out, 0, sizeof(*out));
	out->numa_node = -1;
	if (!mlx_name_is_safe(ifname) || strlen(ifname) >= IFNAMSIZ)
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", ifname);
	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	if (!mlx_exists(ctx, path))
		return mlx_err(ctx, ENODEV, "no network interface '%s'", ifname);
	/* a PCI device under it: its IRQs and node too (a virtio or igb port) */
	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
	if (mlx_readlink_base(ctx, path, bdf, sizeof(bdf)) == 0 && mlx_name_is_safe(bdf)) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", bdf);
		if (mlx_exists(ctx, path)) {
			snprintf(out->bdf, sizeof(out->bdf), "%.15s", bdf);
			read_node(ctx, out->bdf, out);
			out->irq_err = read_irqs(ctx, out->bdf, out);
		}
	}
	if (!out->bdf[0]) {
		out->irq_err = -ENOENT;
		read_node(ctx, "", out);
		out->numa_node = -1;
		out->have_local = false;
	}
	if (out->irq_err == -ENOMEM)
		return -ENOMEM;
	out->port = calloc(1, sizeof(*out->port));
	if (!out->port)
		return -ENOMEM;
	out->nport = 1;
	return port_placement(ctx, ifname, &out->port[0]);
}

void mlx_placement_free(struct mlx_placement *p)
{
	free(p->irq);
	for (size_t i = 0; i < p->nport; i++) {
		free(p->port[i].xps);
		free(p->port[i].rps);
	}
	free(p->port);
	memset(p, 0, sizeof(*p));
}

size_t mlx_placement_remote_irqs(const struct mlx_placement *p)
{
	size_t n = 0;

	if (p->numa_node < 0 || !p->have_local)
		return 0;
	for (size_t i = 0; i < p->nirq; i++) {
		const struct mlx_irq *q = &p->irq[i];
		const struct mlx_cpuset *c = q->have_effective && !mlx_cpuset_empty(&q->effective) ?
					     &q->effective : q->have_affinity ? &q->affinity : NULL;

		if (q->kind == MLX_IRQ_COMP && c && !mlx_cpuset_subset(c, &p->local))
			n++;
	}
	return n;
}
