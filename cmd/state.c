/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli state`: the whole configurable state of the host's ConnectX
 * ports as one document (issue 19).  Its schema IS the desired-state
 * schema `apply` takes, so everything here is a setting, never a counter
 * or a status: per port (a PF's netdev) the DCBX owner, trust, dscp2prio,
 * PFC, ETS and TC rates, buffers, DCQCN (per-priority enable and the
 * parameters), the driver's knobs that change at run time per port
 * (params), the RDMA CM's RoCE defaults, and SR-IOV (numvfs, eswitch mode,
 * each VF's settings).  Keys are those show qos, qosconfig dcqcn get
 * and sriov show print for the same facts (mlxcli-json(7)); the schema is
 * written down in mlxcli-state(8).
 *
 * One renderer: the text form is one "path = value" line per setting, the
 * same paths `mlxcli diff` prints, from the same out_fmt_* calls as the
 * JSON.  state_render() is also what diff calls on a captured directory.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dcb.h"
#include "dcqcn.h"
#include "params.h"
#include "qos-check.h"
#include "qos-cmd.h"
#include "rdma.h"
#include "sriov.h"
#include "state.h"
#include "state-cmd.h"

/* The text path of the object being rendered ("pfc", "dcqcn.rp"). */
struct sr {
	struct out *o;
	const char *pfx;
};

static void line_fmt(const struct sr *s, const char *name, char *fmt, size_t len)
{
	snprintf(fmt, len, "  %s%s%s = %%s\n", s->pfx ? s->pfx : "", s->pfx ? "." : "", name);
}

static void kv_str(const struct sr *s, const char *key, const char *val)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	out_fmt_str(s->o, OUT_ANY, key, fmt, val);
}

static void kv_u64(const struct sr *s, const char *key, uint64_t v)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	out_fmt_u64(s->o, OUT_ANY, key, fmt, v);
}

/* -1: unknown (null). */
static void kv_int(const struct sr *s, const char *key, int64_t v)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	if (v >= 0)
		out_fmt_u64(s->o, OUT_ANY, key, fmt, (uint64_t)v);
	else
		out_fmt_null(s->o, OUT_ANY, key, fmt);
}

/* 1 true, 0 false, -1 unknown (null). */
static void kv_tri(const struct sr *s, const char *key, int v)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	if (v >= 0)
		out_fmt_bool(s->o, OUT_ANY, key, fmt, v != 0);
	else
		out_fmt_null(s->o, OUT_ANY, key, fmt);
}

static void kv_null(const struct sr *s, const char *key)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	out_fmt_null(s->o, OUT_ANY, key, fmt);
}

/* A list of numbers: JSON array; text "path = a,b,c" ("" when empty). */
static void kv_list(const struct sr *s, const char *key, const uint64_t *v, size_t n)
{
	out_printf(s->o, "  %s%s%s =", s->pfx ? s->pfx : "", s->pfx ? "." : "", key);
	out_list_begin(s->o, key, NULL);
	for (size_t i = 0; i < n; i++)
		out_fmt_u64(s->o, OUT_ANY, NULL, i ? ",%s" : " %s", v[i]);
	out_list_end(s->o);
	/* the word the write verbs take for an empty list (pfc none) */
	out_printf(s->o, "%s\n", n ? "" : " none");
}

static void kv_u8list(const struct sr *s, const char *key, const uint8_t *v, size_t n)
{
	uint64_t w[8];

	for (size_t i = 0; i < n && i < 8; i++)
		w[i] = v[i];
	kv_list(s, key, w, n < 8 ? n : 8);
}

/* ---- DCB: dcbx owner, trust, dscp2prio, pfc, ets, tcs, buffer ---- */

static void render_dcb(struct cli *cli, const struct sr *port, const char *ifname)
{
	struct mlx_dcb_state st;
	struct sr s = *port;
	int map[MLX_DCB_NDSCP];
	uint64_t v[8];
	size_t n = 0;
	bool sysfs_buf = false;
	int r;

	memset(&st, 0, sizeof(st));
	r = ifname ? mlx_dcb_get(cli->ctx, ifname, &st) : -ENODEV;
	if (r < 0) {
		/* No DCB on this port (or no netdev): every section unknown. */
		mlx_log(cli->ctx, MLX_LOG_INFO, "%s: no DCB state: %s", ifname ? ifname : "-",
			mlx_errmsg(cli->ctx));
		mlx_err_clear(cli->ctx);
		kv_null(&s, "dcbx");
		kv_null(&s, "trust");
		kv_null(&s, "dscp2prio");
		kv_null(&s, "pfc");
		kv_null(&s, "ets");
		kv_null(&s, "tcs");
		kv_null(&s, "buffer");
		return;
	}
	if (!st.has_buffer && mlx_dcb_sysfs_buffer(cli->ctx, ifname, &st.buffer) == 0)
		st.has_buffer = sysfs_buf = true;
	mlx_err_clear(cli->ctx);

	if (st.has_dcbx) {
		out_obj_begin(s.o, "dcbx", NULL);
		s.pfx = "dcbx";
		kv_str(&s, "mode", qos_dcbx_mode(st.dcbx));
		out_obj_end(s.o);
		s.pfx = NULL;
	} else {
		kv_null(&s, "dcbx");
	}

	kv_str(&s, "trust", mlx_dcb_trust_dscp(&st) ? "dscp" : "pcp");
	/* dscp2prio: the DSCP APP entries, in text one line "d:p d:p ..." */
	mlx_dcb_dscp_map(&st, map);
	out_printf(s.o, "  dscp2prio =");
	out_list_begin(s.o, "dscp2prio", NULL);
	for (int d = 0; d < MLX_DCB_NDSCP; d++) {
		if (map[d] < 0)
			continue;
		out_obj_begin(s.o, NULL, NULL);
		out_fmt_u64(s.o, OUT_ANY, "dscp", " %s", (uint64_t)d);
		out_fmt_u64(s.o, OUT_ANY, "priority", ":%s", (uint64_t)map[d]);
		out_obj_end(s.o);
		n++;
	}
	out_list_end(s.o);
	out_printf(s.o, "%s\n", n ? "" : " none");

	if (st.has_pfc) {
		out_obj_begin(s.o, "pfc", NULL);
		s.pfx = "pfc";
		n = 0;
		for (int p = 0; p < 8; p++)
			if ((st.pfc.pfc_en >> p) & 1)
				v[n++] = (uint64_t)p;
		kv_list(&s, "enabled_priorities", v, n);
		kv_u64(&s, "cable_length_m", st.pfc.delay);
		out_obj_end(s.o);
		s.pfx = NULL;
	} else {
		kv_null(&s, "pfc");
	}

	if (st.has_ets) {
		unsigned cap = st.ets.ets_cap && st.ets.ets_cap <= 8 ? st.ets.ets_cap : 8;

		out_obj_begin(s.o, "ets", NULL);
		s.pfx = "ets";
		kv_u8list(&s, "prio_tc", st.ets.prio_tc, 8);
		out_obj_end(s.o);
		out_list_begin(s.o, "tcs", NULL);
		for (unsigned tc = 0; tc < cap; tc++) {
			uint64_t kbps = st.has_maxrate ? st.maxrate.tc_maxrate[tc] : 0;
			uint8_t tsa = st.ets.tc_tsa[tc];
			char pfx[16];

			snprintf(pfx, sizeof(pfx), "tcs.%u", tc);
			s.pfx = pfx;
			out_obj_begin(s.o, NULL, NULL);
			out_fmt_u64(s.o, OUT_JSON, "tc", NULL, tc);
			kv_str(&s, "tsa", mlx_dcb_tsa_name(tsa));
			kv_int(&s, "bandwidth_pct", tsa == IEEE_8021QAZ_TSA_ETS ? st.ets.tc_tx_bw[tc] : -1);
			/* the kernel's unit is kb/s; 0 = unlimited, as the kernel and a
			 * VF's max_tx_rate_mbps say it (null would be "unknown") */
			kv_u64(&s, "max_rate_mbps", kbps / 1000);
			out_obj_end(s.o);
		}
		out_list_end(s.o);
		s.pfx = NULL;
	} else {
		kv_null(&s, "ets");
		kv_null(&s, "tcs");
	}

	if (st.has_buffer) {
		out_obj_begin(s.o, "buffer", NULL);
		s.pfx = "buffer";
		kv_u8list(&s, "prio2buffer", st.buffer.prio2buffer, 8);
		for (int i = 0; i < 8; i++)
			v[i] = st.buffer.buffer_size[i];
		kv_list(&s, "size_bytes", v, 8);
		out_fmt_str(s.o, OUT_JSON, "source", NULL, sysfs_buf ? "sysfs" : "dcbnl");
		out_obj_end(s.o);
	} else {
		kv_null(&s, "buffer");
	}
}

/* ---- DCQCN: per side the per-priority enable and the parameters ---- */

static void render_dcqcn_side(struct cli *cli, const struct mlx_dcqcn_port *dp,
			      enum mlx_dcqcn_side side, const int en[8])
{
	const struct mlx_dcqcn_param *t;
	size_t n;
	struct sr s = { cli->out, side == MLX_DCQCN_RP ? "dcqcn.rp" : "dcqcn.np" };
	char fmt[128];

	out_obj_begin(s.o, side == MLX_DCQCN_RP ? "rp" : "np", NULL);
	out_printf(s.o, "  %s.enable =", s.pfx);
	out_list_begin(s.o, "enable", NULL);
	for (int p = 0; p < 8; p++)
		if (en[p] >= 0)
			out_fmt_bool(s.o, OUT_ANY, NULL, p ? ",%s" : " %s", en[p] == 1);
		else
			out_fmt_null(s.o, OUT_ANY, NULL, p ? ",%s" : " %s");
	out_list_end(s.o);
	out_printf(s.o, "\n");

	/* Named by file, MLNX_OFED's name first: the same name on both
	 * layouts, so a state applies and diffs across them. */
	out_list_begin(s.o, "parameters", NULL);
	t = mlx_dcqcn_params(&n);
	for (size_t i = 0; i < n; i++) {
		char name[64];
		uint64_t val;

		if (t[i].prio >= 0 || t[i].side != side)
			continue;
		mlx_dcqcn_name(&t[i], side, MLX_DCQCN_NONE, MLX_DCQCN_FILE, name, sizeof(name));
		out_obj_begin(s.o, NULL, NULL);
		out_fmt_str(s.o, OUT_JSON, "name", NULL, name);
		snprintf(fmt, sizeof(fmt), "  %s.%s = %%s\n", s.pfx, name);
		if (mlx_dcqcn_read(cli->ctx, dp, &t[i], side, &val) == 0)
			out_fmt_u64(s.o, OUT_ANY, "value", fmt, val);
		else
			out_fmt_null(s.o, OUT_ANY, "value", fmt);
		out_obj_end(s.o);
	}
	mlx_err_clear(cli->ctx);
	out_list_end(s.o);
	out_obj_end(s.o);
}

static void render_dcqcn(struct cli *cli, const struct mlx_function *fn, const struct mlx_port *port)
{
	struct sr s = { cli->out, NULL };
	struct mlx_dcqcn_port dp;
	int rp[8], np[8];

	if (mlx_dcqcn_open(cli->ctx, fn, port, &dp) < 0) {
		mlx_err_clear(cli->ctx);
		kv_null(&s, "dcqcn");
		return;
	}
	mlx_dcqcn_prio_state(cli->ctx, &dp, rp, np);
	out_obj_begin(s.o, "dcqcn", NULL);
	s.pfx = "dcqcn";
	out_fmt_str(s.o, OUT_JSON, "layout", NULL, mlx_dcqcn_layout_name(dp.layout));
	render_dcqcn_side(cli, &dp, MLX_DCQCN_RP, rp);
	render_dcqcn_side(cli, &dp, MLX_DCQCN_NP, np);
	out_obj_end(s.o);
}

/* ---- params: the driver's knobs a port changes at run time ---- */

/*
 * The knobs of one port that `apply` can set back (issue 17's catalogue,
 * read by lib/params, as `params -j` types them): the netdev's ethtool
 * knobs and MTU, the function's devlink parameters in cmode runtime.  Not
 * a fixed feature (the device cannot change it), not a knob that takes
 * effect at a reload or a firmware reset, not mlx5_core's module
 * parameters (host-wide, not a port's), not rdma_cm's (the "roce" section
 * holds them) or MLNX_OFED's traffic_class (its "unset" is a state no
 * write restores).
 */
bool state_knob_in(const struct mlx_knob *k)
{
	return k && k->src != MLX_KS_MODULE && k->src != MLX_KS_RDMA;
}

/* @bdf: the function's devlink parameters too (with its first port); @ifname
 * NULL: no netdev. */
static void render_params(struct cli *cli, struct mlx_params_cache *c, const char *ifname,
			  const char *bdf, bool pf)
{
	struct sr s = { cli->out, NULL };
	struct mlx_params p;
	char fmt[128];

	if (!c || (!ifname && !bdf) || mlx_params_port(cli->ctx, c, ifname, bdf, pf, &p) < 0) {
		mlx_err_clear(cli->ctx);
		kv_null(&s, "params");
		return;
	}
	mlx_err_clear(cli->ctx);
	out_obj_begin(s.o, "params", NULL);
	for (size_t i = 0; i < p.n; i++) {
		const struct mlx_knob_value *v = &p.v[i];
		bool dup = false;

		if (!state_knob_in(v->k) || v->apply != MLX_KA_RUNTIME || v->fixed)
			continue;
		/* a devlink parameter reported in several cmodes: its runtime row once */
		for (size_t j = 0; j < i && !dup; j++)
			dup = p.v[j].k == v->k && p.v[j].apply == MLX_KA_RUNTIME && !p.v[j].fixed;
		if (dup)
			continue;
		snprintf(fmt, sizeof(fmt), "  params.%s = %%s\n", v->k->name);
		params_out_value(s.o, v->k->name, fmt, v->known ? v->value : NULL, v->k->type);
	}
	out_obj_end(s.o);
	mlx_params_free(&p);
}

/* ---- RoCE: the RDMA CM defaults (configfs) ---- */

static void render_roce(struct cli *cli, const struct mlx_port *port)
{
	struct sr s = { cli->out, "roce" };
	struct mlx_roce_cm cm;

	mlx_roce_cm_get(cli->ctx, port && port->rdma_dev[0] ? port->rdma_dev : NULL,
			port && port->rdma_port ? port->rdma_port : 1, &cm);
	out_obj_begin(s.o, "roce", NULL);
	kv_str(&s, "default_roce_mode", cm.mode[0] ? cm.mode : NULL);
	kv_int(&s, "default_roce_tos", cm.tos);
	out_obj_end(s.o);
}

/* ---- SR-IOV: numvfs, eswitch mode, each VF's settings ---- */

static void render_vf(const struct sr *vs, const struct mlx_vf_info *vf)
{
	char buf[32];

	out_obj_begin(vs->o, NULL, NULL);
	out_fmt_u64(vs->o, OUT_JSON, "vf", NULL, vf->vf);
	if (vf->has_mac) {
		snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", vf->mac[0], vf->mac[1],
			 vf->mac[2], vf->mac[3], vf->mac[4], vf->mac[5]);
		kv_str(vs, "mac", buf);
	} else {
		kv_null(vs, "mac");
	}
	kv_int(vs, "vlan", vf->has_vlan ? (int64_t)vf->vlan : -1);
	kv_int(vs, "qos", vf->has_vlan ? (int64_t)vf->qos : -1);
	if (vf->vlan_proto) {
		snprintf(buf, sizeof(buf), "0x%04x", vf->vlan_proto);
		kv_str(vs, "vlan_protocol", buf);
	} else {
		kv_null(vs, "vlan_protocol");
	}
	kv_int(vs, "min_tx_rate_mbps", vf->has_rate || vf->max_tx_rate ? (int64_t)vf->min_tx_rate : -1);
	kv_int(vs, "max_tx_rate_mbps", vf->has_rate || vf->max_tx_rate ? (int64_t)vf->max_tx_rate : -1);
	kv_tri(vs, "spoofchk", vf->spoofchk);
	kv_tri(vs, "trusted", vf->trust);
	kv_str(vs, "link_state", mlx_vf_link_state_str(vf->link_state));
	out_obj_end(vs->o);
}

static void render_sriov(struct cli *cli, const struct mlx_function *pf)
{
	struct sr s = { cli->out, "sriov" };
	struct mlx_link_vfs l;
	struct mlx_eswitch esw;

	if (pf->sriov_totalvfs <= 0) {
		s.pfx = NULL;
		kv_null(&s, "sriov");
		return;
	}
	out_obj_begin(s.o, "sriov", NULL);
	kv_int(&s, "num_vfs", pf->sriov_numvfs);
	if (mlx_devlink_eswitch_get(cli->ctx, pf, &esw) == 0)
		kv_str(&s, "eswitch_mode", mlx_eswitch_mode_str(esw.mode));
	else
		kv_null(&s, "eswitch_mode");
	mlx_err_clear(cli->ctx);
	memset(&l, 0, sizeof(l));
	if (mlx_sriov_query(cli->ctx, pf, &l) < 0) {
		mlx_err_clear(cli->ctx);
		kv_null(&s, "vfs");
	} else {
		out_list_begin(s.o, "vfs", NULL);
		for (size_t i = 0; i < l.nvf; i++) {
			char pfx[24];
			struct sr vs = { s.o, pfx };

			snprintf(pfx, sizeof(pfx), "sriov.vfs.%" PRIu32, l.vf[i].vf);
			render_vf(&vs, &l.vf[i]);
		}
		out_list_end(s.o);
	}
	mlx_link_vfs_free(&l);
	out_obj_end(s.o);
}

/* ---- the document ---- */

static void render_port(struct cli *cli, struct mlx_params_cache *c, const struct mlx_function *fn,
			const struct mlx_port *port)
{
	struct sr s = { cli->out, NULL };
	const char *ifname = port && port->ifname[0] ? port->ifname : NULL;

	out_obj_begin(s.o, NULL, NULL);
	out_fmt_str(s.o, OUT_ANY, "pci_address", "port %s", fn->bdf);
	out_fmt_str(s.o, OUT_ANY, "netdev", " %s\n", ifname);
	render_dcb(cli, &s, ifname);
	render_dcqcn(cli, fn, port);
	/* devlink parameters are the function's: with its first port */
	render_params(cli, c, ifname, !port || port == &fn->ports[0] ? fn->bdf : NULL,
		      fn->role == MLX_FN_PF);
	render_roce(cli, port);
	render_sriov(cli, fn);
	out_obj_end(s.o);
}

/* A netdev that is no ConnectX port (--any-netdev): its params, the RDMA
 * CM's defaults of an RDMA port on it (rdma_rxe), null for every section it
 * cannot have (no DCB, DCQCN, SR-IOV). */
static void render_netdev(struct cli *cli, struct mlx_params_cache *c, const char *ifname)
{
	struct sr s = { cli->out, NULL };
	struct mlx_port rp = { .ifindex = -1 };
	uint32_t pn = 0;

	out_obj_begin(s.o, NULL, NULL);
	out_fmt_str(s.o, OUT_ANY, "pci_address", "port %s", NULL);
	out_fmt_str(s.o, OUT_ANY, "netdev", " %s\n", ifname);
	render_dcb(cli, &s, NULL);
	kv_null(&s, "dcqcn");
	render_params(cli, c, ifname, NULL, false);
	if (mlx_rdma_port_of_netdev(cli->ctx, ifname, rp.rdma_dev, sizeof(rp.rdma_dev), &pn) == 0) {
		rp.rdma_port = pn;
		render_roce(cli, &rp);
	} else {
		kv_null(&s, "roce");
	}
	kv_null(&s, "sriov");
	out_obj_end(s.o);
}

int state_render(struct cli *cli, const struct mlx_function *only)
{
	return state_render_ports(cli, only, true, NULL, 0);
}

int state_render_ports(struct cli *cli, const struct mlx_function *only, bool functions,
		       const char *const *netdevs, size_t nnetdev)
{
	struct mlx_devices *devs;
	struct mlx_params_cache *c = NULL;
	int r;

	/* settings only: the port's MAC, MTU, carrier... are not read */
	if (!cli->scanned)
		cli->scan_skip |= MLX_SCAN_PORT_DETAILS;
	r = cli_devices(cli, &devs);

	if (r)
		return r;
	/* one ethtool and devlink dump per message type for every port */
	if (mlx_params_cache_new(cli->ctx, &c) < 0) {
		mlx_err_clear(cli->ctx);
		c = NULL;
	}
	out_list_begin(cli->out, "ports", NULL);
	for (size_t i = 0; i < devs->nfn && functions; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		/* VFs are configured through their PF (sriov.vfs) */
		if (only ? fn != only : fn->role != MLX_FN_PF)
			continue;
		if (!fn->nports)
			render_port(cli, c, fn, NULL);
		for (size_t j = 0; j < fn->nports; j++)
			render_port(cli, c, fn, &fn->ports[j]);
	}
	for (size_t i = 0; i < nnetdev; i++)
		render_netdev(cli, c, netdevs[i]);
	out_list_end(cli->out);
	mlx_params_cache_free(c);
	return EXIT_OK;
}

const struct cmd_opt state_opts[] = {
	{ "any-netdev", 0, NULL, "with -d IFNAME: any netdev, not only a ConnectX port (its params "
	  "section; the others null)", NULL, SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};

int cmd_state(struct cli *cli, int argc, char **argv)
{
	struct mlx_function *fn = NULL;
	struct mlx_devices *devs;
	bool other;
	int r;

	(void)argc;
	(void)argv;
	cli->scan_skip |= MLX_SCAN_PORT_DETAILS;   /* before -d scans */
	r = cli_other_netdev(cli, &other);
	if (r || other)
		return r ? r : state_render_ports(cli, NULL, false, (const char *const[]){ cli->device }, 1);
	r = cli_select(cli, &fn, NULL);
	if (r)
		return r;
	if (fn && fn->role == MLX_FN_VF)
		return cli_need_pf(cli, fn);
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return state_render(cli, fn);
}
