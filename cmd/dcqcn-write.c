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
#include "write.h"

/* One requested value. */
struct req {
	const struct mlx_dcqcn_param *p;
	size_t idx;                       /* in the table */
	enum mlx_dcqcn_side side;
	uint64_t val;
};

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

/*
 * Apply the requests to the one target: check them against the layout,
 * then run them through the write engine (lock, read the old values, the
 * DCQCN plan of lib/dcqcn: table order, line-rate clamp, values a write
 * resets; write all or nothing, read back), or with --dry-run show what
 * would change.
 */
static int apply(struct cli *cli, struct target *t, struct req *q, size_t nq)
{
	struct mlx_dcqcn_writer w = {
		.dp = &t->dp, .speed_mbps = t->port ? t->port->speed_mbps : -1,
	};
	struct mlx_write_result res;
	struct mlx_plan pl = { 0 };
	int r = EXIT_OK;

	for (size_t i = 0; i < nq; i++) {
		/* The layout's rules first: nothing is read or locked for a
		 * parameter it cannot take. */
		if (mlx_dcqcn_writable(cli->ctx, &t->dp, q[i].p, q[i].side) < 0) {
			cli_error(cli, "cannot set %s on %s: %s", dcqcn_label(q[i].p), t->name,
				  mlx_errmsg(cli->ctx));
			r = EXIT_NOTSUP;
			goto out;
		}
		if (mlx_dcqcn_plan_add(&pl, q[i].p, q[i].side, t->dp.layout, q[i].val) < 0) {
			cli_error(cli, "out of memory");
			r = EXIT_FAIL;
			goto out;
		}
	}
	if (out_is_json(cli->out)) {
		out_str(cli->out, "netdev", NULL, t->port ? t->port->ifname : NULL);
		out_str(cli->out, "pci_address", NULL, t->fn->bdf);
		out_str(cli->out, "layout", NULL, mlx_dcqcn_layout_name(t->dp.layout));
	}
	r = cli_write(cli, &mlx_dcqcn_write_ops, &w, t->fn->bdf, t->name, &pl, &res);
	if (r)
		goto out;
	/* The plan's notes that need the user's eye (the unknown speed once
	 * per port, not once per line-rate value). */
	for (size_t i = 0; w.clamped && i < pl.n; i++)
		for (size_t k = 0; k < nq; k++)
			if (q[k].idx == (size_t)pl.c[i].id && (int)q[k].side == pl.c[i].arg &&
			    q[k].val != pl.c[i].new.u)
				cli_warn(cli, "%s %" PRIu64 " is above the line rate of %s (%" PRId64
					 " Mb/s): setting %" PRIu64 " instead", dcqcn_label(q[k].p),
					 q[k].val, t->name, w.speed_mbps, pl.c[i].new.u);
	if (w.speed_unknown)
		cli_warn(cli, "the line rate of %s is unknown (link down): line-rate values are "
			 "not clamped to it", t->name);
	for (size_t i = 0; i < pl.n; i++)
		if (pl.c[i].note && strstr(pl.c[i].note, "congestion control is off"))
			cli_warn(cli, "%s at the line rate disables congestion control",
				 pl.c[i].label[0] ? pl.c[i].label : pl.c[i].setting);
	if (!cli->dry_run && !out_is_json(cli->out))
		fprintf(cli->out_fp, "%s\n", TRAILER);
out:
	mlx_plan_free(&pl);
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
	for (size_t i = 0; i < n; i++)
		if (p[i].prio >= 0 && mlx_dcqcn_writable(cli->ctx, &t->dp, &p[i], p[i].side) < 0) {
			cli_error(cli, "cannot %s DCQCN on %s: %s", on ? "enable" : "disable", t->name,
				  mlx_errmsg(cli->ctx));
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
 * Write the firmware's factory defaults: every setting `get` shows with a
 * value, the per-priority enables included (issue 25: after `disable 3`,
 * restore kept priority 3 off while `defaults` shows it on).  What it does
 * not write is said, with why, on stderr and in JSON "kept": a parameter
 * without a known factory value (DcqcnCnpPrioMode), the enables where the
 * layout has none (upstream: the firmware's ROCE_CC_PRIO_MASK decides) or
 * with --keep-enables (which priorities carry RoCE is a traffic decision).
 */
struct kept {
	char setting[48];
	const char *why;
};

static void keep(struct kept *k, size_t *nk, size_t max, const char *setting, const char *why)
{
	if (*nk < max) {
		snprintf(k[*nk].setting, sizeof(k[*nk].setting), "%s", setting);
		k[(*nk)++].why = why;
	}
}

int cmd_dcqcn_restore(struct cli *cli, int argc, char **argv)
{
	static const char no_value[] = "its factory value is not known (mlxconfig's "
				       "NV_ROCE_CC_ECN has none)";
	static const char no_enables[] = "not exposed upstream (debugfs cc_params has none): the "
					 "firmware's ROCE_CC_PRIO_MASK decides (mlxconfig)";
	static const char asked[] = "--keep-enables: which priorities carry RoCE stays as it is";
	bool keep_en = cli_opt(cli, "keep-enables") != NULL, enables_said = false;
	struct req q[MAXP * 2];
	struct kept k[MAXP * 2];
	struct target *t = NULL;
	size_t n, nq = 0, nk = 0;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);
	char path[200], label[64];
	int r;

	(void)argc;
	(void)argv;
	r = write_target(cli, &t);
	if (r)
		return r;
	for (size_t i = 0; i < n && nq < MAXP * 2 - 1; i++) {
		if (p[i].prio >= 0) {
			/* RP and NP each, as -Get shows them */
			for (int sd = 0; sd < 2; sd++) {
				enum mlx_dcqcn_side side = idx_side(sd);

				if (t->dp.layout != MLX_DCQCN_OFED) {
					if (!enables_said)
						keep(k, &nk, MAXP * 2, "per-priority enables", no_enables);
					enables_said = true;
					continue;
				}
				if (keep_en) {
					mlx_dcqcn_name(&p[i], side, t->dp.layout, MLX_DCQCN_MLX5CMD,
						       label, sizeof(label));
					keep(k, &nk, MAXP * 2, label, asked);
					continue;
				}
				q[nq].p = &p[i];
				q[nq].idx = i;
				q[nq].side = side;
				q[nq].val = p[i].def;
				nq++;
			}
			continue;
		}
		/* a parameter the layout lacks shows as n/a: nothing to keep */
		if (mlx_dcqcn_path(&t->dp, &p[i], p[i].side, path, sizeof(path)) < 0)
			continue;
		if (!p[i].has_default) {
			keep(k, &nk, MAXP * 2, dcqcn_label(&p[i]), no_value);
			continue;
		}
		q[nq].p = &p[i];
		q[nq].idx = i;
		q[nq].side = p[i].side;
		q[nq].val = p[i].def;
		nq++;
	}
	if (out_is_json(cli->out))
		dcqcn_out_defaults_source(cli->out, t->fn);
	out_list_begin(cli->out, "kept", NULL);
	for (size_t i = 0; i < nk; i++) {
		out_obj_begin(cli->out, NULL, NULL);
		out_fmt_str(cli->out, OUT_JSON, "setting", NULL, k[i].setting);
		out_fmt_str(cli->out, OUT_JSON, "reason", NULL, k[i].why);
		out_obj_end(cli->out);
	}
	out_list_end(cli->out);
	/* said once a reason (the 16 enables of --keep-enables are one line) */
	for (size_t i = 0; i < nk; i++)
		if (!i || k[i].why != k[i - 1].why)
			cli_warn(cli, "restore keeps %s: %s", k[i].why == asked ?
				 "the per-priority enables (--keep-enables)" : k[i].setting,
				 k[i].why == asked ? "they stay as they are" : k[i].why);
	r = apply(cli, t, q, nq);
	free(t);
	return r;
}
