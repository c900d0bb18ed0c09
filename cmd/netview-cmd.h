/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The views of issue 27 (cmd/netview.c, cmd/irq.c, cmd/ipoib.c): what
 * their files share, and their handlers for the command tables.
 */
#ifndef MLX_CMD_NETVIEW_H
#define MLX_CMD_NETVIEW_H

#include "cli.h"

/* Each port a view covers, in device order: -d's (a function: all of its
 * ports), else every port of every function; with --any-netdev -d NAME a
 * netdev that is no ConnectX port (@fn NULL).  Returns an exit code. */
typedef void (*netview_port_fn)(struct cli *cli, const struct mlx_function *fn, const char *ifname,
				void *arg);
int netview_for_ports(struct cli *cli, netview_port_fn f, void *arg);
/* netdev, pci_address (null for a bare netdev). */
void netview_port_ids(struct out *o, const struct mlx_function *fn, const char *ifname);

extern const struct cmd_opt netview_opts[];   /* --any-netdev */
int cmd_vxlan(struct cli *cli, int argc, char **argv);
int cmd_packet_filter(struct cli *cli, int argc, char **argv);
int cmd_dropless(struct cli *cli, int argc, char **argv);
/* cmd/irq.c */
extern const struct cmd_opt irq_opts[];
int cmd_irq(struct cli *cli, int argc, char **argv);
/* cmd/ipoib.c */
extern const struct cmd_group ipoib_group;
int cmd_ipoib_show(struct cli *cli, int argc, char **argv);
int cmd_ipoib_pkeys(struct cli *cli, int argc, char **argv);
int cmd_ipoib_endpoints(struct cli *cli, int argc, char **argv);
extern const struct cmd_opt ipoib_ep_opts[];
extern const struct cmd_arg ipoib_if_arg[];

#endif
