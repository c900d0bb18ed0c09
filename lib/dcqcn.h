/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DCQCN (RoCE congestion control) parameters: one table, and the two Linux
 * layouts that expose them.
 *
 * The table follows the WinOF-2 manual's "RCM Parameters" (mlx5cmd
 * -Qosconfig -Dcqcn): the 26 mlx5cmd names (DcqcnEnablePrio0..7 and 18
 * parameters) in the order `-Get` prints them, plus the two parameters
 * Linux has and the manual does not (rpg_max_rate, min_time_between_cnps).
 * It drives validation, help, describe, completion and the man page.
 *
 * Layouts (reference linux-mlx5-interfaces.md §1.2, §1.3):
 *   OFED      /sys/class/net/<if>/ecn/roce_rp|roce_np/<file>, enable/<0-7>
 *   upstream  <debugfs>/mlx5/<bdf>/cc_params/<file> (no per-priority enable)
 */
#ifndef MLX_DCQCN_H
#define MLX_DCQCN_H

#include "device.h"

enum mlx_dcqcn_side { MLX_DCQCN_RP = 1, MLX_DCQCN_NP = 2, MLX_DCQCN_BOTH = 3 };

enum mlx_dcqcn_layout { MLX_DCQCN_NONE, MLX_DCQCN_OFED, MLX_DCQCN_DEBUGFS };

struct mlx_dcqcn_param {
	const char *mlx5cmd;      /* "DcqcnRpgAiRate"; NULL: Linux only */
	enum mlx_dcqcn_side side; /* BOTH only for DcqcnEnablePrio<N> */
	int prio;                 /* 0..7 for DcqcnEnablePrio<N>, else -1 */
	const char *ofed;         /* file in ecn/roce_rp|roce_np; NULL: absent */
	const char *debugfs;      /* file in cc_params; NULL: absent */
	unsigned width;           /* bits, as the manual gives the type */
	uint64_t min, max;
	const char *unit;
	bool has_default;         /* the manual shows a value */
	uint64_t def;
	bool line_rate;           /* max is "line rate": clamp to port speed */
	const char *desc;
};

/* The table; *n receives its length. */
const struct mlx_dcqcn_param *mlx_dcqcn_params(size_t *n);

/*
 * Find a parameter by any of its names, case-insensitively: the mlx5cmd
 * name (with or without a leading '-', U+2013 or U+2014), the OFED file
 * name, the debugfs file name.  DcqcnRPEnablePrio<N>/DcqcnNPEnablePrio<N>
 * (the -Get spelling) find DcqcnEnablePrio<N> with *side set to one side;
 * otherwise *side is the parameter's own side.  NULL when unknown.
 */
const struct mlx_dcqcn_param *mlx_dcqcn_find(const char *name, enum mlx_dcqcn_side *side);

/* The name without its leading dash, as mlx_dcqcn_find() reads it. */
const char *mlx_dcqcn_strip_dash(const char *name);

/*
 * Parse a value for @p: decimal or 0x hex, no sign, no overflow.
 * -EINVAL not a number (or negative), -ERANGE outside [min, max].
 */
int mlx_dcqcn_parse(const struct mlx_dcqcn_param *p, const char *text, uint64_t *val);

/*
 * The "line rate" rule (manual: "An attempt to set a greater value than the
 * parameter's maximum "line rate" value ... The maximum "line rate" value
 * will be set instead"): for a line-rate parameter and a known speed
 * (Mb/s, > 0), a value above it becomes the speed.  Returns the value to
 * write; *clamped tells whether it changed.
 */
uint64_t mlx_dcqcn_clamp(const struct mlx_dcqcn_param *p, uint64_t val, int64_t speed_mbps,
			 bool *clamped);

/* Where one port's DCQCN files are. */
struct mlx_dcqcn_port {
	enum mlx_dcqcn_layout layout;
	const struct mlx_function *fn;
	const struct mlx_port *port;
	char dir[2][160];         /* OFED: [0] roce_rp, [1] roce_np; debugfs: [0] cc_params */
};

const char *mlx_dcqcn_layout_name(enum mlx_dcqcn_layout l);

/*
 * Find the layout of @port on @fn.  -EOPNOTSUPP (VF; neither layout: the
 * message says what was looked for and why it may be missing), -EACCES
 * (debugfs not readable by this user), 0.
 */
int mlx_dcqcn_open(struct mlx_ctx *ctx, const struct mlx_function *fn,
		   const struct mlx_port *port, struct mlx_dcqcn_port *dp);

/* Target path of a parameter (side for DcqcnEnablePrio<N>: RP or NP).
 * -ENOENT when the layout has no such file. */
int mlx_dcqcn_path(const struct mlx_dcqcn_port *dp, const struct mlx_dcqcn_param *p,
		   enum mlx_dcqcn_side side, char *buf, size_t len);

/* Read a parameter.  -ENOENT when the layout lacks it, else as mlx_read_u64. */
int mlx_dcqcn_read(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp,
		   const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side, uint64_t *val);

/* One file write of an all-or-nothing set. */
struct mlx_dcqcn_write {
	char path[200];           /* target path */
	const char *what;         /* name for messages */
	uint64_t old, val;
};

/*
 * Write w[0..n) in order.  If w[k] fails, w[k-1]..w[0] are put back to
 * their old values; *failed = k, *restore_err = 0 or the first -errno of
 * the restore.  Returns 0 or the -errno of the failed write.
 */
int mlx_dcqcn_write_all(struct mlx_ctx *ctx, const struct mlx_dcqcn_write *w, size_t n,
			size_t *failed, int *restore_err);

#endif /* MLX_DCQCN_H */
