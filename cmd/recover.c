/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli recover`: finish the rollback of a write that was interrupted
 * (the process killed, a crash) from its journal (lib/txn.h,
 * lib/journal.h), as the next write command does before its own; and the
 * warning every read command gives while one is pending.
 */
#include "config.h"

#include <time.h>

#include "cli.h"
#include "txn.h"

const struct cmd_opt recover_opts[] = {
	{ "forget", 0, NULL, "drop the journals instead of putting their changes back (a device "
	  "that is gone)", NULL, SRC_NONE, 0 },
	{ NULL, 0, NULL, NULL, NULL, SRC_NONE, 0 },
};

void cli_warn_pending(struct cli *cli)
{
	struct mlx_txn_pending p;
	char when[64] = "";
	time_t t;

	mlx_txn_pending(cli->ctx, &p);
	if (!p.n)
		return;
	t = (time_t)p.started;
	if (p.started)
		strftime(when, sizeof(when), ", started %Y-%m-%d %H:%M:%S", localtime(&t));
	cli_warn(cli, "%zu write%s interrupted (mlxcli pid %ld%s) left %s journal: the devices may "
		 "hold a mix of old and new settings until 'mlxcli recover' (or the next write) puts "
		 "them back", p.n, p.n == 1 ? " was" : "s were", p.pid, when, p.n == 1 ? "its" : "their");
}

int cmd_recover(struct cli *cli, int argc, char **argv)
{
	struct mlx_txn_recovery rep;
	struct mlx_txn_pending p;
	int e;

	(void)argc;
	(void)argv;
	mlx_txn_pending(cli->ctx, &p);
	/* text: the count a dry run is about, else what was done (or that
	 * there was nothing); JSON: every field */
	out_bool(cli->out, "dry_run", NULL, cli->dry_run);
	out_u64(cli->out, "pending", cli->dry_run ? "pending" : NULL, p.n);
	if (cli->dry_run) {
		out_u64(cli->out, "recovered", NULL, 0);
		out_u64(cli->out, "failed", NULL, 0);
		out_null(cli->out, "story", NULL);
		return EXIT_OK;
	}
	/* also when none is pending: what a writer that died before its
	 * journal had a name left goes */
	e = mlx_txn_recover(cli->ctx, cli_opt(cli, "forget") != NULL, &rep);
	if (e == 0 && !rep.n)
		out_text(cli->out, "nothing to recover", "no write was interrupted");
	out_u64(cli->out, "recovered", rep.n ? "recovered" : NULL, rep.n);
	out_u64(cli->out, "failed", rep.nfailed ? "failed" : NULL, rep.nfailed);
	out_str(cli->out, "story", rep.story[0] ? "story" : NULL, rep.story[0] ? rep.story : NULL);
	if (e < 0) {
		cli_error(cli, "%s", rep.story);
		cli_hint(cli, "'mlxcli recover --forget' drops a journal whose device is gone");
		/* what was done is said on stdout too */
		out_finish(cli->out);
		return cli_exit_code(e) == EXIT_OK ? EXIT_FAIL : cli_exit_code(e);
	}
	return EXIT_OK;
}
