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
#include "dcqcn-cmd.h"
#include "params.h"
#include "qos-check.h"
#include "qos-cmd.h"
#include "sriov.h"
#include "sriov-cmd.h"
#include "settings-cmd.h"
#include "state.h"
#include "state-cmd.h"

/* ---- "path = value": one line per setting beside its JSON field ---- */

static void line_fmt(const struct spath *s, const char *name, char *fmt, size_t len)
{
	snprintf(fmt, len, "  %s%s%s = %%s\n", s->pfx ? s->pfx : "", s->pfx ? "." : "", name);
}

void sp_str(const struct spath *s, const char *key, const char *val)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	out_fmt_str(s->o, OUT_ANY, key, fmt, val);
}

void sp_u64(const struct spath *s, const char *key, uint64_t v)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	out_fmt_u64(s->o, OUT_ANY, key, fmt, v);
}

void sp_int(const struct spath *s, const char *key, int64_t v)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	if (v >= 0)
		out_fmt_u64(s->o, OUT_ANY, key, fmt, (uint64_t)v);
	else
		out_fmt_null(s->o, OUT_ANY, key, fmt);
}

void sp_tri(const struct spath *s, const char *key, int v)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	if (v >= 0)
		out_fmt_bool(s->o, OUT_ANY, key, fmt, v != 0);
	else
		out_fmt_null(s->o, OUT_ANY, key, fmt);
}

void sp_null(const struct spath *s, const char *key)
{
	char fmt[128];

	line_fmt(s, key, fmt, sizeof(fmt));
	out_fmt_null(s->o, OUT_ANY, key, fmt);
}

/* A list of numbers: JSON array; text "path = a,b,c" ("none" when empty). */
void sp_list(const struct spath *s, const char *key, const uint64_t *v, size_t n)
{
	out_printf(s->o, "  %s%s%s =", s->pfx ? s->pfx : "", s->pfx ? "." : "", key);
	out_list_begin(s->o, key, NULL);
	for (size_t i = 0; i < n; i++)
		out_fmt_u64(s->o, OUT_ANY, NULL, i ? ",%s" : " %s", v[i]);
	out_list_end(s->o);
	/* the word the write verbs take for an empty list (pfc none) */
	out_printf(s->o, "%s\n", n ? "" : " none");
}

void sp_u8list(const struct spath *s, const char *key, const uint8_t *v, size_t n)
{
	uint64_t w[8];

	for (size_t i = 0; i < n && i < 8; i++)
		w[i] = v[i];
	sp_list(s, key, w, n < 8 ? n : 8);
}

/* By its presence in the model: nothing, null, or the value. */
static void sp_have_u64(const struct spath *s, const char *key, uint8_t have, uint64_t v)
{
	if (have == MLX_SET)
		sp_u64(s, key, v);
	else if (have == MLX_NULL)
		sp_null(s, key);
}

static void sp_have_str(const struct spath *s, const char *key, uint8_t have, const char *v)
{
	if (have == MLX_SET)
		sp_str(s, key, v);
	else if (have == MLX_NULL)
		sp_null(s, key);
}

/* ---- DCQCN: per side the per-priority enable and the parameters ---- */

static void render_dcqcn(struct out *o, const struct mlx_dcqcn_settings *d)
{
	struct spath s = { o, NULL };

	if (d->have != MLX_SET) {
		sp_null(&s, "dcqcn");
		return;
	}
	out_obj_begin(s.o, "dcqcn", NULL);
	out_fmt_str(s.o, OUT_JSON, "layout", NULL, mlx_dcqcn_layout_name(d->layout));
	dcqcn_out_side(o, d, MLX_DCQCN_RP, NULL);
	dcqcn_out_side(o, d, MLX_DCQCN_NP, NULL);
	out_obj_end(s.o);
}

/* ---- params: the driver's knobs a port changes at run time ---- */

bool state_knob_in(const struct mlx_knob *k)
{
	return mlx_params_state_knob(k);
}

/*
 * Firmware NV settings (issue 27): the knobs of "params" whose value is
 * the firmware's stored one (devlink cmode permanent), each with when it
 * takes effect, so a reader knows `apply` writes NV and the running
 * device changes only after a firmware reset.  A key of its own beside
 * "params" (whose shape stays name -> value), only when there is one.
 */
static void render_params_applies(struct out *o, const struct mlx_params_settings *ps)
{
	bool any = false;
	char fmt[160];

	for (size_t i = 0; i < ps->n && !any; i++)
		any = ps->kv[i].apply != MLX_KA_RUNTIME;
	if (!any)
		return;
	out_obj_begin(o, "params_applies", NULL);
	for (size_t i = 0; i < ps->n; i++) {
		const char *name = mlx_knob_setting_name(&ps->kv[i]);

		if (ps->kv[i].apply == MLX_KA_RUNTIME)
			continue;
		snprintf(fmt, sizeof(fmt), "  params.%s: stored in firmware NV, applies at a %%s\n",
			 name);
		out_fmt_str(o, OUT_ANY, name, fmt,
			    mlx_knob_apply_name((enum mlx_knob_apply)ps->kv[i].apply));
	}
	out_obj_end(o);
}

static void render_params(struct out *o, const struct mlx_params_settings *ps)
{
	struct spath s = { o, NULL };
	char fmt[128];

	if (ps->have != MLX_SET) {
		sp_null(&s, "params");
		return;
	}
	out_obj_begin(s.o, "params", NULL);
	for (size_t i = 0; i < ps->n; i++) {
		const char *name = mlx_knob_setting_name(&ps->kv[i]);

		snprintf(fmt, sizeof(fmt), "  params.%s = %%s\n", name);
		cli_out_fmt_val(s.o, OUT_ANY, name, fmt, &ps->kv[i].v);
	}
	out_obj_end(s.o);
	render_params_applies(s.o, ps);
}

/* ---- RoCE: the RDMA CM defaults (configfs) ---- */

static void render_roce(struct out *o, const struct mlx_roce_settings *r)
{
	struct spath s = { o, "roce" };

	if (r->have != MLX_SET) {
		s.pfx = NULL;
		sp_null(&s, "roce");
		return;
	}
	out_obj_begin(s.o, "roce", NULL);
	sp_str(&s, "default_roce_mode", r->mode_h == MLX_SET ? r->mode : NULL);
	sp_int(&s, "default_roce_tos", r->tos_h == MLX_SET ? (int64_t)r->tos : -1);
	out_obj_end(s.o);
}

/* ---- SR-IOV: numvfs, eswitch mode, each VF's settings ---- */

static void render_vf(const struct spath *vs, const struct mlx_vf_settings *vf)
{
	out_obj_begin(vs->o, NULL, NULL);
	out_fmt_u64(vs->o, OUT_JSON, "vf", NULL, vf->vf);
	sriov_out_vf_settings(vs->o, vf, vs);
	out_obj_end(vs->o);
}

static void render_sriov(struct out *o, const struct mlx_sriov_settings *sv)
{
	struct spath s = { o, "sriov" };

	if (sv->have != MLX_SET) {
		s.pfx = NULL;
		sp_null(&s, "sriov");
		return;
	}
	out_obj_begin(s.o, "sriov", NULL);
	sp_have_u64(&s, "num_vfs", sv->numvfs_h, sv->numvfs);
	sp_have_str(&s, "eswitch_mode", sv->esw_h, mlx_eswitch_mode_str(sv->esw_mode));
	if (sv->vfs_h != MLX_SET) {
		sp_null(&s, "vfs");
	} else {
		out_list_begin(s.o, "vfs", NULL);
		for (size_t i = 0; i < sv->nvf; i++) {
			char pfx[24];
			struct spath vs = { s.o, pfx };

			snprintf(pfx, sizeof(pfx), "sriov.vfs.%" PRIu32, sv->vf[i].vf);
			render_vf(&vs, &sv->vf[i]);
		}
		out_list_end(s.o);
	}
	out_obj_end(s.o);
}

/* ---- link: pause, speed/duplex/autonegotiation, FEC (issue 27) ---- */

static void render_link(struct out *o, const struct mlx_link_settings *l)
{
	struct spath s = { o, "link" }, ps = { o, "link.pause" };

	if (l->have != MLX_SET) {
		s.pfx = NULL;
		sp_null(&s, "link");
		return;
	}
	out_obj_begin(o, "link", NULL);
	sp_tri(&s, "autoneg", l->autoneg_h == MLX_SET ? l->autoneg : -1);
	sp_have_u64(&s, "speed_mbps", l->speed_h == MLX_SET ? MLX_SET : MLX_NULL, l->speed_mbps);
	sp_str(&s, "duplex", l->duplex_h == MLX_SET ? (l->duplex_full ? "full" : "half") : NULL);
	sp_str(&s, "fec", l->fec_h == MLX_SET ? mlx_fec_mode_name(l->fec) : NULL);
	out_obj_begin(o, "pause", NULL);
	sp_tri(&ps, "autoneg", l->pause_autoneg_h == MLX_SET ? l->pause_autoneg : -1);
	sp_tri(&ps, "rx", l->pause_rx_h == MLX_SET ? l->pause_rx : -1);
	sp_tri(&ps, "tx", l->pause_tx_h == MLX_SET ? l->pause_tx : -1);
	out_obj_end(o);
	out_obj_end(o);
}

/* ---- health: each devlink health reporter's policy (issue 27) ---- */

static void render_health(struct out *o, const struct mlx_health_settings *h)
{
	struct spath s = { o, NULL };

	if (h->have != MLX_SET) {
		sp_null(&s, "health");
		return;
	}
	out_list_begin(o, "health", NULL);
	for (size_t i = 0; i < h->n; i++) {
		const struct mlx_health_policy *r = &h->r[i];
		char pfx[80];
		struct spath rs = { o, pfx };

		/* the paths diff prints (lib's mlx_health_flatten) */
		snprintf(pfx, sizeof(pfx), "health.%s", r->reporter);
		out_obj_begin(o, NULL, NULL);
		out_fmt_str(o, OUT_JSON, "reporter", NULL, r->reporter);
		if (r->port_index >= 0)
			out_fmt_u64(o, OUT_JSON, "port_index", NULL, (uint64_t)r->port_index);
		else
			out_fmt_null(o, OUT_JSON, "port_index", NULL);
		sp_have_u64(&rs, "grace_period_ms", r->grace_h == MLX_SET ? MLX_SET : MLX_NULL,
			    r->grace_period_ms);
		sp_tri(&rs, "auto_recover", r->recover_h == MLX_SET ? r->auto_recover : -1);
		sp_tri(&rs, "auto_dump", r->dump_h == MLX_SET ? r->auto_dump : -1);
		out_obj_end(o);
	}
	out_list_end(o);
}

/* ---- the document ---- */

void state_out_port(struct cli *cli, const struct mlx_port_settings *p)
{
	struct spath s = { cli->out, NULL };

	out_obj_begin(s.o, NULL, NULL);
	out_fmt_str(s.o, OUT_ANY, "pci_address", "port %s", p->pci_address[0] ? p->pci_address : NULL);
	out_fmt_str(s.o, OUT_ANY, "netdev", " %s\n", p->netdev[0] ? p->netdev : NULL);
	qos_out_dcb(s.o, &p->qos, NULL);
	render_dcqcn(s.o, &p->dcqcn);
	render_params(s.o, &p->params);
	render_roce(s.o, &p->roce);
	render_sriov(s.o, &p->sriov);
	render_link(s.o, &p->link);
	render_health(s.o, &p->health);
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
	/* a netdev that is no ConnectX port (--any-netdev): its params, the
	 * RDMA CM's defaults of an RDMA port on it (rdma_rxe; lib's
	 * mlx_port_ref_rdma), null for every section it cannot have (no DCB,
	 * DCQCN, SR-IOV) */
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
