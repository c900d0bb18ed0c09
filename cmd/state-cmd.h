/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fleets (issue 19): `state` (cmd/state.c) and `diff` (cmd/diff.c). */
#ifndef MLXCLI_STATE_CMD_H
#define MLXCLI_STATE_CMD_H

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
struct mlx_port_settings;
/* The same ports, each as its settings model read from the device, to
 * @fn (which owns it).  An exit code. */
int state_for_ports(struct cli *cli, const struct mlx_function *only, bool functions,
		    const char *const *netdevs, size_t nnetdev,
		    void (*fn)(void *arg, struct mlx_port_settings *p), void *arg);
/* Whether state's "params" holds knob @k (a port's, not the module's or
 * rdma_cm's): what apply takes there too. */
bool state_knob_in(const struct mlx_knob *k);

/* The ports of a state, each a settings model (owned). */
struct state_ports {
	struct mlx_port_settings **p;
	size_t n, cap;
};
/* cli's own system's ports as `state` reads them (with the ports of
 * @netdevs: --any-netdev), into @sp.  An exit code. */
int state_read(struct cli *cli, const char *const *netdevs, size_t nnetdev, struct state_ports *sp);
/* Add @p to @sp (which owns it then); -ENOMEM. */
int state_ports_add(struct state_ports *sp, struct mlx_port_settings *p);
void state_ports_free(struct state_ports *sp);
/* The differences of two states as `mlxcli diff` prints them (the
 * "differences" list; text: a unified diff headed @a_name, @b_name),
 * ports paired by PCI address.  Returns how many. */
size_t state_diff(struct cli *cli, const char *a_name, const char *b_name,
		  const struct state_ports *a, const struct state_ports *b);

#endif
