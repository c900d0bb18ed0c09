/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli qosconfig dcqcn ...` and `mlxcli qosconfig default-untagged-priority
 * ...`: the Linux counterpart of `mlx5cmd -Qosconfig -Dcqcn` and
 * `-DefaultUntaggedPriority`.  The parameters, their names, ranges and
 * defaults are the table in lib/dcqcn/dcqcn.c; this file finds the ports and
 * renders get, defaults and describe; the writes are cmd/dcqcn-write.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dcqcn-cmd.h"
#include "dcqcn.h"

static const char *const names_choices[] = { "mlx5cmd", "linux", NULL };

void dcqcn_range_str(const struct mlx_dcqcn_param *p, char *buf, size_t len)
{
	if (p->line_rate)
		snprintf(buf, len, "%" PRIu64 " - line rate (at most %" PRIu64 ") %s", p->min,
			 p->max, p->unit);
	else if (!strcmp(p->unit, "bool"))
		snprintf(buf, len, "0 or 1");
	else
		snprintf(buf, len, "%" PRIu64 " - %" PRIu64 " %s", p->min, p->max, p->unit);
}

const char *dcqcn_label(const struct mlx_dcqcn_param *p)
{
	return p->mlx5cmd ? p->mlx5cmd : p->ofed;
}

/* ---- the targets: PF ports ---- */

int dcqcn_targets(struct cli *cli, struct target **out, size_t *n)
{
	struct mlx_function *sel = NULL;
	struct mlx_port *selp = NULL;
	struct mlx_devices *devs;
	struct target *t;
	size_t cap = 0, k = 0;
	int r;

	*out = NULL;
	*n = 0;
	r = cli_select(cli, &sel, &selp);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (sel && sel->role == MLX_FN_VF) {
		r = cli_need_pf(cli, sel);
		cli_hint(cli, "DCQCN is configured on the PF; the manual: \"RCM is supported only when "
			 "using a physical adapter\"");
		return r;
	}
	for (size_t i = 0; i < devs->nfn; i++)
		cap += devs->fn[i].nports ? devs->fn[i].nports : 1;
	t = calloc(cap ? cap : 1, sizeof(*t));
	if (!t) {
		cli_error(cli, "out of memory");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		if (!fn->nports) {
			t[k].fn = fn;
			t[k].name = fn->bdf;
			k++;
			continue;
		}
		for (size_t j = 0; j < fn->nports; j++) {
			if (selp && &fn->ports[j] != selp)
				continue;
			t[k].fn = fn;
			t[k].port = &fn->ports[j];
			t[k].name = fn->ports[j].ifname;
			k++;
		}
	}
	*out = t;
	*n = k;
	return EXIT_OK;
}

int dcqcn_open_target(struct cli *cli, struct target *t, bool quiet)
{
	int r = mlx_dcqcn_open(cli->ctx, t->fn, t->port, &t->dp);

	if (r < 0 && !quiet) {
		int code = cli_exit_code(r);

		cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		if (code == EXIT_PERM)
			cli_hint(cli, "run as root");
		return code;
	}
	return r < 0 ? cli_exit_code(r) : EXIT_OK;
}

/* Read every value of t into its model; returns the number read,
 * *first_err the first failure other than "this layout has no such file". */
static size_t read_values(struct cli *cli, struct target *t, int *first_err)
{
	size_t np, ok = 0;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&np);

	*first_err = 0;
	memset(&t->d, 0, sizeof(t->d));
	t->d.have = MLX_SET;
	t->d.layout = t->dp.layout;
	for (size_t i = 0; i < np && i < MAXP; i++) {
		for (int s = 0; s < 2; s++) {
			enum mlx_dcqcn_side side = p[i].side == MLX_DCQCN_BOTH ? idx_side(s) : p[i].side;
			struct mlx_dcqcn_side_settings *ss = &t->d.side[mlx_dcqcn_side_index(side)];
			uint64_t v = 0;
			int st = -ENOENT;

			t->src[i][s][0] = '\0';
			if (s && p[i].side != MLX_DCQCN_BOTH)
				continue;
			if (mlx_dcqcn_path(&t->dp, &p[i], side, t->src[i][s], sizeof(t->src[i][s])) == 0)
				st = mlx_dcqcn_read(cli->ctx, &t->dp, &p[i], side, &v);
			if (st == 0)
				ok++;
			else if (st != -ENOENT && !*first_err)
				*first_err = st;
			if (st == -ENOENT)
				t->src[i][s][0] = '\0';   /* probed, absent: older kernel */
			if (p[i].prio >= 0) {
				ss->en[p[i].prio] = st == 0 ? MLX_SET : MLX_NULL;
				ss->on[p[i].prio] = v != 0;
			} else if (i < MLX_DCQCN_MAXP) {
				ss->h[i] = st == 0 ? MLX_SET : MLX_NULL;
				ss->v[i] = v;
				ss->err[i] = st;
			}
		}
	}
	return ok;
}

/* The firmware's factory values, for `defaults`. */
static void default_values(struct target *t)
{
	size_t np;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&np);

	memset(&t->d, 0, sizeof(t->d));
	t->d.have = MLX_SET;
	t->d.layout = t->dp.layout;
	for (size_t i = 0; i < np && i < MAXP; i++)
		for (int s = 0; s < 2; s++) {
			struct mlx_dcqcn_side_settings *ss = &t->d.side[s];

			t->src[i][s][0] = '\0';
			if (p[i].prio >= 0) {
				ss->en[p[i].prio] = p[i].has_default ? MLX_SET : MLX_NULL;
				ss->on[p[i].prio] = p[i].def != 0;
			} else if (i < MLX_DCQCN_MAXP && mlx_dcqcn_side_index(p[i].side) == s) {
				ss->h[i] = p[i].has_default ? MLX_SET : MLX_NULL;
				ss->v[i] = p[i].def;
				ss->err[i] = p[i].has_default ? 0 : -ENOENT;
			}
		}
}

/* ---- rendering: the mlx5cmd -Get block, --names linux, JSON ---- */

/*
 * One value of get/defaults: in JSON @key (NULL in a list) is a number, or
 * a boolean for an enable (sysfs says 0 or 1); in text a "\tLABEL: VALUE"
 * line of the -Get block, "n/a" when unread.  An empty @label (no such
 * file under these names) is JSON only.
 */
static void value_field(struct out *o, const char *key, const char *label, uint8_t have,
			uint64_t v, bool as_bool)
{
	bool text = label[0] != '\0';

	if (text)
		out_printf(o, "\t%s: ", label);
	if (have != MLX_SET) {
		out_fmt_null(o, OUT_JSON, key, NULL);
		if (text)
			out_fmt_str(o, OUT_TEXT, NULL, "%s\n", "n/a");
		return;
	}
	if (as_bool) {
		out_fmt_bool(o, OUT_JSON, key, NULL, v != 0);
		if (text)
			out_fmt_u64(o, OUT_TEXT, NULL, "%s\n", v);
		return;
	}
	out_fmt_u64(o, text ? OUT_ANY : OUT_JSON, key, "%s\n", v);
}

/*
 * One side (RP or NP) of a port's DCQCN settings: the one renderer of the
 * structure.  get and defaults (@x): the mlx5cmd -Get block (or the
 * Linux names), each value with its names, unit, file and factory default
 * in JSON; the table lists the per-priority enables first, so the text
 * has them at the top of the block as mlx5cmd -Get does, and the JSON in
 * the "enable" list.  state (@x NULL): the enables as one line, each
 * parameter "dcqcn.rp.NAME = value" by its MLNX_OFED file name first (the
 * same name on both layouts, so a state applies and diffs across them).
 */
void dcqcn_out_side(struct out *o, const struct mlx_dcqcn_settings *d, enum mlx_dcqcn_side side,
		    const struct dcqcn_show *x)
{
	int s = mlx_dcqcn_side_index(side);
	const struct mlx_dcqcn_side_settings *ss = &d->side[s];
	enum mlx_dcqcn_style style = x && x->linux_names ? MLX_DCQCN_FILE : MLX_DCQCN_MLX5CMD;
	enum mlx_dcqcn_layout l = x ? x->t->dp.layout : MLX_DCQCN_NONE;
	const char *pfx = s ? "dcqcn.np" : "dcqcn.rp";
	size_t np;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&np);
	char label[64], dir[200], fmt[128];
	bool any = false;
	int k = 0;

	out_obj_begin(o, s ? "np" : "rp", NULL);
	if (x)
		out_printf(o, "DCQCN %s attributes for adapter \"%s\":\n", s ? "NP" : "RP", x->t->name);
	else
		out_printf(o, "  %s.enable =", pfx);
	out_list_begin(o, "enable", NULL);
	for (size_t i = 0; i < np; i++) {
		int pr = p[i].prio;

		if (pr < 0)
			continue;
		if (x) {
			mlx_dcqcn_name(&p[i], side, l, style, label, sizeof(label));
			value_field(o, NULL, label, ss->en[pr], ss->on[pr], true);
		} else if (ss->en[pr] == MLX_SET) {
			out_fmt_bool(o, OUT_ANY, NULL, k ? ",%s" : " %s", ss->on[pr]);
		} else {
			out_fmt_null(o, OUT_ANY, NULL, k ? ",%s" : " %s");
		}
		any = any || ss->en[pr] == MLX_SET;
		k++;
	}
	out_list_end(o);
	if (!x)
		out_printf(o, "\n");
	else
		out_str(o, "enable_source", NULL, any && !x->is_defaults &&
			mlx_dcqcn_enable_dir(&x->t->dp, side, dir, sizeof(dir)) == 0 ? dir : NULL);
	out_list_begin(o, "parameters", NULL);
	for (size_t i = 0; i < np && i < MLX_DCQCN_MAXP; i++) {
		if (p[i].prio >= 0 || p[i].side != side)
			continue;
		out_obj_begin(o, NULL, NULL);
		if (!x) {
			mlx_dcqcn_name(&p[i], side, MLX_DCQCN_NONE, MLX_DCQCN_FILE, label, sizeof(label));
			out_fmt_str(o, OUT_JSON, "name", NULL, label);
			snprintf(fmt, sizeof(fmt), "  %s.%s = %%s\n", pfx, label);
			if (ss->h[i] == MLX_SET)
				out_fmt_u64(o, OUT_ANY, "value", fmt, ss->v[i]);
			else
				out_fmt_null(o, OUT_ANY, "value", fmt);
			out_obj_end(o);
			continue;
		}
		out_str(o, "mlx5cmd_name", NULL, p[i].mlx5cmd);
		out_str(o, "linux_name", NULL,
			l == MLX_DCQCN_NONE ? mlx_dcqcn_file(&p[i], MLX_DCQCN_OFED) :
			l == MLX_DCQCN_OFED ? p[i].ofed : p[i].debugfs);
		mlx_dcqcn_name(&p[i], side, l, style, label, sizeof(label));
		/* a parameter the manual lacks (rpg_max_rate, min_time_between_cnps)
		 * has no -Get name: its line has the file's (issue 25: the text
		 * hid them while the JSON had them) */
		if (!label[0])
			mlx_dcqcn_name(&p[i], side, l, MLX_DCQCN_FILE, label, sizeof(label));
		value_field(o, "value", label, ss->h[i], ss->v[i], false);
		out_str(o, "unit", NULL, p[i].unit);
		out_str(o, "source", NULL, x->t->src[i][0][0] ? x->t->src[i][0] : NULL);
		if (!x->is_defaults) {
			if (p[i].has_default)
				out_u64(o, "default", NULL, p[i].def);
			else
				out_null(o, "default", NULL);
		}
		out_obj_end(o);
	}
	out_list_end(o);
	out_obj_end(o);
}

void dcqcn_out_defaults_source(struct out *o, const struct mlx_function *fn)
{
	struct mlx_dcqcn_defaults d;

	mlx_dcqcn_defaults(fn, &d);
	out_str(o, "default_source", NULL, d.source);
	out_str(o, "default_family", NULL, d.family);
	out_bool(o, "default_family_captured", NULL, d.captured_family);
}

static void render_target(struct out *o, const struct target *t, bool linux_names,
			  bool is_defaults, bool last)
{
	out_obj_begin(o, NULL, NULL);
	out_str(o, "netdev", NULL, t->port ? t->port->ifname : NULL);
	out_str(o, "pci_address", NULL, t->fn->bdf);
	if (!is_defaults)
		out_str(o, "layout", NULL, mlx_dcqcn_layout_name(t->dp.layout));
	if (t->port && t->port->speed_mbps > 0)
		out_s64(o, "speed_mbps", NULL, t->port->speed_mbps);
	else
		out_null(o, "speed_mbps", NULL);
	dcqcn_out_defaults_source(o, t->fn);
	if (is_defaults) {
		/* text: what the JSON's default_* keys say */
		struct mlx_dcqcn_defaults d;

		mlx_dcqcn_defaults(t->fn, &d);
		out_printf(o, "Factory defaults (%s)%s%s%s:\n", d.source,
			   d.captured_family ? "" : "; assumed the same on ",
			   d.captured_family ? "" : t->fn->id ? t->fn->id->product : "this device",
			   d.captured_family ? "" : ", no capture of its family");
	}
	{
		struct dcqcn_show x = { t, linux_names, is_defaults };

		dcqcn_out_side(o, &t->d, MLX_DCQCN_RP, &x);
		out_printf(o, "\n");
		dcqcn_out_side(o, &t->d, MLX_DCQCN_NP, &x);
	}
	if (!last)
		out_printf(o, "\n");
	out_obj_end(o);
}

static int cmd_dcqcn_show(struct cli *cli, bool is_defaults)
{
	struct target *t = NULL;
	const char *names = cli_opt(cli, "names");
	bool linux_names = names && !strcmp(names, "linux");
	size_t n = 0, shown = 0;
	int r, worst = EXIT_OK;
	bool *ok = NULL;

	r = dcqcn_targets(cli, &t, &n);
	if (r)
		goto out;
	if (!n) {
		if (!cli->devs.nfn)
			cli_say_no_devices(cli, &cli->devs);
		else
			cli_warn(cli, "no ConnectX physical function found on this system");
		out_list_begin(cli->out, "ports", NULL);
		out_list_end(cli->out);
		goto out;
	}
	ok = calloc(n, sizeof(*ok));
	if (!ok) {
		r = EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		int first = 0;

		if (is_defaults) {
			/* The defaults need no device files; the layout only
			 * picks the Linux names. */
			if (dcqcn_open_target(cli, &t[i], true))
				t[i].dp.layout = MLX_DCQCN_NONE;
			default_values(&t[i]);
			ok[i] = true;
			continue;
		}
		r = dcqcn_open_target(cli, &t[i], false);
		if (r) {
			if (worst == EXIT_OK || r == EXIT_PERM)
				worst = r;
			continue;
		}
		if (read_values(cli, &t[i], &first) == 0) {
			/* Never an empty table: nothing readable is an error. */
			cli_error(cli, "cannot read the DCQCN parameters of %s in %s: %s", t[i].name,
				  t[i].dp.dir[0], strerror(first ? -first : ENOENT));
			r = cli_exit_code(first ? first : -EOPNOTSUPP);
			if (r == EXIT_PERM)
				cli_hint(cli, "the %s files are readable by root only: run as root",
					 mlx_dcqcn_layout_name(t[i].dp.layout));
			if (worst == EXIT_OK || r == EXIT_PERM)
				worst = r;
			continue;
		}
		if (first)
			cli_warn(cli, "some DCQCN parameters of %s could not be read (%s); they show "
				 "as n/a", t[i].name, strerror(-first));
		ok[i] = true;
	}
	for (size_t i = 0; i < n; i++)
		shown += ok[i];
	if (!shown) {
		r = worst;
		goto out;
	}
	out_list_begin(cli->out, "ports", NULL);
	for (size_t i = 0, k = 0; i < n; i++)
		if (ok[i])
			render_target(cli->out, &t[i], linux_names, is_defaults, ++k == shown);
	out_list_end(cli->out);
	out_printf(cli->out, "%s\n", TRAILER);
	/* Some ports shown, others failed: the data is out, but say so. */
	r = shown < n ? worst : EXIT_OK;
out:
	free(ok);
	free(t);
	return r;
}

static int cmd_dcqcn_get(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_dcqcn_show(cli, false);
}

static int cmd_dcqcn_defaults(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_dcqcn_show(cli, true);
}

/* "did you mean": every name the table knows. */
void dcqcn_suggest(struct cli *cli, const char *word)
{
	const char *cands[MAXP * 3], *s;
	size_t np, nc = 0;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&np);

	for (size_t i = 0; i < np; i++) {
		if (p[i].mlx5cmd)
			cands[nc++] = p[i].mlx5cmd;
		if (p[i].ofed && p[i].prio < 0)
			cands[nc++] = p[i].ofed;
		if (p[i].debugfs)
			cands[nc++] = p[i].debugfs;
	}
	s = cli_suggest(mlx_dcqcn_strip_dash(word), cands, nc);
	if (s)
		cli_hint(cli, "did you mean '%s'?", s);
	cli_hint(cli, "'mlxcli qosconfig dcqcn describe' lists the parameters");
}

/* ---- describe ---- */

/* The RP/NP algorithm, after the manual's "RCM" section. */
static const char *const algo_np[] = {
	"the notification point (NP, the receiver) answers RoCEv2 packets marked ECN-CE by a "
	"congestion point (a switch) with congestion notification packets (CNPs) to the sender",
	"a CNP carries DSCP DcqcnCnpDscp and 802.1p priority DcqcnCnp802pPrio, or, when "
	"DcqcnCnpPrioMode is 1, the priority of the marked packet",
	NULL,
};

static const char *const algo_rp[] = {
	"the reaction point (RP, the sender) keeps per QP a current rate CR, a target rate TR "
	"and alpha, the estimated congestion (a fraction of 1024)",
	"alpha: the first CNP of a flow uses DcqcnInitialAlphaValue; every DcqcnDceTcpRtt usec, "
	"alpha = (1 - g) * alpha + g if a CNP arrived, else alpha = (1 - g) * alpha, with "
	"g = DcqcnDceTcpG / 1024",
	"decrease: the first CNP sets CR to DcqcnRateToSetOnFirstCnp; then at most once every "
	"DcqcnRateReduceMonitorPeriod usec CR becomes the larger of CR * (1 - alpha / "
	"2^DcqcnAlphaToRateShift) and CR / DcqcnRpgMinDecFac, never below DcqcnRpgMinRate; "
	"TR takes the previous CR (always when DcqcnClampTgtRate is 1; after a timer increase "
	"when DcqcnClampTgtRateAfterTimeInc is 1)",
	"increase: a timer (every DcqcnRpgTimeReset usec) and a byte counter (every "
	"DcqcnRpgByteReset x 64 bytes) count stages; with Th = DcqcnRpgThreshold: fast "
	"recovery while max(stages) < Th (TR unchanged), additive increase while max > Th "
	"and min < Th (TR += DcqcnRpgAiRate), hyper additive increase while both > Th "
	"(TR += DcqcnRpgHaiRate)",
	NULL,
};

static const char *const warning_text =
	"Changing the values of the parameters may strongly affect the congestion control "
	"efficiency. Please make sure you fully understand the parameter usage, value and "
	"expected results before changing its default value.";

static void describe_one(struct out *o, const struct mlx_dcqcn_param *p)
{
	char range[96], buf[160];
	const char *side = p->side == MLX_DCQCN_BOTH ? "rp+np" : p->side == MLX_DCQCN_RP ? "rp" : "np";

	dcqcn_range_str(p, range, sizeof(range));
	mlx_dcqcn_where(p, buf, sizeof(buf));
	out_obj_begin(o, NULL, NULL);
	out_fmt_str(o, OUT_TEXT, NULL, "%s", dcqcn_label(p));
	out_str(o, "mlx5cmd_name", NULL, p->mlx5cmd);
	out_fmt_str(o, OUT_ANY, "side", " (%s)\n", side);
	if (p->prio >= 0)
		out_u64(o, "priority", NULL, (uint64_t)p->prio);
	out_str(o, "ofed_name", NULL, p->ofed);
	out_str(o, "debugfs_name", NULL, p->debugfs);
	out_fmt_str(o, OUT_TEXT, NULL, "\tlinux: %s\n", buf);
	out_u64(o, "width", NULL, p->width);
	out_u64(o, "min", NULL, p->min);
	out_u64(o, "max", NULL, p->max);
	out_bool(o, "line_rate", NULL, p->line_rate);
	out_str(o, "unit", NULL, p->unit);
	out_printf(o, "\trange: %s%s\n", range,
		   p->line_rate ? "; above the port speed it is clamped to it" : "");
	if (p->has_default) {
		out_fmt_u64(o, OUT_ANY, "default", "\tdefault: %s (the firmware's factory value)\n",
			    p->def);
	} else {
		out_null(o, "default", NULL);
		out_printf(o, "\tdefault: n/a (no factory value known)\n");
	}
	if (p->has_example)
		out_fmt_u64(o, OUT_ANY, "manual_example", "\texample: %s (the WinOF-2 manual's -Get "
			    "sample, not a default)\n", p->example);
	else
		out_null(o, "manual_example", NULL);
	out_fmt_str(o, OUT_ANY, "description", "\t%s\n", p->desc);
	out_obj_end(o);
}

static void out_lines(struct out *o, const char *key, const char *title,
		      const char *const *lines)
{
	out_list_begin(o, key, NULL);
	out_printf(o, "%s:\n", title);
	for (size_t i = 0; lines[i]; i++)
		out_fmt_str(o, OUT_ANY, NULL, "  - %s\n", lines[i]);
	out_list_end(o);
}

static int cmd_dcqcn_describe(struct cli *cli, int argc, char **argv)
{
	struct out *o = cli->out;
	size_t n;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n), *one = NULL;

	if (argc) {
		one = mlx_dcqcn_find(argv[0], NULL);
		if (!one) {
			cli_error(cli, "unknown DCQCN parameter '%s'", argv[0]);
			dcqcn_suggest(cli, argv[0]);
			return EXIT_USAGE;
		}
	}
	out_list_begin(o, "parameters", NULL);
	for (size_t i = 0; i < n; i++) {
		if (one && &p[i] != one)
			continue;
		if (!one && i)
			out_printf(o, "\n");
		describe_one(o, &p[i]);
	}
	out_list_end(o);
	if (one)
		return EXIT_OK;
	out_printf(o, "\n");
	out_obj_begin(o, "algorithm", NULL);
	out_lines(o, "np_steps", "NP (notification point)", algo_np);
	out_lines(o, "rp_steps", "RP (reaction point)", algo_rp);
	out_obj_end(o);
	out_fmt_str(o, OUT_ANY, "warning", "\n%s\n", warning_text);
	return EXIT_OK;
}

/* ---- default-untagged-priority ---- */

/*
 * The port default priority would be the DCB APP "default priority" entry
 * (selector 1, protocol 0).  mlx5's dcbnl ieee_setapp accepts only DSCP
 * entries (selector 5) and returns -EINVAL for anything else (en_dcbnl.c),
 * and the driver has no other interface to the port default priority, so
 * this reports that honestly instead of pretending.
 */
static int untagged(struct cli *cli, int argc, char **argv, bool set)
{
	struct mlx_function *fn = NULL;
	struct mlx_port *port = NULL;
	uint64_t prio = 0;
	const char *name;
	int r;

	if (set && (mlx_parse_u64(argv[0], &prio) < 0 || prio > 7)) {
		/* Unlike mlx5cmd, an illegal value is never mapped to 0. */
		cli_error(cli, "invalid priority '%s': expected 0-7", argv[0]);
		return EXIT_USAGE;
	}
	(void)argc;
	r = cli_select(cli, &fn, &port);
	if (r)
		return r;
	name = port ? port->ifname : fn ? fn->bdf : "the ConnectX ports";
	cli_error(cli, "cannot %s the default untagged priority of %s: not supported by the mlx5 "
		  "driver: its DCB interface takes only DSCP APP entries and rejects the APP "
		  "default priority (selector 1, protocol 0) with EINVAL, and it has no other "
		  "interface to the port default priority", set ? "set" : "get", name);
	cli_hint(cli, "the port default priority lives in the firmware (mlx5cmd's default is 0) and "
		 "only firmware tools (mlxconfig, where the firmware offers it) reach it; from Linux, "
		 "classify untagged traffic by DSCP ('mlxcli qosconfig dscp2prio -d IF set DSCP PRIO') or "
		 "tag it (VLAN egress-qos-map)");
	return EXIT_NOTSUP;
}

static int cmd_untagged_get(struct cli *cli, int argc, char **argv)
{
	return untagged(cli, argc, argv, false);
}

static int cmd_untagged_set(struct cli *cli, int argc, char **argv)
{
	return untagged(cli, argc, argv, true);
}

/* ---- the tables ---- */

static const struct cmd_opt show_opts[] = {
	{ "names", 0, "STYLE", "parameter names: mlx5cmd (the default, as mlx5cmd -Get) or linux "
	  "(the sysfs/debugfs file names)", names_choices },
	{ NULL, 0, NULL, NULL, NULL },
};

/* --dry-run comes from the dispatcher (CMD_WRITES). */
static const struct cmd_opt enable_opts[] = {
	{ "rp", 0, NULL, "the reaction point (sender) side only", NULL },
	{ "np", 0, NULL, "the notification point (receiver) side only", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_opt restore_opts[] = {
	{ "keep-enables", 0, NULL, "leave the per-priority enables as they are (which priorities "
	  "carry RoCE)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_arg set_args[] = {
	{ "NAME", NULL, SRC_DCQCN_NAMES, ARG_REPEAT },
	{ "VALUE", NULL, SRC_NONE, 0 },
	CMD_ARG_END,
};

static const struct cmd_arg prio_all_args[] = {
	{ "PRIO", cli_prio_all_choices, SRC_NONE, ARG_OPTIONAL },
	CMD_ARG_END,
};

static const struct cmd_arg describe_args[] = {
	{ "NAME", NULL, SRC_DCQCN_NAMES, ARG_OPTIONAL },
	CMD_ARG_END,
};

static const struct cmd dcqcn_cmds[] = {
	{ "get", "", "show the RP and NP attributes of each port (mlx5cmd -Get)",
	  cmd_dcqcn_get, 0, 0, 0, NULL, show_opts, NULL },
	{ "set", "", "set one or more parameters, all or nothing",
	  cmd_dcqcn_set, 2, -1, CMD_NEEDS_DEVICE | CMD_WRITES | CMD_RAW_ARGS, NULL, NULL, NULL,
	  NULL, set_args },
	{ "enable", "", "enable DCQCN on one priority (0-7) or all, RP and NP",
	  cmd_dcqcn_enable, 0, 1, CMD_NEEDS_DEVICE | CMD_WRITES | CMD_RAW_ARGS, NULL, enable_opts, NULL,
	  NULL, prio_all_args },
	{ "disable", "", "disable DCQCN on one priority (0-7) or all, RP and NP",
	  cmd_dcqcn_disable, 0, 1, CMD_NEEDS_DEVICE | CMD_WRITES | CMD_RAW_ARGS, NULL, enable_opts, NULL,
	  NULL, prio_all_args },
	{ "defaults", "", "show the firmware's factory defaults and where they come from",
	  cmd_dcqcn_defaults, 0, 0, 0, NULL, show_opts, NULL },
	{ "restore", "", "write the firmware's factory defaults, the per-priority enables too, all or "
	  "nothing", cmd_dcqcn_restore, 0, 0, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, restore_opts,
	  NULL },
	{ "describe", "", "what each parameter does, its range and unit; the algorithm",
	  cmd_dcqcn_describe, 0, 1, CMD_NO_SCAN, NULL, NULL, NULL, NULL, describe_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

static const struct cmd_group dcqcn_group = {
	"dcqcn", "RoCE congestion control (DCQCN): RP and NP parameters, per-priority enable",
	"mlxcli-dcqcn(8)", dcqcn_cmds
};

static const struct cmd_arg prio_args[] = {
	{ "PRIO", cli_prio_choices, SRC_NONE, 0 },
	CMD_ARG_END,
};

static const struct cmd untagged_cmds[] = {
	{ "get", "", "show the port default priority of untagged frames",
	  cmd_untagged_get, 0, 0, 0, NULL, NULL, NULL },
	{ "set", "", "set the port default priority of untagged frames (0-7)",
	  cmd_untagged_set, 1, 1, CMD_NEEDS_DEVICE | CMD_WRITES | CMD_RAW_ARGS, NULL, NULL, NULL,
	  NULL, prio_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

static const struct cmd_group untagged_group = {
	"default-untagged-priority", "the port default priority of untagged frames",
	"mlxcli-qosconfig(8)", untagged_cmds
};

/* The QoS verbs' words (their parsers are in cmd/qos.c). */
static const char *const trust_modes[] = { "pcp", "dscp", NULL };
static const char *const dcbx_modes[] = { "host", "firmware", NULL };
static const char *const dscp2prio_verbs[] = { "set", "del", "flush", NULL };
static const char *const pfc_values[] = { "0", "1", "2", "3", "4", "5", "6", "7", "none", NULL };
static const char *const ets_words[] = { "prio-tc", "tsa", "bw", NULL };
static const char *const buffer_words[] = { "prio-buffer", "size", NULL };

static const struct cmd_arg trust_args[] = { { NULL, trust_modes, SRC_NONE, 0 }, CMD_ARG_END };
static const struct cmd_arg dcbx_args[] = { { NULL, dcbx_modes, SRC_NONE, 0 }, CMD_ARG_END };
static const struct cmd_arg dscp2prio_args[] = {
	{ "set|del DSCP PRIO [DSCP PRIO...] | flush", dscp2prio_verbs, SRC_NONE, 0 },
	CMD_ARG_END,
};
static const struct cmd_arg pfc_args[] = {
	{ "PRIO[,PRIO...]|none", pfc_values, SRC_NONE, 0 },
	CMD_ARG_END,
};
static const struct cmd_arg ets_args[] = {
	{ "[prio-tc P:TC...] [tsa TC:strict|ets|vendor...] [bw TC:PCT...]", ets_words, SRC_NONE,
	  ARG_KEYWORDS },
	CMD_ARG_END,
};
static const struct cmd_arg tc_rate_args[] = {
	{ "TC", cli_prio_choices, SRC_NONE, ARG_REPEAT },
	{ "RATE", NULL, SRC_NONE, 0 },
	CMD_ARG_END,
};
static const struct cmd_arg buffer_args[] = {
	{ "[prio-buffer P:BUF...] [size BUF:BYTES...]", buffer_words, SRC_NONE, ARG_KEYWORDS },
	CMD_ARG_END,
};

static const struct cmd qosconfig_cmds[] = {
	{ "dcqcn", "", "RoCE congestion control (DCQCN) parameters",
	  NULL, 0, 0, 0, &dcqcn_group, NULL, NULL },
	{ "default-untagged-priority", "", "the port default priority of untagged frames",
	  NULL, 0, 0, 0, &untagged_group, NULL, NULL },
	/* issue 4: QoS through DCB netlink (cmd/qos.c) */
	{ "show", "", "the QoS of each port: DCBX, trust, DSCP map, ETS, PFC, rates, buffers",
	  cmd_qos_show, 0, 0, 0, NULL, qos_show_opts, NULL, "mlxcli-qos(8)" },
	{ "trust", "", "classify received packets by PCP or DSCP",
	  cmd_qos_trust, 1, 1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, NULL, NULL, "mlxcli-qos(8)",
	  trust_args },
	{ "dscp2prio", "", "the DSCP -> priority map",
	  cmd_qos_dscp2prio, 1, -1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, NULL, NULL, "mlxcli-qos(8)",
	  dscp2prio_args },
	{ "pfc", "", "the priorities with PFC (lossless); the others lose it",
	  cmd_qos_pfc, 1, 1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, qos_pfc_opts, NULL, "mlxcli-qos(8)",
	  pfc_args },
	{ "ets", "",
	  "priority -> TC map, TSA and bandwidth share per TC",
	  cmd_qos_ets, 1, -1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, NULL, NULL, "mlxcli-qos(8)",
	  ets_args },
	{ "tc-bw", "", "per-TC max rate (Mb/s, or Gbit; 0 = unlimited)",
	  cmd_qos_tc_bw, 2, -1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, NULL, NULL, "mlxcli-qos(8)",
	  tc_rate_args },
	{ "buffer", "", "receive buffers",
	  cmd_qos_buffer, 1, -1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, NULL, NULL, "mlxcli-qos(8)",
	  buffer_args },
	{ "dcbx", "", "who owns the DCB settings: the OS or the firmware",
	  cmd_qos_dcbx, 1, 1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, NULL, NULL, "mlxcli-qos(8)",
	  dcbx_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group qosconfig_group = {
	"qosconfig", "QoS and RoCE congestion control (mlx5cmd -Qosconfig)",
	"mlxcli-qosconfig(8)", qosconfig_cmds
};
