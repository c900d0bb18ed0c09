/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli apply`: what is judged and shown of the plan before anything is
 * written (the plan is lib's, cmd/apply.c makes it): the QoS lint on the
 * state it leads to, --diff, and the confirmation a numvfs change that
 * takes VFs away needs.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply-cmd.h"
#include "dcb.h"
#include "dcqcn.h"
#include "phy.h"
#include "qos-check.h"
#include "state-cmd.h"

/*
 * The lint gate: `show qos --check`'s rules on the state each port would
 * have after the plan, predicted, not written: the DCB state the QoS plan
 * computed (lib's plan, from the state read) and the DCQCN enables read
 * now with the plan's changes laid over them.  A plan that changes a port
 * and would leave a lint error there is refused (exit 1, nothing written)
 * unless --force.  An exit code.
 */
int apply_lint(struct cli *cli, struct apply *a)
{
	struct mlx_lint_report *rep = malloc(sizeof(*rep));
	struct mlx_dcb_state *cur = malloc(sizeof(*cur));
	bool force = cli_opt(cli, "force") != NULL;
	int rc = EXIT_OK;

	if (!rep || !cur) {
		free(rep);
		free(cur);
		cli_error(cli, "out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < a->nap && rc == EXIT_OK; i++) {
		const struct aport *ap = &a->ap[i];
		struct mlx_txn_step q = { 0 }, d = { 0 };
		const struct mlx_dcb_state *dcb = NULL;
		size_t n = 0, np;
		const struct mlx_dcqcn_param *t = mlx_dcqcn_params(&np);
		struct mlx_qos_state qs;

		if (ap->step[MLX_SUB_QOS] >= 0) {
			mlx_txn_step(a->txn, (size_t)ap->step[MLX_SUB_QOS], &q);
			n += mlx_plan_nchanged(q.plan);
			dcb = ((const struct mlx_dcb_writer *)q.writer)->planned;
		}
		if (ap->step[MLX_SUB_DCQCN] >= 0) {
			mlx_txn_step(a->txn, (size_t)ap->step[MLX_SUB_DCQCN], &d);
			n += mlx_plan_nchanged(d.plan);
		}
		if (!ap->t.ifname || !ap->fn || !n)
			continue;
		if (!dcb) {
			if (mlx_dcb_get(cli->ctx, ap->t.ifname, cur) < 0) {
				mlx_err_clear(cli->ctx);
				continue;
			}
			dcb = cur;
		}
		mlx_qos_state_init(&qs, ap->t.ifname);
		qos_read_dcqcn(cli, ap->fn, ap->port, &qs);
		for (size_t k = 0; d.plan && k < d.plan->n; k++) {
			const struct mlx_change *c = &d.plan->c[k];
			const struct mlx_dcqcn_param *p;

			/* c->id is the parameter's index in lib's table */
			if (c->id < 0 || (size_t)c->id >= np || (p = &t[c->id])->prio < 0)
				continue;
			if (c->arg == MLX_DCQCN_RP)
				qs.rp_en[p->prio] = (int8_t)(c->new.u != 0);
			else
				qs.np_en[p->prio] = (int8_t)(c->new.u != 0);
		}
		/* the global pause the port has after the link's step
		 * (pfc-global-pause): now's, with the plan's changes */
		if (ap->step[MLX_SUB_LINK] >= 0 && ap->t.ifname) {
			struct mlx_txn_step l = { 0 };
			int rx = -1, tx = -1;

			/* the plan read both when the state names both: no
			 * second read of the port's pause for the lint */
			mlx_txn_step(a->txn, (size_t)ap->step[MLX_SUB_LINK], &l);
			for (size_t k = 0; l.plan && k < l.plan->n; k++) {
				const struct mlx_change *c = &l.plan->c[k];

				if ((c->id == MLX_LINK_PAUSE_RX || c->id == MLX_LINK_PAUSE_TX) &&
				    c->new.kind == MLX_VAL_BOOL)
					*(c->id == MLX_LINK_PAUSE_RX ? &rx : &tx) = c->new.b;
			}
			if ((rx < 0 || tx < 0) &&
			    mlx_link_pause_get(cli->ctx, ap->t.ifname, &qs.pause_rx, &qs.pause_tx) < 0)
				mlx_err_clear(cli->ctx);
			if (rx >= 0)
				qs.pause_rx = rx;
			if (tx >= 0)
				qs.pause_tx = tx;
		}
		rc = qos_check(cli, &qs, dcb, -1, rep);
		if (rc)
			break;
		for (size_t k = 0; k < rep->n; k++) {
			if (rep->f[k].sev != MLX_LINT_ERROR)
				continue;
			if (force) {
				cli_warn(cli, "%s: after this apply, %s (%s): applied anyway (--force)",
					 ap->t.ifname, rep->f[k].msg, rep->f[k].id);
			} else {
				cli_error(cli, "%s: after this apply, %s (%s)", ap->t.ifname,
					  rep->f[k].msg, rep->f[k].id);
				rc = EXIT_FAIL;
			}
		}
	}
	if (rc == EXIT_FAIL)
		cli_hint(cli, "the plan was refused and nothing was changed: fix the file, or "
			 "--force to apply it anyway (show qos --check lists the rules)");
	free(rep);
	free(cur);
	return rc;
}

/*
 * --diff: the plan as a unified diff of the state, as `mlxcli diff` prints
 * one: the state read now against the same state with FILE's settings laid
 * over each port it matched (lib's merge: what the file leaves alone does
 * not show; a DSCP map is replaced whole; a VF or TC the port has not is
 * left out).
 */
int apply_show_diff(struct cli *cli, struct apply *a)
{
	const char *netdevs[64];
	struct state_ports cur = { 0 }, want = { 0 };
	size_t n, nn = 0;
	int r;

	/* a netdev that is no ConnectX port (--any-netdev) is in the state
	 * only when named */
	for (size_t k = 0; k < a->nap && nn < sizeof(netdevs) / sizeof(*netdevs); k++)
		if (!a->ap[k].fn)
			netdevs[nn++] = a->ap[k].t.ifname;
	r = state_read(cli, netdevs, nn, &cur);
	for (size_t i = 0; !r && i < cur.n; i++) {
		struct mlx_port_settings *p = mlx_port_settings_copy(cur.p[i]);

		if (!p || state_ports_add(&want, p) < 0) {
			r = cli_fail(cli, -ENOMEM, "cannot allocate memory");
			break;
		}
		for (size_t k = 0; k < a->nap && !r; k++) {
			const struct aport *ap = &a->ap[k];
			bool same = ap->fn ? !strcmp(p->pci_address, ap->fn->bdf) &&
					     !strcmp(p->netdev, ap->t.ifname ? ap->t.ifname : "")
					   : !p->pci_address[0] && !strcmp(p->netdev, ap->t.ifname);

			if (same && mlx_port_settings_merge(p, ap->want, false) < 0)
				r = cli_fail(cli, -ENOMEM, "cannot allocate memory");
		}
	}
	if (!r) {
		n = state_diff(cli, "current", "planned", &cur, &want);
		out_bool(cli->out, "changed", NULL, n > 0);
	}
	state_ports_free(&cur);
	state_ports_free(&want);
	return r;
}

/*
 * A numvfs change between two non-zero counts takes the VFs there are
 * away first, with their settings.  apply runs unattended (boot unit,
 * Ansible) and asks no question: it refuses such a change (exit 2,
 * nothing written) unless --yes, as `sriov set numvfs` does without a
 * terminal.  From 0 (the boot case) nothing is lost.  The same for global
 * pause turned on over PFC (mlx5 turns PFC off: lib/phy/link-settings.c).
 */
int apply_confirm(struct cli *cli, struct apply *a)
{
	size_t ns = mlx_txn_nsteps(a->txn);

	if (cli_opt(cli, "yes"))
		return EXIT_OK;
	for (size_t i = 0; i < ns; i++) {
		struct mlx_txn_step st;

		mlx_txn_step(a->txn, i, &st);
		for (size_t k = 0; k < st.plan->n; k++) {
			const struct mlx_change *c = &st.plan->c[k];
			const struct aport *ap = NULL;

			if (!c->changed || !(c->flags & MLX_CHG_DESTROYS))
				continue;
			for (size_t j = 0; j < a->nap && !ap; j++)
				if (a->ap[j].step[st.sub->id] == (long)i)
					ap = &a->ap[j];
			if (st.sub->id == MLX_SUB_SRIOV)
				cli_error(cli, "%s.sriov.num_vfs: %llu -> %llu on %s takes its %llu VFs away "
					  "first, with their settings (what FILE gives them is written after); "
					  "nothing was changed", ap ? ap->path : "-",
					  (unsigned long long)c->old.u, (unsigned long long)c->new.u,
					  st.target->fn ? st.target->fn->bdf : "-",
					  (unsigned long long)c->old.u);
			else   /* the link's pause over PFC (lib/phy/link-settings.c) */
				cli_error(cli, "%s.%s.%s on %s: %s; nothing was changed", ap ? ap->path : "-",
					  st.sub->key, c->setting, mlx_port_ref_name(st.target),
					  c->note ? c->note : "it undoes other settings");
			cli_hint(cli, "add --yes to go ahead (--check shows the plan)");
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}
