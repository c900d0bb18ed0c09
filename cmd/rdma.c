/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli rdma` (issue 24): the RDMA half of a port, joined to the rest.
 *
 *   rdma [show]   per RDMA device and port: state, netdev and PCI function,
 *                 the RoCE mode and ToS of the connection manager and where
 *                 that ToS lands (DSCP, priority, PFC), the active MTU,
 *                 the resource counts, driver and firmware versions
 *   rdma gids     the GID table (show_gids), with the index a RoCE v2 IPv4
 *                 connection uses
 *   rdma stats    the RDMA netlink counters of each port next to the
 *                 hw_counters files, through the counter catalogue; the QP
 *                 counter mode and the bound (per-QP) counters
 *   rdma qp|cm-id|cq|mr|pd|ctx|srq   the resources (cmd/rdma-res.c)
 *
 * Also reached as mlxtool's `show nd connections`, `dbg resources` and
 * mlx5cmd's -Stat and -NdStat (cmd/compat.c).  Every RDMA device is shown,
 * a software one (rxe) too, joined to its ConnectX function when it has
 * one.  Nothing here needs root: what RDMA netlink withholds from other
 * users (MR and PD keys, raw contexts) is said, not failed on.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "dcb.h"
#include "qos-lint.h"
#include "rdma-cmd.h"
#include "state.h"

/* ---- selection ------------------------------------------------------------ */

void rdma_sel_free(struct rdma_sel *s)
{
	mlx_rdma_devs_free(&s->devs);
	free(s->on);
	s->on = NULL;
}

const struct mlx_function *rdma_fn(const struct rdma_sel *s, const char *dev)
{
	for (size_t i = 0; s->mdevs && i < s->mdevs->nfn; i++)
		for (size_t j = 0; j < s->mdevs->fn[i].nrdma; j++)
			if (!strcmp(s->mdevs->fn[i].rdma[j].name, dev))
				return &s->mdevs->fn[i];
	return NULL;
}

const struct mlx_port *rdma_port(const struct rdma_sel *s, const char *dev, unsigned port)
{
	const struct mlx_function *fn = rdma_fn(s, dev);

	for (size_t j = 0; fn && j < fn->nports; j++)
		if (!strcmp(fn->ports[j].rdma_dev, dev) && fn->ports[j].rdma_port == port)
			return &fn->ports[j];
	return NULL;
}

void rdma_out_where(struct out *o, const struct rdma_sel *s, const char *dev, unsigned port,
		    const char *netdev, bool cols)
{
	const struct mlx_function *fn = rdma_fn(s, dev);

	out_str(o, "rdma_device", cols ? "DEV" : NULL, dev);
	if (port)
		out_u64(o, "rdma_port", cols ? "PORT" : NULL, port);
	else
		out_null(o, "rdma_port", cols ? "PORT" : NULL);
	out_str(o, "netdev", cols ? "NETDEV" : NULL, netdev && *netdev ? netdev : NULL);
	/* a software device (rxe, siw) has no PCI function: no key */
	if (fn)
		out_str(o, "pci_address", NULL, fn->bdf);
}

void rdma_say_restricted(struct cli *cli, const char *what)
{
	fprintf(cli->err_fp, "mlxcli: note: not root: the kernel withholds %s (CAP_NET_ADMIN); "
		"run as root to see them\n", what);
}

/* -d NETDEV where NETDEV is the netdev of an RDMA port (a veth under rxe). */
static int select_by_netdev(struct cli *cli, struct rdma_sel *s)
{
	int found = 0;

	for (size_t i = 0; i < s->devs.n; i++) {
		struct mlx_rdma_port *p = NULL;
		size_t np = 0;

		if (mlx_rdma_ports_get(cli->ctx, &s->devs.v[i], &p, &np) < 0)
			continue;
		for (size_t k = 0; k < np; k++)
			if (!strcmp(p[k].netdev, cli->device)) {
				s->on[i] = true;
				found++;
			}
		free(p);
	}
	mlx_err_clear(cli->ctx);
	return found;
}

int rdma_select(struct cli *cli, struct rdma_sel *s, bool *none)
{
	struct mlx_function *fn = NULL;
	struct mlx_port *port = NULL;
	const char *why = NULL;
	int r;

	memset(s, 0, sizeof(*s));
	*none = false;
	r = mlx_rdma_devs_get(cli->ctx, &s->devs);
	if (r == -EPROTONOSUPPORT)
		why = "the kernel has no RDMA netlink (ib_core is not loaded)";
	else if (r == -ENODATA)
		why = "the capture has no RDMA netlink replies (taken before mlxcli recorded them)";
	else if (r < 0)
		return cli_fail(cli, r, "cannot list the RDMA devices");
	mlx_err_clear(cli->ctx);
	r = cli_devices(cli, &s->mdevs);
	if (r)
		return r;
	s->on = calloc(s->devs.n ? s->devs.n : 1, sizeof(*s->on));
	if (!s->on)
		return cli_fail(cli, -ENOMEM, "cannot list the RDMA devices");
	if (cli->device) {
		const struct mlx_rdma_dev *d = mlx_rdma_dev_find(&s->devs, cli->device);
		size_t n = 0;

		if (d) {
			s->on[d - s->devs.v] = true;
			return EXIT_OK;
		}
		if (s->devs.n && !mlx_rdma_dev_find(&s->devs, cli->device) &&
		    select_by_netdev(cli, s))
			return EXIT_OK;
		r = cli_select(cli, &fn, &port);
		if (r)
			return r;
		for (size_t i = 0; fn && i < s->devs.n; i++) {
			bool match = false;

			if (port && port->rdma_dev[0])
				match = !strcmp(port->rdma_dev, s->devs.v[i].name);
			else
				for (size_t j = 0; j < fn->nrdma; j++)
					match |= !strcmp(fn->rdma[j].name, s->devs.v[i].name);
			s->on[i] = match;
			n += match;
		}
		if (!n) {
			cli_error(cli, "'%s' has no RDMA device%s%s", cli->device, why ? ": " : "",
				  why ? why : "");
			cli_hint(cli, "'mlxcli rdma' lists the RDMA devices");
			return EXIT_NODEV;
		}
		return EXIT_OK;
	}
	for (size_t i = 0; i < s->devs.n; i++)
		s->on[i] = true;
	if (!s->devs.n) {
		*none = true;
		/* no ConnectX either: the one wording every read of all devices uses */
		if (!s->mdevs->nfn)
			cli_say_no_devices(cli, s->mdevs);
		else
			fprintf(cli->err_fp, "mlxcli: no RDMA device was found%s%s\n", why ? ": " : "",
				why ? why : "");
	}
	return EXIT_OK;
}

/* ---- show ------------------------------------------------------------------- */

static const char *link_layer(const struct mlx_rdma_dev *d, const struct mlx_port *mp)
{
	if (mp && mp->link_layer[0])
		return mp->link_layer;
	if (!strcmp(d->protocol, "ib") || !strcmp(d->protocol, "opa"))
		return "InfiniBand";
	if (!strcmp(d->protocol, "roce") || !strcmp(d->protocol, "iw"))
		return "Ethernet";
	return NULL;
}

static const char *guid_str(uint64_t g, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%04x:%04x:%04x", (unsigned)(g >> 48) & 0xffff,
		 (unsigned)(g >> 32) & 0xffff, (unsigned)(g >> 16) & 0xffff, (unsigned)g & 0xffff);
	return buf;
}

static void prio_list(uint8_t mask, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int p = 0; p < 8; p++)
		if (mask & (1u << p))
			at += (size_t)snprintf(buf + at, len - at, "%s%d", at ? "," : "", p);
}

/* The RoCE view of one port: the CM's mode and ToS, the port's QoS. */
static void out_roce(struct cli *cli, const struct mlx_rdma_dev *d, const struct mlx_rdma_port *p,
		     char find[][200], size_t *nf)
{
	struct out *o = cli->out;
	struct mlx_roce_cm cm;
	struct mlx_gid *g = NULL;
	size_t ng = 0;
	bool v2 = false, from_cfs;
	int tos, dscp, prio, trust = -1;
	uint8_t pfc = 0;
	char txt[256], pl[32];

	from_cfs = mlx_roce_cm_get(cli->ctx, d->name, p->port, &cm) == 0 && cm.mode[0];
	if (!from_cfs) {
		/* cma.c cma_add_one(): RoCE v2 when the port has RoCE v2 GIDs */
		if (mlx_gids_get(cli->ctx, d->name, p->port, true, &g, &ng) == 0)
			for (size_t i = 0; i < ng; i++)
				v2 |= g[i].type == MLX_GID_ROCE_V2;
		free(g);
		snprintf(cm.mode, sizeof(cm.mode), "%s", v2 || !ng ? "RoCE v2" : "IB/RoCE v1");
	}
	tos = cm.tos >= 0 ? cm.tos : 0;
	mlx_err_clear(cli->ctx);
	out_str(o, "default_roce_mode", NULL, cm.mode);
	out_str(o, "roce_mode_source", NULL, from_cfs ? "configfs" : "kernel default");
	out_u64(o, "default_roce_tos", NULL, (uint64_t)tos);

	if (p->netdev[0]) {
		struct mlx_dcb_state *dcb = calloc(1, sizeof(*dcb));
		struct mlx_qos_state *qs = calloc(1, sizeof(*qs));

		if (dcb && qs && mlx_dcb_get(cli->ctx, p->netdev, dcb) == 0) {
			mlx_qos_state_init(qs, p->netdev);
			mlx_qos_state_from_dcb(qs, dcb);
			trust = qs->trust_dscp ? 1 : 0;
			pfc = qs->has_pfc ? qs->pfc_en : 0;
			mlx_roce_tos_prio(tos, trust, qs->dscp2prio, &dscp, &prio);
		} else {
			mlx_roce_tos_prio(tos, -1, NULL, &dscp, &prio);
		}
		mlx_err_clear(cli->ctx);
		free(dcb);
		free(qs);
	} else {
		mlx_roce_tos_prio(tos, -1, NULL, &dscp, &prio);
	}
	out_u64(o, "dscp", NULL, (uint64_t)dscp);
	if (trust >= 0)                 /* unknown (no DCB on the netdev): no key */
		out_str(o, "trust", NULL, trust ? "dscp" : "pcp");
	if (prio >= 0)
		out_u64(o, "roce_priority", NULL, (uint64_t)prio);
	else
		out_null(o, "roce_priority", NULL);
	if (trust >= 0) {
		out_list_begin(o, "pfc_enabled", NULL);
		for (int i = 0; i < 8; i++)
			if (pfc & (1u << i))
				out_u64(o, NULL, NULL, (uint64_t)i);
		out_list_end(o);
		out_bool(o, "roce_lossless", NULL, prio >= 0 && (pfc & (1u << prio)));
	} else {
		out_null(o, "roce_lossless", NULL);
	}
	prio_list(pfc, pl, sizeof(pl));
	if (prio >= 0)
		snprintf(txt, sizeof(txt), "%s (%s), ToS %d -> DSCP %d -> priority %d (trust %s), %s",
			 cm.mode, from_cfs ? "configfs" : "kernel default", tos, dscp, prio,
			 trust ? "dscp" : "pcp, untagged",
			 pfc & (1u << prio) ? "PFC on: lossless" : "no PFC: lossy");
	else
		snprintf(txt, sizeof(txt), "%s (%s), ToS %d -> DSCP %d, priority unknown (no DCB state "
			 "for %s)", cm.mode, from_cfs ? "configfs" : "kernel default", tos, dscp,
			 p->netdev[0] ? p->netdev : "a port without a netdev");
	out_text(o, "RoCE", txt);
	if (prio >= 0 && !(pfc & (1u << prio)) && *nf < 6)
		snprintf(find[(*nf)++], 200, "RoCE traffic (ToS %d, DSCP %d) lands on priority %d, "
			 "which has no PFC (%s%s): packets drop under congestion", tos, dscp, prio,
			 pfc ? "PFC is on " : "no priority has PFC", pfc ? pl : "");
}

static int64_t count_qp_errors(struct cli *cli, const struct mlx_rdma_dev *d)
{
	struct mlx_rdma_res_list l = { 0 };
	int64_t n = 0;

	if (mlx_rdma_res_get(cli->ctx, d, MLX_RDMA_QP, &l) < 0) {
		mlx_err_clear(cli->ctx);
		return -1;
	}
	for (size_t i = 0; i < l.n; i++)
		n += (l.v[i].has & MLX_RES_STATE) && mlx_rdma_qp_state_failed(l.v[i].state);
	mlx_rdma_res_list_free(&l);
	return n;
}

static void show_dev(struct cli *cli, const struct rdma_sel *s, const struct mlx_rdma_dev *d,
		     const struct mlx_rdma_summary *sum)
{
	struct out *o = cli->out;
	const struct mlx_function *fn = rdma_fn(s, d->name);
	struct mlx_rdma_port *ports = NULL;
	size_t np = 0, nf = 0;
	char label[160], buf[64], find[8][200], txt[256];
	int64_t qerr;
	int r;

	snprintf(label, sizeof(label), fn ? "%s (%s)" : "%s", d->name, fn ? fn->bdf : "");
	out_obj_begin(o, NULL, label);
	out_str(o, "rdma_device", NULL, d->name);
	out_u64(o, "rdma_device_index", NULL, d->index);
	if (fn)
		out_str(o, "pci_address", NULL, fn->bdf);
	out_str(o, "driver", "driver", fn && fn->driver[0] ? fn->driver : NULL);
	if (fn && fn->driver[0] && mlx_rdma_driver_version(cli->ctx, fn->driver, buf, sizeof(buf)) == 0)
		out_str(o, "driver_version", "driver version", buf);
	else
		out_str(o, "driver_version", "driver version", NULL);
	if (d->fw_ver[0])
		out_str(o, "fw_version", "firmware", d->fw_ver);
	out_str(o, "protocol", "protocol", d->protocol[0] ? d->protocol : NULL);
	out_str(o, "node_guid", "node GUID", guid_str(d->node_guid, buf, sizeof(buf)));
	out_str(o, "sys_image_guid", NULL, guid_str(d->sys_image_guid, buf, sizeof(buf)));

	r = mlx_rdma_ports_get(cli->ctx, d, &ports, &np);
	if (r < 0) {
		cli_warn(cli, "%s", mlx_errmsg(cli->ctx));
		mlx_err_clear(cli->ctx);
	}
	out_list_begin(o, "ports", NULL);
	for (size_t i = 0; i < np; i++) {
		const struct mlx_rdma_port *p = &ports[i];
		const struct mlx_port *mp = rdma_port(s, d->name, p->port);
		const char *st = mlx_rdma_port_state_name(p->state);
		const char *ps = mlx_rdma_phys_state_name(p->phys_state);
		const char *ll = link_layer(d, mp);
		unsigned mtu = 0;
		bool roce = ll && !strcmp(ll, "Ethernet");

		snprintf(label, sizeof(label), "port %u", p->port);
		out_obj_begin(o, NULL, label);
		out_u64(o, "rdma_port", NULL, p->port);
		out_str(o, "state", NULL, st);
		out_str(o, "physical_state", NULL, ps);
		if (ll)
			out_str(o, "link_layer", NULL, ll);
		snprintf(txt, sizeof(txt), "%s, %s, %s", st ? st : "-", ps ? ps : "-", ll ? ll : "-");
		out_text(o, "state", txt);
		out_str(o, "netdev", "netdev", p->netdev[0] ? p->netdev : NULL);
		if (mp && mp->mtu)
			mtu = mp->mtu;
		else if (p->netdev[0])
			mlx_rdma_netdev_mtu(cli->ctx, p->netdev, &mtu);
		if (mtu)
			out_u64(o, "mtu", NULL, mtu);
		/* RDMA netlink has no MTU: ib_core's rule for RoCE (ib_addr.h) */
		if (roce && mtu && mlx_roce_active_mtu(mtu)) {
			out_u64(o, "active_mtu_bytes", NULL, mlx_roce_active_mtu(mtu));
			snprintf(txt, sizeof(txt), "%u (netdev MTU %u)", mlx_roce_active_mtu(mtu), mtu);
		} else {
			out_null(o, "active_mtu_bytes", NULL);
			snprintf(txt, sizeof(txt), "-%s", mtu ? "" : " (no netdev MTU)");
		}
		out_text(o, "active MTU", txt);
		if (roce)
			out_roce(cli, d, p, find, &nf);
		if (p->state >= 0 && p->state != 4 && nf < 8)
			snprintf(find[nf++], 200, "port %u is %s (%s)", p->port, st ? st : "not active",
				 ps ? ps : "-");
		out_obj_end(o);
	}
	out_list_end(o);
	free(ports);

	qerr = count_qp_errors(cli, d);
	out_obj_begin(o, "resources", NULL);
	txt[0] = '\0';
	for (int k = 0; k < MLX_RDMA_NKINDS; k++) {
		size_t at = strlen(txt);
		int64_t c = sum ? sum->count[k] : -1;

		if (c >= 0)
			out_u64(o, mlx_rdma_kind_name((enum mlx_rdma_kind)k), NULL, (uint64_t)c);
		else
			out_null(o, mlx_rdma_kind_name((enum mlx_rdma_kind)k), NULL);
		snprintf(txt + at, sizeof(txt) - at, "%s%s %s", k ? ", " : "",
			 mlx_rdma_kind_name((enum mlx_rdma_kind)k), c >= 0 ? "" : "-");
		if (c >= 0)
			snprintf(txt + strlen(txt), sizeof(txt) - strlen(txt), "%lld", (long long)c);
		if (k == MLX_RDMA_QP && qerr > 0)
			snprintf(txt + strlen(txt), sizeof(txt) - strlen(txt), " (%lld in error)",
				 (long long)qerr);
	}
	if (qerr >= 0)
		out_u64(o, "qps_in_error", NULL, (uint64_t)qerr);
	else
		out_null(o, "qps_in_error", NULL);
	out_obj_end(o);
	out_text(o, "resources", txt);
	if (qerr > 0 && nf < 8)
		snprintf(find[nf++], 200, "%lld QP%s in the error state ('mlxcli rdma qp --errors -d %s')",
			 (long long)qerr, qerr == 1 ? "" : "s", d->name);
	out_list_begin(o, "roce_findings", NULL);
	for (size_t i = 0; i < nf; i++)
		out_str(o, NULL, NULL, find[i]);
	out_list_end(o);
	for (size_t i = 0; i < nf; i++)
		out_text(o, "finding", find[i]);
	out_obj_end(o);
}

int cmd_rdma_show(struct cli *cli, int argc, char **argv)
{
	struct rdma_sel s;
	struct mlx_rdma_summary *sum = NULL;
	size_t nsum = 0;
	bool none;
	int r;

	(void)argc;
	(void)argv;
	r = rdma_select(cli, &s, &none);
	if (r) {
		rdma_sel_free(&s);
		return r;
	}
	if (s.devs.n && mlx_rdma_summary_get(cli->ctx, &sum, &nsum) < 0) {
		cli_warn(cli, "%s", mlx_errmsg(cli->ctx));
		mlx_err_clear(cli->ctx);
	}
	out_list_begin(cli->out, "rdma", NULL);
	for (size_t i = 0; i < s.devs.n; i++) {
		const struct mlx_rdma_summary *sm = NULL;

		if (!s.on[i])
			continue;
		for (size_t k = 0; k < nsum; k++)
			if (!strcmp(sum[k].dev, s.devs.v[i].name))
				sm = &sum[k];
		show_dev(cli, &s, &s.devs.v[i], sm);
	}
	out_list_end(cli->out);
	free(sum);
	rdma_sel_free(&s);
	return EXIT_OK;
}

/* ---- gids --------------------------------------------------------------------- */

int cmd_rdma_gids(struct cli *cli, int argc, char **argv)
{
	struct out *o = cli->out;
	struct rdma_sel s;
	bool none;
	int r;

	(void)argc;
	(void)argv;
	r = rdma_select(cli, &s, &none);
	if (r) {
		rdma_sel_free(&s);
		return r;
	}
	out_table_begin(o, "gids");
	for (size_t i = 0; i < s.devs.n; i++) {
		const struct mlx_rdma_dev *d = &s.devs.v[i];
		struct mlx_rdma_port *ports = NULL;
		size_t np = 0;

		if (!s.on[i])
			continue;
		if (mlx_rdma_ports_get(cli->ctx, d, &ports, &np) < 0) {
			cli_warn(cli, "%s", mlx_errmsg(cli->ctx));
			mlx_err_clear(cli->ctx);
		}
		for (size_t k = 0; k < np; k++) {
			const struct mlx_port *mp = rdma_port(&s, d->name, ports[k].port);
			const char *ll = link_layer(d, mp);
			struct mlx_gid *g = NULL;
			size_t ng = 0;

			if (mlx_gids_get(cli->ctx, d->name, ports[k].port, !ll || strcmp(ll, "InfiniBand"),
					 &g, &ng) < 0) {
				cli_warn(cli, "%s", mlx_errmsg(cli->ctx));
				mlx_err_clear(cli->ctx);
				continue;
			}
			for (size_t j = 0; j < ng; j++) {
				/* rdma_cm's GID for an IPv4 connection in RoCE v2 mode:
				 * the v2 entry of the address on that netdev
				 * (cma.c cma_validate_port, roce_gid_mgmt.c) */
				bool v2ip = g[j].type == MLX_GID_ROCE_V2 && g[j].ipv4[0];

				out_row_begin(o);
				out_str(o, "rdma_device", "DEV", d->name);
				out_u64(o, "rdma_port", "PORT", ports[k].port);
				out_u64(o, "gid_index", "INDEX", g[j].index);
				out_str(o, "gid", "GID", g[j].text);
				out_str(o, "ipv4", "IPv4", g[j].ipv4[0] ? g[j].ipv4 : NULL);
				out_str(o, "gid_type", "VER", mlx_gid_type_name(g[j].type));
				out_str(o, "netdev", "NETDEV", g[j].netdev[0] ? g[j].netdev : NULL);
				char vl[8];

				snprintf(vl, sizeof(vl), "%d", g[j].vlan);
				out_u64_as(o, "vlan", "VLAN", g[j].vlan > 0 ? (uint64_t)g[j].vlan : 0,
					   g[j].vlan > 0 ? vl : "-");
				out_bool(o, "roce_v2_ipv4", NULL, v2ip);
				out_text(o, "RoCE v2 IPv4", v2ip ? "<- rdma_cm" : "");
				out_row_end(o);
			}
			free(g);
		}
		free(ports);
	}
	out_table_end(o);
	rdma_sel_free(&s);
	return EXIT_OK;
}

/* ---- stats -------------------------------------------------------------------------- */

static void out_criteria(struct out *o, int64_t mask)
{
	const char *v[2];
	size_t n = 0;

	if (mask < 0) {
		out_null(o, "counter_auto_criteria", NULL);
		return;
	}
	if (mask & 1)            /* RDMA_COUNTER_MASK_QP_TYPE */
		v[n++] = "qp_type";
	if (mask & 2)            /* RDMA_COUNTER_MASK_PID */
		v[n++] = "pid";
	out_strv(o, "counter_auto_criteria", NULL, v, n);
}

static void out_hwc_row(struct cli *cli, const struct mlx_rdma_dev *d, uint32_t port,
			const struct mlx_rdma_hwc *c, bool with_sysfs)
{
	struct out *o = cli->out;
	struct mlx_cat_match m;
	uint64_t sv = 0;
	bool has_sv = with_sysfs && mlx_rdma_hw_counter(cli->ctx, d->name, port, c->name, &sv) == 0;

	mlx_cat_lookup(MLX_CSRC_HW, c->name, &m);
	out_row_begin(o);
	out_str(o, "name", "COUNTER", c->name);
	if (c->has_value)
		out_u64(o, "value", "NETLINK", c->value);
	else
		out_null(o, "value", "NETLINK");
	if (with_sysfs) {
		if (has_sv)
			out_u64(o, "sysfs_value", "HW_COUNTERS", sv);
		else
			out_null(o, "sysfs_value", "HW_COUNTERS");
		/* STAT_GET_STATUS names the optional counters (5.18 on): without
		 * it, whether a counter is optional is unknown */
		if (c->enabled < 0 && c->index < 0) {
			out_null(o, "optional", NULL);
			out_text(o, "OPTIONAL", "-");
		} else {
			out_bool(o, "optional", NULL, c->enabled >= 0);
			out_text(o, "OPTIONAL", c->enabled < 0 ? "no" : c->enabled ? "on" : "off");
		}
	}
	out_str(o, "group", "GROUP", m.group);
	out_str(o, "unit", NULL, m.unit);
	out_str(o, "description", NULL, m.e ? m.e->desc : NULL);
	out_row_end(o);
	mlx_err_clear(cli->ctx);
}

int cmd_rdma_stats(struct cli *cli, int argc, char **argv)
{
	struct out *o = cli->out;
	struct rdma_sel s;
	bool none;
	int r;

	(void)argc;
	(void)argv;
	r = rdma_select(cli, &s, &none);
	if (r) {
		rdma_sel_free(&s);
		return r;
	}
	out_list_begin(o, "rdma_stats", NULL);
	for (size_t i = 0; i < s.devs.n; i++) {
		const struct mlx_rdma_dev *d = &s.devs.v[i];
		struct mlx_rdma_counter_list cl = { 0 };
		struct mlx_rdma_port *ports = NULL;
		size_t np = 0;

		if (!s.on[i])
			continue;
		if (mlx_rdma_ports_get(cli->ctx, d, &ports, &np) < 0) {
			cli_warn(cli, "%s", mlx_errmsg(cli->ctx));
			mlx_err_clear(cli->ctx);
		}
		if (mlx_rdma_counters_get(cli->ctx, d, &cl) < 0)
			mlx_err_clear(cli->ctx);
		for (size_t k = 0; k < np; k++) {
			struct mlx_rdma_stat st;
			char label[160], mode[64];

			snprintf(label, sizeof(label), "%s port %u%s%s%s", d->name, ports[k].port,
				 ports[k].netdev[0] ? " (" : "", ports[k].netdev, ports[k].netdev[0] ? ")" : "");
			out_obj_begin(o, NULL, label);
			rdma_out_where(o, &s, d->name, ports[k].port, ports[k].netdev, false);
			if (mlx_rdma_stat_get(cli->ctx, d, ports[k].port, &st) < 0) {
				out_str(o, "error", "error", mlx_errmsg(cli->ctx));
				mlx_err_clear(cli->ctx);
			}
			out_str(o, "counter_mode", NULL, mlx_rdma_counter_mode_name(st.mode));
			out_criteria(o, st.mode == 1 ? st.auto_mask : -1);
			snprintf(mode, sizeof(mode), "%s%s%s", mlx_rdma_counter_mode_name(st.mode) ?
				 mlx_rdma_counter_mode_name(st.mode) : "unknown",
				 st.mode == 1 && (st.auto_mask & 1) ? ", by QP type" : "",
				 st.mode == 1 && (st.auto_mask & 2) ? ", by PID" : "");
			out_text(o, "QP counter mode", mode);
			out_table_begin(o, "counters");
			for (size_t c = 0; c < st.n; c++)
				if (st.c[c].has_value || st.c[c].enabled >= 0)
					out_hwc_row(cli, d, ports[k].port, &st.c[c], true);
			out_table_end(o);
			mlx_rdma_stat_free(&st);
			out_list_begin(o, "qp_counters", NULL);
			for (size_t b = 0; b < cl.n; b++) {
				const struct mlx_rdma_counter *bc = &cl.v[b];

				if (bc->port != ports[k].port)
					continue;
				snprintf(label, sizeof(label), "bound counter %u", bc->id);
				out_obj_begin(o, NULL, label);
				out_u64(o, "counter_id", NULL, bc->id);
				out_str(o, "counter_mode", "mode", mlx_rdma_counter_mode_name(bc->mode));
				out_str(o, "qp_type", "QP type", mlx_rdma_qp_type_name(bc->qp_type));
				if (bc->pid >= 0)
					out_u64(o, "pid", "PID", (uint64_t)bc->pid);
				else
					out_null(o, "pid", NULL);
				out_list_begin(o, "lqpns", NULL);
				{
					char q[160] = "";
					size_t at = 0;

					for (size_t j = 0; j < bc->nqpn; j++) {
						out_u64(o, NULL, NULL, bc->qpn[j]);
						if (at < sizeof(q) - 16)
							at += (size_t)snprintf(q + at, sizeof(q) - at, "%s%u",
									       j ? "," : "", bc->qpn[j]);
					}
					out_list_end(o);
					out_text(o, "QPs", q);
				}
				out_table_begin(o, "counters");
				for (size_t c = 0; c < bc->n; c++)
					out_hwc_row(cli, d, ports[k].port, &bc->c[c], false);
				out_table_end(o);
				out_obj_end(o);
			}
			out_list_end(o);
			out_obj_end(o);
		}
		free(ports);
		mlx_rdma_counter_list_free(&cl);
	}
	out_list_end(o);
	rdma_sel_free(&s);
	return EXIT_OK;
}

/* ---- the group ------------------------------------------------------------------------ */

static const struct cmd rdma_cmds[] = {
	{ "show", "", "per device and port: state, netdev, PCI function, RoCE mode and ToS and "
	  "where it lands (DSCP, priority, PFC), active MTU, resource counts, versions",
	  cmd_rdma_show, 0, 0, 0, NULL, NULL, NULL },
	{ "qp", "", "queue pairs: number, type, state, peer, PSNs, process, port and netdev",
	  cmd_rdma_qp, 0, 0, 0, NULL, rdma_qp_opts, NULL },
	{ "cm-id", "", "RDMA CM IDs: state, source and destination address, QP, process",
	  cmd_rdma_cm_id, 0, 0, 0, NULL, rdma_cm_id_opts, NULL },
	{ "cq", "", "completion queues: size, users, poll context, process",
	  cmd_rdma_cq, 0, 0, 0, NULL, rdma_res_opts, NULL },
	{ "mr", "", "memory regions: length, keys (root), PD, process",
	  cmd_rdma_mr, 0, 0, 0, NULL, rdma_res_opts, NULL },
	{ "pd", "", "protection domains: users, keys (root), process",
	  cmd_rdma_pd, 0, 0, 0, NULL, rdma_res_opts, NULL },
	{ "ctx", "", "user contexts (one per process that opened the device)",
	  cmd_rdma_ctx, 0, 0, 0, NULL, rdma_res_opts, NULL },
	{ "srq", "", "shared receive queues: type, PD, CQ, the QPs on them, process",
	  cmd_rdma_srq, 0, 0, 0, NULL, rdma_res_opts, NULL },
	{ "gids", "", "the GID table: index, GID, IPv4, RoCE version, netdev, VLAN (show_gids)",
	  cmd_rdma_gids, 0, 0, 0, NULL, NULL, NULL },
	{ "stats", "", "RDMA netlink counters next to hw_counters, counter modes, per-QP counters",
	  cmd_rdma_stats, 0, 0, 0, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group rdma_group = { "rdma", "the RDMA half of the ports: devices, resources, "
				      "GIDs, counters", "mlxcli-rdma(8)", rdma_cmds };

/* mlxtool's `show nd connections` (a group of one under `show`) */
static const struct cmd nd_cmds[] = {
	{ "connections", "", "mlxtool's ND connections: the QPs with their CM addresses "
	  "(see mlxcli-rdma(8))", cmd_rdma_nd_connections, 0, 0, 0, NULL, rdma_nd_opts, NULL,
	  "mlxcli-rdma(8)" },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group nd_group = { "nd", "mlxtool's NetworkDirect views", "mlxcli-rdma(8)",
				    nd_cmds };
