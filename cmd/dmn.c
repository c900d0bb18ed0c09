/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli dump-me-now [list | show PATH]` and `mlxcli dbg dump-me-now BUS
 * DEV FUNC`: the Linux counterpart of WinOF's Dump Me Now (reference
 * seeds-mlxtool-dmn-counters.md §2): one incident folder per device per
 * call, cyclic retention with a preserved head.
 *
 * An incident is built under a temporary name in the dump root and renamed
 * into place only when complete (lib/debug/dmn.c); any write failure (ENOSPC)
 * or an interruption (SIGINT/SIGTERM, checked between items) removes the
 * temporary folder and leaves the older incidents alone: retention runs
 * only after the new folder is in place.
 *
 * No test hook: the tests fail the k-th write with the LD_PRELOAD shim
 * (tests/fault/fault-shim.c), so the product carries nothing for them.
 */
#include "incident.h"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "dmn-cmd.h"
#include "monitor.h"
#include "tree.h"

/* $(sysconfdir)/mlxcli.conf: /etc/mlxcli.conf in the Debian package, where
 * make install puts the default file for any prefix. */
#define DMN_CONF MLX_SYSCONFDIR "/mlxcli.conf"

/* Set by the signal handler, read between items: the one piece of
 * process-wide state here (a handler has no argument to carry it). */
static volatile sig_atomic_t dmn_stop;

static void on_signal(int sig)
{
	dmn_stop = sig;
}

/* ---- settings: defaults < /etc/mlxcli.conf < options ---- */

static int parse_count(const char *s, unsigned *v)
{
	uint64_t x;

	if (mlx_parse_u64(s, &x) < 0 || x > MLX_DMN_COUNT_MAX)
		return -EINVAL;
	*v = (unsigned)x;
	return 0;
}

static int parse_bool(const char *s, bool *v)
{
	if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "1"))
		*v = true;
	else if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "0"))
		*v = false;
	else
		return -EINVAL;
	return 0;
}

/* A list of Table 19 types, checked now so that a bad file fails at
 * start, not at the first event. */
static int dmn_parse_types(const char *v, struct dmn_settings *s)
{
	struct mlx_dump_policy p;

	if (strlen(v) >= sizeof(s->monitor_dump_types) || mlx_dump_policy_set_list(&p, v) < 0)
		return -EINVAL;
	snprintf(s->monitor_dump_types, sizeof(s->monitor_dump_types), "%s", v);
	return 0;
}

static int conf_cb(const char *key, const char *value, void *arg)
{
	struct dmn_settings *s = arg;

	if (!strcmp(key, "dmn_dir")) {
		if (value[0] != '/' || strlen(value) >= sizeof(s->dir))
			return -EINVAL;
		snprintf(s->dir, sizeof(s->dir), "%s", value);
		s->dir_named = s->conf_named;
	} else if (!strcmp(key, "dmn_total_count")) {
		return parse_count(value, &s->total);
	} else if (!strcmp(key, "dmn_preserved_count")) {
		return parse_count(value, &s->preserved);
	} else if (!strcmp(key, "dmn_events_num")) {
		return parse_count(value, &s->events_num);
	} else if (!strcmp(key, "monitor_dump")) {
		return parse_bool(value, &s->monitor_dump);
	} else if (!strcmp(key, "monitor_dump_types")) {
		return dmn_parse_types(value, s);
	} else {
		/* Every key of the file is here (no other feature reads it): a
		 * misspelt one would otherwise leave a default in force unseen. */
		return -ENOENT;
	}
	return 0;
}

int dmn_prepare_root(struct cli *cli, const struct dmn_settings *s)
{
	int r;

	r = mlx_incident_root_guard(cli->ctx, s->dir, s->dir_named);
	if (r == -EINVAL) {
		cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		cli_hint(cli, "give one with --dir DIR (or dmn_dir= in a file MLXCLI_CONFIG names)");
		return EXIT_USAGE;
	}
	if (r < 0)
		return cli_fail(cli, r, "evidence");
	r = mlx_dmn_root_prepare(s->dir);
	if (r < 0) {
		cli_error(cli, "cannot create the dump root '%s': %s", s->dir, strerror(-r));
		if (cli_exit_code(r) == EXIT_PERM)
			cli_hint(cli, "give a directory this user may write with --dir, or run as root");
		return cli_exit_code(r) == EXIT_PERM ? EXIT_PERM : EXIT_FAIL;
	}
	return EXIT_OK;
}

int dmn_load_settings(struct cli *cli, struct dmn_settings *s)
{
	const char *conf = getenv("MLXCLI_CONFIG");
	const char *v;
	char err[128], *text = NULL;
	size_t len = 0, bad;
	FILE *f;
	int r;

	snprintf(s->dir, sizeof(s->dir), "%s", MLX_DMN_DIR_DEFAULT);
	s->total = MLX_DMN_TOTAL_DEFAULT;
	s->preserved = MLX_DMN_PRESERVED_DEFAULT;
	s->monitor_dump = false;
	s->monitor_dump_types[0] = '\0';
	s->events_num = MLX_DUMP_EVENTS_NUM;
	s->conf = NULL;
	s->dir_named = false;
	s->conf_named = conf != NULL;
	if (!conf)
		conf = DMN_CONF;
	f = fopen(conf, "re");
	if (f) {
		char buf[65536];

		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		text = buf;
		r = mlx_conf_parse(text, len, conf_cb, s, &bad, err, sizeof(err));
		if (r < 0) {
			cli_error(cli, "%s:%zu: %s", conf, bad, err);
			if (r == -ENOENT)
				cli_hint(cli, "the keys are dmn_dir, dmn_total_count, dmn_preserved_count, "
					 "dmn_events_num, monitor_dump and monitor_dump_types "
					 "(mlxcli-dump-me-now(8), mlxcli-monitor(8))");
			return EXIT_USAGE;
		}
		s->conf = conf;
	} else if (errno != ENOENT) {
		cli_warn(cli, "cannot read '%s': %s; using the defaults", conf, strerror(errno));
	}
	if ((v = cli_opt(cli, "dir"))) {
		if (!*v) {
			cli_error(cli, "--dir needs a directory");
			return EXIT_USAGE;
		}
		snprintf(s->dir, sizeof(s->dir), "%s", v);
		s->dir_named = true;
	}
	if ((v = cli_opt(cli, "total-count")) && parse_count(v, &s->total) < 0) {
		cli_error(cli, "invalid value '%s' for '--total-count': give 0 - %u", v, MLX_DMN_COUNT_MAX);
		return EXIT_USAGE;
	}
	if ((v = cli_opt(cli, "preserved-count")) && parse_count(v, &s->preserved) < 0) {
		cli_error(cli, "invalid value '%s' for '--preserved-count': give 0 - %u", v,
			  MLX_DMN_COUNT_MAX);
		return EXIT_USAGE;
	}
	/* the monitor's options (cli_opt is NULL for a command without them) */
	if (cli_opt(cli, "dump"))
		s->monitor_dump = true;
	if ((v = cli_opt(cli, "dump-types")) && dmn_parse_types(v, s) < 0) {
		cli_error(cli, "invalid value '%s' for '--dump-types': Table 19 types or tags, comma "
			  "separated (CMD_ERR,EQ_STUCK,TXCQ_STUCK,RXCQ_STUCK,PORT_STATE,FATAL_ERROR or "
			  "c,e,t,r,p,f), or none", v);
		return EXIT_USAGE;
	}
	if ((v = cli_opt(cli, "dump-events-num")) && parse_count(v, &s->events_num) < 0) {
		cli_error(cli, "invalid value '%s' for '--dump-events-num': give 0 - %u", v, MLX_DMN_COUNT_MAX);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* ---- items ---- */
/* ---- one incident ---- */

static int check_stop(struct dmn_run *run)
{
	if (!dmn_stop)
		return 0;
	run->fatal = -EINTR;
	snprintf(run->fatal_what, sizeof(run->fatal_what), "interrupted by signal %d", (int)dmn_stop);
	return -EINTR;
}

/* Make room after a new incident is in place; the names removed are
 * appended to @removed (a NULL-terminated list the caller frees). */
int dmn_apply_retention(struct cli *cli, const struct dmn_settings *s, char ***removed)
{
	struct mlx_dmn_entry *e;
	size_t n, first, count, k = 0;
	int r = mlx_dmn_list(s->dir, &e, &n);

	*removed = NULL;
	if (r < 0)
		return r;
	mlx_dmn_plan(n, s->total, s->preserved, &first, &count);
	*removed = calloc(count + 1, sizeof(**removed));
	for (size_t i = first; i < first + count; i++) {
		char path[8192];

		snprintf(path, sizeof(path), "%s/%s", s->dir, e[i].name);
		r = mlx_tree_remove(path);
		if (r < 0)
			cli_warn(cli, "retention: cannot remove '%s': %s", path, strerror(-r));
		else if (*removed)
			(*removed)[k++] = strdup(e[i].name);
	}
	free(e);
	return 0;
}

/* manifest.json: the one renderer (dmn_manifest_out), pretty JSON. */
static int write_manifest(struct dmn_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o;
	int r = -ENOMEM;

	if (!f)
		return -ENOMEM;
	o = out_new(true, true, f);
	if (o) {
		dmn_manifest_out(o, run->m, false);
		r = out_finish(o);
		out_free(o);
	}
	if (fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	if (r == 0)
		r = dmn_write_file(run, "manifest.json", buf, len, NULL);
	free(buf);
	return r;
}

int dmn_make_incident(struct cli *cli, const struct dmn_settings *s, const struct mlx_function *fn,
		      const struct dmn_why *why, unsigned counter, struct dmn_manifest **manifest_out)
{
	struct mlx_devices *devs;
	struct dmn_run run;
	struct dmn_manifest *m;
	struct mlx_dmn_entry *ex;
	struct timespec ts;
	const char *reason = why->reason;
	size_t nex;
	struct tm tm;
	int r;

	*manifest_out = NULL;
	memset(&run, 0, sizeof(run));
	run.cli = cli;
	run.clear_health_dumps = why->clear_health_dumps;
	run.why = why;
	run.inc.root_fd = run.inc.dir_fd = -1;
	r = cli_devices(cli, &devs);
	if (r)
		return r;

	/* Room for one more?  Decided before anything is written. */
	r = mlx_dmn_list(s->dir, &ex, &nex);
	if (r < 0)
		goto fail_root;
	free(ex);
	r = mlx_dmn_may_create(nex, s->total, s->preserved);
	if (r == -ECANCELED) {
		cli_error(cli, "dump-me-now is disabled: the total count is 0");
		return EXIT_FAIL;
	}
	if (r == -ENOSPC) {
		cli_error(cli, "'%s' holds %zu incidents and the first %u are preserved (total count %u): "
			  "no incident may be replaced", s->dir, nex, s->preserved, s->total);
		cli_hint(cli, "raise --total-count, lower --preserved-count, or remove incidents by hand");
		return EXIT_FAIL;
	}

	m = run.m = calloc(1, sizeof(*m));
	if (!m || (reason && !(m->reason = strdup(reason)))) {
		dmn_manifest_free(m);
		cli_error(cli, "out of memory");
		return EXIT_FAIL;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	r = mlx_dmn_name(m->name, sizeof(m->name), fn->bdf, why->type, why->source, reason, &ts, getpid(),
			 counter);
	if (r < 0) {
		dmn_manifest_free(m);
		cli_error(cli, "cannot name the incident: %s", strerror(-r));
		return EXIT_FAIL;
	}
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(m->created_at, sizeof(m->created_at), "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 ts.tv_nsec / 1000000);
	snprintf(m->path, sizeof(m->path), "%s/%s", s->dir, m->name);
	snprintf(m->pci_address, sizeof(m->pci_address), "%s", fn->bdf);
	snprintf(m->product, sizeof(m->product), "%s", fn->id ? fn->id->product : "");
	snprintf(m->type, sizeof(m->type), "%s", why->type);
	snprintf(m->source, sizeof(m->source), "%s", why->source);
	snprintf(m->version, sizeof(m->version), "%s", PACKAGE_VERSION);
	snprintf(m->system, sizeof(m->system), "%s", mlx_target_name(cli->ctx));
	r = mlx_dmn_begin(&run.inc, s->dir, m->name);
	if (r < 0) {
		dmn_manifest_free(m);
		goto fail_root;
	}

	/* Each item from lib and the commands' own renderers (cmd/dmn-items.c),
	 * in the order the manifest lists them. */
	r = dmn_item_crspace(&run, fn);
	if (!r)
		r = check_stop(&run);
	if (!r)
		r = dmn_item_devlink_health(&run, fn);
	if (!r)
		r = dmn_item_dcqcn(&run, fn);
	if (!r)
		r = check_stop(&run);
	if (!r)
		r = dmn_item_pci(&run, fn);
	if (!r)
		r = dmn_item_pci_raw(&run, fn);
	/* issue 27: firmware commands, the EQ/CQ/QP lists, the VF table */
	if (!r)
		r = dmn_item_fw_commands(&run, fn);
	if (!r)
		r = dmn_item_mlx5_resources(&run, fn);
	if (!r)
		r = dmn_item_sriov(&run, fn);
	if (!r)
		r = check_stop(&run);
	if (!r)
		r = dmn_item_rdma(&run, fn);    /* issue 24: QPs, CM IDs, raw contexts */
	if (!r)
		r = check_stop(&run);
	if (!r)
		r = dmn_item_kernel_log(&run, fn);
	if (!r)
		r = check_stop(&run);
	if (!r)
		r = dmn_item_snapshot(&run, devs);
	if (!r)
		r = check_stop(&run);
	if (r < 0 && !run.fatal) {
		run.fatal = r;
		snprintf(run.fatal_what, sizeof(run.fatal_what), "cannot collect the incident");
	}

	if (!run.fatal && write_manifest(&run) < 0 && !run.fatal) {
		run.fatal = -ENOMEM;
		snprintf(run.fatal_what, sizeof(run.fatal_what), "cannot write the manifest");
	}
	if (!run.fatal) {
		r = mlx_dmn_commit(&run.inc);
		if (r < 0) {
			run.fatal = r;
			snprintf(run.fatal_what, sizeof(run.fatal_what), "cannot rename the incident into place");
		}
	}
	mlx_dmn_end(&run.inc);
	if (run.fatal) {
		dmn_manifest_free(m);
		cli_error(cli, "dump-me-now of %s failed: %s in '%s': %s; nothing was kept, older incidents "
			  "are untouched", fn->bdf, run.fatal_what, s->dir, strerror(-run.fatal));
		return run.fatal == -EINTR ? EXIT_FAIL : cli_exit_code(run.fatal);
	}
	*manifest_out = m;
	return EXIT_OK;

fail_root:
	mlx_dmn_end(&run.inc);
	cli_error(cli, "cannot use the dump root '%s': %s", s->dir, strerror(-r));
	if (cli_exit_code(r) == EXIT_PERM)
		cli_hint(cli, "give a directory this user may write with --dir, or run as root");
	return cli_exit_code(r) == EXIT_PERM ? EXIT_PERM : EXIT_FAIL;
}

/*
 * One incident made: JSON, its manifest and the incidents retention
 * removed to make room; text, the new folder's path, then each removed
 * one ("removed by retention: PATH").
 */
static void out_made(struct out *o, const struct dmn_settings *s, const struct dmn_manifest *m,
		     char **removed)
{
	out_obj_begin(o, NULL, NULL);
	dmn_manifest_out(o, m, false);
	out_printf(o, "%s\n", m->path);
	out_list_begin(o, "removed_by_retention", NULL);
	for (size_t i = 0; removed && removed[i]; i++) {
		out_str(o, NULL, NULL, removed[i]);
		out_printf(o, "removed by retention: %s/%s\n", s->dir, removed[i]);
	}
	out_list_end(o);
	out_obj_end(o);
}

static int dmn_create(struct cli *cli)
{
	struct dmn_settings s;
	struct mlx_function *sel = NULL;
	struct mlx_devices *devs;
	struct sigaction sa, old_int, old_term;
	/* asked for by the user: the Windows tool's GENERAL/USER */
	const struct dmn_why user = { "GENERAL", "USER", cli_opt(cli, "reason"), false };
	size_t made = 0;
	int r, worst = EXIT_OK;

	r = dmn_load_settings(cli, &s);
	if (r)
		return r;
	r = cli_select(cli, &sel, NULL);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (sel && sel->role == MLX_FN_VF) {
		cli_error(cli, "'%s' (%s) is a virtual function: \"DMN is unsupported on VFs\"; give its PF%s%s",
			  cli->device, sel->bdf, sel->pf ? " " : "", sel->pf ? sel->pf->bdf : "");
		return EXIT_NOTSUP;
	}
	if (!sel) {
		bool any = false;

		for (size_t i = 0; i < devs->nfn; i++)
			any |= devs->fn[i].role == MLX_FN_PF;
		if (!any) {
			cli_error(cli, "no ConnectX physical function was found: nothing to dump");
			cli_hint(cli, "'mlxcli devices' lists the ConnectX functions");
			return EXIT_NODEV;
		}
	}
	r = dmn_prepare_root(cli, &s);
	if (r != EXIT_OK)
		return r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	dmn_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	out_list_begin(cli->out, "incidents", NULL);
	for (size_t i = 0; i < devs->nfn && !dmn_stop; i++) {
		struct mlx_function *fn = &devs->fn[i];
		struct dmn_manifest *m = NULL;
		char **removed = NULL;

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		r = dmn_make_incident(cli, &s, fn, &user, (unsigned)made, &m);
		made++;
		if (r) {
			worst = r;
			continue;
		}
		/* In place: now, and only now, make room. */
		if (dmn_apply_retention(cli, &s, &removed) < 0)
			cli_warn(cli, "retention: cannot list '%s'", s.dir);
		out_made(cli->out, &s, m, removed);
		for (size_t k = 0; removed && removed[k]; k++)
			free(removed[k]);
		free(removed);
		dmn_manifest_free(m);
	}
	out_list_end(cli->out);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (dmn_stop && worst == EXIT_OK)
		worst = EXIT_FAIL;
	return worst;
}

int cmd_dump_me_now(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return dmn_create(cli);
}

static int cmd_dmn_list(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return dmn_list(cli);
}

static int cmd_dmn_show(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	return dmn_show(cli, argv[0]);
}

static int cmd_dmn_verify(struct cli *cli, int argc, char **argv)
{
	return dmn_verify(cli, argc ? argv[0] : NULL);
}

int cli_dmn_root(struct cli *cli, char *buf, size_t len)
{
	struct dmn_settings s;
	int r = dmn_load_settings(cli, &s);

	if (!r)
		snprintf(buf, len, "%s", s.dir);
	return r;
}

/* mlxtool's form: dbg dump-me-now BUS DEV FUNC (decimal). */
int cmd_dbg_dump_me_now(struct cli *cli, int argc, char **argv)
{
	char triple[64];
	int r;

	if (argc == 3) {
		if (cli->device) {
			cli_error(cli, "give the device once: either -d or BUS DEV FUNC");
			return EXIT_USAGE;
		}
		snprintf(triple, sizeof(triple), "%s %s %s", argv[0], argv[1], argv[2]);
		cli->device = triple;
		r = dmn_create(cli);
		cli->device = NULL;
		return r;
	}
	if (argc != 0) {
		cli_error(cli, "'mlxcli dbg dump-me-now' takes BUS DEV FUNC (decimal, as mlxtool)");
		return EXIT_USAGE;
	}
	return dmn_create(cli);
}

const struct cmd_opt dmn_opts[] = {
	{ "reason", 0, "TEXT", "why the dump was taken (part of the folder name)", NULL },
	{ "no-crdump", 0, NULL, "skip the CR-space dump", NULL },
	{ "any-device", 0, NULL, CLI_ANY_DEVICE_HELP, NULL },
	/* From here on the settings `list` and `show` read too (DMN_READ_OPTS). */
	{ "dir", 0, "DIR", "the dump root (default /var/lib/mlxcli/dmn, or dmn_dir= in /etc/mlxcli.conf)", NULL },
	{ "total-count", 0, "N", "DumpMeNowTotalCount: incidents kept at most (default 128)", NULL },
	{ "preserved-count", 0, "N", "DumpMeNowPreservedCountMin: first incidents never removed (default 8)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};
#define DMN_READ_OPTS (&dmn_opts[3])

static const struct cmd_arg dmn_show_args[] = {
	{ "PATH", NULL, SRC_INCIDENTS, 0 },
	CMD_ARG_END,
};

/* `mlxcli dump-me-now` makes an incident; these read them. */
static const struct cmd dmn_cmds[] = {
	{ "list", "", "the incidents in the dump root, oldest first, and the retention settings",
	  cmd_dmn_list, 0, 0, 0, NULL, DMN_READ_OPTS, NULL },
	{ "show", "", "what one incident holds, item by item (PATH: its name in the dump root, or its folder)",
	  cmd_dmn_show, 1, 1, 0, NULL, DMN_READ_OPTS, NULL, NULL, dmn_show_args },
	{ "verify", "", "is an incident as it was dumped? each item's SHA-256 (the snapshot's tree) "
	  "against its manifest; every incident without PATH", cmd_dmn_verify, 0, 1, 0, NULL,
	  DMN_READ_OPTS, NULL, NULL, dmn_show_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group dmn_group = { "dump-me-now", "incident folders", "mlxcli-dump-me-now(8)",
				     dmn_cmds };
