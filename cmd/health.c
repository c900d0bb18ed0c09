/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli health show|set|recover|dump|clear|diagnose [-d DEV] [REPORTER]`
 * (issue 27): the devlink health reporters of every function, their state
 * and counts, their self-healing policy (grace period, auto_recover,
 * auto_dump) with the WinOF-2 key each corresponds to (lib/health.h), the
 * policy set through the write engine (the settings model's health
 * subsystem: read back, put back), a recovery and a dump's clearing as
 * actions, the held dump and the diagnose read.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "health.h"
#include "health-json.h"
#include "settings.h"
#include "txn.h"

void out_devlink(struct out *o, const struct mlx_function *fn)
{
	char h[128];

	snprintf(h, sizeof(h), "%s/%s", mlx_fn_bus(fn), fn->bdf);
	out_str(o, "devlink_handle", NULL, h);
}

/* ---- which devices ---- */

/* -d's function (--any-device: any devlink instance), or every PF. */
static int targets(struct cli *cli, struct mlx_function **sel, struct mlx_devices **devs)
{
	int r = cli_select(cli, sel, NULL);

	if (!r)
		r = cli_devices(cli, devs);
	return r;
}

static bool covered(const struct mlx_function *sel, const struct mlx_function *fn)
{
	return sel ? fn == sel : fn->role == MLX_FN_PF;
}

/* The reporters of @fn named @name (all: NULL); exit 3 when -d named
 * one that is not there, with the ones there are. */
static int pick(struct cli *cli, const struct mlx_function *fn, const struct mlx_health *h,
		const char *name, size_t *idx, size_t *n)
{
	char have[400] = "";
	size_t l = 0;

	*n = mlx_health_find(h, name ? name : "", -1, idx, MLX_HEALTH_MAX_REPORTERS);
	if (*n || !name)
		return EXIT_OK;
	for (size_t i = 0; i < h->n && l < sizeof(have); i++)
		l += (size_t)snprintf(have + l, sizeof(have) - l, "%s%s", i ? ", " : "", h->r[i].name);
	cli_error(cli, "%s has no health reporter '%s'", fn->bdf, name);
	cli_hint(cli, h->n ? "its reporters: %s" : "it has no health reporters%s", h->n ? have : "");
	return EXIT_NODEV;
}

/* The reporters of one function, or why not (an exit code). */
static int get(struct cli *cli, const struct mlx_function *fn, struct mlx_health *h)
{
	int r = mlx_health_get(cli->ctx, fn, h);

	if (r == 0)
		return EXIT_OK;
	if (r == -ENODATA) {
		cli_error(cli, "%s: the captured system has no devlink health reply", fn->bdf);
		return EXIT_NOTSUP;
	}
	return cli_fail(cli, r, "devlink health");
}

/* ---- show ---- */

static void out_windows(struct out *o, const struct mlx_health_reporter *r)
{
	const struct mlx_health_windows *w = mlx_health_windows_row(r->name);
	char buf[32];

	if (w && w->sensors) {
		snprintf(buf, sizeof(buf), "0x%08" PRIx32, w->sensors);
		out_u64_as(o, "windows_sensor_mask", "WINDOWS_SENSORS", w->sensors, buf);
	} else {
		out_null(o, "windows_sensor_mask", "WINDOWS_SENSORS");
	}
}

static void show_fn(struct cli *cli, const struct mlx_function *fn, const struct mlx_health *h,
		    const char *name)
{
	struct out *o = cli->out;
	char label[96];

	snprintf(label, sizeof(label), "%s (%s)", fn->bdf, fn->id ? fn->id->product : mlx_fn_bus(fn));
	out_obj_begin(o, NULL, label);
	out_str(o, "pci_address", NULL, mlx_fn_is_pci(fn) ? fn->bdf : NULL);
	out_devlink(o, fn);
		out_table_begin(o, "reporters");
	for (size_t i = 0; i < h->n; i++) {
		if (name && strcmp(h->r[i].name, name))
			continue;
		out_row_begin(o);
		cli_out_reporter(o, &h->r[i], true);
		out_windows(o, &h->r[i]);
		out_row_end(o);
	}
	out_table_end(o);
	out_obj_end(o);
}

int cmd_health_show(struct cli *cli, int argc, char **argv)
{
	const char *name = argc ? argv[0] : NULL;
	struct mlx_function *sel;
	struct mlx_devices *devs;
	struct mlx_health *h = malloc(sizeof(*h));
	int r, rc = EXIT_OK;

	if (!h)
		return cli_fail(cli, -ENOMEM, "health show");
	r = targets(cli, &sel, &devs);
	if (r) {
		free(h);
		return r;
	}
	out_list_begin(cli->out, "devices", NULL);
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];
		size_t idx[MLX_HEALTH_MAX_REPORTERS], n;

		if (!covered(sel, fn))
			continue;
		r = get(cli, fn, h);
		if (r == EXIT_OK && sel)
			r = pick(cli, fn, h, name, idx, &n);
		if (r) {
			/* one device's failure: the others are still shown */
			rc = rc ? rc : r;
			continue;
		}
		show_fn(cli, fn, h, name);
	}
	out_list_end(cli->out);
	free(h);
	if (!devs->nfn)
		cli_say_no_devices(cli, devs);
	return rc;
}

/* ---- set: the policy through the settings model ---- */

static const char *const set_words[] = { "grace_period", "auto_recover", "auto_dump", NULL };

static bool is_word(const char *w, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (!strcmp(words[i], w))
			return true;
	return false;
}

static int on_off(struct cli *cli, const char *what, const char *v, bool *b)
{
	if (!strcmp(v, "on") || !strcmp(v, "true"))
		*b = true;
	else if (!strcmp(v, "off") || !strcmp(v, "false"))
		*b = false;
	else {
		cli_error(cli, "invalid %s '%s': on or off (true or false)", what, v);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int cmd_health_set(struct cli *cli, int argc, char **argv)
{
	struct mlx_port_settings *want;
	struct mlx_health_policy *p;
	struct mlx_function *fn;
	struct mlx_port_ref ref;
	struct mlx_txn *txn;
	const char *name = "";
	int i = 0, r;

	/* REPORTER is optional: without it, every reporter that has the setting */
	if (argc && !is_word(argv[0], set_words))
		name = argv[i++];
	if (i >= argc) {
		cli_error(cli, "'mlxcli health set' needs a setting: grace_period MS, auto_recover "
			  "on|off, auto_dump on|off");
		return EXIT_USAGE;
	}
	want = mlx_port_settings_new();
	if (!want)
		return cli_fail(cli, -ENOMEM, "health set");
	p = mlx_health_put_reporter(cli->ctx, &want->health, name, -1);
	r = p ? EXIT_OK : EXIT_USAGE;
	if (!p)
		cli_error(cli, "%s", mlx_errmsg(cli->ctx));
	for (; r == EXIT_OK && i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t ms;
		bool b;

		if (!is_word(k, set_words)) {
			const char *s = cli_suggest(k, set_words, 3);

			cli_error(cli, "unknown health setting '%s'", k);
			if (s)
				cli_hint(cli, "did you mean '%s'?", s);
			r = EXIT_USAGE;
		} else if (!v) {
			cli_error(cli, "%s needs a value", k);
			r = EXIT_USAGE;
		} else if (!strcmp(k, "grace_period")) {
			if (p->grace_h) {
				cli_error(cli, "grace_period is given twice");
				r = EXIT_USAGE;
			} else if (mlx_parse_u64(v, &ms) < 0 || ms > INT64_MAX ||
				   mlx_health_put_grace(cli->ctx, p, (int64_t)ms) < 0) {
				cli_error(cli, "invalid grace_period '%s': milliseconds, 0-%" PRId64, v,
					  INT64_MAX);
				r = EXIT_USAGE;
			}
		} else if ((!strcmp(k, "auto_recover") && p->recover_h) ||
			   (!strcmp(k, "auto_dump") && p->dump_h)) {
			cli_error(cli, "%s is given twice", k);
			r = EXIT_USAGE;
		} else if ((r = on_off(cli, k, v, &b)) == EXIT_OK) {
			if (!strcmp(k, "auto_recover")) {
				p->recover_h = MLX_SET;
				p->auto_recover = b;
			} else {
				p->dump_h = MLX_SET;
				p->auto_dump = b;
			}
		}
	}
	if (r == EXIT_OK)
		r = cli_select(cli, &fn, NULL);
	if (r) {
		mlx_port_settings_free(want);
		return r;
	}
	mlx_port_ref_init(&ref, fn, NULL, NULL);
	out_str(cli->out, "pci_address", NULL, mlx_fn_is_pci(fn) ? fn->bdf : NULL);
	out_devlink(cli->out, fn);
	r = cli_write_step(cli, MLX_SUB_HEALTH, &ref, want, 0, &txn);
	if (r == EXIT_OK)
		mlx_txn_free(txn);
	mlx_port_settings_free(want);
	return r;
}

/* ---- recover, clear: actions ---- */

static int one_reporter(struct cli *cli, const char *name, struct mlx_function **fn,
			struct mlx_health *h, const struct mlx_health_reporter **out)
{
	size_t idx[MLX_HEALTH_MAX_REPORTERS], n;
	int r = cli_select(cli, fn, NULL);

	if (!r)
		r = get(cli, *fn, h);
	if (!r)
		r = pick(cli, *fn, h, name, idx, &n);
	if (r)
		return r;
	if (n > 1) {
		cli_error(cli, "%s has %zu reporters named '%s' (one per port): this command takes one",
			  (*fn)->bdf, n, name);
		return EXIT_USAGE;
	}
	*out = &h->r[idx[0]];
	return EXIT_OK;
}

static int cmd_health_recover(struct cli *cli, int argc, char **argv)
{
	const struct mlx_health_reporter *rep;
	struct mlx_function *fn;
	struct mlx_port_ref ref;
	struct mlx_health *h = malloc(sizeof(*h));
	char refusal[300], question[300];
	int r, e;

	(void)argc;
	if (!h)
		return cli_fail(cli, -ENOMEM, "health recover");
	r = one_reporter(cli, argv[0], &fn, h, &rep);
	if (r) {
		free(h);
		return r;
	}
	snprintf(refusal, sizeof(refusal), "'mlxcli health recover' runs the recovery of reporter "
		 "%s of %s now (mlx5: tx and rx reopen their queues, fw_fatal reloads the function): "
		 "confirm with --yes", rep->name, fn->bdf);
	snprintf(question, sizeof(question), "run the recovery of health reporter %s of %s now",
		 rep->name, fn->bdf);
	mlx_port_ref_init(&ref, fn, NULL, NULL);
	out_devlink(cli->out, fn);
	out_str(cli->out, "reporter", NULL, rep->name);
	r = cli_write_action(cli, MLX_ACT_HEALTH_RECOVER, &ref, rep, refusal, question, &e);
	if (r == EXIT_PERM)
		cli_hint(cli, "a recovery needs CAP_NET_ADMIN: run as root");
	free(h);
	return r;
}

static int cmd_health_clear(struct cli *cli, int argc, char **argv)
{
	const struct mlx_health_reporter *rep;
	struct mlx_function *fn;
	struct mlx_port_ref ref;
	struct mlx_health *h = malloc(sizeof(*h));
	int r, e;

	(void)argc;
	if (!h)
		return cli_fail(cli, -ENOMEM, "health clear");
	r = one_reporter(cli, argv[0], &fn, h, &rep);
	if (r == EXIT_OK && !rep->has_auto_dump) {
		cli_error(cli, "health reporter %s of %s takes no dumps: nothing to clear", rep->name,
			  fn->bdf);
		r = EXIT_NOTSUP;
	}
	if (r) {
		free(h);
		return r;
	}
	mlx_port_ref_init(&ref, fn, NULL, NULL);
	out_devlink(cli->out, fn);
	out_str(cli->out, "reporter", NULL, rep->name);
	r = cli_write_action(cli, MLX_ACT_DUMP_CLEAR, &ref, rep, NULL, NULL, &e);
	if (r == EXIT_PERM)
		cli_hint(cli, "clearing a dump needs CAP_NET_ADMIN: run as root");
	free(h);
	return r;
}

/* ---- dump, diagnose: reads ---- */

static int fmsg_cmd(struct cli *cli, int argc, char **argv, bool dump)
{
	const char *name = argc ? argv[0] : NULL;
	struct mlx_function *fn;
	struct mlx_health *h = malloc(sizeof(*h));
	size_t idx[MLX_HEALTH_MAX_REPORTERS], n = 0;
	int r, rc = EXIT_OK;

	if (!h)
		return cli_fail(cli, -ENOMEM, "health");
	r = cli_select(cli, &fn, NULL);
	if (!r)
		r = get(cli, fn, h);
	if (!r)
		r = pick(cli, fn, h, name, idx, &n);
	if (r) {
		free(h);
		return r;
	}
	out_devlink(cli->out, fn);
	out_list_begin(cli->out, "reporters", NULL);
	for (size_t k = 0; k < n; k++) {
		const struct mlx_health_reporter *rep = &h->r[idx[k]];
		struct mlx_fmsg_node *t = NULL;
		char label[96];

		/* without a name, the reporters that have one (a dump: those
		 * that take dumps) */
		if (!name && dump && !rep->has_auto_dump)
			continue;
		r = dump ? mlx_health_dump(cli->ctx, fn, rep, &t) : mlx_health_diagnose(cli->ctx, fn, rep, &t);
		if (r < 0 && !name && r == -EOPNOTSUPP) {
			mlx_err_clear(cli->ctx);
			continue;
		}
		if (rep->port_index >= 0)
			snprintf(label, sizeof(label), "%s (port %" PRId64 ")", rep->name, rep->port_index);
		else
			snprintf(label, sizeof(label), "%s", rep->name);
		out_obj_begin(cli->out, NULL, label);
		out_str(cli->out, "name", NULL, rep->name);
		if (rep->port_index >= 0)
			out_s64(cli->out, "port_index", NULL, rep->port_index);
		else
			out_null(cli->out, "port_index", NULL);
		if (r < 0) {
			out_null(cli->out, dump ? "dump" : "diagnose", NULL);
			out_str(cli->out, "error", "error", mlx_errmsg(cli->ctx));
			rc = rc ? rc : cli_exit_code(r);
			mlx_err_clear(cli->ctx);
		} else {
			cli_out_fmsg_text(cli->out, dump ? "dump" : "diagnose", NULL, t);
			out_null(cli->out, "error", NULL);
		}
		out_obj_end(cli->out);
		mlx_fmsg_free(t);
	}
	out_list_end(cli->out);
	free(h);
	if (rc)
		cli_error(cli, "could not %s every reporter asked for", dump ? "dump" : "diagnose");
	return rc;
}

static int cmd_health_dump(struct cli *cli, int argc, char **argv)
{
	return fmsg_cmd(cli, argc, argv, true);
}

static int cmd_health_diagnose(struct cli *cli, int argc, char **argv)
{
	return fmsg_cmd(cli, argc, argv, false);
}

/* ---- the table ---- */

const struct cmd_opt health_opts[] = {
	{ "any-device", 0, NULL, CLI_ANY_DEVICE_HELP, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_opt health_yes_opts[] = {
	{ "any-device", 0, NULL, CLI_ANY_DEVICE_HELP, NULL },
	{ "yes", 'y', NULL, "do not ask for confirmation", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct cmd_arg reporter_opt_arg[] = {
	{ "REPORTER", NULL, SRC_NONE, ARG_OPTIONAL },
	CMD_ARG_END,
};

static const struct cmd_arg reporter_arg[] = {
	{ "REPORTER", NULL, SRC_NONE, 0 },
	CMD_ARG_END,
};

static const struct cmd_arg set_args[] = {
	{ "REPORTER", NULL, SRC_NONE, ARG_OPTIONAL },
	{ "[grace_period MS] [auto_recover on|off] [auto_dump on|off]", set_words, SRC_NONE,
	  ARG_KEYWORDS },
	CMD_ARG_END,
};

static const struct cmd health_cmds[] = {
	{ "show", "", "every devlink health reporter: state, errors, recoveries, self-healing policy",
	  cmd_health_show, 0, 1, 0, NULL, health_opts, NULL, NULL, reporter_opt_arg },
	{ "set", "", "a reporter's policy (every reporter's without REPORTER): grace period, "
	  "auto_recover, auto_dump", cmd_health_set, 2, 7, CMD_NEEDS_DEVICE | CMD_WRITES, NULL,
	  health_opts, NULL, NULL, set_args },
	{ "recover", "", "run a reporter's recovery now", cmd_health_recover, 1, 1,
	  CMD_NEEDS_DEVICE | CMD_WRITES, NULL, health_yes_opts, NULL, NULL, reporter_arg },
	{ "dump", "", "a reporter's held dump (taken now when it holds none)", cmd_health_dump, 0, 1,
	  CMD_NEEDS_DEVICE, NULL, health_opts, NULL, NULL, reporter_opt_arg },
	{ "clear", "", "forget a reporter's held dump, so that its next error takes one",
	  cmd_health_clear, 1, 1, CMD_NEEDS_DEVICE | CMD_WRITES, NULL, health_opts, NULL, NULL,
	  reporter_arg },
	{ "diagnose", "", "what a reporter says of its device now", cmd_health_diagnose, 0, 1,
	  CMD_NEEDS_DEVICE, NULL, health_opts, NULL, NULL, reporter_opt_arg },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group health_group = { "health", "devlink health reporters and the "
					"self-healing policy", "mlxcli-health(8)", health_cmds };
