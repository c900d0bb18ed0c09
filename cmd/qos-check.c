/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `show qos --check` (issue 15): the DCQCN facts a port exposes, the lint
 * of lib/qos/qos-lint.c over them and the DCB state, and its report.
 *
 * Unknown stays unknown: where the layout does not expose the per-priority
 * DCQCN enable (upstream debugfs cc_params), the lint is told "unknown",
 * never "off", and the rules that need it say they were not evaluated.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcqcn.h"
#include "params.h"
#include "phy.h"
#include "qos-check.h"
#include "state.h"

static int read_one(struct cli *cli, const struct mlx_dcqcn_port *dp, const char *name,
		    enum mlx_dcqcn_side side, int64_t *out)
{
	enum mlx_dcqcn_side own;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_find(name, &own);
	uint64_t val;

	*out = -1;
	if (!p || mlx_dcqcn_read(cli->ctx, dp, p, side ? side : own, &val) < 0)
		return -1;
	*out = (int64_t)val;
	return 0;
}

/* Is a VLAN device stacked on @ifname (an upper_<dev> link whose uevent
 * says DEVTYPE=vlan, net/core/dev.c netdev_upper_dev_link, 8021q)? */
void qos_read_dcqcn(struct cli *cli, const struct mlx_function *fn, const struct mlx_port *port,
		    struct mlx_qos_state *qs)
{
	struct mlx_dcqcn_port dp;
	int rp[8], np[8];
	int64_t v;

	qs->speed_mbps = port ? port->speed_mbps : -1;
	/* the ToS RoCE v2 packets leave with, where the host sets one */
	if (port && port->rdma_dev[0]) {
		unsigned rport = port->rdma_port ? port->rdma_port : 1;
		struct mlx_roce_cm cm;
		char tc[16];
		uint64_t u;

		if (mlx_roce_cm_get(cli->ctx, port->rdma_dev, rport, &cm) == 0)
			qs->roce_cm_tos = cm.tos;
		if (mlx_params_tclass_get(cli->ctx, port->rdma_dev, rport, tc, sizeof(tc)) == 0 &&
		    mlx_parse_u64(tc, &u) == 0 && u <= 255)
			qs->roce_tclass = (int)u;
		mlx_err_clear(cli->ctx);
	}
	if (!fn || mlx_dcqcn_open(cli->ctx, fn, port, &dp) < 0) {
		mlx_err_clear(cli->ctx);
		return;
	}
	/* lib says per priority and side: 1 on, 0 off, -1 unknown (upstream
	 * exposes no enable mask; an unreadable file is unknown too). */
	mlx_dcqcn_prio_state(cli->ctx, &dp, rp, np);
	for (int p = 0; p < MLX_DCB_NPRIO && p < 8; p++) {
		qs->rp_en[p] = (int8_t)rp[p];
		qs->np_en[p] = (int8_t)np[p];
	}
	if (read_one(cli, &dp, "DcqcnCnpDscp", 0, &v) == 0 && v < MLX_DCB_NDSCP)
		qs->cnp_dscp = (int)v;
	if (read_one(cli, &dp, "DcqcnCnp802pPrio", 0, &v) == 0 && v < MLX_DCB_NPRIO)
		qs->cnp_prio = (int)v;
	/* OFED has no cnp_prio_mode file: writing cnp_802p_prio forces 0 there */
	if (read_one(cli, &dp, "DcqcnCnpPrioMode", 0, &v) == 0)
		qs->cnp_prio_mode = v != 0;
	else if (dp.layout == MLX_DCQCN_OFED)
		qs->cnp_prio_mode = 0;
	mlx_err_clear(cli->ctx);
}

int qos_check(struct cli *cli, struct mlx_qos_state *qs, const struct mlx_dcb_state *dcb,
	      int roce_prio, struct mlx_lint_report *rep)
{
	mlx_qos_state_from_dcb(qs, dcb);
	qs->vlan = mlx_netdev_has_vlan_upper(cli->ctx, qs->ifname);   /* only the lint needs it */
	/* global pause (pfc-global-pause), unless the caller knows it (apply:
	 * the plan's) */
	if (qs->pause_rx < 0 && qs->pause_tx < 0 && qs->ifname[0] &&
	    mlx_link_pause_get(cli->ctx, qs->ifname, &qs->pause_rx, &qs->pause_tx) < 0)
		mlx_err_clear(cli->ctx);
	qs->roce_prio = roce_prio;
	if (mlx_qos_lint(qs, rep) < 0) {
		cli_error(cli, "out of memory");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

size_t qos_check_problems(const struct mlx_lint_report *rep)
{
	return rep->count[MLX_LINT_WARNING] + rep->count[MLX_LINT_ERROR];
}

static void out_evidence(struct out *o, const struct mlx_lint_finding *f)
{
	out_obj_begin(o, "evidence", "evidence");
	for (size_t i = 0; i < f->nev; i++) {
		const struct mlx_lint_ev *e = &f->ev[i];
		char list[32] = "";
		size_t n = 0;

		switch (e->type) {
		case MLX_EV_INT:
			out_s64(o, e->key, e->key, e->v);
			break;
		case MLX_EV_BOOL:
			out_bool(o, e->key, e->key, e->v != 0);
			break;
		case MLX_EV_STR:
			out_str(o, e->key, e->key, e->s);
			break;
		case MLX_EV_NULL:
			out_null(o, e->key, e->key);
			break;
		case MLX_EV_PRIOS:
			out_list_begin(o, e->key, NULL);
			for (int p = 0; p < 8; p++)
				if ((e->v >> p) & 1) {
					out_u64(o, NULL, NULL, (uint64_t)p);
					n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d",
							      n ? "," : "", p);
				}
			out_list_end(o);
			out_text(o, e->key, n ? list : "none");
			break;
		}
	}
	out_obj_end(o);
}

void qos_check_out(struct out *o, const struct mlx_lint_report *rep)
{
	size_t nr, ne = 0, nn = 0;
	const struct mlx_lint_rule *rules = mlx_qos_lint_rules(&nr);
	const char *ev[MLX_LINT_MAXRULES], *nev[MLX_LINT_MAXRULES];
	char line[320];

	for (size_t i = 0; i < nr; i++) {
		if (rep->evaluated[i])
			ev[ne++] = rules[i].id;
		else
			nev[nn++] = rules[i].id;
	}
	out_obj_begin(o, "check", "Check");
	if (rep->roce_prio >= 0) {
		out_u64(o, "roce_priority", NULL, (uint64_t)rep->roce_prio);
		snprintf(line, sizeof(line), "%d (%s)", rep->roce_prio, rep->roce_why);
	} else {
		out_null(o, "roce_priority", NULL);
		snprintf(line, sizeof(line), "unknown (%s)", rep->roce_why);
	}
	out_text(o, "RoCE priority", line);
	out_str(o, "roce_priority_source", NULL, rep->roce_source);
	out_str(o, "roce_priority_reason", NULL, rep->roce_why);
	out_strv(o, "rules_evaluated", "rules evaluated", ev, ne);
	out_strv(o, "rules_not_evaluated", "rules not evaluated", nev, nn);
	out_u64(o, "errors", NULL, rep->count[MLX_LINT_ERROR]);
	out_u64(o, "warnings", NULL, rep->count[MLX_LINT_WARNING]);
	out_u64(o, "infos", NULL, rep->count[MLX_LINT_INFO]);
	out_str(o, "result", NULL, rep->count[MLX_LINT_ERROR] ? "error" :
		rep->count[MLX_LINT_WARNING] ? "warning" : "ok");
	if (qos_check_problems(rep))
		snprintf(line, sizeof(line), "%u error(s), %u warning(s)", rep->count[MLX_LINT_ERROR],
			 rep->count[MLX_LINT_WARNING]);
	else
		snprintf(line, sizeof(line), "no problems found by the %zu rules evaluated%s", ne,
			 nn ? "; some rules were not evaluated (see the findings)" : "");
	out_text(o, "result", line);
	out_obj_end(o);
	out_list_begin(o, "findings", rep->n ? "Findings" : NULL);
	for (size_t i = 0; i < rep->n; i++) {
		const struct mlx_lint_finding *f = &rep->f[i];

		out_obj_begin(o, NULL, f->id);
		out_str(o, "id", NULL, f->id);
		out_str(o, "severity", "severity", mlx_lint_sev_name(f->sev));
		out_str(o, "message", "message", f->msg);
		out_evidence(o, f);
		out_str(o, "fix", "fix", f->fix[0] ? f->fix : NULL);
		out_strv(o, "fix_adds", f->nadds ? "the fix alone raises" : NULL, f->fix_adds, f->nadds);
		out_obj_end(o);
	}
	out_list_end(o);
}
