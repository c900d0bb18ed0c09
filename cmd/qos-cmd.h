/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What cmd/qos.c (show qos) and cmd/qos-write.c (the QoS write verbs) share. */
#ifndef MLXCLI_QOS_CMD_H
#define MLXCLI_QOS_CMD_H

#include "cli.h"
#include "dcb.h"

#define MAXPORTS 64

struct qport {
	char ifname[16];
	const struct mlx_function *fn;    /* NULL: a netdev that is no ConnectX */
	const struct mlx_port *port;
};

/* The one port -d names (exit 2 when it names several). */
int qos_one_target(struct cli *cli, struct qport *q);
/* A priority 0-7 (@what names it in the error). */
int qos_parse_prio(struct cli *cli, const char *s, const char *what, int *out);
/* "host" or "firmware": who runs DCBX. */
const char *qos_dcbx_mode(uint8_t dcbx);

/* show qos's facts beside a port's DCB settings. */
struct qos_show {
	const char *ifname;
	const char *owner;        /* who sets them: host, firmware, lldpad */
	const char *lldpad_pid;   /* lldpad's pid file when it runs, else NULL */
};
struct mlx_qos_settings;
/* The one renderer of a port's DCB settings: show qos's view (@x), or
 * state's (@x NULL). */
void qos_out_dcb(struct out *o, const struct mlx_qos_settings *q, const struct qos_show *x);

#endif
