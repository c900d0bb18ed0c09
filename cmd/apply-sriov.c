/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli apply`: the SR-IOV and RDMA CM sections of a port (issue 19),
 * planned here and written by cmd/apply.c through the write engine with
 * the features' own operations (lib/sriov/sriov-write.c, the ones `sriov
 * set` and `sriov vf N set` use; lib/state/roce-cm.c).
 *
 * SR-IOV is one run for the PF (the eswitch mode, then numvfs) and one run
 * per VF FILE names, after it: a numvfs change takes every VF away and
 * makes the new ones with the driver's defaults (drivers/pci/iov.c), so the
 * VFs' settings are written to what the new count made.  A change between
 * two non-zero counts loses the settings of the VFs there are: apply, which
 * runs unattended (boot unit, Ansible), asks no question; it refuses such
 * a change (exit 2, nothing written) unless --yes, as `sriov set numvfs`
 * does without a terminal.  From 0 (the boot case) nothing is lost.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "apply-cmd.h"

static const char *on_what(const struct run *r)
{
	return r->ap->ifname ? r->ap->ifname : r->ap->fn->bdf;
}

void apply_sub_ops(struct run *r, const struct mlx_write_ops **ops, void **feat)
{
	const struct mlx_port *p = r->ap->port;

	switch (r->sub) {
	case SUB_PARAMS:
		/* devlink parameters are the function's: with its first port,
		 * as state shows them */
		r->pw.ifname = r->ap->ifname;
		r->pw.bdf = r->ap->fn && (!p || p == &r->ap->fn->ports[0]) ? r->ap->fn->bdf : NULL;
		*ops = &mlx_params_write_ops;
		*feat = &r->pw;
		return;
	case SUB_ROCE:
		r->rw.rdma_dev = p && p->rdma_dev[0] ? p->rdma_dev :
				 r->ap->rdma_dev[0] ? r->ap->rdma_dev : NULL;
		r->rw.port = p && p->rdma_port ? p->rdma_port :
			     r->ap->rdma_port ? r->ap->rdma_port : 1;
		*ops = &mlx_roce_cm_write_ops;
		*feat = &r->rw;
		return;
	case SUB_VF:
		r->sw.vf = (uint32_t)json_integer_value(json_object_get(r->vf_spec, "vf"));
		r->sw.table = r->numvfs && r->numvfs->have_table && !r->numvfs->recreates
			      ? &r->numvfs->table : NULL;
		/* fall through */
	default:
		r->sw.pf = r->ap->fn;
		*ops = &mlx_sriov_write_ops;
		*feat = &r->sw;
		return;
	}
}

static int oom(struct cli *cli)
{
	cli_error(cli, "out of memory");
	return EXIT_FAIL;
}

size_t apply_nvf_runs(const struct aport *ap)
{
	return json_array_size(json_object_get(json_object_get(ap->spec, "sriov"), "vfs"));
}

/* The PF's run: the eswitch mode, then numvfs. */
int apply_sriov_requests(struct cli *cli, struct run *r, bool dry)
{
	json_t *s = json_object_get(r->ap->spec, "sriov");
	json_t *esw = json_object_get(s, "eswitch_mode"), *nv = json_object_get(s, "num_vfs");
	const struct mlx_function *pf = r->ap->fn;
	unsigned cur, want;

	if (!json_is_object(s) || (!json_is_string(esw) && !json_is_integer(nv) &&
				   !apply_nvf_runs(r->ap)))
		return EXIT_OK;
	if (pf->role != MLX_FN_PF || pf->sriov_totalvfs <= 0) {
		cli_error(cli, "%s.sriov: %s has no SR-IOV; nothing was changed", r->ap->path, pf->bdf);
		return EXIT_NOTSUP;
	}
	/* Read under the apply's locks (or, for --check, now). */
	if (mlx_sriov_numvfs(cli->ctx, pf, &cur) < 0) {
		cli_error(cli, "%s.sriov: %s; nothing was changed", r->ap->path, mlx_errmsg(cli->ctx));
		return EXIT_FAIL;
	}
	want = json_is_integer(nv) ? (unsigned)json_integer_value(nv) : cur;
	if (want > (unsigned)pf->sriov_totalvfs) {
		cli_error(cli, "%s.sriov.num_vfs: %u is above the %d VFs %s can have (TotalVFs); "
			  "nothing was changed", r->ap->path, want, pf->sriov_totalvfs, pf->bdf);
		return EXIT_USAGE;
	}
	r->recreates = want != cur;
	if (r->recreates && cur && !cli_opt(cli, "yes") && !cli->dry_run) {
		cli_error(cli, "%s.sriov.num_vfs: %u -> %u on %s takes its %u VFs away first, with "
			  "their settings (what FILE gives them is written after); nothing was "
			  "changed", r->ap->path, cur, want, pf->bdf, cur);
		cli_hint(cli, "add --yes to go ahead (--check shows the plan)");
		return EXIT_USAGE;
	}
	if (r->recreates && cur && !dry) {
		if (mlx_sriov_query(cli->ctx, pf, &r->before) == 0)
			r->have_before = true;
		else
			cli_warn(cli, "%s: the VFs' settings cannot be read (%s): a put-back would "
				 "leave them at the defaults", pf->bdf, mlx_errmsg(cli->ctx));
		mlx_err_clear(cli->ctx);
	}
	/* The VF runs' old values, read once (2,032 VFs of 16 PFs: one
	 * table per PF instead of one per VF); none to share when numvfs
	 * changes, the VFs are made anew. */
	if (!r->recreates && apply_nvf_runs(r->ap)) {
		r->have_table = mlx_sriov_query(cli->ctx, pf, &r->table) == 0;
		mlx_err_clear(cli->ctx);
	}
	if (json_is_string(esw) &&
	    mlx_sriov_plan_add(&r->pl, MLX_SRIOV_ESWITCH_MODE, mlx_val_str(json_string_value(esw))) < 0)
		return oom(cli);
	if (json_is_integer(nv) && mlx_sriov_plan_add(&r->pl, MLX_SRIOV_NUMVFS, mlx_val_uint(want)) < 0)
		return oom(cli);
	return EXIT_OK;
}

/* One VF's element of sriov.vfs. */
int apply_vf_requests(struct cli *cli, struct run *r)
{
	static const struct {
		const char *key;
		enum mlx_sriov_setting s;
	} num[] = {
		{ "vlan", MLX_VF_VLAN }, { "qos", MLX_VF_QOS },
		{ "min_tx_rate_mbps", MLX_VF_MIN_TX_RATE }, { "max_tx_rate_mbps", MLX_VF_MAX_TX_RATE },
	}, flag[] = { { "spoofchk", MLX_VF_SPOOFCHK }, { "trusted", MLX_VF_TRUST } };
	json_t *v = r->vf_spec, *x;
	json_t *nv = json_object_get(json_object_get(r->ap->spec, "sriov"), "num_vfs");
	unsigned vf = (unsigned)json_integer_value(json_object_get(v, "vf")), count = 0;
	uint8_t mac[6];
	char buf[24];

	/* the count FILE asks for (--check plans before numvfs is written) */
	if (json_is_integer(nv))
		count = (unsigned)json_integer_value(nv);
	else if (mlx_sriov_numvfs(cli->ctx, r->ap->fn, &count) < 0)
		mlx_err_clear(cli->ctx);
	if (vf >= count) {
		cli_error(cli, "%s.sriov.vfs[%zu]: %s has no VF %u (num_vfs %u); nothing was changed",
			  r->ap->path, r->vf_index, r->ap->fn->bdf, vf, count);
		return EXIT_USAGE;
	}
	if (json_is_string(x = json_object_get(v, "mac"))) {
		/* lower case, as the kernel reports it: a second apply is equal */
		(void)mlx_parse_mac(json_string_value(x), mac);
		mlx_fmt_mac(mac, buf, sizeof(buf));
		if (mlx_sriov_plan_add(&r->pl, MLX_VF_MAC, mlx_val_str(buf)) < 0)
			return oom(cli);
	}
	for (size_t i = 0; i < sizeof(num) / sizeof(num[0]); i++)
		if (json_is_integer(x = json_object_get(v, num[i].key)) &&
		    mlx_sriov_plan_add(&r->pl, num[i].s, mlx_val_uint((uint64_t)json_integer_value(x))) < 0)
			return oom(cli);
	for (size_t i = 0; i < sizeof(flag) / sizeof(flag[0]); i++)
		if (json_is_boolean(x = json_object_get(v, flag[i].key)) &&
		    mlx_sriov_plan_add(&r->pl, flag[i].s, mlx_val_bool(json_is_true(x))) < 0)
			return oom(cli);
	if (json_is_string(x = json_object_get(v, "link_state")) &&
	    mlx_sriov_plan_add(&r->pl, MLX_VF_LINK_STATE, mlx_val_str(json_string_value(x))) < 0)
		return oom(cli);
	return EXIT_OK;
}

int apply_roce_requests(struct cli *cli, struct run *r)
{
	json_t *s = json_object_get(r->ap->spec, "roce");
	json_t *m = json_object_get(s, "default_roce_mode"), *t = json_object_get(s, "default_roce_tos");
	const struct mlx_port *p = r->ap->port;

	if (!json_is_string(m) && !json_is_integer(t))
		return EXIT_OK;
	if ((!p || !p->rdma_dev[0]) && !r->ap->rdma_dev[0]) {
		cli_error(cli, "%s.roce: %s has no RDMA device, so no RDMA CM defaults; nothing was "
			  "changed", r->ap->path, on_what(r));
		return EXIT_NOTSUP;
	}
	if ((json_is_string(m) && mlx_roce_cm_plan_add(&r->pl, MLX_ROCE_CM_MODE,
						       mlx_val_str(json_string_value(m))) < 0) ||
	    (json_is_integer(t) && mlx_roce_cm_plan_add(&r->pl, MLX_ROCE_CM_TOS,
							mlx_val_uint((uint64_t)json_integer_value(t))) < 0))
		return oom(cli);
	return EXIT_OK;
}

/*
 * numvfs went back to the count before: the VFs are there again, with the
 * defaults; each gets its settings from before, through the engine (which
 * writes only what differs, and reads each back).
 */
int apply_sriov_restore_vfs(struct cli *cli, struct run *r)
{
	int err = 0;

	for (size_t i = 0; r->have_before && i < r->before.nvf; i++) {
		struct run vr = { .sub = SUB_VF, .ap = r->ap, .held = r->held };
		struct mlx_write_req req = { .lock = r->held ? NULL : r->ap->fn->bdf, .on = on_what(r) };
		const struct mlx_write_ops *ops;
		void *feat;
		int e;

		apply_sub_ops(&vr, &ops, &feat);
		vr.sw.vf = r->before.vf[i].vf;
		e = mlx_sriov_plan_vf(&vr.pl, &r->before.vf[i]);
		if (!e)
			e = mlx_write_run(cli->ctx, ops, feat, &req, &vr.pl, &vr.res);
		if (e < 0 && !err) {
			cli_error(cli, "could not put back the settings of VF %" PRIu32 " of %s: %s",
				  r->before.vf[i].vf, r->ap->fn->bdf, mlx_errmsg(cli->ctx));
			err = e;
		}
		mlx_sriov_writer_free(&vr.sw);
		mlx_plan_free(&vr.pl);
	}
	return err;
}
