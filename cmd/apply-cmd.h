/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `mlxcli apply` (issue 19): cmd/apply.c runs it, cmd/apply-check.c
 * validates the file first. */
#ifndef MLXCLI_APPLY_CMD_H
#define MLXCLI_APPLY_CMD_H

#include <jansson.h>

#include "cli.h"
#include "dcqcn.h"

struct apply_file {
	struct cli *cli;
	const char *name;         /* as typed, for messages */
	json_t *doc;
};

/* One port of FILE matched to one port of the host. */
struct aport {
	char path[24];            /* "ports[2]" */
	json_t *spec;
	const struct mlx_function *fn;
	const struct mlx_port *port;
	const char *ifname;       /* NULL: no netdev */
};

/* --diff (cmd/apply-state.c): the state now against it with FILE's sections
 * laid over the matched ports, as mlxcli diff prints it.  An exit code. */
int apply_show_diff(struct cli *cli, struct aport *ap, size_t nap);
/* The sections apply does not write (roce, sriov) hold what the host has:
 * 0, or exit 4 with the message out. */
int apply_unwritable_sections(struct cli *cli, struct aport *ap, size_t nap);

/* Validate the whole document: an exit code (2 with the JSON path). */
int apply_check(struct apply_file *f);
/* The DCQCN parameter state names @name on @side; NULL none. */
const struct mlx_dcqcn_param *apply_dcqcn_param(const char *name, enum mlx_dcqcn_side side);

extern const struct cmd_opt apply_opts[];
int cmd_apply(struct cli *cli, int argc, char **argv);

#endif
