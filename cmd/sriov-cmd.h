/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What cmd/sriov.c (show, the tables) and cmd/sriov-write.c (numvfs, VF
 * settings, the eswitch mode) share.  Private to them.
 */
#ifndef MLXCLI_SRIOV_CMD_H
#define MLXCLI_SRIOV_CMD_H

#include "cli.h"
#include "sriov.h"

/* The PF of what -d named (a VF resolves to its PF); every PF without -d. */
int sriov_pick_pf(struct cli *cli, struct mlx_function *sel, struct mlx_function **pf);
/* The function of VF @idx of @pf in the device model; NULL when absent. */
const struct mlx_function *sriov_vf_fn(const struct mlx_devices *devs,
				       const struct mlx_function *pf, uint32_t idx);
void sriov_say_none(struct cli *cli, const struct mlx_devices *devs);

/* cmd/sriov-write.c */
extern const struct cmd_opt sriov_numvfs_opts[];
extern const char *const sriov_vf_settings[];
int cmd_sriov_set(struct cli *cli, int argc, char **argv);
int cmd_sriov_vf(struct cli *cli, int argc, char **argv);
int cmd_sriov_eswitch(struct cli *cli, int argc, char **argv);

struct mlx_vf_settings;
struct spath;
/* The one renderer of a VF's settings: sriov show's row (@sp NULL) or
 * state's object (@sp its path). */
void sriov_out_vf_settings(struct out *o, const struct mlx_vf_settings *v, const struct spath *sp);

#endif
