/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fleets (issue 19): `state` (cmd/state.c) and `diff` (cmd/diff.c). */
#ifndef MLXCLI_STATE_CMD_H
#define MLXCLI_STATE_CMD_H

#include <jansson.h>

#include "cli.h"
#include "params.h"

int cmd_state(struct cli *cli, int argc, char **argv);
int cmd_diff(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt diff_opts[];

/* The "ports" list of the state document of the system cli->ctx names
 * (@only: one function, else every PF) into cli->out.  An exit code. */
int state_render(struct cli *cli, const struct mlx_function *only);
/* ... (unless !@functions) and after them the ports of @netdevs, netdevs
 * that are no ConnectX port (--any-netdev): their params, the other
 * sections null. */
int state_render_ports(struct cli *cli, const struct mlx_function *only, bool functions,
		       const char *const *netdevs, size_t nnetdev);
extern const struct cmd_opt state_opts[];
/* Whether state's "params" holds knob @k (a port's, not the module's or
 * rdma_cm's): what apply takes there too. */
bool state_knob_in(const struct mlx_knob *k);

/* The state document of cli's own system (state -j's), with the ports of
 * @netdevs as state_render_ports renders them.  An exit code. */
int state_doc(struct cli *cli, const char *const *netdevs, size_t nnetdev, json_t **doc);
/* The key naming an element of the state's list @list ("tcs": "tc"); NULL. */
const char *state_element_key(const char *list);
/* The differences of two state documents as `mlxcli diff` prints them
 * (the "differences" list; text: a unified diff headed @a_name, @b_name).
 * Returns how many. */
size_t state_diff_docs(struct cli *cli, const char *a_name, const char *b_name, json_t *a,
		       json_t *b);

#endif
