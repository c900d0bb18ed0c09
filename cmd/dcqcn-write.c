/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DCQCN writes: `qosconfig dcqcn set`, `enable`, `disable`, `restore`.
 * Every value is validated first; then, under the device lock, the old
 * values are read, line-rate values clamped, the writes planned in table
 * order (a write the driver answers by resetting another parameter comes
 * before it, and what it resets is written again), written all or nothing,
 * and read back: what is reported is what the files hold.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dcqcn-cmd.h"
#include "dcqcn.h"
#include "lock.h"

/* One requested value. */
struct req {
	const struct mlx_dcqcn_param *p;
	size_t idx;                       /* in the table */
	enum mlx_dcqcn_side side;
	uint64_t val;
};

static int cmp_req(const void *a, const void *b)
{
	const struct req *x = a, *y = b;

	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	return (int)x->side - (int)y->side;
}

static const char *upstream_enable_why =
	"per-priority DCQCN enable is not exposed by the upstream mlx5 driver (no file in "
	"debugfs cc_params); set the firmware's per-port priority mask instead: "
	"mlxconfig -d DEV set ROCE_CC_PRIO_MASK_P1=<mask> (and _P2), effective after a "
	"firmware reset or reboot";

/*
 * The one target -d names, opened, for a write command.  Returns an exit
 * code; on success *t is allocated.
 */
static int write_target(struct cli *cli, struct target **t)
{
	size_t n = 0;
	int r;

	r = dcqcn_targets(cli, t, &n);
	if (r)
		return r;
	if (n != 1) {
		if (n == 0)
			cli_error(cli, "'%s' has no network port to configure", cli->device);
		else
			cli_error(cli, "'%s' has %zu ports: name one (its netdev)", cli->device, n);
		free(*t);
		*t = NULL;
		return EXIT_USAGE;
	}
	r = dcqcn_open_target(cli, *t, false);
	if (r) {
		free(*t);
		*t = NULL;
	}
	return r;
}

static void change_name(const struct req *q, bool linux_names, enum mlx_dcqcn_layout l,
			char *buf, size_t len)
{
	mlx_dcqcn_name(q->p, q->side, l, linux_names || !q->p->mlx5cmd ? MLX_DCQCN_SIDE_FILE :
		       MLX_DCQCN_MLX5CMD, buf, len);
}

/*
 * A write the driver answers by resetting another parameter (debugfs
 * np_cnp_prio sets np_cnp_prio_mode to 0): when that parameter is not in
 * the set and its value is not what the reset leaves, it is added with its
 * current value, so the set changes only what it names.  Returns an exit code.
 */
static int plan_side_effects(struct cli *cli, struct target *t, struct mlx_dcqcn_write *w,
			     size_t *nw, size_t cap, char mname[][64], char lname[][64], bool *kept)
{
	size_t n = *nw;

	for (size_t i = 0; i < n; i++) {
		const struct mlx_dcqcn_param *se;
		struct mlx_dcqcn_write *x;
		bool listed = false;
		uint64_t sv, cur;
		int e;

		se = mlx_dcqcn_side_effect(w[i].p, t->dp.layout, &sv);
		if (!se || w[i].old == w[i].val)
			continue;
		for (size_t j = 0; j < *nw; j++)
			listed |= w[j].p == se;
		if (listed || *nw >= 2 * cap)
			continue;
		e = mlx_dcqcn_read(cli->ctx, &t->dp, se, se->side, &cur);
		if (e == -ENOENT || (e == 0 && cur == sv))
			continue;
		x = &w[*nw];
		if (e == 0)
			e = mlx_dcqcn_path(&t->dp, se, se->side, x->path, sizeof(x->path));
		if (e < 0) {
			cli_error(cli, "cannot read the current %s of %s: %s; nothing was changed",
				  dcqcn_label(se), t->name, strerror(-e));
			return cli_exit_code(e);
		}
		mlx_dcqcn_name(se, se->side, t->dp.layout, MLX_DCQCN_MLX5CMD, mname[*nw], 64);
		mlx_dcqcn_name(se, se->side, t->dp.layout, MLX_DCQCN_SIDE_FILE, lname[*nw], 64);
		x->what = mname[*nw][0] ? mname[*nw] : lname[*nw];
		x->p = se;
		x->old = x->val = cur;
		kept[*nw] = true;
		(*nw)++;
	}
	return EXIT_OK;
}

static void render_changes(struct cli *cli, const struct target *t, const struct mlx_dcqcn_write *w,
			   size_t nw, char mname[][64], char lname[][64], const bool *kept, bool dry)
{
	struct out *o = cli->out;

	if (out_is_json(o)) {
		out_str(o, "netdev", NULL, t->port ? t->port->ifname : NULL);
		out_str(o, "pci_address", NULL, t->fn->bdf);
		out_str(o, "layout", NULL, mlx_dcqcn_layout_name(t->dp.layout));
		out_bool(o, "dry_run", NULL, dry);
		out_table_begin(o, "changes");
		for (size_t i = 0; i < nw; i++) {
			out_row_begin(o);
			out_str(o, "mlx5cmd_name", NULL, mname[i][0] ? mname[i] : NULL);
			out_str(o, "linux_name", NULL, lname[i]);
			out_str(o, "path", NULL, w[i].path);
			out_u64(o, "old", NULL, w[i].old);
			out_u64(o, "new", NULL, w[i].val);
			out_bool(o, "changed", NULL, w[i].old != w[i].val);
			/* Not asked for: written back after a write reset it. */
			out_bool(o, "kept", NULL, kept[i]);
			out_row_end(o);
		}
		out_table_end(o);
		return;
	}
	for (size_t i = 0; i < nw; i++)
		fprintf(cli->out_fp, "%s: %" PRIu64 " -> %" PRIu64 "%s\n", w[i].what, w[i].old,
			w[i].val, kept[i] ? " (kept: the driver resets it on the write above, so it "
			"is written again)" : w[i].old == w[i].val ? " (unchanged)" : "");
	if (!dry)
		fprintf(cli->out_fp, "%s\n", TRAILER);
}

/*
 * Apply the requests to the one target: check them against the layout,
 * take the device lock, read the old values, clamp, then write all or
 * nothing (or, with --dry-run, show what would change).
 */
static int apply(struct cli *cli, struct target *t, struct req *q, size_t nq)
{
	struct mlx_dcqcn_write *w = NULL, *todo = NULL;
	bool dry = cli_opt(cli, "dry-run") != NULL, speed_warned = false;
	int lockfd = -1, r = EXIT_OK, e, rerr;
	char mname[MAXP * 2][64], lname[MAXP * 2][64];
	bool kept[MAXP * 2] = { false };
	size_t nw = 0, failed, nt = 0;
	int64_t sp = t->port ? t->port->speed_mbps : -1;

	if (nq > MAXP * 2) {
		cli_error(cli, "too many values");
		return EXIT_USAGE;
	}
	/* Table order: a write that resets another file comes before it. */
	qsort(q, nq, sizeof(*q), cmp_req);
	for (size_t i = 0; i < nq; i++) {
		char path[200];

		if (q[i].p->prio >= 0 && t->dp.layout == MLX_DCQCN_DEBUGFS) {
			cli_error(cli, "cannot change DcqcnEnablePrio%d on %s: %s", q[i].p->prio,
				  t->name, upstream_enable_why);
			return EXIT_NOTSUP;
		}
		if (mlx_dcqcn_path(&t->dp, q[i].p, q[i].side, path, sizeof(path)) < 0) {
			cli_error(cli, "cannot set %s on %s: the %s layout has no such parameter "
				  "(it exists only as %s in the %s layout)", dcqcn_label(q[i].p),
				  t->name, mlx_dcqcn_layout_name(t->dp.layout),
				  mlx_dcqcn_file(q[i].p, t->dp.layout == MLX_DCQCN_OFED ? MLX_DCQCN_DEBUGFS :
					     MLX_DCQCN_OFED),
				  t->dp.layout == MLX_DCQCN_OFED ? "debugfs" : "MLNX_OFED sysfs");
			return EXIT_NOTSUP;
		}
	}
	/* Room for one kept value per request (a side effect undone). */
	w = calloc(nq ? 2 * nq : 1, sizeof(*w));
	todo = calloc(nq ? 2 * nq : 1, sizeof(*todo));
	if (!w || !todo) {
		cli_error(cli, "out of memory");
		r = EXIT_FAIL;
		goto out;
	}
	if (!dry) {
		e = mlx_lock_device(cli->ctx, t->fn->bdf, &lockfd);
		if (e < 0) {
			r = cli_fail(cli, e, "cannot lock the device");
			goto out;
		}
	}
	for (size_t i = 0; i < nq; i++) {
		struct mlx_dcqcn_write *x = &w[nw];
		uint64_t old, val = q[i].val;
		bool clamped;

		e = mlx_dcqcn_path(&t->dp, q[i].p, q[i].side, x->path, sizeof(x->path));
		if (e == 0)
			e = mlx_dcqcn_read(cli->ctx, &t->dp, q[i].p, q[i].side, &old);
		if (e < 0) {
			cli_error(cli, "cannot read the current %s of %s from '%s': %s; nothing was "
				  "changed", dcqcn_label(q[i].p), t->name, x->path, strerror(-e));
			r = cli_exit_code(e);
			if (r == EXIT_PERM)
				cli_hint(cli, "run as root");
			goto out;
		}
		if (q[i].p->line_rate) {
			val = mlx_dcqcn_clamp(q[i].p, val, sp, &clamped);
			if (clamped)
				cli_warn(cli, "%s %" PRIu64 " is above the line rate of %s (%" PRId64
					 " Mb/s): setting %" PRIu64 " instead", dcqcn_label(q[i].p),
					 q[i].val, t->name, sp, val);
			else if (sp <= 0 && !speed_warned)
				/* Once per port, not once per line-rate value. */
				cli_warn(cli, "the line rate of %s is unknown (link down): line-rate "
					 "values are not clamped to it", t->name);
			speed_warned |= sp <= 0;
			if (mlx_dcqcn_disables_cc(q[i].p, val, sp))
				cli_warn(cli, "%s at the line rate disables congestion control",
					 dcqcn_label(q[i].p));
		}
		change_name(&q[i], false, t->dp.layout, mname[nw], sizeof(mname[nw]));
		change_name(&q[i], true, t->dp.layout, lname[nw], sizeof(lname[nw]));
		if (!q[i].p->mlx5cmd)
			mname[nw][0] = '\0';
		x->what = mname[nw][0] ? mname[nw] : lname[nw];
		x->p = q[i].p;
		x->old = old;
		x->val = val;
		nw++;
	}
	r = plan_side_effects(cli, t, w, &nw, nq, mname, lname, kept);
	if (r)
		goto out;
	/*
	 * Unchanged values are not written (fewer writes, fewer to undo),
	 * unless an earlier write resets them.
	 */
	for (size_t i = 0; i < nw; i++) {
		bool reset = false;

		for (size_t j = 0; j < nt && !reset; j++) {
			uint64_t sv;

			reset = mlx_dcqcn_side_effect(todo[j].p, t->dp.layout, &sv) == w[i].p &&
				sv != w[i].val;
		}
		if (w[i].old != w[i].val || reset)
			todo[nt++] = w[i];
	}
	if (!dry) {
		/* Written, then read back: on success each value reads as written. */
		e = mlx_dcqcn_write_all(cli->ctx, &t->dp, todo, nt, &failed, &rerr);
		if (e < 0) {
			const struct mlx_dcqcn_write *f = &todo[failed];
			char why[160];

			r = cli_exit_code(e) == EXIT_PERM ? EXIT_PERM : EXIT_FAIL;
			if (f->check == -ERANGE)
				snprintf(why, sizeof(why), "it reads back %" PRIu64 " after writing %"
					 PRIu64, f->now, f->val);
			else if (f->check < 0)
				snprintf(why, sizeof(why), "it was written but cannot be read back: %s",
					 strerror(-e));
			else
				snprintf(why, sizeof(why), "%s", strerror(-e));
			if (!rerr)
				cli_error(cli, "cannot set %s on %s ('%s'): %s; %snothing was changed",
					  f->what, t->name, f->path, why,
					  failed || f->check ? "the values written were put back: " : "");
			else
				cli_error(cli, "cannot set %s on %s ('%s'): %s; putting back the "
					  "value(s) written failed too (%s): check with "
					  "'mlxcli qosconfig dcqcn get -d %s'", f->what, t->name,
					  f->path, why, strerror(-rerr), t->name);
			if (r == EXIT_PERM)
				cli_hint(cli, "changing DCQCN needs root");
			goto out;
		}
	}
	render_changes(cli, t, w, nw, mname, lname, kept, dry);
out:
	if (lockfd >= 0)
		close(lockfd);
	free(todo);
	free(w);
	return r;
}

/* Validate NAME VALUE; 0 or an exit code (the message is out). */
static int parse_pair(struct cli *cli, const char *name, const char *text, struct req *q)
{
	enum mlx_dcqcn_side side;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_find(name, &side);
	char range[96];
	size_t np;
	int r;

	if (!p) {
		cli_error(cli, "unknown DCQCN parameter '%s'", name);
		dcqcn_suggest(cli, name);
		return EXIT_USAGE;
	}
	dcqcn_range_str(p, range, sizeof(range));
	r = mlx_dcqcn_parse(p, text, &q->val);
	if (r == -EINVAL) {
		cli_error(cli, "invalid value '%s' for %s: expected a number (decimal or 0x hex) "
			  "in the range %s", text, dcqcn_label(p), range);
		return EXIT_USAGE;
	}
	if (r < 0) {
		cli_error(cli, "cannot set %s: value %s is outside the range %s", dcqcn_label(p),
			  text, range);
		return EXIT_USAGE;
	}
	q->p = p;
	q->idx = (size_t)(p - mlx_dcqcn_params(&np));
	q->side = side;
	return EXIT_OK;
}

int cmd_dcqcn_set(struct cli *cli, int argc, char **argv)
{
	struct req q[MAXP * 2];
	struct target *t = NULL;
	size_t nq = 0;
	int r;

	if (argc % 2) {
		cli_error(cli, "'mlxcli %s' takes NAME VALUE pairs: '%s' has no value", cli->path,
			  argv[argc - 1]);
		return EXIT_USAGE;
	}
	/* Every value is checked before the device is even looked at. */
	for (int i = 0; i < argc; i += 2) {
		struct req one;

		r = parse_pair(cli, argv[i], argv[i + 1], &one);
		if (r)
			return r;
		for (size_t k = 0; k < nq; k++)
			if (q[k].p == one.p && (q[k].side & one.side)) {
				cli_error(cli, "%s is given twice", dcqcn_label(one.p));
				return EXIT_USAGE;
			}
		if (one.side == MLX_DCQCN_BOTH) {
			/* DcqcnEnablePrio<N> drives both roles, as -Enable does. */
			one.side = MLX_DCQCN_RP;
			q[nq++] = one;
			one.side = MLX_DCQCN_NP;
		}
		if (nq >= MAXP * 2 - 1) {
			cli_error(cli, "too many values");
			return EXIT_USAGE;
		}
		q[nq++] = one;
	}
	r = write_target(cli, &t);
	if (r)
		return r;
	r = apply(cli, t, q, nq);
	free(t);
	return r;
}

static int dcqcn_enable(struct cli *cli, int argc, char **argv, uint64_t on)
{
	bool rp = cli_opt(cli, "rp") != NULL, np = cli_opt(cli, "np") != NULL;
	struct req q[16];
	struct target *t = NULL;
	size_t n, nq = 0;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);
	uint64_t prio = 8;
	int r;

	if (argc && strcmp(argv[0], "all")) {
		if (mlx_parse_u64(argv[0], &prio) < 0 || prio > 7) {
			cli_error(cli, "invalid priority '%s': expected 0-7, or nothing (or 'all') for "
				  "every priority", argv[0]);
			return EXIT_USAGE;
		}
	}
	if (!rp && !np)
		rp = np = true;
	r = write_target(cli, &t);
	if (r)
		return r;
	if (t->dp.layout != MLX_DCQCN_OFED) {
		cli_error(cli, "cannot %s DCQCN on %s: %s", on ? "enable" : "disable", t->name,
			  upstream_enable_why);
		free(t);
		return EXIT_NOTSUP;
	}
	for (size_t i = 0; i < n; i++) {
		if (p[i].prio < 0 || (prio < 8 && (uint64_t)p[i].prio != prio))
			continue;
		for (int s = 0; s < 2; s++) {
			if (!(s ? np : rp))
				continue;
			q[nq].p = &p[i];
			q[nq].idx = i;
			q[nq].side = idx_side(s);
			q[nq].val = on;
			nq++;
		}
	}
	r = apply(cli, t, q, nq);
	free(t);
	return r;
}

int cmd_dcqcn_enable(struct cli *cli, int argc, char **argv)
{
	return dcqcn_enable(cli, argc, argv, 1);
}

int cmd_dcqcn_disable(struct cli *cli, int argc, char **argv)
{
	return dcqcn_enable(cli, argc, argv, 0);
}

/*
 * Write the firmware's factory defaults.  The per-priority enables are
 * left alone (which priorities carry RoCE is a traffic decision); parameters
 * the layout lacks, or without a known factory value (DcqcnCnpPrioMode), are
 * skipped.
 */
int cmd_dcqcn_restore(struct cli *cli, int argc, char **argv)
{
	struct req q[MAXP];
	struct target *t = NULL;
	size_t n, nq = 0;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);
	char path[200];
	int r;

	(void)argc;
	(void)argv;
	r = write_target(cli, &t);
	if (r)
		return r;
	for (size_t i = 0; i < n && nq < MAXP; i++) {
		if (p[i].prio >= 0 || !p[i].has_default ||
		    mlx_dcqcn_path(&t->dp, &p[i], p[i].side, path, sizeof(path)) < 0)
			continue;
		q[nq].p = &p[i];
		q[nq].idx = i;
		q[nq].side = p[i].side;
		q[nq].val = p[i].def;
		nq++;
	}
	if (out_is_json(cli->out))
		dcqcn_out_defaults_source(cli->out, t->fn);
	r = apply(cli, t, q, nq);
	free(t);
	return r;
}
