/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `mlxcli apply` (issue 19): cmd/apply.c runs it, cmd/apply-check.c
 * validates the file first. */
#ifndef MLXCLI_APPLY_CMD_H
#define MLXCLI_APPLY_CMD_H

#include <jansson.h>

#include "cli.h"
#include "dcb.h"
#include "dcqcn.h"
#include "params.h"
#include "sriov.h"
#include "state.h"
#include "write.h"

struct apply_file {
	struct cli *cli;
	const char *name;         /* as typed, for messages */
	json_t *doc;
};

/* One port of FILE matched to one port of the host. */
struct aport {
	char path[24];            /* "ports[2]" */
	json_t *spec;
	const struct mlx_function *fn;   /* NULL: a netdev that is no ConnectX port */
	const struct mlx_port *port;
	const char *ifname;       /* NULL: no netdev */
	const char *lock;         /* the device lock's name: fn's address, else the
				   * netdev's (as params set --any-netdev locks it) */
	/* a netdev that is no ConnectX port: the RDMA port on it (rdma_rxe),
	 * whose RDMA CM defaults its "roce" section sets; "" none */
	char rdma_dev[MLX_NAME_LEN];
	unsigned rdma_port;
};

/* The subsystems, in the order apply writes them (over every port):
 * QoS before DCQCN (the enables act on the priorities QoS sets up), the
 * driver's knobs (params) before SR-IOV (mlx5 refuses a change of the
 * devlink parameters flow_steering_mode and esw_port_metadata while the
 * eswitch is in switchdev mode, fs_core.c mlx5_fs_mode_validate and
 * mlx5_devlink_esw_port_metadata_validate, and the SR-IOV run may switch
 * to it; the netdev's rings, channels, MTU depend on no VF), numvfs (and the
 * eswitch mode) before the VFs' settings, the RDMA CM's defaults last
 * (nothing depends on them). */
enum sub { SUB_QOS, SUB_DCQCN, SUB_PARAMS, SUB_SRIOV, SUB_VF, SUB_ROCE };

/* One subsystem of one port (or one VF) through the engine.  The DCB
 * writer first: mlx_dcb_write_ops take the feature pointer as theirs. */
struct run {
	struct mlx_dcb_writer dw;
	struct mlx_dcqcn_writer cw;
	struct mlx_dcqcn_port dp;
	struct mlx_sriov_writer sw;
	struct mlx_roce_cm_writer rw;
	struct mlx_params_writer pw;
	enum sub sub;
	struct aport *ap;
	json_t *vf_spec;          /* SUB_VF: its element of sriov.vfs */
	size_t vf_index;          /* ... its index there, for messages */
	struct run *numvfs;       /* SUB_VF: its PF's SUB_SRIOV run */
	bool held;                /* the apply holds the device locks */
	struct mlx_plan pl;
	struct mlx_write_result res;
	int plan_rc;              /* the QoS plan's exit code (its message is in errmsg) */
	struct mlx_dcb_state *want;   /* QoS: the state the plan leads to (for the lint) */
	/* SUB_SRIOV: numvfs changes, so every VF comes back with the
	 * defaults; the VF table before it, for a put-back. */
	bool recreates;
	struct mlx_link_vfs before;
	bool have_before;
	/* SUB_SRIOV, numvfs unchanged: the VF table, read once for the
	 * PF's VF runs (lib/sriov.h, mlx_sriov_writer.table). */
	struct mlx_link_vfs table;
	bool have_table;
};

/* cmd/apply-qos.c: the QoS plan (the engine's plan callback, under the
 * lock; r->want gets the DCB state it leads to), whether the port names a
 * QoS setting, and the DCQCN requests of its dcqcn section (r->pl; empty
 * when it names nothing).  apply_dcqcn_requests returns an exit code with
 * the message out. */
int apply_qos_plan(struct mlx_ctx *ctx, void *feat, struct mlx_plan *pl);
bool apply_has_qos(json_t *s);
int apply_dcqcn_requests(struct cli *cli, struct run *r);

/* cmd/apply-params.c: a port's "params" in the catalogue's order into
 * r->pl (an exit code, the message out); and a knob's value in FILE as the
 * text the catalogue's parser takes, into @buf (0, or -EINVAL with the
 * story in mlx_errmsg: the JSON type is not the knob's). */
int apply_params_requests(struct cli *cli, struct run *r);
int apply_knob_text(struct mlx_ctx *ctx, const struct mlx_knob *k, json_t *x, char *buf,
		    size_t len);

/* cmd/apply-sriov.c: the plan of a SUB_SRIOV, SUB_VF or SUB_ROCE run from
 * FILE (empty when it names nothing), and its engine operations.  An exit
 * code with the message out. */
int apply_sriov_requests(struct cli *cli, struct run *r, bool dry);
int apply_vf_requests(struct cli *cli, struct run *r);
int apply_roce_requests(struct cli *cli, struct run *r);
/* The operations and feature of @r's subsystem (SUB_PARAMS, SUB_SRIOV,
 * SUB_VF, SUB_ROCE), set up from r->ap (and r->vf_spec). */
void apply_sub_ops(struct run *r, const struct mlx_write_ops **ops, void **feat);
/* After a SUB_SRIOV run's numvfs was put back: the VFs' settings from
 * before, each VF through the engine.  0 or -errno. */
int apply_sriov_restore_vfs(struct cli *cli, struct run *r);
/* How many SUB_VF runs FILE's port asks for. */
size_t apply_nvf_runs(const struct aport *ap);

/* --diff (cmd/apply-state.c): the state now against it with FILE's sections
 * laid over the matched ports, as mlxcli diff prints it.  An exit code. */
int apply_show_diff(struct cli *cli, struct aport *ap, size_t nap);

/* Validate the whole document: an exit code (2 with the JSON path). */
int apply_check(struct apply_file *f);
/* The DCQCN parameter state names @name on @side; NULL none. */
const struct mlx_dcqcn_param *apply_dcqcn_param(const char *name, enum mlx_dcqcn_side side);

extern const struct cmd_opt apply_opts[];
int cmd_apply(struct cli *cli, int argc, char **argv);

#endif
