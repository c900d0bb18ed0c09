/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli irq [-d DEV] [--table]`: which CPUs serve each channel of a
 * port (issue 27, IRQ and RSS placement; lib/netview.h): per channel its
 * completion IRQ and the CPUs that IRQ runs on (and whether they are on
 * the device's NUMA node), the XPS CPUs of its transmit queue, the RPS
 * CPUs of its receive queue and its share of the RSS indirection table;
 * the RSS hash function, key and fields.  A completion IRQ on CPUs of
 * another NUMA node is a warning: every packet of that channel then
 * crosses the socket interconnect.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "netview.h"
#include "netview-cmd.h"

/* The CPUs an IRQ runs on: the effective set when the kernel says, else
 * the configured affinity; NULL unknown. */
static const struct mlx_cpuset *irq_cpus(const struct mlx_irq *q)
{
	if (q->have_effective && !mlx_cpuset_empty(&q->effective))
		return &q->effective;
	return q->have_affinity ? &q->affinity : NULL;
}

static const struct mlx_irq *comp_irq(const struct mlx_placement *p, int vector)
{
	for (size_t i = 0; i < p->nirq; i++)
		if (p->irq[i].kind == MLX_IRQ_COMP && p->irq[i].index == vector)
			return &p->irq[i];
	return NULL;
}

/* A CPU set as its list ("20-39,60-79"; "" none), null unknown. */
static void out_cpus_l(struct out *o, const char *key, const char *label, const struct mlx_cpuset *c)
{
	char buf[512];

	if (c)
		out_str(o, key, label, mlx_cpulist_format(c, buf, sizeof(buf)));
	else
		out_null(o, key, label);
}

static void out_cpus(struct out *o, const char *key, const struct mlx_cpuset *c)
{
	out_cpus_l(o, key, NULL, c);
}

/* "yes", "no", or null when the node is unknown */
static int is_local(const struct mlx_placement *p, const struct mlx_cpuset *c)
{
	if (!c || p->numa_node < 0 || !p->have_local)
		return -1;
	return mlx_cpuset_subset(c, &p->local);
}

static void out_tri(struct out *o, const char *key, const char *label, int v)
{
	if (v < 0)
		out_null(o, key, label);
	else
		out_bool(o, key, label, v);
}

static void out_rss(struct cli *cli, const struct mlx_port_placement *pp, bool table)
{
	struct out *o = cli->out;
	const struct mlx_rss *rss = &pp->rss;
	char key[MLX_RSS_MAX_KEY * 3 + 1] = "", line[160];
	size_t w = 0;

	if (pp->rss_err) {
		out_null(o, "rss", NULL);
		out_str(o, "rss_error", "rss", pp->rss_err == -ENODATA ? "the capture has no RSS reply" :
			pp->rss_err == -EOPNOTSUPP ? "the driver reports no RSS (or the kernel predates "
			"ETHTOOL_MSG_RSS_GET, Linux 6.4)" : strerror(-pp->rss_err));
		return;
	}
	for (size_t i = 0; i < rss->key_len; i++)
		w += (size_t)snprintf(key + w, sizeof(key) - w, "%s%02x", i && !(i % 2) ? ":" : "",
				      rss->key[i]);
	out_obj_begin(o, "rss", NULL);
	out_str(o, "hash_function", NULL, mlx_rss_hfunc_name(rss->hfunc));
	out_str(o, "key_hex", NULL, rss->key_len ? key : NULL);
	out_u64(o, "indirection_size", NULL, rss->indir_size);
	out_list_begin(o, "indirection_table", NULL);
	for (size_t i = 0; i < rss->nindir; i++)
		out_u64(o, NULL, NULL, rss->indir[i]);
	out_list_end(o);
	if (rss->have_flows) {
		out_list_begin(o, "flow_hash", NULL);
		for (size_t f = 0; f < MLX_RSS_NFLOWS; f++) {
			const char *names[12];
			size_t n;

			if (rss->flow[f] < 0)
				continue;
			n = mlx_rss_fields((uint64_t)rss->flow[f], names, 12);
			out_obj_begin(o, NULL, NULL);
			out_str(o, "flow_type", NULL, mlx_rss_flow_names[f]);
			out_strv(o, "hash_fields", NULL, names, n);
			out_obj_end(o);
		}
		out_list_end(o);
	} else {
		out_null(o, "flow_hash", NULL);
	}
	out_obj_end(o);
	out_null(o, "rss_error", NULL);
	snprintf(line, sizeof(line), "%s, %zu entries", mlx_rss_hfunc_name(rss->hfunc) ?
		 mlx_rss_hfunc_name(rss->hfunc) : "hash unknown", rss->indir_size);
	out_text(o, "rss", line);
	if (rss->key_len)
		out_text(o, "rss key", key);
	for (size_t f = 0; rss->have_flows && f < MLX_RSS_NFLOWS; f++) {
		const char *names[12];
		size_t n, lw = 0;
		char lab[32];

		if (rss->flow[f] < 0)
			continue;
		n = mlx_rss_fields((uint64_t)rss->flow[f], names, 12);
		line[0] = '\0';
		for (size_t k = 0; k < n && lw < sizeof(line); k++)
			lw += (size_t)snprintf(line + lw, sizeof(line) - lw, "%s%s", k ? " " : "", names[k]);
		snprintf(lab, sizeof(lab), "rss %s", mlx_rss_flow_names[f]);
		out_text(o, lab, n ? line : "(not hashed)");
	}
	if (table && rss->nindir) {
		/* ethtool -x's layout: eight entries a line, the first index first */
		for (size_t i = 0; i < rss->nindir; i += 8) {
			char lab[16];

			size_t lw = 0;

			line[0] = '\0';
			for (size_t k = i; k < i + 8 && k < rss->nindir; k++)
				lw += (size_t)snprintf(line + lw, sizeof(line) - lw, "%5u", rss->indir[k]);
			snprintf(lab, sizeof(lab), "%5zu", i);
			out_text(o, lab, line);
		}
	}
}

static void out_port(struct cli *cli, const struct mlx_placement *p, const struct mlx_port_placement *pp,
		     bool table)
{
	struct out *o = cli->out;
	size_t nch = pp->nrx;

	/* no queues/ (a capture without them): the channels the IRQs say */
	if (!nch)
		for (size_t i = 0; i < p->nirq; i++)
			if (p->irq[i].kind == MLX_IRQ_COMP && p->irq[i].index >= 0 &&
			    (size_t)p->irq[i].index + 1 > nch)
				nch = (size_t)p->irq[i].index + 1;
	/* text: the table at the left margin, as every table (counters prio) */
	out_obj_begin(o, NULL, NULL);
	out_str(o, "netdev", NULL, pp->ifname);
	out_text(o, "channels of", pp->ifname);
	out_u64(o, "tx_queues", NULL, pp->ntx);
	out_u64(o, "rx_queues", NULL, pp->nrx);
	out_table_begin(o, "channel_map");
	for (size_t c = 0; c < nch; c++) {
		const struct mlx_irq *q = comp_irq(p, (int)c);
		const struct mlx_cpuset *cpus = q ? irq_cpus(q) : NULL;
		size_t share = 0;

		for (size_t i = 0; i < pp->rss.nindir; i++)
			share += pp->rss.indir[i] == c;
		out_row_begin(o);
		out_u64(o, "channel_index", "CH", c);
		if (q)
			out_u64(o, "irq", "IRQ", q->irq);
		else
			out_null(o, "irq", "IRQ");
		out_cpus_l(o, "cpus", "CPUS", cpus);
		out_tri(o, "numa_local", "LOCAL", is_local(p, cpus));
		out_cpus_l(o, "xps_cpus", "XPS", c < pp->ntx && pp->xps[c].have ? &pp->xps[c].cpus : NULL);
		out_cpus_l(o, "rps_cpus", "RPS", c < pp->nrx && pp->rps[c].have ? &pp->rps[c].cpus : NULL);
		if (!pp->rss_err && pp->rss.nindir)
			out_u64(o, "rss_entries", "RSS", share);
		else
			out_null(o, "rss_entries", "RSS");
		out_row_end(o);
	}
	out_table_end(o);
	out_rss(cli, pp, table);
	out_obj_end(o);
}

static void out_function(struct cli *cli, const struct mlx_placement *p, const char *label, bool table)
{
	struct out *o = cli->out;
	char buf[512], line[700];
	size_t remote = mlx_placement_remote_irqs(p);

	out_obj_begin(o, NULL, label);
	out_str(o, "pci_address", NULL, p->bdf[0] ? p->bdf : NULL);
	out_s64(o, "numa_node", NULL, p->numa_node);
	out_cpus(o, "local_cpus", p->have_local ? &p->local : NULL);
	out_cpus(o, "online_cpus", p->have_online ? &p->online : NULL);
	if (p->numa_node >= 0)
		snprintf(line, sizeof(line), "node %d, local CPUs %s", p->numa_node,
			 p->have_local ? mlx_cpulist_format(&p->local, buf, sizeof(buf)) : "unknown");
	else
		snprintf(line, sizeof(line), "none (a single-node host, or the firmware says none)");
	out_text(o, "numa", line);
	out_list_begin(o, "irqs", NULL);
	for (size_t i = 0; i < p->nirq; i++) {
		const struct mlx_irq *q = &p->irq[i];

		out_obj_begin(o, NULL, NULL);
		out_u64(o, "irq", NULL, q->irq);
		out_str(o, "name", NULL, q->name[0] ? q->name : NULL);
		out_str(o, "kind", NULL, mlx_irq_kind_name(q->kind));
		if (q->index >= 0)
			out_u64(o, "vector", NULL, (uint64_t)q->index);
		else
			out_null(o, "vector", NULL);
		out_cpus(o, "affinity_cpus", q->have_affinity ? &q->affinity : NULL);
		out_cpus(o, "effective_cpus", q->have_effective ? &q->effective : NULL);
		out_tri(o, "numa_local", NULL, is_local(p, irq_cpus(q)));
		out_obj_end(o);
		if (q->kind != MLX_IRQ_COMP) {
			char lab[32];

			snprintf(lab, sizeof(lab), "irq %u", q->irq);
			snprintf(line, sizeof(line), "%s, CPUs %s", q->name[0] ? q->name : "-",
				 irq_cpus(q) ? mlx_cpulist_format(irq_cpus(q), buf, sizeof(buf)) : "-");
			out_text(o, lab, line);
		}
	}
	out_list_end(o);
	out_str(o, "irqs_error", NULL, !p->irq_err ? NULL : p->irq_err == -ENOENT ?
		"no MSI IRQs in sysfs (no PCI device, or a capture without them)" : strerror(-p->irq_err));
	if (p->irq_err)
		out_text(o, "irqs", p->irq_err == -ENOENT ? "none in sysfs" : strerror(-p->irq_err));
	out_u64(o, "remote_completion_irqs", NULL, remote);
	if (remote) {
		char list[300] = "";
		size_t w = 0, comp = 0;

		for (size_t i = 0; i < p->nirq; i++) {
			const struct mlx_irq *q = &p->irq[i];

			if (q->kind != MLX_IRQ_COMP)
				continue;
			comp++;
			if (is_local(p, irq_cpus(q)) == 0 && w + 12 < sizeof(list))
				w += (size_t)snprintf(list + w, sizeof(list) - w, "%s%u", w ? ", " : "", q->irq);
		}
		cli_warn(cli, "%s: %zu of %zu completion IRQs run on CPUs outside NUMA node %d "
			 "(its CPUs: %s): IRQ %s; each packet of those channels crosses the "
			 "socket interconnect", p->bdf, remote, comp, p->numa_node,
			 mlx_cpulist_format(&p->local, buf, sizeof(buf)), list);
		cli_hint(cli, "set /proc/irq/N/smp_affinity_list to the local CPUs, or let irqbalance "
			 "place them (it honours the device's node)");
	}
	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < p->nport; i++)
		out_port(cli, p, &p->port[i], table);
	out_list_end(o);
	out_obj_end(o);
}

int cmd_irq(struct cli *cli, int argc, char **argv)
{
	struct mlx_devices *devs;
	struct mlx_function *sel;
	struct mlx_placement p;
	bool other = false, table = cli_opt(cli, "table") != NULL;
	int r;

	(void)argc;
	(void)argv;
	r = cli_other_netdev(cli, &other);
	if (r)
		return r;
	out_list_begin(cli->out, "devices", NULL);
	if (other) {
		r = mlx_placement_netdev(cli->ctx, cli->device, &p);
		if (r < 0) {
			out_list_end(cli->out);
			return cli_fail(cli, r, cli->device);
		}
		out_function(cli, &p, cli->device, table);
		mlx_placement_free(&p);
		out_list_end(cli->out);
		return EXIT_OK;
	}
	r = cli_select(cli, &sel, NULL);
	if (!r)
		r = cli_devices(cli, &devs);
	if (r) {
		out_list_end(cli->out);
		return r;
	}
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];
		char label[96];

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		r = mlx_placement_get(cli->ctx, fn, &p);
		if (r < 0) {
			mlx_placement_free(&p);
			out_list_end(cli->out);
			return cli_fail(cli, r, fn->bdf);
		}
		snprintf(label, sizeof(label), "%s%s%s", fn->bdf, fn->nports ? " " : "",
			 fn->nports ? fn->ports[0].ifname : "");
		out_function(cli, &p, label, table);
		mlx_placement_free(&p);
	}
	out_list_end(cli->out);
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return EXIT_OK;
}

const struct cmd_opt irq_opts[] = {
	{ "table", 't', NULL, "the whole RSS indirection table (ethtool -x's layout)", NULL },
	{ "any-netdev", 0, NULL, "with -d IFNAME: any netdev, not only a ConnectX port", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};
