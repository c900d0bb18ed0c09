/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli rdma` (issue 24), shared by its two files: cmd/rdma.c (the
 * group table, show, gids, stats, the device selection) and
 * cmd/rdma-res.c (the resource listings: qp, cm-id, cq, mr, pd, ctx, srq).
 */
#ifndef MLX_RDMA_CMD_H
#define MLX_RDMA_CMD_H

#include "cli.h"
#include "rdma.h"

/* The RDMA devices a command covers, each joined to its ConnectX function
 * and port when it has one (a software device such as rxe has none). */
struct rdma_sel {
	struct mlx_rdma_devs devs;        /* every RDMA device of the system */
	bool *on;                         /* selected, by index into devs.v */
	struct mlx_devices *mdevs;        /* the ConnectX model (may be empty) */
};

/*
 * Resolve -d (an RDMA device, or anything cli_select takes: its function's
 * RDMA devices) against the system's RDMA devices.  Returns an exit code;
 * EXIT_OK with no device selected and *none set when the system has no
 * RDMA device (said on stderr, once, in one wording).
 */
int rdma_select(struct cli *cli, struct rdma_sel *s, bool *none);
void rdma_sel_free(struct rdma_sel *s);
/* The ConnectX function of an RDMA device, and its port for @port (NULL). */
const struct mlx_function *rdma_fn(const struct rdma_sel *s, const char *dev);
const struct mlx_port *rdma_port(const struct rdma_sel *s, const char *dev, unsigned port);
/* The identity fields every record carries: rdma_device, rdma_port,
 * netdev, pci_address (only when the device has a PCI function); @cols:
 * as text table columns (DEV, PORT, NETDEV), else JSON only. */
void rdma_out_where(struct out *o, const struct rdma_sel *s, const char *dev, unsigned port,
		    const char *netdev, bool cols);
/* The "not root" note (stderr): what RDMA netlink withheld, once. */
void rdma_say_restricted(struct cli *cli, const char *what);

int cmd_rdma_show(struct cli *cli, int argc, char **argv);
int cmd_rdma_gids(struct cli *cli, int argc, char **argv);
int cmd_rdma_stats(struct cli *cli, int argc, char **argv);
/* rdma-res.c: one handler per kind (the table says which) */
int cmd_rdma_qp(struct cli *cli, int argc, char **argv);
int cmd_rdma_cm_id(struct cli *cli, int argc, char **argv);
int cmd_rdma_cq(struct cli *cli, int argc, char **argv);
int cmd_rdma_mr(struct cli *cli, int argc, char **argv);
int cmd_rdma_pd(struct cli *cli, int argc, char **argv);
int cmd_rdma_ctx(struct cli *cli, int argc, char **argv);
int cmd_rdma_srq(struct cli *cli, int argc, char **argv);
/* mlxtool's `show nd connections`: QPs with their connections */
int cmd_rdma_nd_connections(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt rdma_qp_opts[], rdma_cm_id_opts[], rdma_res_opts[], rdma_nd_opts[];

#endif
