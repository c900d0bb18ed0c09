/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli apply FILE`: make the host match a desired state (issue 19).
 *
 * FILE is `mlxcli state -j`'s document (mlxcli-state(8)); a port may name
 * itself by "match" (product, function) instead of its address, so one file
 * serves a fleet.  Only what FILE names is touched: a key that is absent or
 * null leaves that setting alone.
 *
 *  1. the file is validated in full (cmd/apply-check.c), exit 2 with the
 *     JSON path, before any device is read;
 *  2. its ports are matched to this host's; every subsystem of every port
 *     (enum sub's order, apply-cmd.h: QoS, DCQCN, the driver's knobs,
 *     SR-IOV's numvfs, the VFs' settings, the RDMA CM's defaults; the knobs
 *     planned in cmd/apply-params.c, SR-IOV and RDMA CM in
 *     cmd/apply-sriov.c) is planned by its feature's plan builder through
 *     the write engine as a dry run: a value the device refuses is found
 *     here, still with nothing written;
 *  3. --check stops there and shows the plan; otherwise every device's
 *     lock is taken once and the runs are done for real, in the same
 *     order, under it.  When run k fails, the engine has put back run k's
 *     own writes; the runs before it are put back here, newest first, each
 *     through the engine again (old values as the new ones), and the
 *     message says so: all or nothing across subsystems.
 *
 * Idempotent: a plan holds only what differs, so a second apply changes
 * nothing ("changed": false, exit 0).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "apply-cmd.h"
#include "cli.h"
#include "dcb.h"
#include "dcqcn.h"
#include "devid.h"
#include "lock.h"
#include "qos-check.h"
#include "rdma.h"
#include "state-cmd.h"
#include "write.h"

#define MAXAPORTS 64

const struct cmd_opt apply_opts[] = {
	{ "check", 0, NULL, "plan and show what would change, write nothing (as --dry-run)", NULL,
	  SRC_NONE, 0 },
	{ "diff", 0, NULL, "show the plan as a unified diff of the state (implies --check)", NULL,
	  SRC_NONE, 0 },
	{ "force", 0, NULL, "apply a plan whose result the QoS lint finds an error in", NULL,
	  SRC_NONE, 0 },
	{ "yes", 'y', NULL, "allow a numvfs change that takes the VFs there are away", NULL,
	  SRC_NONE, 0 },
	{ "any-netdev", 0, NULL, "a port FILE names by a netdev that is no ConnectX port (a veth): "
	  "its params only", NULL, SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};


/* For messages, and (lower case) the change records' "subsystem". */
static const char *const sub_names[] = {
	[SUB_QOS] = "QoS", [SUB_DCQCN] = "DCQCN", [SUB_PARAMS] = "driver knob", [SUB_SRIOV] = "SR-IOV", [SUB_VF] = "SR-IOV VF",
	[SUB_ROCE] = "RDMA CM",
};
static const char *const sub_keys[] = {
	[SUB_QOS] = "qos", [SUB_DCQCN] = "dcqcn", [SUB_PARAMS] = "params", [SUB_SRIOV] = "sriov", [SUB_VF] = "sriov",
	[SUB_ROCE] = "roce",
};

/* ---- matching FILE's ports to the host's ---- */

static bool bdf_is(const struct mlx_function *fn, const char *want)
{
	size_t n = strlen(fn->bdf), m = strlen(want);

	/* "08:00.0" names "0000:08:00.0" */
	return m <= n && !strcasecmp(fn->bdf + n - m, want) && (m == n || fn->bdf[n - m - 1] == ':');
}

static bool port_matches(json_t *spec, const struct mlx_function *fn, const struct mlx_port *p)
{
	json_t *a = json_object_get(spec, "pci_address"), *n = json_object_get(spec, "netdev");
	json_t *m = json_object_get(spec, "match");

	if (json_is_string(a) && !bdf_is(fn, json_string_value(a)))
		return false;
	/* with both, the address decides: a netdev name is per host */
	if (json_is_string(n) && !json_is_string(a) &&
	    (!p || strcmp(p->ifname, json_string_value(n))))
		return false;
	if (m) {
		json_t *prod = json_object_get(m, "product"), *f = json_object_get(m, "function");
		bool want_vf = json_is_string(f) && !strcmp(json_string_value(f), "vf");

		if ((fn->role == MLX_FN_VF) != want_vf)
			return false;
		if (json_is_string(prod) &&
		    (!fn->id || !fn->id->product || strncasecmp(fn->id->product, json_string_value(prod),
								 strlen(json_string_value(prod))) ||
		     /* "ConnectX-6" is not "ConnectX-6 Dx": a whole word */
		     (fn->id->product[strlen(json_string_value(prod))] &&
		      fn->id->product[strlen(json_string_value(prod))] != ' ')))
			return false;
	} else if (fn->role != MLX_FN_PF) {
		return false;
	}
	return true;
}

/*
 * --any-netdev: FILE's port @spec named by a netdev alone that no ConnectX
 * port has, a netdev that exists (a veth): matched as a port without a
 * function, whose "params" alone can be applied, and "roce" when an RDMA
 * port is on it (rdma_rxe); any other section is refused here, before
 * anything is read or written (exit 4).  Returns -1 when @spec is no such
 * port, else an exit code.
 */
static int match_netdev(struct cli *cli, struct apply_file *f, json_t *spec, size_t i,
			const char *only_netdev, struct aport *ap, size_t *nap)
{
	static const char *const ok_keys[] = { "pci_address", "netdev", "params", "roce", NULL };
	json_t *n = json_object_get(spec, "netdev"), *x;
	const char *name = json_string_value(n), *k;
	uint32_t pn = 0;

	if (!cli_opt(cli, "any-netdev") || !json_is_string(n) ||
	    json_is_string(json_object_get(spec, "pci_address")) || json_object_get(spec, "match"))
		return -1;
	if (only_netdev && strcmp(only_netdev, name))
		return EXIT_OK;
	if (!mlx_netdev_exists(cli->ctx, name))
		return -1;
	json_object_foreach(spec, k, x) {
		const char *const *o = ok_keys;

		while (*o && strcmp(*o, k))
			o++;
		if (!*o && !json_is_null(x)) {
			cli_error(cli, "%s: ports[%zu].%s: %s is no ConnectX port (--any-netdev): only "
				  "its params can be applied; nothing was changed", f->name, i, k, name);
			return EXIT_NOTSUP;
		}
	}
	if (*nap >= MAXAPORTS) {
		cli_error(cli, "%s: more than %d ports to apply", f->name, MAXAPORTS);
		return EXIT_USAGE;
	}
	memset(&ap[*nap], 0, sizeof(ap[*nap]));
	if (mlx_rdma_port_of_netdev(cli->ctx, name, ap[*nap].rdma_dev, sizeof(ap[*nap].rdma_dev),
				    &pn) == 0)
		ap[*nap].rdma_port = pn;
	x = json_object_get(spec, "roce");
	if (x && !json_is_null(x) && !ap[*nap].rdma_dev[0]) {
		cli_error(cli, "%s: ports[%zu].roce: %s has no RDMA device, so no RDMA CM defaults; "
			  "nothing was changed", f->name, i, name);
		return EXIT_NOTSUP;
	}
	snprintf(ap[*nap].path, sizeof(ap[*nap].path), "ports[%zu]", i);
	ap[*nap].spec = spec;
	ap[*nap].ifname = ap[*nap].lock = name;
	(*nap)++;
	return EXIT_OK;
}

static int match_ports(struct cli *cli, struct apply_file *f, const struct mlx_function *only,
		       const char *only_netdev, struct aport *ap, size_t *nap)
{
	struct mlx_devices *devs;
	json_t *spec;
	size_t i;
	int r = cli_devices(cli, &devs);

	if (r)
		return r;
	*nap = 0;
	json_array_foreach(json_object_get(f->doc, "ports"), i, spec) {
		size_t found = 0;

		for (size_t k = 0; k < devs->nfn && !only_netdev; k++) {
			const struct mlx_function *fn = &devs->fn[k];

			for (size_t j = 0; j < (fn->nports ? fn->nports : 1); j++) {
				const struct mlx_port *p = fn->nports ? &fn->ports[j] : NULL;

				if ((only && fn != only) || !port_matches(spec, fn, p))
					continue;
				if (*nap >= MAXAPORTS) {
					cli_error(cli, "%s: more than %d ports to apply", f->name, MAXAPORTS);
					return EXIT_USAGE;
				}
				snprintf(ap[*nap].path, sizeof(ap[*nap].path), "ports[%zu]", i);
				ap[*nap].spec = spec;
				ap[*nap].fn = fn;
				ap[*nap].port = p;
				ap[*nap].ifname = p && p->ifname[0] ? p->ifname : NULL;
				ap[*nap].lock = fn->bdf;
				(*nap)++;
				found++;
			}
		}
		if (!found && (r = match_netdev(cli, f, spec, i, only_netdev, ap, nap)) >= 0) {
			if (r)
				return r;
			continue;
		}
		/* A selector that finds nothing here is normal across a fleet;
		 * an address or netdev that is not here is not (with -d: another
		 * device's entry, not this one's). */
		if (!found && !json_object_get(spec, "match") && !only) {
			cli_error(cli, "%s: ports[%zu] names %s, which is not on this host; nothing was "
				  "changed", f->name, i,
				  json_is_string(json_object_get(spec, "pci_address"))
				  ? json_string_value(json_object_get(spec, "pci_address"))
				  : json_string_value(json_object_get(spec, "netdev")));
			return EXIT_NODEV;
		}
		if (!found && !only)
			mlx_log(cli->ctx, MLX_LOG_INFO, "ports[%zu]: its match selects no port here", i);
	}
	return EXIT_OK;
}

/* ---- the runs ---- */

static void run_free(struct run *r)
{
	mlx_plan_free(&r->pl);
	mlx_dcb_writer_free(&r->dw);
	mlx_sriov_writer_free(&r->sw);
	mlx_params_writer_free(&r->pw);
	if (r->have_before)
		mlx_link_vfs_free(&r->before);
	if (r->have_table)
		mlx_link_vfs_free(&r->table);
	r->have_before = r->have_table = false;
	free(r->want);
	r->want = NULL;
}

/*
 * Plan (and unless @dry write) one subsystem of one port.  An exit code;
 * the message is out.  An empty plan is a success that touches nothing.
 */
static int run_one(struct cli *cli, struct run *r, bool dry)
{
	struct mlx_write_ops qops = mlx_dcb_write_ops;
	const struct mlx_write_ops *ops;
	struct mlx_write_req req = { .lock = r->held ? NULL : r->ap->lock, .dry_run = dry };
	void *feat = r->sub == SUB_QOS ? (void *)&r->dw : (void *)&r->cw;
	int e, rc;

	/* a netdev that is no ConnectX port: its params, the RDMA CM's
	 * defaults of the RDMA port on it (match_netdev) */
	if (!r->ap->fn && r->sub != SUB_PARAMS && r->sub != SUB_ROCE)
		return EXIT_OK;
	req.on = r->ap->ifname ? r->ap->ifname : r->ap->fn->bdf;
	if (r->sub == SUB_QOS) {
		if (!apply_has_qos(r->ap->spec))
			return EXIT_OK;
		if (!r->ap->ifname) {
			cli_error(cli, "%s: %s has no netdev, so no QoS settings; nothing was changed",
				  r->ap->path, r->ap->fn->bdf);
			return EXIT_NOTSUP;
		}
		if (mlx_dcb_writer_init(&r->dw, r->ap->ifname) < 0) {
			cli_error(cli, "out of memory");
			return EXIT_FAIL;
		}
		if (!dry && !mlx_dcb_may_write(cli->ctx)) {
			cli_error(cli, "cannot change the QoS settings of '%s': permission denied (DCB "
				  "changes need CAP_NET_ADMIN); nothing was changed", r->ap->ifname);
			return EXIT_PERM;
		}
		qops.plan = apply_qos_plan;
		ops = &qops;
	} else if (r->sub == SUB_DCQCN) {
		rc = apply_dcqcn_requests(cli, r);
		if (rc || !r->pl.n)
			return rc;
		ops = &mlx_dcqcn_write_ops;
	} else {
		rc = r->sub == SUB_PARAMS ? apply_params_requests(cli, r)
		     : r->sub == SUB_SRIOV ? apply_sriov_requests(cli, r, dry)
		     : r->sub == SUB_VF ? apply_vf_requests(cli, r) : apply_roce_requests(cli, r);
		if (rc || !r->pl.n)
			return rc;
		apply_sub_ops(r, &ops, &feat);
		/* VFs a planned numvfs change makes: not there to read yet; they
		 * come with the driver's defaults, so every setting is a change
		 * from unknown (null). */
		if (dry && r->sub == SUB_VF && r->numvfs && r->numvfs->recreates) {
			for (size_t i = 0; i < r->pl.n; i++)
				r->pl.c[i].changed = true;
			return EXIT_OK;
		}
	}
	e = mlx_write_run(cli->ctx, ops, feat, &req, &r->pl, &r->res);
	if (!e)
		return EXIT_OK;
	cli_error(cli, "%s%s", mlx_errmsg(cli->ctx), r->res.failed < 0 ? "; nothing was changed" : "");
	if (r->plan_rc)
		return r->plan_rc;
	rc = cli_exit_code(e);
	if (r->res.failed >= 0 && rc != EXIT_PERM)
		rc = EXIT_FAIL;
	if (r->res.phase == MLX_WRITE_PLAN && (e == -EINVAL || e == -ERANGE))
		rc = EXIT_USAGE;
	return rc == EXIT_OK || rc == EXIT_NODEV ? EXIT_FAIL : rc;
}

/* Put back what run @r changed, newest first, through the engine. */
static int put_back(struct cli *cli, struct run *r)
{
	struct run back = { .sub = r->sub, .ap = r->ap, .dp = r->dp, .vf_spec = r->vf_spec };
	struct mlx_write_req req = { .lock = r->held ? NULL : r->ap->lock, .on = r->ap->ifname };
	const struct mlx_write_ops *ops = &mlx_dcb_write_ops;
	void *feat = &back.dw;
	int e = 0;

	for (size_t i = r->pl.n; i-- > 0;)
		if (r->pl.c[i].changed && mlx_plan_add(&back.pl, r->pl.c[i].setting, r->pl.c[i].unit,
						       r->pl.c[i].id, r->pl.c[i].arg, r->pl.c[i].old) < 0)
			e = -ENOMEM;
	if (!e && back.pl.n) {
		if (r->sub == SUB_DCQCN) {
			back.cw.dp = &back.dp;
			back.cw.speed_mbps = r->cw.speed_mbps;
			ops = &mlx_dcqcn_write_ops;
			feat = &back.cw;
		} else if (r->sub != SUB_QOS) {
			apply_sub_ops(&back, &ops, &feat);
		} else if (mlx_dcb_writer_init(&back.dw, r->ap->ifname) < 0) {
			e = -ENOMEM;
		}
		if (!e)
			e = mlx_write_run(cli->ctx, ops, feat, &req, &back.pl, &back.res);
	}
	/* numvfs back: the VFs it made again get their settings back */
	if (!e && r->sub == SUB_SRIOV && r->recreates)
		e = apply_sriov_restore_vfs(cli, r);
	if (e < 0)
		cli_error(cli, "could not put back the %s settings of %s: %s", sub_names[r->sub],
			  req.on ? req.on : r->ap->lock, mlx_errmsg(cli->ctx));
	run_free(&back);
	return e;
}

/* Every run, in order: as a dry run, or for real with the put-back. */
static int run_all(struct cli *cli, struct run *runs, size_t nrun, bool dry)
{
	for (size_t k = 0; k < nrun; k++) {
		int rc = run_one(cli, &runs[k], dry);
		bool held = true;
		size_t nback = 0;

		if (!rc)
			continue;
		if (dry)
			return rc;
		for (size_t j = k; j-- > 0;)
			if (mlx_plan_nchanged(&runs[j].pl) && (++nback, put_back(cli, &runs[j]) < 0))
				held = false;
		if (nback)
			cli_error(cli, "the apply failed; what it had changed before (%zu subsystem%s of "
				  "its ports) %s", nback, nback == 1 ? "" : "s", held ? "was put back: "
				  "nothing was changed" : "could NOT all be put back: the host is partly "
				  "changed");
		return rc;
	}
	return EXIT_OK;
}

/*
 * The lint gate: `show qos --check`'s rules on the state each port would
 * have after the plan, predicted, not written: the DCB state the QoS plan
 * computed (lib's plan builder, from the state read) and the DCQCN enables
 * read now with the plan's changes laid over them.  A plan that changes a
 * port and would leave a lint error there is refused (exit 1, nothing
 * written) unless --force.  An exit code.
 */
static int lint_gate(struct cli *cli, struct run *runs, size_t nrun, size_t nap)
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
	for (size_t i = 0; i < nap; i++) {
		struct run *q = &runs[i], *d = &runs[nap + i];   /* its QoS and DCQCN runs */
		const struct mlx_dcb_state *dcb = q->want;
		struct mlx_qos_state qs;

		if (i >= nrun || !q->ap->ifname ||
		    !(mlx_plan_nchanged(&q->pl) + mlx_plan_nchanged(&d->pl)))
			continue;
		if (!dcb) {
			if (mlx_dcb_get(cli->ctx, q->ap->ifname, cur) < 0) {
				mlx_err_clear(cli->ctx);
				continue;
			}
			dcb = cur;
		}
		mlx_qos_state_init(&qs, q->ap->ifname);
		qos_read_dcqcn(cli, q->ap->fn, q->ap->port, &qs);
		for (size_t k = 0; k < d->pl.n; k++) {
			const struct mlx_dcqcn_param *p;
			size_t np;
			const struct mlx_dcqcn_param *t = mlx_dcqcn_params(&np);

			/* c->id is the parameter's index in lib's table */
			if (d->pl.c[k].id < 0 || (size_t)d->pl.c[k].id >= np)
				continue;
			p = &t[d->pl.c[k].id];
			if (p->prio < 0)
				continue;
			if (d->pl.c[k].arg == MLX_DCQCN_RP)
				qs.rp_en[p->prio] = (int8_t)(d->pl.c[k].new.u != 0);
			else
				qs.np_en[p->prio] = (int8_t)(d->pl.c[k].new.u != 0);
		}
		rc = qos_check(cli, &qs, dcb, -1, rep);
		if (rc)
			break;
		for (size_t k = 0; k < rep->n; k++) {
			if (rep->f[k].sev != MLX_LINT_ERROR)
				continue;
			if (force) {
				cli_warn(cli, "%s: after this apply, %s (%s): applied anyway (--force)",
					 q->ap->ifname, rep->f[k].msg, rep->f[k].id);
			} else {
				cli_error(cli, "%s: after this apply, %s (%s)", q->ap->ifname,
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

static void out_runs(struct cli *cli, struct run *runs, size_t nrun)
{
	struct out *o = cli->out;
	size_t n = 0;

	for (size_t k = 0; k < nrun; k++)
		n += mlx_plan_nchanged(&runs[k].pl);
	out_bool(o, "changed", NULL, n > 0);
	out_bool(o, "dry_run", NULL, cli->dry_run);
	out_list_begin(o, "changes", NULL);
	for (size_t k = 0; k < nrun; k++)
		for (size_t i = 0; i < runs[k].pl.n; i++) {
			const struct mlx_change *c = &runs[k].pl.c[i];

			if (!c->changed)
				continue;
			out_obj_begin(o, NULL, NULL);
			out_fmt_str(o, OUT_ANY, "pci_address", "%s",
				    runs[k].ap->fn ? runs[k].ap->fn->bdf : NULL);
			out_fmt_str(o, OUT_ANY, "netdev", " %s", runs[k].ap->ifname);
			out_fmt_str(o, OUT_ANY, "subsystem", " %s ", sub_keys[runs[k].sub]);
			if (runs[k].sub == SUB_VF)
				out_fmt_u64(o, OUT_ANY, "vf", "VF %s ",
					    (uint64_t)runs[k].sw.vf);
			else
				out_null(o, "vf", NULL);
			cli_out_change(cli, c);
			out_obj_end(o);
		}
	out_list_end(o);
	if (!out_is_json(o) && !n)
		fprintf(cli->out_fp, "no change: the host already matches %s\n", "the file");
}

static int load_one(struct cli *cli, struct apply_file *f)
{
	json_error_t je;

	f->doc = json_load_file(f->name, JSON_REJECT_DUPLICATES, &je);
	if (!f->doc) {
		cli_error(cli, "%s: line %d: %s; nothing was changed", f->name, je.line, je.text);
		return EXIT_USAGE;
	}
	return apply_check(f);
}

static int is_json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/*
 * FILE, validated; or a directory (the boot unit's /etc/mlxcli/state.d):
 * its *.json files in name order, each validated, as one document whose
 * ports are theirs in that order, so they apply all or nothing together.
 */
static int load(struct cli *cli, struct apply_file *f)
{
	struct dirent **names = NULL;
	struct stat st;
	int n, r = EXIT_OK;

	if (stat(f->name, &st) < 0 || !S_ISDIR(st.st_mode))
		return load_one(cli, f);
	n = scandir(f->name, &names, is_json_name, alphasort);
	if (n < 0)
		return cli_fail(cli, -errno, f->name);
	f->doc = json_pack("{s:[]}", "ports");
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct apply_file one = { .cli = cli, .name = path };

		snprintf(path, sizeof(path), "%s/%s", f->name, names[i]->d_name);
		if (!r && !(r = load_one(cli, &one)))
			json_array_extend(json_object_get(f->doc, "ports"),
					  json_object_get(one.doc, "ports"));
		json_decref(one.doc);
		free(names[i]);
	}
	free(names);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The locks of the devices of @ap, each once, in address order (two
 * applies on overlapping hosts cannot wait on each other).  An exit code. */
static int lock_all(struct cli *cli, const struct aport *ap, size_t nap, int *fds, size_t *n)
{
	const char *bdf[MAXAPORTS];
	size_t nb = 0;

	for (size_t i = 0; i < nap; i++)
		bdf[nb++] = ap[i].lock;
	qsort(bdf, nb, sizeof(*bdf), cmp_str);
	for (size_t i = 0; i < nb; i++) {
		int e;

		if (i && !strcmp(bdf[i], bdf[i - 1]))
			continue;
		e = mlx_lock_device(cli->ctx, bdf[i], &fds[*n]);
		if (e < 0) {
			cli_error(cli, "%s; nothing was changed", mlx_errmsg(cli->ctx));
			for (size_t k = 0; k < *n; k++)
				close(fds[k]);
			*n = 0;
			return cli_exit_code(e) == EXIT_OK ? EXIT_FAIL : cli_exit_code(e);
		}
		(*n)++;
	}
	return EXIT_OK;
}

int cmd_apply(struct cli *cli, int argc, char **argv)
{
	struct apply_file f = { .cli = cli, .name = argv[0] };
	struct mlx_function *only = NULL;
	struct aport *ap = calloc(MAXAPORTS, sizeof(*ap));
	struct run *runs = NULL;
	int locks[MAXAPORTS];
	size_t nap = 0, nrun = 0, nlock = 0, nvf = 0;
	bool other = false;
	int r;

	(void)argc;
	if (!ap) {
		r = EXIT_FAIL;
		goto out;
	}
	if (cli_opt(cli, "check") || cli_opt(cli, "diff"))
		cli->dry_run = true;
	/* A plan reads settings, not the port's MAC, MTU or carrier (a third
	 * of --check's syscalls on 2,048 functions); a write needs them: a
	 * VF's RTM_SETLINK names the PF by its ifindex. */
	if (cli->dry_run)
		cli->scan_skip |= MLX_SCAN_PORT_DETAILS;
	r = load(cli, &f);
	if (!r)
		r = cli_other_netdev(cli, &other);
	if (!r && !other)
		r = cli_select(cli, &only, NULL);
	if (!r && only && only->role == MLX_FN_VF)
		r = cli_need_pf(cli, only);
	if (!r)
		r = match_ports(cli, &f, only, other ? cli->device : NULL, ap, &nap);
	if (r)
		goto out;
	for (size_t i = 0; i < nap; i++)
		nvf += apply_nvf_runs(&ap[i]);
	runs = calloc(5 * nap + nvf + 1, sizeof(*runs));
	if (!runs) {
		r = EXIT_FAIL;
		goto out;
	}
	/* Each subsystem over every port, in enum sub's order (apply-cmd.h):
	 * QoS's run of port i at i, DCQCN's at nap + i (the lint gate). */
	for (int s = SUB_QOS; s <= SUB_ROCE; s++)
		for (size_t i = 0; i < nap; i++) {
			size_t pf = 3 * nap + i;   /* port i's SUB_SRIOV run */

			for (size_t v = 0; v < (s == SUB_VF ? apply_nvf_runs(&ap[i]) : 1); v++) {
				runs[nrun].sub = (enum sub)s;
				runs[nrun].ap = &ap[i];
				if (s == SUB_VF) {
					runs[nrun].vf_spec = json_array_get(json_object_get(
						json_object_get(ap[i].spec, "sriov"), "vfs"), v);
					runs[nrun].vf_index = v;
					runs[nrun].numvfs = &runs[pf];
				}
				nrun++;
			}
		}
	/* Everything planned against the device first: nothing is written
	 * unless every subsystem of every port can be. */
	r = run_all(cli, runs, nrun, true);
	if (!r)
		r = lint_gate(cli, runs, nrun, nap);
	if (!r && cli_opt(cli, "diff")) {
		r = apply_show_diff(cli, ap, nap);
		goto out;
	}
	if (r || cli->dry_run)
		goto done;
	/* One apply, one holder: every device's lock from before the first
	 * read to after the last put-back, so what is put back is what was
	 * there, and no other writer sees half of it. */
	r = lock_all(cli, ap, nap, locks, &nlock);
	for (size_t k = 0; k < nrun && !r; k++) {
		run_free(&runs[k]);
		memset(&runs[k].pl, 0, sizeof(runs[k].pl));
		runs[k].plan_rc = 0;
		runs[k].recreates = false;
		runs[k].held = true;
	}
	if (!r)
		r = run_all(cli, runs, nrun, false);
	for (size_t k = 0; k < nlock; k++)
		close(locks[k]);
done:
	if (!r)
		out_runs(cli, runs, nrun);
out:
	for (size_t k = 0; runs && k < nrun; k++)
		run_free(&runs[k]);
	free(runs);
	free(ap);
	json_decref(f.doc);
	return r;
}
