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
/* cmd/vlan.c: VLAN netdevs; the write of child netdevs ipoib add/del share */
extern const struct cmd_group vlan_group;
int cmd_vlan_show(struct cli *cli, int argc, char **argv);
const char *vlan_proto_name(unsigned proto);
extern const struct cmd_opt netdevs_write_opts[];
struct mlx_port_settings;
struct mlx_port_ref;
/* A VLAN id (1-4094) or a pkey (kind: enum mlx_child_kind): exit 2 with
 * the message when it is none. */
int netdevs_parse_id(struct cli *cli, const char *text, unsigned kind, uint16_t *id);
/* The one step of MLX_SUB_NETDEVS towards @want on @t: planned, a delete
 * confirmed (@what: "VLAN 100" in the question), run unless --dry-run,
 * the change record out.  An exit code. */
int netdevs_write(struct cli *cli, struct mlx_port_settings *want, const struct mlx_port_ref *t,
		  bool del, const char *what);

#endif
