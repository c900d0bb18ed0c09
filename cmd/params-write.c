/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli params set -d DEV NAME=VALUE...` and `params reset -d DEV
 * [NAME...]` (issue 17): every value checked against the catalogue first
 * (exit 2, nothing read or locked), then through the write engine: the
 * device lock, the old values, the plan of lib/params (the device's
 * maxima, a fixed feature, a module parameter that needs a reload is
 * refused; a firmware NV setting, devlink cmode permanent, is confirmed:
 * --yes or the terminal), all or nothing, read back, rolled back newest first; the
 * change record of every write command (cli_write).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "params.h"
#include "settings.h"
#include "txn.h"
#include "write.h"


static int run(struct cli *cli, const struct mlx_port_ref *t, struct mlx_port_settings *want)
{
	struct mlx_txn *txn = NULL;
	struct mlx_txn_step st;
	char refusal[400], question[300], names[160] = "";
	int r = EXIT_OK, e;

	out_str(cli->out, "netdev", NULL, t->ifname);
	out_str(cli->out, "pci_address", NULL, t->fn ? t->fn->bdf : NULL);
	e = mlx_txn_new(cli->ctx, &txn);
	if (e == 0)
		e = mlx_txn_add(txn, MLX_SUB_PARAMS, t, want, 0);
	/* the plan first, with no lock held: a firmware NV setting (devlink
	 * cmode permanent) changes what the next firmware boot does, which is
	 * confirmed (--yes, or the terminal), as fw activate is */
	if (e >= 0)
		e = mlx_txn_plan(txn, 0);
	if (e >= 0 && mlx_txn_destroys(txn)) {
		mlx_txn_step(txn, 0, &st);
		for (size_t i = 0; i < st.plan->n; i++) {
			size_t l = strlen(names);

			if (st.plan->c[i].changed && (st.plan->c[i].flags & MLX_CHG_DESTROYS))
				snprintf(names + l, sizeof(names) - l, "%s%s", l ? ", " : "",
					 st.plan->c[i].setting);
		}
		snprintf(refusal, sizeof(refusal), "%s on %s: stored in the firmware's NV settings, "
			 "in effect after a firmware reset (the next firmware boot offers what it "
			 "says): confirm with --yes (--dry-run shows the plan)", names,
			 mlx_port_ref_name(t));
		snprintf(question, sizeof(question), "write %s of %s to the firmware's NV settings",
			 names, mlx_port_ref_name(t));
		r = cli_confirm(cli, txn, refusal, NULL, question);
	}
	r = cli_txn_finish(cli, txn, e, r, mlx_port_ref_name(t));
	mlx_txn_free(txn);
	mlx_port_settings_free(want);
	return r;
}

int cmd_params_set(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *want = mlx_port_settings_new();
	struct mlx_port_ref t;
	int r = want ? EXIT_OK : EXIT_FAIL;

	if (!want) {
		cli_error(cli, "out of memory");
		return r;
	}
	/* in the order given */
	want->params.in_order = true;
	/* the values first: a bad one is exit 2 before anything is read */
	for (int i = 0; i < argc && r == EXIT_OK; i++) {
		char name[64], *eq = strchr(argv[i], '=');
		struct mlx_val v;
		const struct mlx_knob *k;

		if (!eq || eq == argv[i] || (size_t)(eq - argv[i]) >= sizeof(name)) {
			cli_error(cli, "'%s' is not NAME=VALUE", argv[i]);
			r = EXIT_USAGE;
			break;
		}
		memcpy(name, argv[i], (size_t)(eq - argv[i]));
		name[eq - argv[i]] = '\0';
		k = mlx_knob_find(name);
		if (!k) {
			/* a private flag the catalogue lacks (MLNX_OFED's): on|off,
			 * and the plan refuses a name the device does not report;
			 * another value: a devlink parameter in cmode permanent the
			 * catalogue lacks (issue 27), typed by the plan from the
			 * type the device reports */
			if (!mlx_privflag_name_ok(name))
				mlx_err(cli->ctx, EINVAL, "no knob '%s' (mlxcli params info lists them; "
					"a private flag the device reports takes on or off)", name);
			else if (mlx_params_parse_value(cli->ctx, &mlx_knob_any_privflag, eq + 1,
							&v) == 0) {
				if (mlx_params_put_privflag(cli->ctx, &want->params, name, v) == 0)
					continue;
			} else if (strlen(eq + 1) >= MLX_VAL_STR_MAX) {
				mlx_err(cli->ctx, EINVAL, "'%s' is too long for %s", eq + 1, name);
			} else if (mlx_params_put_devlink(cli->ctx, &want->params, name,
							  mlx_val_str(eq + 1)) == 0) {
				continue;
			}
			r = EXIT_USAGE;
		} else if (mlx_params_parse_value(cli->ctx, k, eq + 1, &v) < 0 ||
			   mlx_params_put(cli->ctx, &want->params, k, v) < 0) {
			r = EXIT_USAGE;
		}
		if (r)
			cli_error(cli, "cannot set %s: %s", name, mlx_errmsg(cli->ctx));
	}
	if (r == EXIT_OK)
		r = cli_port_target(cli, false, &t);
	if (r) {
		mlx_port_settings_free(want);
		return r;
	}
	return run(cli, &t, want);
}

/*
 * Without names: every knob the port reports that changes at run time, has
 * a known default on its driver and is not at it; the others are said once
 * on stderr (a default that the driver computes from the host is nobody's
 * to guess, and mlx5's defaults are no other driver's).
 */
static int reset_all(struct cli *cli, const struct mlx_port_ref *t, struct mlx_port_settings *want)
{
	struct mlx_params_cache *c;
	struct mlx_params p;
	char skipped[512] = "", rbuf[64];
	unsigned rport;
	/* its RDMA port's knobs too: a ConnectX port's, or the one on a
	 * netdev (--any-netdev, rdma_rxe) */
	const char *rdev = mlx_port_ref_rdma(cli->ctx, t, rbuf, sizeof(rbuf), &rport);
	size_t ns = 0;
	/* the devlink parameters of its function, or of a netdevsim port's
	 * device (--any-netdev) */
	struct mlx_devlink_name dn;
	const char *bus, *bdf = mlx_port_ref_devlink(cli->ctx, t, &dn, &bus);
	int r = mlx_params_cache_new(cli->ctx, &c);

	if (r < 0)
		return cli_fail(cli, r, "params");
	r = mlx_params_port(cli->ctx, c, t->ifname, bus, bdf, true, &p);
	if (r == 0 && rdev)
		r = mlx_params_rdma(cli->ctx, rdev, rport, &p);
	mlx_params_cache_free(c);
	if (r < 0)
		return cli_fail(cli, r, "params");
	for (size_t i = 0; i < p.n && r == 0; i++) {
		const struct mlx_knob *k = p.v[i].k;
		struct mlx_val v;
		bool given = false;

		for (size_t j = 0; k && j < want->params.n; j++)
			given |= want->params.kv[j].k == k;
		/* what is at its default already is no change to list */
		if (!k || !p.v[i].known || p.v[i].fixed || p.v[i].is_default || given)
			continue;
		/* a default that holds for this driver only (mlx5's are no
		 * veth's: issue 25); the plan refuses it on another */
		if (mlx_params_default(&p, &p.v[i]) && p.v[i].apply == MLX_KA_RUNTIME) {
			r = mlx_params_default_val(cli->ctx, k, &v);
			if (r == 0 && (r = mlx_params_put(cli->ctx, &want->params, k, v)) == 0)
				want->params.kv[want->params.n - 1].reset = true;
			if (r != -ENODATA)
				continue;
			r = 0;          /* a default no write restores: skipped */
		}
		{
			size_t l = strlen(skipped);

			if (l + strlen(k->name) + 3 < sizeof(skipped))
				snprintf(skipped + l, sizeof(skipped) - l, "%s%s", ns ? ", " : "",
					 k->name);
			ns++;
		}
	}
	mlx_params_free(&p);
	if (r < 0)
		return cli_fail(cli, r, "params reset");
	if (ns)
		cli_warn(cli, "%zu knob%s stay as they are (no known default, or not changed at "
			 "run time): %s", ns, ns == 1 ? "" : "s", skipped);
	return EXIT_OK;
}

int cmd_params_reset(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *want = mlx_port_settings_new();
	struct mlx_port_ref t;
	int r = EXIT_OK;

	if (!want) {
		cli_error(cli, "out of memory");
		return EXIT_FAIL;
	}
	want->params.in_order = true;
	for (int i = 0; i < argc && r == EXIT_OK; i++) {
		const struct mlx_knob *k = mlx_knob_find(argv[i]);
		struct mlx_val v;
		int e;

		e = k ? mlx_params_default_val(cli->ctx, k, &v)
		      : mlx_err(cli->ctx, EINVAL, "no knob '%s' (mlxcli params info lists them)", argv[i]);
		if (e == 0 && (e = mlx_params_put(cli->ctx, &want->params, k, v)) == 0)
			want->params.kv[want->params.n - 1].reset = true;   /* the plan checks the driver */
		if (e < 0) {
			cli_error(cli, "%s", mlx_errmsg(cli->ctx));
			r = e == -ENODATA ? EXIT_NOTSUP : e == -ENOMEM ? EXIT_FAIL : EXIT_USAGE;
		}
	}
	if (r == EXIT_OK)
		r = cli_port_target(cli, false, &t);
	if (r == EXIT_OK && !argc)
		r = reset_all(cli, &t, want);
	if (r) {
		mlx_port_settings_free(want);
		return r;
	}
	return run(cli, &t, want);
}

const struct cmd_opt params_write_opts[] = {
	{ "any-netdev", 0, NULL, "accept any netdev as -d, not only a ConnectX port (ethtool and "
	  "MTU knobs only)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

/* set: and --yes for a firmware NV setting (reset has none to confirm:
 * nobody knows a firmware setting's default) */
const struct cmd_opt params_set_opts[] = {
	{ "any-netdev", 0, NULL, "accept any netdev as -d, not only a ConnectX port (ethtool and "
	  "MTU knobs only)", NULL },
	{ "yes", 'y', NULL, "go ahead with a firmware NV setting (devlink cmode permanent: in "
	  "effect after a firmware reset)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

const struct cmd_arg params_set_args[] = {
	{ "NAME=VALUE", NULL, SRC_KNOB_NAMES, ARG_REPEAT },
	CMD_ARG_END,
};
