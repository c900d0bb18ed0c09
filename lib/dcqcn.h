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
 * Defaults are the firmware's factory values (mlxconfig's NV_ROCE_CC_ECN
 * and ROCE_CC_PRIO_MASK, see mlx_dcqcn_defaults()); the manual's `-Get`
 * sample is kept as an example only: it is not a defaults table.
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
	const char *nvconfig;     /* mlxconfig name without _P<port>; for the
				   * enables ROCE_CC_PRIO_MASK (bit prio) */
	bool has_default;         /* the firmware's factory value is known */
	uint64_t def;
	bool has_example;         /* the manual's -Get sample shows a value */
	uint64_t example;         /* ... which is an example, not a default */
	bool line_rate;           /* max is "line rate": clamp to port speed */
	bool line_rate_disables;  /* at the line rate, congestion control is off */
	const char *resets;       /* debugfs: the driver sets this other
				   * cc_params file to 0 when this one is
				   * written (cong.c); NULL: none */
	const char *desc;
};

/* The table; *n receives its length. */
const struct mlx_dcqcn_param *mlx_dcqcn_params(size_t *n);

/*
 * Where the table's defaults come from, for a device.  Only one family's
 * factory values are captured (mlxconfig of a ConnectX-4 Lx); the other
 * families are assumed to ship the same (the sample hosts' ConnectX-5 and
 * ConnectX-6 Dx files agree) until a capture says otherwise.
 */
struct mlx_dcqcn_defaults {
	const char *source;       /* what was read: tool, card, capture */
	const char *family;       /* the family the values were captured on */
	bool captured_family;     /* @fn is of that family */
};

/* @fn may be NULL (no device: family unknown, captured_family false). */
void mlx_dcqcn_defaults(const struct mlx_function *fn, struct mlx_dcqcn_defaults *d);

/*
 * The parameter that writing @p changes as a side effect in layout @l
 * (debugfs: np_cnp_prio resets np_cnp_prio_mode to 0), and the value it
 * gets; NULL when none.  The table lists @p before that parameter, so
 * writes in table order leave what was asked.
 */
const struct mlx_dcqcn_param *mlx_dcqcn_side_effect(const struct mlx_dcqcn_param *p,
						    enum mlx_dcqcn_layout l, uint64_t *val);

/*
 * Find a parameter by any of its names, case-insensitively: the mlx5cmd
 * name (with or without a leading '-', U+2013 or U+2014), the OFED file
 * name, the debugfs file name.  DcqcnRPEnablePrio<N>/DcqcnNPEnablePrio<N>
 * (the -Get spelling) find DcqcnEnablePrio<N> with *side set to one side;
 * otherwise *side is the parameter's own side.  NULL when unknown.
 */
const struct mlx_dcqcn_param *mlx_dcqcn_find(const char *name, enum mlx_dcqcn_side *side);

/*
 * Is @word a DCQCN name in mlx5cmd's dashed form ("-DcqcnRpgAiRate", any
 * case, known or not): an argument of the command, not "-d cqcn..."?
 */
bool mlx_dcqcn_dashed_name(const char *word);

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

/* Does @val of @p at this port speed turn congestion control off?
 * (DcqcnRpgMinRate at the line rate: the manual.) */
bool mlx_dcqcn_disables_cc(const struct mlx_dcqcn_param *p, uint64_t val, int64_t speed_mbps);

/* How a parameter is named in output. */
enum mlx_dcqcn_style {
	MLX_DCQCN_MLX5CMD,        /* the -Get spelling: DcqcnRPEnablePrio3, DcqcnRpgAiRate;
				   * "" for a Linux-only parameter */
	MLX_DCQCN_FILE,           /* the file: enable/3, rpg_ai_rate (OFED), rp_ai_rate */
	MLX_DCQCN_SIDE_FILE,      /* as FILE, an enable with its side: roce_rp/enable/3 */
};

/*
 * The name of @p (on @side, for an enable) in @style, for layout @l: the
 * file of that layout, else of the other one (MLX_DCQCN_NONE: OFED first).
 */
void mlx_dcqcn_name(const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side,
		    enum mlx_dcqcn_layout l, enum mlx_dcqcn_style style, char *buf, size_t len);

/* The file name of @p in layout @l, else in the other layout (never NULL). */
const char *mlx_dcqcn_file(const struct mlx_dcqcn_param *p, enum mlx_dcqcn_layout l);

/* The MLNX_OFED directory of a side under ecn/: "roce_rp" or "roce_np". */
const char *mlx_dcqcn_ofed_dir(enum mlx_dcqcn_side side);

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

/*
 * Can @p (on @side) be written in this layout?  0, or -EOPNOTSUPP with the
 * reason in mlx_errmsg (no per-priority enable upstream, and what to do
 * instead; a parameter of the other layout only).
 */
int mlx_dcqcn_writable(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp,
		       const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side);

/* The directory of one side's per-priority enable files (MLNX_OFED only;
 * -ENOENT otherwise). */
int mlx_dcqcn_enable_dir(const struct mlx_dcqcn_port *dp, enum mlx_dcqcn_side side, char *buf,
			 size_t len);

/* Where @p lives in both layouts, for people: "rpg_ai_rate (MLNX_OFED
 * ecn/roce_rp), rp_ai_rate (debugfs cc_params)". */
void mlx_dcqcn_where(const struct mlx_dcqcn_param *p, char *buf, size_t len);

/* Read a parameter.  -ENOENT when the layout lacks it, else as mlx_read_u64. */
int mlx_dcqcn_read(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp,
		   const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side, uint64_t *val);

/*
 * Per-priority DCQCN enable state of one port, for readers (counters cc,
 * show qos and its lint): rp[prio] and np[prio] are 1 enabled, 0 disabled,
 * -1 unknown.  Unknown is not "disabled": the upstream driver exposes no
 * per-priority enable (the firmware's ROCE_CC_PRIO_MASK decides, and it is
 * not readable from Linux), and a file that cannot be read is unknown too.
 * Returns the number of known entries (0..16).
 */
int mlx_dcqcn_prio_state(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp, int rp[8],
			 int np[8]);

/*
 * Write one parameter (no read-back, no put-back: the write engine,
 * lib/write.h, does those for a whole set).  On a captured system the
 * write goes through mlx_emul_dcqcn_write().  0 or -errno.
 */
int mlx_dcqcn_write(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp,
		    const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side, uint64_t val);

/*
 * DCQCN in the write engine.  A change is one parameter on one side
 * (mlx_dcqcn_plan_add); the plan puts them in table order (a write the
 * driver answers by resetting another parameter comes before that one),
 * clamps line-rate values to the port speed (the manual's rule, with a
 * note), and adds what such a write resets, to be written back (rewrite).
 */
struct mlx_dcqcn_writer {
	const struct mlx_dcqcn_port *dp;
	int64_t speed_mbps;       /* the port's line rate; <= 0 unknown */
	/* A transaction's step (lib/settings.h): the port the writer opens,
	 * and its files (dp then points here). */
	const struct mlx_function *fn;
	const struct mlx_port *port;
	struct mlx_dcqcn_port own;
	/* Set by the plan, for the caller's warnings. */
	bool clamped;             /* a value was above the line rate */
	bool speed_unknown;       /* a line-rate value could not be checked */
};

struct mlx_write_ops;
struct mlx_plan;
extern const struct mlx_write_ops mlx_dcqcn_write_ops;
/* Add "@p on @side = @val" to @pl (setting: the file name with its side,
 * label: the mlx5cmd name).  Returns its index or -ENOMEM. */
int mlx_dcqcn_plan_add(struct mlx_plan *pl, const struct mlx_dcqcn_param *p,
		       enum mlx_dcqcn_side side, enum mlx_dcqcn_layout l, uint64_t val);

/*
 * The driver's side of a write to a captured system's DCQCN file
 * (lib/emul/dcqcn-emul.c): the value is stored, and what the driver does on
 * that write is done to the other files.
 */
int mlx_emul_dcqcn_write(struct mlx_ctx *ctx, const char *path, const char *val);

#endif /* MLX_DCQCN_H */
