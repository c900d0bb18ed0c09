/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli apply FILE`: make the host match a desired state (issue 19).
 *
 * FILE is `mlxcli state -j`'s document (mlxcli-state(8)); a port may name
 * itself by "match" (product, function) instead of its address, so one file
 * serves a fleet.  Only what FILE names is touched: a key that is absent or
 * null leaves that setting alone.  What happens here is reading FILE and
 * showing the plan; the plan and the writes are lib's (lib/txn.h):
 *
 *  1. FILE is read into the settings model by the one reader of state
 *     documents (cmd/settings-json.c), every value through its setting's
 *     validator: exit 2 with the JSON path before any device is read;
 *  2. its ports are matched to this host's; a port named by more than one
 *     entry (an address, a netdev, a selector) gets one desired state, the
 *     entries merged in file order (a later entry's setting wins);
 *  3. one transaction of every subsystem of every port, in the table's
 *     order (lib/settings.h: QoS, DCQCN, the driver's knobs, SR-IOV's
 *     numvfs, the VFs' settings, the RDMA CM's defaults), planned as a
 *     dry run: a value the device refuses is found here, nothing written;
 *  4. the QoS lint on the state the plan leads to (cmd/apply-plan.c);
 *     --check and --diff stop here; a numvfs change that takes VFs away
 *     needs --yes (apply runs unattended and asks no question);
 *  5. the transaction runs: every device's lock, the journal, the writes,
 *     the read-backs, and on a failure (or SIGINT/SIGTERM/SIGHUP) the
 *     put-back of everything written, newest first, across subsystems.
 *
 * Idempotent: a plan holds only what differs, so a second apply changes
 * nothing ("changed": false, exit 0).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "apply-cmd.h"
#include "devid.h"
#include "progress.h"
#include "txn.h"

const struct cmd_opt apply_opts[] = {
	{ "check", 0, NULL, "plan and show what would change, write nothing (as --dry-run)", NULL,
	  SRC_NONE, 0 },
	{ "diff", 0, NULL, "show the plan as a unified diff of the state (implies --check)", NULL,
	  SRC_NONE, 0 },
	{ "force", 0, NULL, "apply a plan whose result the QoS lint finds an error in", NULL,
	  SRC_NONE, 0 },
	{ "yes", 'y', NULL, "allow a numvfs change that takes the VFs there are away, pause over "
	  "PFC, a firmware NV setting (params, devlink cmode permanent)", NULL, SRC_NONE, 0 },
	{ "any-netdev", 0, NULL, "a port FILE names by a netdev that is no ConnectX port (a veth): "
	  "its params only", NULL, SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};

/* ---- reading FILE ---- */

static int is_json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/*
 * FILE; or a directory (the boot unit's /etc/mlxcli/state.d): its *.json
 * files in name order, each read whole first, as one document whose ports
 * are theirs in that order, so they apply all or nothing together.
 */
static int load(struct cli *cli, struct apply *a)
{
	struct dirent **names = NULL;
	struct stat st;
	int n, r = EXIT_OK;

	if (stat(a->file, &st) < 0 || !S_ISDIR(st.st_mode))
		return doc_load(cli, a->file, "; nothing was changed", &a->doc);
	n = scandir(a->file, &names, is_json_name, alphasort);
	if (n < 0)
		return cli_fail(cli, -errno, a->file);
	a->names = calloc((size_t)n + 1, sizeof(*a->names));
	for (int i = 0; i < n; i++) {
		if (!r && a->names && asprintf(&a->names[i], "%s/%s", a->file, names[i]->d_name) < 0)
			a->names[i] = NULL;
		if (!r)
			r = a->names && a->names[i] ? doc_load(cli, a->names[i], "; nothing was changed",
							     &a->doc) : cli_fail(cli, -ENOMEM, a->file);
		free(names[i]);
	}
	a->nnames = (size_t)n;
	free(names);
	return r;
}

/* ---- matching FILE's ports to the host's ---- */

static bool bdf_is(const struct mlx_function *fn, const char *want)
{
	size_t n = strlen(fn->bdf), m = strlen(want);

	/* "08:00.0" names "0000:08:00.0" */
	return m <= n && !strcasecmp(fn->bdf + n - m, want) && (m == n || fn->bdf[n - m - 1] == ':');
}

static bool port_matches(const struct doc_port *dp, const struct mlx_function *fn,
			 const struct mlx_port *p)
{
	if (dp->pci && !bdf_is(fn, dp->pci))
		return false;
	/* with both, the address decides: a netdev name is per host */
	if (dp->netdev && !dp->pci && (!p || strcmp(p->ifname, dp->netdev)))
		return false;
	if (dp->match) {
		size_t pl = dp->product ? strlen(dp->product) : 0;

		if ((fn->role == MLX_FN_VF) != dp->vf)
			return false;
		if (dp->product &&
		    (!fn->id || !fn->id->product || strncasecmp(fn->id->product, dp->product, pl) ||
		     /* "ConnectX-6" is not "ConnectX-6 Dx": a whole word */
		     (fn->id->product[pl] && fn->id->product[pl] != ' ')))
			return false;
	} else if (fn->role != MLX_FN_PF) {
		return false;
	}
	return true;
}

/* The port @fn/@p (or netdev @ifname) as matched so far, or a new one. */
static int aport(struct cli *cli, struct apply *a, const struct doc_port *dp,
		 const struct mlx_function *fn, const struct mlx_port *p, const char *ifname)
{
	struct aport *ap = NULL;

	for (size_t i = 0; i < a->nap && !ap; i++)
		if (a->ap[i].fn == fn && a->ap[i].port == p &&
		    (fn || !strcmp(a->ap[i].t.ifname, ifname)))
			ap = &a->ap[i];
	if (ap) {
		/* named again: one desired state, the later entry's settings win */
		mlx_log(cli->ctx, MLX_LOG_INFO, "%s also names %s: merged over %s", dp->path,
			mlx_port_ref_name(&ap->t), ap->path);
		if (mlx_port_settings_merge(ap->want, dp->want, true) < 0)
			return cli_fail(cli, -ENOMEM, "cannot allocate memory");
		return EXIT_OK;
	}
	if (a->nap == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		struct aport *v = realloc(a->ap, cap * sizeof(*v));

		if (!v)
			return cli_fail(cli, -ENOMEM, "cannot allocate memory");
		a->ap = v;
		a->cap = cap;
	}
	ap = &a->ap[a->nap];
	memset(ap, 0, sizeof(*ap));
	snprintf(ap->path, sizeof(ap->path), "%s", dp->path);
	ap->file = dp->file;
	ap->fn = fn;
	ap->port = p;
	mlx_port_ref_init(&ap->t, fn, p, ifname);
	ap->want = mlx_port_settings_copy(dp->want);
	if (!ap->want)
		return cli_fail(cli, -ENOMEM, "cannot allocate memory");
	if (fn)
		snprintf(ap->want->pci_address, sizeof(ap->want->pci_address), "%s", fn->bdf);
	a->nap++;
	return EXIT_OK;
}

/*
 * --any-netdev: FILE's port named by a netdev alone that no ConnectX port
 * has, a netdev that exists (a veth): matched as a port without a
 * function, whose "params" alone can be applied, and "roce" when an RDMA
 * port is on it (rdma_rxe: its plan refuses it otherwise, exit 4); any
 * other section is refused here, before anything is read or written
 * (exit 4).  Returns -1 when @dp is no such port, else an exit code.
 */
static int match_netdev(struct cli *cli, struct apply *a, const struct doc_port *dp,
			const char *only_netdev)
{
	static const struct { const char *key; size_t off; } sections[] = {
		{ "dcbx", offsetof(struct mlx_port_settings, qos.dcbx) },
		{ "trust", offsetof(struct mlx_port_settings, qos.trust) },
		{ "dscp2prio", offsetof(struct mlx_port_settings, qos.dscp2prio) },
		{ "pfc", offsetof(struct mlx_port_settings, qos.pfc) },
		{ "ets", offsetof(struct mlx_port_settings, qos.ets) },
		{ "tcs", offsetof(struct mlx_port_settings, qos.tcs) },
		{ "buffer", offsetof(struct mlx_port_settings, qos.buffer) },
		{ "dcqcn", offsetof(struct mlx_port_settings, dcqcn.have) },
		{ "sriov", offsetof(struct mlx_port_settings, sriov.have) },
	};

	if (!cli_opt(cli, "any-netdev") || !dp->netdev || dp->pci || dp->match)
		return -1;
	if (only_netdev && strcmp(only_netdev, dp->netdev))
		return EXIT_OK;
	if (!mlx_netdev_exists(cli->ctx, dp->netdev))
		return -1;
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (((const uint8_t *)dp->want)[sections[i].off] == MLX_SET) {
			cli_error(cli, "%s: %s.%s: %s is no ConnectX port (--any-netdev): only its params "
				  "and roce can be applied; nothing was changed", dp->file, dp->path,
				  sections[i].key, dp->netdev);
			return EXIT_NOTSUP;
		}
	return aport(cli, a, dp, NULL, NULL, dp->netdev);
}

static int match_ports(struct cli *cli, struct apply *a, const struct mlx_function *only,
		       const char *only_netdev)
{
	struct mlx_devices *devs;
	int r = cli_devices(cli, &devs);

	if (r)
		return r;
	for (size_t i = 0; i < a->doc.n; i++) {
		const struct doc_port *dp = &a->doc.p[i];
		size_t found = 0;

		for (size_t k = 0; k < devs->nfn && !only_netdev; k++) {
			const struct mlx_function *fn = &devs->fn[k];

			for (size_t j = 0; j < (fn->nports ? fn->nports : 1); j++) {
				const struct mlx_port *p = fn->nports ? &fn->ports[j] : NULL;

				if ((only && fn != only) || !port_matches(dp, fn, p))
					continue;
				if ((r = aport(cli, a, dp, fn, p, NULL)))
					return r;
				found++;
			}
		}
		if (!found && (r = match_netdev(cli, a, dp, only_netdev)) >= 0) {
			if (r)
				return r;
			continue;
		}
		if (found || only)
			continue;
		/* a selector that finds nothing here is normal across a fleet;
		 * an address or netdev that is not here is not (with -d: another
		 * device's entry, not this one's) */
		if (dp->match) {
			mlx_log(cli->ctx, MLX_LOG_INFO, "%s: its match selects no port here", dp->path);
			continue;
		}
		for (size_t k = 0; dp->pci && k < devs->nfn; k++)
			if (bdf_is(&devs->fn[k], dp->pci) && devs->fn[k].role == MLX_FN_VF) {
				cli_error(cli, "%s: %s names %s, a VF of %s: a VF's settings are in its "
					  "PF's sriov.vfs; nothing was changed", dp->file, dp->path,
					  devs->fn[k].bdf, devs->fn[k].pf ? devs->fn[k].pf->bdf : "its PF");
				return EXIT_NOTSUP;
			}
		cli_error(cli, "%s: %s names %s, which is not on this host; nothing was changed",
			  dp->file, dp->path, dp->pci ? dp->pci : dp->netdev);
		return EXIT_NODEV;
	}
	return EXIT_OK;
}

/* ---- the transaction ---- */

/* Every subsystem over every port, in the table's order (lib/settings.h). */
static int build(struct cli *cli, struct apply *a)
{
	int e = mlx_txn_new(cli->ctx, &a->txn);

	for (int s = 0; e == 0 && s < MLX_NSUB; s++) {
		const struct mlx_subsys *sub = mlx_subsys((enum mlx_sub)s);

		for (size_t i = 0; e == 0 && i < a->nap; i++) {
			struct aport *ap = &a->ap[i];

			ap->step[s] = -1;
			/* a netdev that is no ConnectX port: its params, its link
			 * (ethtool), the RDMA CM's defaults of an RDMA port on it
			 * (rdma_rxe; the plan refuses them when there is none,
			 * exit 4) */
			if (!ap->fn && s != MLX_SUB_PARAMS && s != MLX_SUB_ROCE && s != MLX_SUB_LINK)
				continue;
			if (s == MLX_SUB_VF) {
				for (size_t v = 0; e >= 0 && v < ap->want->sriov.nvf; v++)
					e = mlx_txn_add(a->txn, MLX_SUB_VF, &ap->t, ap->want, v);
				e = e < 0 ? e : 0;
				continue;
			}
			if (!sub->wanted(ap->want, 0))
				continue;
			e = mlx_txn_add(a->txn, (enum mlx_sub)s, &ap->t, ap->want, 0);
			if (e >= 0)
				ap->step[s] = e, e = 0;
		}
	}
	return e < 0 ? cli_fail(cli, e, "cannot allocate memory") : EXIT_OK;
}

/* The port of step @i (its JSON path for messages). */
static const struct aport *aport_of_step(const struct apply *a, size_t i)
{
	struct mlx_txn_step st;

	mlx_txn_step(a->txn, i, &st);
	for (size_t k = 0; k < a->nap; k++)
		if (a->ap[k].fn == st.target->fn && a->ap[k].port == st.target->port &&
		    (st.target->fn || !strcmp(a->ap[k].t.ifname, st.target->ifname)))
			return &a->ap[k];
	return NULL;
}

static int failed(struct cli *cli, struct apply *a, int e)
{
	const struct mlx_txn_result *res = mlx_txn_result(a->txn);
	const struct aport *ap = res->step >= 0 ? aport_of_step(a, (size_t)res->step) : NULL;
	char path[300];

	if (ap && a->nnames)
		snprintf(path, sizeof(path), "%s: %s", ap->file, ap->path);
	else if (ap)
		snprintf(path, sizeof(path), "%s", ap->path);
	return cli_txn_fail(cli, a->txn, e, ap ? path : NULL, "apply");
}

static void out_changes(struct cli *cli, struct apply *a)
{
	struct out *o = cli->out;
	size_t n = 0, ns = mlx_txn_nsteps(a->txn);

	for (size_t k = 0; k < ns; k++) {
		struct mlx_txn_step st;

		mlx_txn_step(a->txn, k, &st);
		n += mlx_plan_nchanged(st.plan);
	}
	out_bool(o, "changed", NULL, n > 0);
	out_bool(o, "dry_run", NULL, cli->dry_run);
	out_list_begin(o, "changes", NULL);
	for (size_t k = 0; k < ns; k++) {
		struct mlx_txn_step st;

		mlx_txn_step(a->txn, k, &st);
		for (size_t i = 0; i < st.plan->n; i++) {
			const struct mlx_change *c = &st.plan->c[i];

			if (!c->changed)
				continue;
			out_obj_begin(o, NULL, NULL);
			out_fmt_str(o, OUT_ANY, "pci_address", "%s", st.target->fn ? st.target->fn->bdf : NULL);
			out_fmt_str(o, OUT_ANY, "netdev", " %s", st.target->ifname);
			out_fmt_str(o, OUT_ANY, "subsystem", " %s ", st.sub->key);
			if (st.sub->id == MLX_SUB_VF)
				out_fmt_u64(o, OUT_ANY, "vf", "VF %s ",
					    ((const struct mlx_sriov_writer *)st.writer)->vf);
			else
				out_null(o, "vf", NULL);
			cli_out_change(cli, c);
			out_obj_end(o);
		}
	}
	out_list_end(o);
	if (!out_is_json(o) && !n)
		fprintf(cli->out_fp, "no change: the host already matches %s\n", "the file");
}

static void apply_free(struct apply *a)
{
	for (size_t i = 0; i < a->nap; i++)
		mlx_port_settings_free(a->ap[i].want);
	for (size_t i = 0; i < a->nnames && a->names; i++)
		free(a->names[i]);
	free(a->names);
	free(a->ap);
	mlx_txn_free(a->txn);
	doc_free(&a->doc);
}

/* The transaction's steps (a subsystem of a port) as a progress line. */
static void apply_progress(void *arg, size_t done, size_t total)
{
	(void)total;
	progress_step(arg, done);
}

int cmd_apply(struct cli *cli, int argc, char **argv)
{
	struct apply a = { .file = argv[0] };
	struct progress pr;
	struct mlx_function *only = NULL;
	bool other = false;
	int r, e;

	(void)argc;
	if (cli_opt(cli, "check") || cli_opt(cli, "diff"))
		cli->dry_run = true;
	/* A plan reads settings, not the port's MAC, MTU or carrier (a third
	 * of --check's syscalls on 2,048 functions); a write needs them: a
	 * VF's RTM_SETLINK names the PF by its ifindex. */
	if (cli->dry_run)
		cli->scan_skip |= MLX_SCAN_PORT_DETAILS;
	r = load(cli, &a);
	if (!r)
		r = cli_other_netdev(cli, &other);
	if (!r && !other)
		r = cli_select(cli, &only, NULL);
	if (!r && only && only->role == MLX_FN_VF)
		r = cli_need_pf(cli, only);
	if (!r)
		r = match_ports(cli, &a, only, other ? cli->device : NULL);
	if (!r)
		r = build(cli, &a);
	if (r)
		goto out;
	/* everything planned against the device first: nothing is written
	 * unless every subsystem of every port can be; a numvfs change that
	 * takes VFs away is refused first, unless --yes (or only planned) */
	/* many ports take a while (each step reads its device): a line on a
	 * terminal, nothing in a pipe (cmd/progress.c) */
	progress_begin(&pr, cli, "apply: planned", mlx_txn_nsteps(a.txn));
	mlx_txn_set_progress(a.txn, apply_progress, &pr);
	e = mlx_txn_plan(a.txn, cli->dry_run || cli_opt(cli, "yes") ? 0 : MLX_TXN_STOP_AT_DESTROY);
	progress_end(&pr);
	if (e == -ECANCELED && (r = apply_confirm(cli, &a)))
		goto out;
	if (e < 0) {
		r = failed(cli, &a, e);
		goto out;
	}
	r = apply_lint(cli, &a);
	if (!r && cli_opt(cli, "diff")) {
		r = apply_show_diff(cli, &a);
		goto out;
	}
	if (r)
		goto out;
	if (!cli->dry_run) {
		progress_begin(&pr, cli, "apply: written", mlx_txn_nsteps(a.txn));
		e = mlx_txn_run(a.txn, cli_opt(cli, "yes") ? MLX_TXN_DESTROY_OK : 0);
		progress_end(&pr);
		if (e < 0) {
			r = failed(cli, &a, e);
			goto out;
		}
	}
	out_changes(cli, &a);
	if (!cli->dry_run)
		r = cli_txn_done(cli, a.txn);
out:
	apply_free(&a);
	return r;
}
