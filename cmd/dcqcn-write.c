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
#include "txn.h"
#include "write.h"

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

/* The layout's rules first: nothing is read or locked for a parameter it
 * cannot take (lib's one check, here in the verbs' words). */
static int check_writable(struct cli *cli, const struct target *t, const struct mlx_dcqcn_settings *d)
{
	size_t n;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < n && i < MLX_DCQCN_MAXP; i++) {
			bool wanted = p[i].prio >= 0 ? d->side[s].en[p[i].prio] == MLX_SET
						     : d->side[s].h[i] == MLX_SET;

			if (!wanted || mlx_dcqcn_writable(cli->ctx, &t->dp, &p[i], idx_side(s)) == 0)
				continue;
			cli_error(cli, "cannot set %s on %s: %s", dcqcn_label(&p[i]), t->name,
				  mlx_errmsg(cli->ctx));
			return EXIT_NOTSUP;
		}
	return EXIT_OK;
}

/*
 * The DCQCN part of @want on the one target: one step of a transaction
 * (the device lock, the old values, lib's DCQCN plan: table order,
 * line-rate clamp, values a write resets; all or nothing, read back), or
 * with --dry-run what would change; then what the plan's flags say.
 */
static int apply(struct cli *cli, struct target *t, const struct mlx_port_settings *want)
{
	struct mlx_port_ref ref;
	struct mlx_txn_step st;
	struct mlx_txn *txn;
	const struct mlx_dcqcn_writer *w;
	size_t np;
	const struct mlx_dcqcn_param *tab = mlx_dcqcn_params(&np);
	int r;

	r = check_writable(cli, t, &want->dcqcn);
	if (r)
		return r;
	if (out_is_json(cli->out)) {
		out_str(cli->out, "netdev", NULL, t->port ? t->port->ifname : NULL);
		out_str(cli->out, "pci_address", NULL, t->fn->bdf);
		out_str(cli->out, "layout", NULL, mlx_dcqcn_layout_name(t->dp.layout));
	}
	mlx_port_ref_init(&ref, t->fn, t->port, NULL);
	r = cli_write_step(cli, MLX_SUB_DCQCN, &ref, want, 0, &txn);
	if (r)
		return r;
	mlx_txn_step(txn, 0, &st);
	w = st.writer;
	/* The plan's findings that need the user's eye (the unknown speed once
	 * per port, not once per line-rate value). */
	for (size_t i = 0; i < st.plan->n; i++) {
		const struct mlx_change *c = &st.plan->c[i];
		const struct mlx_dcqcn_param *p = &tab[c->id];

		if (c->flags & MLX_CHG_CLAMPED)
			cli_warn(cli, "%s %" PRIu64 " is above the line rate of %s (%" PRId64 " Mb/s): "
				 "setting %" PRIu64 " instead", dcqcn_label(p),
				 want->dcqcn.side[mlx_dcqcn_side_index((enum mlx_dcqcn_side)c->arg)].v[c->id],
				 t->name, w->speed_mbps, c->new.u);
	}
	if (w->speed_unknown)
		cli_warn(cli, "the line rate of %s is unknown (link down): line-rate values are "
			 "not clamped to it", t->name);
	for (size_t i = 0; i < st.plan->n; i++)
		if (st.plan->c[i].flags & MLX_CHG_DISABLES)
			cli_warn(cli, "%s at the line rate disables congestion control",
				 st.plan->c[i].label[0] ? st.plan->c[i].label : st.plan->c[i].setting);
	if (!cli->dry_run && !out_is_json(cli->out))
		fprintf(cli->out_fp, "%s\n", TRAILER);
	mlx_txn_free(txn);
	return EXIT_OK;
}

/* Validate NAME VALUE into @want; 0 or an exit code (the message is out). */
static int parse_pair(struct cli *cli, const char *name, const char *text,
		      struct mlx_port_settings *want)
{
	enum mlx_dcqcn_side side;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_find(name, &side);
	char range[96];
	uint64_t v;
	int r;

	if (!p) {
		cli_error(cli, "unknown DCQCN parameter '%s'", name);
		dcqcn_suggest(cli, name);
		return EXIT_USAGE;
	}
	dcqcn_range_str(p, range, sizeof(range));
	r = mlx_dcqcn_parse(p, text, &v);
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
	/* DcqcnEnablePrio<N> drives both roles, as -Enable does */
	if (mlx_dcqcn_put(cli->ctx, &want->dcqcn, p, side, v) < 0) {
		cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* A desired state with its dcqcn part to fill, and the target. */
static int run(struct cli *cli, struct mlx_port_settings *want, int r)
{
	struct target *t = NULL;

	if (r == EXIT_OK)
		r = write_target(cli, &t);
	if (r == EXIT_OK)
		r = apply(cli, t, want);
	free(t);
	mlx_port_settings_free(want);
	return r;
}

static struct mlx_port_settings *want_new(struct cli *cli)
{
	struct mlx_port_settings *w = mlx_port_settings_new();

	if (!w)
		cli_error(cli, "out of memory");
	return w;
}

int cmd_dcqcn_set(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *w;
	int r = EXIT_OK;

	if (argc % 2) {
		cli_error(cli, "'mlxcli %s' takes NAME VALUE pairs: '%s' has no value", cli->path,
			  argv[argc - 1]);
		return EXIT_USAGE;
	}
	if (!(w = want_new(cli)))
		return EXIT_FAIL;
	/* Every value is checked before the device is even looked at. */
	for (int i = 0; i < argc && r == EXIT_OK; i += 2)
		r = parse_pair(cli, argv[i], argv[i + 1], w);
	if (r) {
		mlx_port_settings_free(w);
		return r;
	}
	return run(cli, w, r);
}

static int dcqcn_enable(struct cli *cli, int argc, char **argv, bool on)
{
	bool rp = cli_opt(cli, "rp") != NULL, np = cli_opt(cli, "np") != NULL;
	struct mlx_port_settings *w;
	uint64_t prio = 8;

	if (argc && strcmp(argv[0], "all")) {
		if (mlx_parse_u64(argv[0], &prio) < 0 || prio > 7) {
			cli_error(cli, "invalid priority '%s': expected 0-7, or nothing (or 'all') for "
				  "every priority", argv[0]);
			return EXIT_USAGE;
		}
	}
	if (!rp && !np)
		rp = np = true;
	if (!(w = want_new(cli)))
		return EXIT_FAIL;
	for (unsigned p = 0; p < 8; p++) {
		if (prio < 8 && p != prio)
			continue;
		if (rp)
			mlx_dcqcn_put_enable(cli->ctx, &w->dcqcn, MLX_DCQCN_RP, p, on);
		if (np)
			mlx_dcqcn_put_enable(cli->ctx, &w->dcqcn, MLX_DCQCN_NP, p, on);
	}
	return run(cli, w, EXIT_OK);
}

int cmd_dcqcn_enable(struct cli *cli, int argc, char **argv)
{
	return dcqcn_enable(cli, argc, argv, true);
}

int cmd_dcqcn_disable(struct cli *cli, int argc, char **argv)
{
	return dcqcn_enable(cli, argc, argv, false);
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
	struct kept k[MLX_DCQCN_MAXP * 2];
	struct mlx_port_settings *w;
	struct target *t = NULL;
	size_t n, nk = 0;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);
	char path[200], label[64];
	int r;

	(void)argc;
	(void)argv;
	r = write_target(cli, &t);
	if (r)
		return r;
	if (!(w = want_new(cli))) {
		free(t);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		if (p[i].prio >= 0) {
			/* RP and NP each, as -Get shows them */
			for (int sd = 0; sd < 2; sd++) {
				enum mlx_dcqcn_side side = idx_side(sd);

				if (t->dp.layout != MLX_DCQCN_OFED) {
					if (!enables_said)
						keep(k, &nk, MLX_DCQCN_MAXP * 2, "per-priority enables",
						     no_enables);
					enables_said = true;
					continue;
				}
				if (keep_en) {
					mlx_dcqcn_name(&p[i], side, t->dp.layout, MLX_DCQCN_MLX5CMD,
						       label, sizeof(label));
					keep(k, &nk, MLX_DCQCN_MAXP * 2, label, asked);
					continue;
				}
				mlx_dcqcn_put_enable(cli->ctx, &w->dcqcn, side, (unsigned)p[i].prio,
						     p[i].def != 0);
			}
			continue;
		}
		/* a parameter the layout lacks shows as n/a: nothing to keep */
		if (mlx_dcqcn_path(&t->dp, &p[i], p[i].side, path, sizeof(path)) < 0)
			continue;
		if (!p[i].has_default) {
			keep(k, &nk, MLX_DCQCN_MAXP * 2, dcqcn_label(&p[i]), no_value);
			continue;
		}
		mlx_dcqcn_put(cli->ctx, &w->dcqcn, &p[i], p[i].side, p[i].def);
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
	r = apply(cli, t, w);
	free(t);
	mlx_port_settings_free(w);
	return r;
}
