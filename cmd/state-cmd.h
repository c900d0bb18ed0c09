/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fleets (issue 19): `state` (cmd/state.c) and `diff` (cmd/diff.c). */
#ifndef MLXCLI_STATE_CMD_H
#define MLXCLI_STATE_CMD_H

#include "cli.h"

int cmd_state(struct cli *cli, int argc, char **argv);
int cmd_diff(struct cli *cli, int argc, char **argv);

/* The "ports" list of the state document of the system cli->ctx names
 * (@only: one function, else every PF) into cli->out.  An exit code. */
int state_render(struct cli *cli, const struct mlx_function *only);

#endif
