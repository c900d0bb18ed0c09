/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The entries of lib/emul/emulators.c's table (struct mlx_emul in
 * mlx-private.h): one per emulator, each defined in its own file, beside
 * the code that answers, so that what an emulator takes is its own word.
 * Not part of the library's interface.
 */
#ifndef MLX_EMUL_H
#define MLX_EMUL_H

#include "mlx-private.h"

extern const struct mlx_emul mlx_emul_dcb;      /* dcb-emul.c: RTM_SETDCB */
extern const struct mlx_emul mlx_emul_knobs;    /* params-emul.c: params set, traffic_class */
extern const struct mlx_emul mlx_emul_sriov;    /* sriov-vf-emul.c: VF settings, eswitch, numvfs */
extern const struct mlx_emul mlx_emul_dcqcn;    /* dcqcn-emul.c: np_cnp_prio */
extern const struct mlx_emul mlx_emul_link;     /* link-emul.c: SIOCSIFFLAGS */
extern const struct mlx_emul mlx_emul_device;   /* device-emul.c: what only the device does */
/* lifecycle-emul.c (issue 27): HEALTH_REPORTER_SET; PAUSE/LINKMODES/FEC_SET */
extern const struct mlx_emul mlx_emul_health_policy;
extern const struct mlx_emul mlx_emul_link_settings;
/* netdevs-emul.c (issue 27): RTM_NEWLINK (create) and RTM_DELLINK of child netdevs */
extern const struct mlx_emul mlx_emul_netdevs;

/*
 * mlx5's one register for PFC and global pause (PFCC; port.c
 * mlx5_set_port_pause writes pfctx/pfcrx 0, mlx5_set_port_pfc pptx/pprx
 * 0): each emulator's write clears the other's setting in the recorded
 * replies, as the next read on mlx5 would answer.  0 or -errno; a port
 * with no recorded reply has nothing to clear.
 */
int mlx_emul_pause_clear(struct mlx_ctx *ctx, const char *ifname);   /* lifecycle-emul.c */
int mlx_emul_pfc_clear(struct mlx_ctx *ctx, const char *ifname);     /* dcb-emul.c */

#endif
