/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dbg group's handlers that live outside cmd/dbg.c (its table). */
#ifndef MLX_DBG_CMD_H
#define MLX_DBG_CMD_H

struct cli;

/* cmd/dbg-link.c */
int cmd_dbg_restart(struct cli *cli, int argc, char **argv);
int cmd_dbg_pddrinfo(struct cli *cli, int argc, char **argv);

#endif
