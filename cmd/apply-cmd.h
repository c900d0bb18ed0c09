/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `mlxcli apply` (issue 19): cmd/apply.c reads FILE and runs the
 * transaction, cmd/apply-plan.c judges and shows its plan. */
#ifndef MLXCLI_APPLY_CMD_H
#define MLXCLI_APPLY_CMD_H

#include "cli.h"
#include "settings-cmd.h"
#include "sriov.h"
#include "txn.h"

/* One port of the host FILE names (merged when named twice). */
struct aport {
	char path[24];            /* "ports[2]": its first entry */
	const char *file;         /* ... and its file */
	const struct mlx_function *fn;   /* NULL: a netdev that is no ConnectX port */
	const struct mlx_port *port;
	struct mlx_port_ref t;
	struct mlx_port_settings *want;  /* its desired state (owned) */
	long step[MLX_NSUB];      /* its step of each subsystem in the transaction; -1 none */
};

struct apply {
	const char *file;         /* as typed, for messages */
	char **names;             /* FILE a directory: its files */
	size_t nnames;
	struct doc doc;
	struct aport *ap;
	size_t nap, cap;
	struct mlx_txn *txn;
};

/* cmd/apply-plan.c: the QoS lint on the state the plan leads to (exit 1
 * when it finds an error, unless --force); --diff; the --yes rule of a
 * numvfs change that takes VFs away.  Exit codes, the message out. */
int apply_lint(struct cli *cli, struct apply *a);
int apply_show_diff(struct cli *cli, struct apply *a);
int apply_confirm(struct cli *cli, struct apply *a);

extern const struct cmd_opt apply_opts[];
int cmd_apply(struct cli *cli, int argc, char **argv);

#endif
