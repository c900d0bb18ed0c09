/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The driver's side of the DCQCN writes, done to a captured system
 * (--sysroot, --sample working copies; DESIGN.md "The root prefix": "a
 * write command changes the files ... in it, as the kernel would").
 *
 * Upstream debugfs cc_params (drivers/infiniband/hw/mlx5/cong.c,
 * mlx5_ib_set_cc_param_mask_val): np_cnp_prio and np_cnp_prio_mode share
 * one field_select bit, and a write of np_cnp_prio sends cnp_prio_mode = 0
 * with it, so the firmware's mode becomes 0 whatever it was.  The OFED
 * ecn/roce_np/cnp_802p_prio write does the same (en_ecn.c), but OFED has no
 * file that shows the mode, so there is nothing to change there.
 *
 * This models the driver from its source, on purpose apart from lib/dcqcn/dcqcn.c's
 * table (which says what mlxcli believes the driver does): a test that
 * writes through mlxcli sees the driver's behaviour, not mlxcli's belief.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dcqcn.h"
#include "emul.h"
#include "mlx-private.h"

/* The file @name next to @path (same directory), in @buf. */
static int sibling(const char *path, const char *name, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) : 0;
	int n = snprintf(buf, len, "%.*s/%s", (int)dir, path, name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Does @path name @file in a cc_params directory? */
static bool is_cc_param(const char *path, const char *file)
{
	static const char dir[] = "/cc_params/";
	size_t pl = strlen(path), fl = strlen(file), dl = sizeof(dir) - 1;

	return pl >= fl + dl && !strcmp(path + pl - fl, file) &&
	       !strncmp(path + pl - fl - dl, dir, dl);
}

int mlx_emul_dcqcn_write(struct mlx_ctx *ctx, const char *path, const char *val)
{
	char mode[256], old[32];
	int r;

	if (!is_cc_param(path, "np_cnp_prio"))
		return mlx_write_str(ctx, path, val);
	r = sibling(path, "np_cnp_prio_mode", mode, sizeof(mode));
	if (r < 0)
		return r;
	/* An older kernel without the mode file: nothing to reset. */
	if (!mlx_exists(ctx, mode))
		return mlx_write_str(ctx, path, val);
	/* One firmware command sets both: both files change, or neither. */
	r = mlx_read_str(ctx, path, old, sizeof(old));
	if (r < 0)
		return r;
	r = mlx_write_str(ctx, path, val);
	if (r < 0)
		return r;
	r = mlx_write_str(ctx, mode, "0\n");
	if (r < 0) {
		size_t n = strlen(old);

		if (n + 1 < sizeof(old) && (!n || old[n - 1] != '\n'))
			strcat(old, "\n");
		(void)mlx_write_str(ctx, path, old);
	}
	return r;
}

/* ---- the captured boundary's entry (emul.h) ------------------------------ */

/* The one DCQCN file whose write the driver answers with another change;
 * every other one just keeps its value. */
static bool dcqcn_takes(const char *path)
{
	return is_cc_param(path, "np_cnp_prio");
}

const struct mlx_emul mlx_emul_dcqcn = {
	.name = "dcqcn",
	.file_takes = dcqcn_takes,
	.file_write = mlx_emul_dcqcn_write,
};
