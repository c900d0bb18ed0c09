/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli params set -d DEV NAME=VALUE...` and `params reset -d DEV
 * [NAME...]` (issue 17): every value checked against the catalogue first
 * (exit 2, nothing read or locked), then through the write engine: the
 * device lock, the old values, the plan of lib/params (the device's
 * maxima, a fixed feature, a knob that needs a reload or a firmware reset
 * is refused), all or nothing, read back, rolled back newest first; the
 * change record of every write command (cli_write).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "params.h"
#include "rdma.h"
#include "write.h"

/* The one port -d names: a ConnectX port, or with --any-netdev any
 * netdev (the veth of the kernel tests).  Fills @w; returns an exit code. */
static int target(struct cli *cli, struct mlx_params_writer *w, char *lock, size_t ll)
{
	struct mlx_function *fn;
	struct mlx_port *port;
	bool other;
	int r;

	memset(w, 0, sizeof(*w));
	r = cli_other_netdev(cli, &other);
	if (r)
		return r;
	if (other) {
		/* the RDMA port on that netdev (rdma_rxe): its RDMA CM knobs */
		static char rdma_dev[MLX_RDMA_NAME_LEN];
		uint32_t pn;

		w->ifname = cli->device;
		if (mlx_rdma_port_of_netdev(cli->ctx, cli->device, rdma_dev, sizeof(rdma_dev), &pn) == 0) {
			w->rdma_dev = rdma_dev;
			w->rdma_port = pn;
		}
		snprintf(lock, ll, "%s", cli->device);
		return EXIT_OK;
	}
	r = cli_select(cli, &fn, &port);
	if (r)
		return r;
	if (!port && fn->nports == 1)
		port = &fn->ports[0];
	if (!port || !port->ifname[0]) {
		cli_error(cli, fn->nports > 1 ? "'%s' has %zu ports: name one (its netdev)"
					      : "'%s' has no network port to configure",
			  cli->device, fn->nports);
		return EXIT_USAGE;
	}
	w->ifname = port->ifname;
	w->bdf = fn->bdf;
	w->rdma_dev = port->rdma_dev[0] ? port->rdma_dev : NULL;
	w->rdma_port = port->rdma_port;
	snprintf(lock, ll, "%s", fn->bdf);
	return EXIT_OK;
}

static int run(struct cli *cli, struct mlx_params_writer *w, const char *lock,
	       struct mlx_plan *pl)
{
	struct mlx_write_result res;
	int r;

	out_str(cli->out, "netdev", NULL, w->ifname);
	out_str(cli->out, "pci_address", NULL, w->bdf);
	r = cli_write(cli, &mlx_params_write_ops, w, lock, w->ifname, pl, &res);
	mlx_params_writer_free(w);
	mlx_plan_free(pl);
	return r;
}

int cmd_params_set(struct cli *cli, int argc, char **argv)
{
	struct mlx_params_writer w;
	struct mlx_plan pl = { 0 };
	char lock[64];
	int r;

	/* the values first: a bad one is exit 2 before anything is read */
	for (int i = 0; i < argc; i++) {
		char name[64], *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i] || (size_t)(eq - argv[i]) >= sizeof(name)) {
			cli_error(cli, "'%s' is not NAME=VALUE", argv[i]);
			mlx_plan_free(&pl);
			return EXIT_USAGE;
		}
		memcpy(name, argv[i], (size_t)(eq - argv[i]));
		name[eq - argv[i]] = '\0';
		r = mlx_params_plan_set(cli->ctx, &pl, name, eq + 1);
		if (r < 0) {
			cli_error(cli, "cannot set %s: %s", name, mlx_errmsg(cli->ctx));
			mlx_plan_free(&pl);
			return r == -ENOMEM ? EXIT_FAIL : EXIT_USAGE;
		}
	}
	r = target(cli, &w, lock, sizeof(lock));
	if (r) {
		mlx_plan_free(&pl);
		return r;
	}
	return run(cli, &w, lock, &pl);
}

/*
 * Without names: every knob the port reports that changes at run time, has
 * a known default on its driver and is not at it; the others are said once
 * on stderr (a default that the driver computes from the host is nobody's
 * to guess, and mlx5's defaults are no other driver's).
 */
static int reset_all(struct cli *cli, struct mlx_params_writer *w, struct mlx_plan *pl)
{
	struct mlx_params_cache *c;
	struct mlx_params p;
	char skipped[512] = "";
	size_t ns = 0;
	int r = mlx_params_cache_new(cli->ctx, &c);

	if (r < 0)
		return cli_fail(cli, r, "params");
	r = mlx_params_port(cli->ctx, c, w->ifname, w->bdf, true, &p);
	if (r == 0 && w->rdma_dev)
		r = mlx_params_rdma(cli->ctx, w->rdma_dev, w->rdma_port ? w->rdma_port : 1, &p);
	mlx_params_cache_free(c);
	if (r < 0)
		return cli_fail(cli, r, "params");
	for (size_t i = 0; i < p.n && r == 0; i++) {
		const struct mlx_knob *k = p.v[i].k;

		/* what is at its default already is no change to list */
		if (!k || !p.v[i].known || p.v[i].fixed || p.v[i].is_default ||
		    mlx_plan_find(pl, k->name))
			continue;
		/* a default that holds for this driver only (mlx5's are no
		 * veth's: issue 25) */
		if (mlx_params_default(&p, &p.v[i]) && p.v[i].apply == MLX_KA_RUNTIME) {
			r = mlx_params_plan_reset(cli->ctx, pl, k->name);
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
	struct mlx_params_writer w;
	struct mlx_plan pl = { 0 };
	char lock[64];
	int r;

	for (int i = 0; i < argc; i++) {
		r = mlx_params_plan_reset(cli->ctx, &pl, argv[i]);
		if (r < 0) {
			cli_error(cli, "%s", mlx_errmsg(cli->ctx));
			mlx_plan_free(&pl);
			return r == -ENODATA ? EXIT_NOTSUP : r == -ENOMEM ? EXIT_FAIL : EXIT_USAGE;
		}
	}
	r = target(cli, &w, lock, sizeof(lock));
	if (r == 0 && !argc)
		r = reset_all(cli, &w, &pl);
	if (r) {
		mlx_plan_free(&pl);
		return r;
	}
	return run(cli, &w, lock, &pl);
}

const struct cmd_opt params_write_opts[] = {
	{ "any-netdev", 0, NULL, "accept any netdev as -d, not only a ConnectX port (ethtool and "
	  "MTU knobs only)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

const struct cmd_arg params_set_args[] = {
	{ "NAME=VALUE", NULL, SRC_KNOB_NAMES, ARG_REPEAT },
	CMD_ARG_END,
};
