/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DCQCN parameter table and the two Linux layouts (see dcqcn.h).
 *
 * Ranges and units are the WinOF-2 manual's ("RCM Parameters").  Where the
 * manual contradicts itself we chose, and say so in the description:
 * DcqcnRpgMinDecFac is a denominator ("!zero"), so 0 is rejected;
 * "0 - UINT32-1" is read as the whole 32-bit range.
 * Defaults are the firmware's factory values as mlxconfig prints them
 * (NV_ROCE_CC_ECN_P<n>, ROCE_CC_PRIO_MASK_P<n>: 255 = every priority on),
 * captured on a ConnectX-4 Lx (fixtures dcqcn/cx4lx-*-roce-cc-defaults;
 * tests/unit/test-dcqcn.c checks each against it).  The manual's `-Get`
 * sample (the only values the manual prints) is kept as `example`: it is
 * a tuned port, and restoring it broke working RoCE set-ups (issue 15).
 * File names: MLNX_OFED en_sysfs.c (ecn/), upstream
 * drivers/infiniband/hw/mlx5/cong.c (cc_params/).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "dcqcn.h"
#include "mlx-private.h"

#define U32 4294967295ULL
#define EN(n) { .mlx5cmd = "DcqcnEnablePrio" #n, .side = MLX_DCQCN_BOTH, .prio = n, \
		.ofed = "enable/" #n, .width = 1, .min = 0, .max = 1, .unit = "bool", \
		.nvconfig = "ROCE_CC_PRIO_MASK", .has_default = true, .def = 1, \
		.has_example = true, .example = 1, \
		.desc = "enable DCQCN on priority " #n " (RP and NP separately in -Get; per-priority " \
			"enable exists only in the MLNX_OFED sysfs)" }
/* An RP or NP parameter: firmware default d, the manual's example x. */
#define RP(cmd, of, dbg, w, lo, hi, u, nv, d, x, lr, text) \
	{ .mlx5cmd = cmd, .side = MLX_DCQCN_RP, .prio = -1, .ofed = of, .debugfs = dbg, .width = w, \
	  .min = lo, .max = hi, .unit = u, .nvconfig = nv, .has_default = true, .def = d, \
	  .has_example = cmd != NULL, .example = x, .line_rate = lr, .desc = text }
#define NP(cmd, of, dbg, w, lo, hi, u, nv, d, x, text) \
	{ .mlx5cmd = cmd, .side = MLX_DCQCN_NP, .prio = -1, .ofed = of, .debugfs = dbg, .width = w, \
	  .min = lo, .max = hi, .unit = u, .nvconfig = nv, .has_default = true, .def = d, \
	  .has_example = cmd != NULL, .example = x, .desc = text }

static const struct mlx_dcqcn_param params[] = {
	EN(0), EN(1), EN(2), EN(3), EN(4), EN(5), EN(6), EN(7),
	RP("DcqcnClampTgtRate", "clamp_tgt_rate", "rp_clamp_tgt_rate", 1, 0, 1, "bool",
	   "CLAMP_TGT_RATE", 0, 0, false,
	   "if set, whenever a CNP is processed, the target rate is updated to be the current rate"),
	RP("DcqcnClampTgtRateAfterTimeInc", "clamp_tgt_rate_after_time_inc", "rp_clamp_tgt_rate_ati",
	   1, 0, 1, "bool", "CLAMP_TGT_RATE_AFTER_TIME_INC", 1, 1, false,
	   "when receiving a CNP, update the target rate also if the rate was increased by the "
	   "timer, not only by the byte counter"),
	RP("DcqcnRpgTimeReset", "rpg_time_reset", "rp_time_reset", 32, 0, 131071, "microseconds",
	   "RPG_TIME_RESET", 300, 100, false,
	   "time between rate increases when no CNP arrives (T)"),
	RP("DcqcnRpgByteReset", "rpg_byte_reset", "rp_byte_reset", 32, 0, 32767, "64 bytes",
	   "RPG_BYTE_RESET", 32767, 400, false,
	   "bytes sent between rate increases (B), in 64-byte units; 0 disables the byte counter"),
	RP("DcqcnRpgThreshold", "rpg_threshold", "rp_threshold", 32, 1, 31, "iterations",
	   "RPG_THRESHOLD", 1, 5, false,
	   "successive increase iterations before the next increase phase (Th)"),
	RP("DcqcnRpgAiRate", "rpg_ai_rate", "rp_ai_rate", 32, 1, U32, "Mbit/s",
	   "RPG_AI_RATE", 5, 10, true,
	   "rate step of the additive increase phase"),
	RP("DcqcnRpgHaiRate", "rpg_hai_rate", "rp_hai_rate", 32, 1, U32, "Mbit/s",
	   "RPG_HAI_RATE", 50, 100, true,
	   "rate step of the hyper additive increase phase"),
	RP("DcqcnAlphaToRateShift", "rpg_gd", "rp_gd", 32, 0, 11, "log2",
	   "RPG_GD", 11, 11, false,
	   "the decrease rate for a given alpha: Cr * (1 - alpha / 2^shift)"),
	RP("DcqcnRpgMinDecFac", "rpg_min_dec_fac", "rp_min_dec_fac", 32, 1, 100, "percent",
	   "RPG_MIN_DEC_FAC", 50, 50, false,
	   "the maximal ratio of decrease in a single step (the manual allows 0 but uses it as a "
	   "denominator, so 0 is rejected)"),
	/* At the line rate no flow is ever slowed: a floor, not a cap. */
	{ .mlx5cmd = "DcqcnRpgMinRate", .side = MLX_DCQCN_RP, .prio = -1, .ofed = "rpg_min_rate",
	  .debugfs = "rp_min_rate", .width = 32, .min = 0, .max = U32, .unit = "Mbit/s",
	  .nvconfig = "RPG_MIN_RATE", .has_default = true, .def = 1, .has_example = true,
	  .example = 1, .line_rate = true, .line_rate_disables = true,
	  .desc = "the minimal rate of a single flow; setting it to the line rate disables "
		  "congestion control" },
	RP("DcqcnRateToSetOnFirstCnp", "rate_to_set_on_first_cnp", "rp_rate_to_set_on_first_cnp",
	   32, 0, U32, "Mbit/s", "RATE_TO_SET_ON_FIRST_CNP", 0, 3000, true,
	   "the current rate (CR) set when the first CNP of a flow arrives (0: the port speed)"),
	RP("DcqcnDceTcpG", "dce_tcp_g", "rp_dce_tcp_g", 32, 0, 1023, "1/1024",
	   "DCE_TCP_G", 1019, 32, false,
	   "alpha gain g, a fixed-point fraction of 1024"),
	RP("DcqcnDceTcpRtt", "dce_tcp_rtt", "rp_dce_tcp_rtt", 32, 0, 131071, "microseconds",
	   "DCE_TCP_RTT", 1, 4, false,
	   "alpha update period: alpha rises if a CNP arrived in it, else decays"),
	RP("DcqcnRateReduceMonitorPeriod", "rate_reduce_monitor_period",
	   "rp_rate_reduce_monitor_period", 32, 0, U32, "microseconds",
	   "RATE_REDUCE_MONITOR_PERIOD", 4, 32, false,
	   "minimal time between two rate decreases (the manual's \"UINT32-1\" is read as the "
	   "32-bit range)"),
	RP("DcqcnInitialAlphaValue", "initial_alpha_value", "rp_initial_alpha_value", 32, 0, 1023,
	   "1/1024", "INITIAL_ALPHA_VALUE", 1023, 0, false,
	   "alpha used on the first CNP of a flow, a fixed-point fraction of 1024"),
	RP(NULL, "rpg_max_rate", "rp_max_rate", 32, 0, U32, "Mbit/s", "RPG_MAX_RATE", 0, 0, false,
	   "the maximal rate of a flow, 0 = the port speed (Linux only; not in the manual)"),
	NP("DcqcnCnpDscp", "cnp_dscp", "np_cnp_dscp", 6, 0, 63, "DSCP", "CNP_DSCP", 48, 0,
	   "the DSCP (IP-level priority) of generated CNPs"),
	/* Before DcqcnCnpPrioMode: its write resets the mode (cong.c). */
	{ .mlx5cmd = "DcqcnCnp802pPrio", .side = MLX_DCQCN_NP, .prio = -1, .ofed = "cnp_802p_prio",
	  .debugfs = "np_cnp_prio", .width = 3, .min = 0, .max = 7, .unit = "802.1p",
	  .nvconfig = "CNP_802P_PRIO", .has_default = true, .def = 6, .has_example = true,
	  .example = 7, .resets = "np_cnp_prio_mode",
	  .desc = "the 802.1p priority of generated CNPs, used when DcqcnCnpPrioMode is 0 (on "
		  "Linux, writing it also sets the mode to 0)" },
	/* Not in mlxconfig's NV_ROCE_CC_ECN: no factory value captured. */
	{ .mlx5cmd = "DcqcnCnpPrioMode", .side = MLX_DCQCN_NP, .prio = -1,
	  .debugfs = "np_cnp_prio_mode", .width = 1, .min = 0, .max = 1, .unit = "bool",
	  .has_example = true, .example = 1,
	  .desc = "0: CNPs use DcqcnCnp802pPrio; 1: CNPs take the priority of the marked packet "
		  "(upstream debugfs only)" },
	NP(NULL, "min_time_between_cnps", "np_min_time_between_cnps", 32, 0, U32, "microseconds",
	   "MIN_TIME_BETWEEN_CNPS", 4, 0,
	   "minimal time between two CNPs sent (Linux only; not in the manual)"),
};

const struct mlx_dcqcn_param *mlx_dcqcn_params(size_t *n)
{
	*n = sizeof(params) / sizeof(params[0]);
	return params;
}

/* PCI device IDs of the captured family: ConnectX-4 Lx PF and VF. */
#define CAPTURED_PF 0x1015
#define CAPTURED_VF 0x1016

void mlx_dcqcn_defaults(const struct mlx_function *fn, struct mlx_dcqcn_defaults *d)
{
	d->source = "firmware factory values: mlxconfig q (NV_ROCE_CC_ECN_P1/P2, "
		    "ROCE_CC_PRIO_MASK_P1/P2) of a ConnectX-4 Lx MCX4121A-ACU_Ax, MFT 4.27";
	d->family = "ConnectX-4 Lx";
	d->captured_family = fn && fn->vendor == 0x15b3 &&
			     (fn->device == CAPTURED_PF || fn->device == CAPTURED_VF);
}

const struct mlx_dcqcn_param *mlx_dcqcn_side_effect(const struct mlx_dcqcn_param *p,
						    enum mlx_dcqcn_layout l, uint64_t *val)
{
	/* MLNX_OFED has no cnp_prio_mode file: nothing to see there. */
	if (l != MLX_DCQCN_DEBUGFS || !p->resets)
		return NULL;
	*val = 0;
	return mlx_dcqcn_find(p->resets, NULL);
}

const char *mlx_dcqcn_strip_dash(const char *name)
{
	if (name[0] == '-')
		return name + 1;
	/* U+2013 EN DASH and U+2014 EM DASH, which manuals print for '-'. */
	if ((unsigned char)name[0] == 0xe2 && (unsigned char)name[1] == 0x80 &&
	    ((unsigned char)name[2] == 0x93 || (unsigned char)name[2] == 0x94))
		return name + 3;
	return name;
}

bool mlx_dcqcn_dashed_name(const char *word)
{
	/* Every mlx5cmd name of the table starts so (the manual's RCM table). */
	return word[0] == '-' && !strncasecmp(word + 1, "Dcqcn", 5);
}

const struct mlx_dcqcn_param *mlx_dcqcn_find(const char *name, enum mlx_dcqcn_side *side)
{
	const char *s = mlx_dcqcn_strip_dash(name);
	enum mlx_dcqcn_side sd = 0;
	char en[32];

	/* The -Get spelling of the enables: DcqcnRPEnablePrio3. */
	if (!strncasecmp(s, "DcqcnRPEnablePrio", 17) || !strncasecmp(s, "DcqcnNPEnablePrio", 17)) {
		sd = (s[5] == 'R' || s[5] == 'r') ? MLX_DCQCN_RP : MLX_DCQCN_NP;
		snprintf(en, sizeof(en), "DcqcnEnablePrio%s", s + 17);
		s = en;
	}
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		const struct mlx_dcqcn_param *p = &params[i];

		if ((p->mlx5cmd && !strcasecmp(s, p->mlx5cmd)) ||
		    (!sd && p->prio < 0 && p->ofed && !strcasecmp(s, p->ofed)) ||
		    (!sd && p->debugfs && !strcasecmp(s, p->debugfs))) {
			if (side)
				*side = sd ? sd : p->side;
			return p;
		}
	}
	return NULL;
}

int mlx_dcqcn_parse(const struct mlx_dcqcn_param *p, const char *text, uint64_t *val)
{
	uint64_t v;
	int r;

	r = mlx_parse_u64(text, &v);
	if (r < 0)
		return r;
	if (v < p->min || v > p->max)
		return -ERANGE;
	*val = v;
	return 0;
}

uint64_t mlx_dcqcn_clamp(const struct mlx_dcqcn_param *p, uint64_t val, int64_t speed_mbps,
			 bool *clamped)
{
	*clamped = false;
	if (p->line_rate && speed_mbps > 0 && val > (uint64_t)speed_mbps) {
		*clamped = true;
		return (uint64_t)speed_mbps;
	}
	return val;
}

bool mlx_dcqcn_disables_cc(const struct mlx_dcqcn_param *p, uint64_t val, int64_t speed_mbps)
{
	return p->line_rate_disables && speed_mbps > 0 && val >= (uint64_t)speed_mbps;
}

const char *mlx_dcqcn_ofed_dir(enum mlx_dcqcn_side side)
{
	return side == MLX_DCQCN_NP ? "roce_np" : "roce_rp";
}

const char *mlx_dcqcn_file(const struct mlx_dcqcn_param *p, enum mlx_dcqcn_layout l)
{
	if (l == MLX_DCQCN_DEBUGFS)
		return p->debugfs ? p->debugfs : p->ofed;
	return p->ofed ? p->ofed : p->debugfs;
}

void mlx_dcqcn_name(const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side,
		    enum mlx_dcqcn_layout l, enum mlx_dcqcn_style style, char *buf, size_t len)
{
	if (p->prio >= 0 && style == MLX_DCQCN_MLX5CMD)
		/* -Get prints each side: DcqcnRPEnablePrio3, DcqcnNPEnablePrio3. */
		snprintf(buf, len, "Dcqcn%sEnablePrio%d", side == MLX_DCQCN_NP ? "NP" : "RP", p->prio);
	else if (p->prio >= 0 && style == MLX_DCQCN_SIDE_FILE)
		snprintf(buf, len, "%s/%s", mlx_dcqcn_ofed_dir(side), p->ofed);
	else if (style == MLX_DCQCN_MLX5CMD)
		snprintf(buf, len, "%s", p->mlx5cmd ? p->mlx5cmd : "");
	else
		snprintf(buf, len, "%s", mlx_dcqcn_file(p, l));
}

const char *mlx_dcqcn_layout_name(enum mlx_dcqcn_layout l)
{
	switch (l) {
	case MLX_DCQCN_OFED:
		return "ofed-sysfs";
	case MLX_DCQCN_DEBUGFS:
		return "debugfs";
	default:
		return "none";
	}
}

int mlx_dcqcn_open(struct mlx_ctx *ctx, const struct mlx_function *fn,
		   const struct mlx_port *port, struct mlx_dcqcn_port *dp)
{
	char **names = NULL;
	char ofed[160], dbg[160], dev[160];
	size_t n = 0;
	int r;

	memset(dp, 0, sizeof(*dp));
	dp->fn = fn;
	dp->port = port;
	if (fn->role == MLX_FN_VF)
		return mlx_err(ctx, EOPNOTSUPP,
			       "%s is a virtual function: DCQCN is configured on its PF%s%s "
			       "(\"RCM is supported only when using a physical adapter\")",
			       fn->bdf, fn->pf ? " " : "", fn->pf ? fn->pf->bdf : "");
	if (port && !mlx_name_is_safe(port->ifname))
		return mlx_err(ctx, EINVAL, "invalid interface name '%s'", port->ifname);

	/* MLNX_OFED: ecn/ under the netdev (en_sysfs.c, PFs only). */
	if (port && port->ifname[0]) {
		snprintf(ofed, sizeof(ofed), "/sys/class/net/%s/ecn", port->ifname);
		r = mlx_dir_probe(ctx, ofed);
		/* a directory this user may not enter is not an absent one */
		if (r == -EACCES || r == -EPERM)
			return mlx_err(ctx, EACCES, "cannot read the DCQCN files of %s: '%s': permission "
				       "denied (run as root, or as a user who may read it)", fn->bdf, ofed);
		if (r == 0) {
			dp->layout = MLX_DCQCN_OFED;
			snprintf(dp->dir[0], sizeof(dp->dir[0]), "%s/%s", ofed,
				 mlx_dcqcn_ofed_dir(MLX_DCQCN_RP));
			snprintf(dp->dir[1], sizeof(dp->dir[1]), "%s/%s", ofed,
				 mlx_dcqcn_ofed_dir(MLX_DCQCN_NP));
			return 0;
		}
	} else {
		snprintf(ofed, sizeof(ofed), "/sys/class/net/<netdev>/ecn");
	}

	/* Upstream: cc_params in the per-device mlx5 debugfs dir (cong.c). */
	snprintf(dev, sizeof(dev), "/sys/kernel/debug/mlx5/%s", fn->bdf);
	snprintf(dbg, sizeof(dbg), "%s/cc_params", dev);
	if (mlx_is_dir(ctx, dbg)) {
		dp->layout = MLX_DCQCN_DEBUGFS;
		snprintf(dp->dir[0], sizeof(dp->dir[0]), "%s", dbg);
		return 0;
	}

	/* Neither: say what was looked for and the likely reason. */
	if (!fn->driver[0] || strcmp(fn->driver, "mlx5_core"))
		return mlx_err(ctx, EOPNOTSUPP,
			       "no DCQCN files for %s: neither %s nor %s exists, and the function "
			       "is %s (load mlx5_core and mlx5_ib)",
			       fn->bdf, ofed, dbg,
			       fn->driver[0] ? "bound to another driver" : "not bound to a driver");
	r = mlx_list_dir(ctx, "/sys/kernel/debug", &names, &n);
	mlx_strv_free(names);
	if (r == -EACCES || r == -EPERM)
		return mlx_err(ctx, EACCES,
			       "no DCQCN files for %s: %s does not exist and /sys/kernel/debug is not "
			       "readable by this user (debugfs is root-only: run as root)",
			       fn->bdf, ofed);
	if (r < 0 || n == 0)
		return mlx_err(ctx, EOPNOTSUPP,
			       "no DCQCN files for %s: %s does not exist (not an MLNX_OFED driver) and "
			       "debugfs is not mounted (mount -t debugfs none /sys/kernel/debug)",
			       fn->bdf, ofed);
	if (!mlx_is_dir(ctx, dev))
		return mlx_err(ctx, EOPNOTSUPP,
			       "no DCQCN files for %s: neither %s nor %s exists (is the mlx5_core "
			       "driver loaded for this device?)", fn->bdf, ofed, dev);
	return mlx_err(ctx, EOPNOTSUPP,
		       "no DCQCN files for %s: neither %s nor %s exists (load mlx5_ib; the "
		       "firmware must allow congestion-control query and modify)",
		       fn->bdf, ofed, dbg);
}

int mlx_dcqcn_path(const struct mlx_dcqcn_port *dp, const struct mlx_dcqcn_param *p,
		   enum mlx_dcqcn_side side, char *buf, size_t len)
{
	const char *file;
	int n;

	if (dp->layout == MLX_DCQCN_OFED) {
		file = p->ofed;
		if (!file)
			return -ENOENT;
		if (side == MLX_DCQCN_BOTH)
			side = p->side == MLX_DCQCN_BOTH ? MLX_DCQCN_RP : p->side;
		n = snprintf(buf, len, "%s/%s", dp->dir[side == MLX_DCQCN_NP], file);
	} else if (dp->layout == MLX_DCQCN_DEBUGFS) {
		file = p->debugfs;
		if (!file)
			return -ENOENT;
		n = snprintf(buf, len, "%s/%s", dp->dir[0], file);
	} else {
		return -ENOENT;
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int mlx_dcqcn_writable(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp,
		       const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side)
{
	char path[200];
	bool ofed = dp->layout == MLX_DCQCN_OFED;

	if (p->prio >= 0 && dp->layout == MLX_DCQCN_DEBUGFS)
		return mlx_err(ctx, EOPNOTSUPP, "per-priority DCQCN enable is not exposed by the "
			       "upstream mlx5 driver (no file in debugfs cc_params); set the "
			       "firmware's per-port priority mask instead: mlxconfig -d DEV set "
			       "ROCE_CC_PRIO_MASK_P1=<mask> (and _P2), effective after a firmware "
			       "reset or reboot");
	if (mlx_dcqcn_path(dp, p, side, path, sizeof(path)) < 0)
		return mlx_err(ctx, EOPNOTSUPP, "the %s layout has no such parameter (it exists only "
			       "as %s in the %s layout)", mlx_dcqcn_layout_name(dp->layout),
			       mlx_dcqcn_file(p, ofed ? MLX_DCQCN_DEBUGFS : MLX_DCQCN_OFED),
			       ofed ? "debugfs" : "MLNX_OFED sysfs");
	return 0;
}

int mlx_dcqcn_enable_dir(const struct mlx_dcqcn_port *dp, enum mlx_dcqcn_side side, char *buf,
			 size_t len)
{
	int n;

	/* MLNX_OFED only: ecn/roce_rp|roce_np/enable/<prio>. */
	if (dp->layout != MLX_DCQCN_OFED)
		return -ENOENT;
	n = snprintf(buf, len, "%s/enable", dp->dir[side == MLX_DCQCN_NP]);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void mlx_dcqcn_where(const struct mlx_dcqcn_param *p, char *buf, size_t len)
{
	bool both = p->side == MLX_DCQCN_BOTH;

	snprintf(buf, len, "%s%s%s%s%s%s%s%s%s%s", p->ofed ? p->ofed : "",
		 p->ofed ? " (MLNX_OFED ecn/" : "",
		 p->ofed ? mlx_dcqcn_ofed_dir(p->side == MLX_DCQCN_NP ? MLX_DCQCN_NP : MLX_DCQCN_RP) : "",
		 p->ofed && both ? " and ecn/" : "", p->ofed && both ? mlx_dcqcn_ofed_dir(MLX_DCQCN_NP) : "",
		 p->ofed ? ")" : "", p->ofed && p->debugfs ? ", " : "", p->debugfs ? p->debugfs : "",
		 p->debugfs ? " (debugfs cc_params)" : "", p->debugfs ? "" : ", no debugfs file");
}

int mlx_dcqcn_read(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp,
		   const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side, uint64_t *val)
{
	char path[200];
	int r;

	r = mlx_dcqcn_path(dp, p, side, path, sizeof(path));
	if (r < 0)
		return r;
	/* Older kernels lack some files (cong.c grew): absent is -ENOENT. */
	return mlx_read_u64(ctx, path, val);
}

int mlx_dcqcn_prio_state(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp, int rp[8],
			 int np[8])
{
	size_t n;
	const struct mlx_dcqcn_param *p = mlx_dcqcn_params(&n);
	int known = 0;

	for (int i = 0; i < 8; i++)
		rp[i] = np[i] = -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		if (p[i].prio < 0 || p[i].prio > 7)
			continue;
		if (mlx_dcqcn_read(ctx, dp, &p[i], MLX_DCQCN_RP, &v) == 0) {
			rp[p[i].prio] = v != 0;
			known++;
		}
		if (mlx_dcqcn_read(ctx, dp, &p[i], MLX_DCQCN_NP, &v) == 0) {
			np[p[i].prio] = v != 0;
			known++;
		}
	}
	return known;
}

static int write_one(struct mlx_ctx *ctx, const char *path, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	return mlx_kernel_write(ctx, path, buf);
}

int mlx_dcqcn_write(struct mlx_ctx *ctx, const struct mlx_dcqcn_port *dp,
		    const struct mlx_dcqcn_param *p, enum mlx_dcqcn_side side, uint64_t val)
{
	char path[200];
	int r;

	r = mlx_dcqcn_path(dp, p, side, path, sizeof(path));
	if (r < 0)
		return mlx_err(ctx, -r, "the %s layout has no file for %s",
			       mlx_dcqcn_layout_name(dp->layout), mlx_dcqcn_file(p, dp->layout));
	r = write_one(ctx, path, val);
	if (r < 0 && !*mlx_errmsg(ctx))
		return mlx_err(ctx, -r, "cannot write '%s': %s", path, strerror(-r));
	return r;
}
