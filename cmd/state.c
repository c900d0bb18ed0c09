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
#include "sriov.h"
#include "settings-cmd.h"
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

/* By its presence in the model: nothing, null, or the value. */
static void kv_have_u64(const struct sr *s, const char *key, uint8_t have, uint64_t v)
{
	if (have == MLX_SET)
		kv_u64(s, key, v);
	else if (have == MLX_NULL)
		kv_null(s, key);
}

static void kv_have_str(const struct sr *s, const char *key, uint8_t have, const char *v)
{
	if (have == MLX_SET)
		kv_str(s, key, v);
	else if (have == MLX_NULL)
		kv_null(s, key);
}

static void kv_have_bool(const struct sr *s, const char *key, uint8_t have, bool v)
{
	if (have == MLX_SET)
		kv_tri(s, key, v);
	else if (have == MLX_NULL)
		kv_null(s, key);
}

/* ---- DCB: dcbx owner, trust, dscp2prio, pfc, ets, tcs, buffer ---- */

static void render_dcb(const struct sr *port, const struct mlx_qos_settings *q)
{
	const struct mlx_dcb_state *st = &q->st;
	struct sr s = *port;
	int map[MLX_DCB_NDSCP];
	uint64_t v[8];
	size_t n = 0;

	if (q->have == MLX_NULL) {
		/* No DCB on this port (or no netdev): every section unknown. */
		kv_null(&s, "dcbx");
		kv_null(&s, "trust");
		kv_null(&s, "dscp2prio");
		kv_null(&s, "pfc");
		kv_null(&s, "ets");
		kv_null(&s, "tcs");
		kv_null(&s, "buffer");
		return;
	}
	if (q->dcbx == MLX_SET) {
		out_obj_begin(s.o, "dcbx", NULL);
		s.pfx = "dcbx";
		kv_have_str(&s, "mode", q->dcbx_mode, qos_dcbx_mode(st->dcbx));
		out_obj_end(s.o);
		s.pfx = NULL;
	} else {
		kv_null(&s, "dcbx");
	}

	kv_str(&s, "trust", q->trust_dscp ? "dscp" : "pcp");
	/* dscp2prio: the DSCP APP entries, in text one line "d:p d:p ..." */
	mlx_dcb_dscp_map(st, map);
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

	if (q->pfc == MLX_SET) {
		out_obj_begin(s.o, "pfc", NULL);
		s.pfx = "pfc";
		n = 0;
		for (int p = 0; p < 8; p++)
			if ((st->pfc.pfc_en >> p) & 1)
				v[n++] = (uint64_t)p;
		kv_list(&s, "enabled_priorities", v, n);
		kv_u64(&s, "cable_length_m", st->pfc.delay);
		out_obj_end(s.o);
		s.pfx = NULL;
	} else {
		kv_null(&s, "pfc");
	}

	if (q->ets == MLX_SET) {
		out_obj_begin(s.o, "ets", NULL);
		s.pfx = "ets";
		kv_u8list(&s, "prio_tc", st->ets.prio_tc, 8);
		out_obj_end(s.o);
		out_list_begin(s.o, "tcs", NULL);
		for (unsigned tc = 0; tc < 8; tc++) {
			char pfx[16];

			if (q->tc[tc] != MLX_SET)
				continue;
			snprintf(pfx, sizeof(pfx), "tcs.%u", tc);
			s.pfx = pfx;
			out_obj_begin(s.o, NULL, NULL);
			out_fmt_u64(s.o, OUT_JSON, "tc", NULL, tc);
			kv_str(&s, "tsa", mlx_dcb_tsa_name(st->ets.tc_tsa[tc]));
			kv_have_u64(&s, "bandwidth_pct", q->bw[tc], st->ets.tc_tx_bw[tc]);
			/* the kernel's unit is kb/s; 0 = unlimited, as the kernel and a
			 * VF's max_tx_rate_mbps say it (null would be "unknown") */
			kv_u64(&s, "max_rate_mbps", st->has_maxrate ? st->maxrate.tc_maxrate[tc] / 1000 : 0);
			out_obj_end(s.o);
		}
		out_list_end(s.o);
		s.pfx = NULL;
	} else {
		kv_null(&s, "ets");
		kv_null(&s, "tcs");
	}

	if (q->buffer == MLX_SET) {
		out_obj_begin(s.o, "buffer", NULL);
		s.pfx = "buffer";
		kv_u8list(&s, "prio2buffer", st->buffer.prio2buffer, 8);
		for (int i = 0; i < 8; i++)
			v[i] = st->buffer.buffer_size[i];
		kv_list(&s, "size_bytes", v, 8);
		out_fmt_str(s.o, OUT_JSON, "source", NULL, q->buf_sysfs ? "sysfs" : "dcbnl");
		out_obj_end(s.o);
	} else {
		kv_null(&s, "buffer");
	}
}

/* ---- DCQCN: per side the per-priority enable and the parameters ---- */

static void render_dcqcn_side(struct out *o, const struct mlx_dcqcn_settings *d,
			      enum mlx_dcqcn_side side)
{
	const struct mlx_dcqcn_side_settings *ss = &d->side[mlx_dcqcn_side_index(side)];
	const struct mlx_dcqcn_param *t;
	size_t n;
	struct sr s = { o, side == MLX_DCQCN_RP ? "dcqcn.rp" : "dcqcn.np" };
	char fmt[128];

	out_obj_begin(s.o, side == MLX_DCQCN_RP ? "rp" : "np", NULL);
	out_printf(s.o, "  %s.enable =", s.pfx);
	out_list_begin(s.o, "enable", NULL);
	for (int p = 0; p < 8; p++)
		if (ss->en[p] == MLX_SET)
			out_fmt_bool(s.o, OUT_ANY, NULL, p ? ",%s" : " %s", ss->on[p]);
		else
			out_fmt_null(s.o, OUT_ANY, NULL, p ? ",%s" : " %s");
	out_list_end(s.o);
	out_printf(s.o, "\n");

	/* Named by file, MLNX_OFED's name first: the same name on both
	 * layouts, so a state applies and diffs across them. */
	out_list_begin(s.o, "parameters", NULL);
	t = mlx_dcqcn_params(&n);
	for (size_t i = 0; i < n && i < MLX_DCQCN_MAXP; i++) {
		char name[64];

		if (t[i].prio >= 0 || t[i].side != side)
			continue;
		mlx_dcqcn_name(&t[i], side, MLX_DCQCN_NONE, MLX_DCQCN_FILE, name, sizeof(name));
		out_obj_begin(s.o, NULL, NULL);
		out_fmt_str(s.o, OUT_JSON, "name", NULL, name);
		snprintf(fmt, sizeof(fmt), "  %s.%s = %%s\n", s.pfx, name);
		if (ss->h[i] == MLX_SET)
			out_fmt_u64(s.o, OUT_ANY, "value", fmt, ss->v[i]);
		else
			out_fmt_null(s.o, OUT_ANY, "value", fmt);
		out_obj_end(s.o);
	}
	out_list_end(s.o);
	out_obj_end(s.o);
}

static void render_dcqcn(struct out *o, const struct mlx_dcqcn_settings *d)
{
	struct sr s = { o, NULL };

	if (d->have != MLX_SET) {
		kv_null(&s, "dcqcn");
		return;
	}
	out_obj_begin(s.o, "dcqcn", NULL);
	out_fmt_str(s.o, OUT_JSON, "layout", NULL, mlx_dcqcn_layout_name(d->layout));
	render_dcqcn_side(o, d, MLX_DCQCN_RP);
	render_dcqcn_side(o, d, MLX_DCQCN_NP);
	out_obj_end(s.o);
}

/* ---- params: the driver's knobs a port changes at run time ---- */

bool state_knob_in(const struct mlx_knob *k)
{
	return mlx_params_state_knob(k);
}

static void render_params(struct out *o, const struct mlx_params_settings *ps)
{
	struct sr s = { o, NULL };
	char fmt[128];

	if (ps->have != MLX_SET) {
		kv_null(&s, "params");
		return;
	}
	out_obj_begin(s.o, "params", NULL);
	for (size_t i = 0; i < ps->n; i++) {
		snprintf(fmt, sizeof(fmt), "  params.%s = %%s\n", ps->kv[i].k->name);
		cli_out_fmt_val(s.o, OUT_ANY, ps->kv[i].k->name, fmt, &ps->kv[i].v);
	}
	out_obj_end(s.o);
}

/* ---- RoCE: the RDMA CM defaults (configfs) ---- */

static void render_roce(struct out *o, const struct mlx_roce_settings *r)
{
	struct sr s = { o, "roce" };

	if (r->have != MLX_SET) {
		s.pfx = NULL;
		kv_null(&s, "roce");
		return;
	}
	out_obj_begin(s.o, "roce", NULL);
	kv_str(&s, "default_roce_mode", r->mode_h == MLX_SET ? r->mode : NULL);
	kv_int(&s, "default_roce_tos", r->tos_h == MLX_SET ? (int64_t)r->tos : -1);
	out_obj_end(s.o);
}

/* ---- SR-IOV: numvfs, eswitch mode, each VF's settings ---- */

static void render_vf(const struct sr *vs, const struct mlx_vf_settings *vf)
{
	char buf[32];

	out_obj_begin(vs->o, NULL, NULL);
	out_fmt_u64(vs->o, OUT_JSON, "vf", NULL, vf->vf);
	mlx_fmt_mac(vf->mac, buf, sizeof(buf));
	kv_have_str(vs, "mac", vf->mac_h, buf);
	kv_have_u64(vs, "vlan", vf->vlan_h, vf->vlan);
	kv_have_u64(vs, "qos", vf->qos_h, vf->qos);
	snprintf(buf, sizeof(buf), "0x%04x", vf->proto);
	kv_have_str(vs, "vlan_protocol", vf->proto_h, buf);
	kv_have_u64(vs, "min_tx_rate_mbps", vf->min_h, vf->min_rate);
	kv_have_u64(vs, "max_tx_rate_mbps", vf->max_h, vf->max_rate);
	kv_have_bool(vs, "spoofchk", vf->spoofchk_h, vf->spoofchk);
	kv_have_bool(vs, "trusted", vf->trust_h, vf->trust);
	kv_have_str(vs, "link_state", vf->link_h, mlx_vf_link_state_str(vf->link_state));
	out_obj_end(vs->o);
}

static void render_sriov(struct out *o, const struct mlx_sriov_settings *sv)
{
	struct sr s = { o, "sriov" };

	if (sv->have != MLX_SET) {
		s.pfx = NULL;
		kv_null(&s, "sriov");
		return;
	}
	out_obj_begin(s.o, "sriov", NULL);
	kv_have_u64(&s, "num_vfs", sv->numvfs_h, sv->numvfs);
	kv_have_str(&s, "eswitch_mode", sv->esw_h, mlx_eswitch_mode_str(sv->esw_mode));
	if (sv->vfs_h != MLX_SET) {
		kv_null(&s, "vfs");
	} else {
		out_list_begin(s.o, "vfs", NULL);
		for (size_t i = 0; i < sv->nvf; i++) {
			char pfx[24];
			struct sr vs = { s.o, pfx };

			snprintf(pfx, sizeof(pfx), "sriov.vfs.%" PRIu32, sv->vf[i].vf);
			render_vf(&vs, &sv->vf[i]);
		}
		out_list_end(s.o);
	}
	out_obj_end(s.o);
}

/* ---- the document ---- */

void state_out_port(struct cli *cli, const struct mlx_port_settings *p)
{
	struct sr s = { cli->out, NULL };

	out_obj_begin(s.o, NULL, NULL);
	out_fmt_str(s.o, OUT_ANY, "pci_address", "port %s", p->pci_address[0] ? p->pci_address : NULL);
	out_fmt_str(s.o, OUT_ANY, "netdev", " %s\n", p->netdev[0] ? p->netdev : NULL);
	render_dcb(&s, &p->qos);
	render_dcqcn(s.o, &p->dcqcn);
	render_params(s.o, &p->params);
	render_roce(s.o, &p->roce);
	render_sriov(s.o, &p->sriov);
	out_obj_end(s.o);
}

int state_for_ports(struct cli *cli, const struct mlx_function *only, bool functions,
		    const char *const *netdevs, size_t nnetdev,
		    void (*fn)(void *arg, struct mlx_port_settings *p), void *arg)
{
	struct mlx_devices *devs;
	struct mlx_settings_reader *rd;
	struct mlx_port_ref t;
	struct mlx_port_settings *p;
	int r;

	/* settings only: the port's MAC, MTU, carrier... are not read */
	if (!cli->scanned)
		cli->scan_skip |= MLX_SCAN_PORT_DETAILS;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (mlx_settings_reader_new(cli->ctx, &rd) < 0)
		return cli_fail(cli, -ENOMEM, "cannot allocate memory");
	for (size_t i = 0; i < devs->nfn && functions; i++) {
		const struct mlx_function *f = &devs->fn[i];

		/* VFs are configured through their PF (sriov.vfs) */
		if (only ? f != only : f->role != MLX_FN_PF)
			continue;
		for (size_t j = 0; j < (f->nports ? f->nports : 1); j++) {
			mlx_port_ref_init(&t, f, f->nports ? &f->ports[j] : NULL, NULL);
			if (mlx_settings_read(rd, &t, &p) < 0) {
				mlx_settings_reader_free(rd);
				return cli_fail(cli, -ENOMEM, "cannot allocate memory");
			}
			fn(arg, p);
		}
	}
	/* a netdev that is no ConnectX port (--any-netdev): its params, null
	 * for every section it cannot have (no DCB, DCQCN, RDMA CM, SR-IOV) */
	for (size_t i = 0; i < nnetdev; i++) {
		mlx_port_ref_init(&t, NULL, NULL, netdevs[i]);
		if (mlx_settings_read(rd, &t, &p) < 0) {
			mlx_settings_reader_free(rd);
			return cli_fail(cli, -ENOMEM, "cannot allocate memory");
		}
		fn(arg, p);
	}
	mlx_settings_reader_free(rd);
	return EXIT_OK;
}

static void out_one(void *arg, struct mlx_port_settings *p)
{
	state_out_port(arg, p);
	mlx_port_settings_free(p);
}

int state_render(struct cli *cli, const struct mlx_function *only)
{
	return state_render_ports(cli, only, true, NULL, 0);
}

int state_render_ports(struct cli *cli, const struct mlx_function *only, bool functions,
		       const char *const *netdevs, size_t nnetdev)
{
	int r;

	out_list_begin(cli->out, "ports", NULL);
	r = state_for_ports(cli, only, functions, netdevs, nnetdev, out_one, cli);
	out_list_end(cli->out);
	return r;
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
