/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli fw flash FILE -d DEV [--component C] [--yes]` and `mlxcli fw
 * activate -d DEV [--reset] [--yes]` (issue 27: the seeds' firmware
 * upgrade and mlxfwreset): the image checked before anything is sent
 * (lib/device/fw-flash.c), a plan and a confirmation, then one action of
 * the write engine (the device's lock, the signals held, the change
 * record).  The flash's status notifications are a progress line on a
 * terminal and, with -j, one JSON record each on stderr; afterwards the
 * firmware as `mlxcli fw` reads it.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/devlink.h>

#include "cli.h"
#include "fw.h"
#include "txn.h"

/* ---- progress ---- */

struct flash_progress {
	struct cli *cli;
	FILE *fp;
	bool bar;                     /* stderr is a terminal */
	bool shown;                   /* a bar line is on the screen */
	const char *on;
};

static void bar_clear(struct flash_progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", p->fp);
		fflush(p->fp);
		p->shown = false;
	}
}

/* One status: a record (-j), or the bar redrawn in place (a terminal). */
static void progress(void *arg, const struct mlx_flash_status *st, int sig)
{
	struct flash_progress *p = arg;

	if (sig) {
		char where[200] = "";

		bar_clear(p);
		if (st->msg[0] && st->total)
			snprintf(where, sizeof(where), " (%s%s%s: %" PRIu64 "%%)", st->msg,
				 st->component[0] ? " " : "", st->component, st->done * 100 / st->total);
		else if (st->msg[0])
			snprintf(where, sizeof(where), " (%s)", st->msg);
		cli_warn(p->cli, "%s: the kernel is flashing %s%s and a flash cannot be stopped: "
			 "waiting for it to end", strsignal(sig), p->on, where);
		return;
	}
	if (p->cli->json) {
		struct out *o = out_new(true, false, p->fp);

		if (!o)
			return;
		out_obj_begin(o, "flash_status", NULL);
		out_str(o, "event", NULL, st->cmd == DEVLINK_CMD_FLASH_UPDATE ? "begin" :
			st->cmd == DEVLINK_CMD_FLASH_UPDATE_END ? "end" : "status");
		out_str(o, "status", NULL, st->msg[0] ? st->msg : NULL);
		out_str(o, "component", NULL, st->component[0] ? st->component : NULL);
		out_u64(o, "done", NULL, st->done);
		out_u64(o, "total", NULL, st->total);
		if (st->timeout_s)
			out_u64(o, "timeout_s", NULL, st->timeout_s);
		else
			out_null(o, "timeout_s", NULL);
		out_obj_end(o);
		out_finish(o);
		out_free(o);
		return;
	}
	if (!p->bar || st->cmd != DEVLINK_CMD_FLASH_UPDATE_STATUS)
		return;
	{
		/* "Flashing [########            ]  40% (200000 of 500000)" */
		char bar[33];
		unsigned pct = st->total ? (unsigned)(st->done * 100 / st->total) : 0, fill = pct * 32 / 100;

		memset(bar, '#', fill);
		memset(bar + fill, ' ', 32 - fill);
		bar[32] = '\0';
		if (st->total)
			fprintf(p->fp, "\r%s%s%s [%s] %3u%%\033[K", st->msg, st->component[0] ? " " : "",
				st->component, bar, pct);
		else if (st->timeout_s)
			fprintf(p->fp, "\r%s%s%s (up to %" PRIu64 " s)\033[K", st->msg,
				st->component[0] ? " " : "", st->component, st->timeout_s);
		else
			fprintf(p->fp, "\r%s%s%s\033[K", st->msg, st->component[0] ? " " : "",
				st->component);
		fflush(p->fp);
		p->shown = true;
	}
}

/* ---- after: the firmware as `mlxcli fw` reads it ---- */

static void out_versions(struct cli *cli, const struct mlx_function *fn)
{
	struct mlx_fw_info *fi = malloc(sizeof(*fi));

	if (!fi)
		return;
	mlx_fw_versions(cli->ctx, fn, fi);
	mlx_err_clear(cli->ctx);
	out_str(cli->out, "running_version", "running", fi->running[0] ? fi->running : NULL);
	out_str(cli->out, "stored_version", "stored", fi->stored[0] ? fi->stored : NULL);
	if (fi->stored[0] && !fi->stored_query_failed)
		out_bool(cli->out, "reset_pending", "reset pending", fi->reset_pending);
	else
		out_null(cli->out, "reset_pending", "reset pending");
	free(fi);
}

static int pick_pf(struct cli *cli, struct mlx_function **fn)
{
	int r = cli_select(cli, fn, NULL);

	if (r)
		return r;
	/* a VF runs its PF's firmware: flashing or activating is the PF's */
	if ((*fn)->role == MLX_FN_VF)
		return cli_need_pf(cli, *fn);
	return EXIT_OK;
}

/* ---- flash ---- */

static int load_exit(int e)
{
	return e == -EACCES || e == -EPERM ? EXIT_PERM : e == -ENOMEM || e == -EIO ? EXIT_FAIL :
	       EXIT_USAGE;
}

int cmd_fw_flash(struct cli *cli, int argc, char **argv)
{
	struct flash_progress prog = { 0 };
	struct mlx_fw_flash f;
	struct mlx_fw_info *fi = NULL;
	struct mlx_function *fn;
	struct mlx_port_ref ref;
	char refusal[400], question[400];
	int r, e;

	(void)argc;
	mlx_fw_flash_init(&f);
	f.component = cli_opt(cli, "component");
	if (f.component && (!*f.component || strlen(f.component) > 63)) {
		cli_error(cli, "invalid component '%s': a name of 1-63 characters ('mlxcli fw' and "
			  "devlink dev info list them)", f.component);
		return EXIT_USAGE;
	}
	r = pick_pf(cli, &fn);
	if (r)
		return r;
	/* the image first: nothing is asked of the device with a bad one */
	e = mlx_fw_image_load(cli->ctx, argv[0], &f);
	if (e < 0) {
		cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		mlx_fw_flash_free(&f);
		return load_exit(e);
	}
	/* mlx5's flash is mlxfw's: MFA2 only, with the device's PSID */
	f.mfa2_only = mlx_fn_is_pci(fn) && fn->id;
	fi = malloc(sizeof(*fi));
	if (fi && mlx_fw_versions(cli->ctx, fn, fi) == 0)
		snprintf(f.psid, sizeof(f.psid), "%s", fi->psid);
	mlx_err_clear(cli->ctx);
	free(fi);
	e = mlx_fw_image_check(cli->ctx, &f, fn->bdf);
	if (e < 0) {
		cli_error(cli, "%s", mlx_errmsg(cli->ctx));
		mlx_fw_flash_free(&f);
		return EXIT_USAGE;
	}
	prog.cli = cli;
	prog.fp = cli->err_fp ? cli->err_fp : stderr;
	prog.bar = !cli->json && isatty(fileno(prog.fp));
	prog.on = fn->bdf;
	f.progress = progress;
	f.progress_arg = &prog;
	out_str(cli->out, "pci_address", NULL, mlx_fn_is_pci(fn) ? fn->bdf : NULL);
	out_devlink(cli->out, fn);
	out_obj_begin(cli->out, "image", "image");
	out_str(cli->out, "file", "file", f.file);
	out_str(cli->out, "format", "format", mlx_fw_image_kind_name(f.info.kind));
	out_u64(cli->out, "bytes", "bytes", f.len);
	{
		const char *v[MLX_FW_IMAGE_MAX_PSIDS];

		for (size_t i = 0; i < f.info.npsid; i++)
			v[i] = f.info.psid[i];
		if (f.info.kind == MLX_FW_IMAGE_MFA2)
			out_strv(cli->out, "psids", "PSIDs", v, f.info.npsid);
		else
			out_null(cli->out, "psids", "PSIDs");
	}
	out_obj_end(cli->out);
	snprintf(refusal, sizeof(refusal), "'mlxcli fw flash' writes '%s' into the flash of %s (the "
		 "running firmware stays until it is activated): confirm with --yes", f.file, fn->bdf);
	snprintf(question, sizeof(question), "flash '%s' into %s", f.file, fn->bdf);
	mlx_port_ref_init(&ref, fn, NULL, NULL);
	r = cli_write_action(cli, MLX_ACT_FW_FLASH, &ref, &f, refusal, question, &e);
	bar_clear(&prog);
	out_str(cli->out, "loaded_as", "loaded as", f.loader_name[0] ? f.loader_name : NULL);
	out_bool(cli->out, "copied", NULL, f.staged);
	out_u64(cli->out, "status_count", NULL, f.nstatus);
	out_str(cli->out, "last_status", "last status", f.nstatus ? f.last.msg : NULL);
	if (!cli->dry_run && (r == EXIT_OK || f.signal))
		out_versions(cli, fn);
	if (f.signal && r != EXIT_USAGE)
		cli_warn(cli, "the flash was not stopped: it %s; %s", r == EXIT_OK || r > 128 ?
			 "completed" : "failed", r == EXIT_OK || r > 128 ?
			 "the new image is stored and runs after 'mlxcli fw activate' or a reset" :
			 "the device keeps the image it had stored before");
	if (r == EXIT_OK && !cli->dry_run)
		cli_hint(cli, "the new firmware runs after 'mlxcli fw activate -d %s' or a cold reboot",
			 fn->bdf);
	if (r == EXIT_PERM)
		cli_hint(cli, "a flash needs CAP_NET_ADMIN and write access to /lib/firmware: run as root");
	mlx_fw_flash_free(&f);
	return r;
}

/* ---- activate ---- */

int cmd_fw_activate(struct cli *cli, int argc, char **argv)
{
	struct mlx_fw_activate a = { 0 };
	struct mlx_function *fn;
	struct mlx_port_ref ref;
	char refusal[300], question[300];
	const char *v[4];
	size_t nv = 0;
	int r, e;

	(void)argc;
	(void)argv;
	a.reset = cli_opt(cli, "reset") != NULL;
	r = pick_pf(cli, &fn);
	if (r)
		return r;
	snprintf(refusal, sizeof(refusal), "'mlxcli fw activate' makes %s run its stored firmware "
		 "(devlink reload fw_activate: a live patch where the device can, else a firmware "
		 "reset that stops its traffic): confirm with --yes", fn->bdf);
	snprintf(question, sizeof(question), "activate the stored firmware of %s", fn->bdf);
	mlx_port_ref_init(&ref, fn, NULL, NULL);
	out_str(cli->out, "pci_address", NULL, mlx_fn_is_pci(fn) ? fn->bdf : NULL);
	out_devlink(cli->out, fn);
	r = cli_write_action(cli, MLX_ACT_FW_ACTIVATE, &ref, &a, refusal, question, &e);
	if (r == EXIT_OK) {
		out_str(cli->out, "limit", "limit", a.limit == DEVLINK_RELOAD_LIMIT_NO_RESET ?
			"no_reset" : NULL);
		for (unsigned i = 0; i < 32 && nv < 4; i++)
			if ((a.performed & (1u << i)) && mlx_reload_action_name(i))
				v[nv++] = mlx_reload_action_name(i);
		out_strv(cli->out, "actions_performed", "actions performed", v, nv);
		if (!cli->dry_run)
			out_versions(cli, fn);
	}
	if (r == EXIT_PERM)
		cli_hint(cli, "devlink reload needs CAP_NET_ADMIN: run as root");
	else if (e == -EOPNOTSUPP || e == -EINVAL)
		cli_hint(cli, a.limit == DEVLINK_RELOAD_LIMIT_NO_RESET ?
			 "the device cannot patch this image in without a reset: --reset activates it "
			 "with a firmware reset (traffic stops)" :
			 "see the kernel's reason above; a cold reboot runs the stored firmware too");
	return r;
}

const struct cmd_opt fw_flash_opts[] = {
	{ "component", 0, "NAME", "flash this component of the device only (its devlink info name)",
	  NULL, SRC_NONE, 0 },
	{ "yes", 'y', NULL, "do not ask for confirmation", NULL, SRC_NONE, 0 },
	{ "any-device", 0, NULL, CLI_ANY_DEVICE_HELP, NULL, SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};

const struct cmd_opt fw_activate_opts[] = {
	{ "reset", 0, NULL, "activate with a firmware reset even where a live patch (limit "
	  "no_reset) is offered", NULL, SRC_NONE, 0 },
	{ "yes", 'y', NULL, "do not ask for confirmation", NULL, SRC_NONE, 0 },
	{ "any-device", 0, NULL, CLI_ANY_DEVICE_HELP, NULL, SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};
