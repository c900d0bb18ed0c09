/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mlx5 hwmon device (Linux 6.1+, drivers/net/ethernet/mellanox/mlx5/
 * core/hwmon.c): one per PF, named "mlx5", with temp1 the ASIC ("asic")
 * and one temperature per module sensor; each with _input, _crit,
 * _highest and _label, in millidegrees C (Documentation/hwmon/sysfs-
 * interface.rst).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mlx-private.h"
#include "phy.h"

static int64_t opt(struct mlx_ctx *ctx, const char *dir, unsigned i, const char *what)
{
	char path[256];
	int64_t v;

	snprintf(path, sizeof(path), "%s/temp%u_%s", dir, i, what);
	return mlx_read_s64(ctx, path, &v) == 0 ? v : INT64_MIN;
}

int mlx_sensors_read(struct mlx_ctx *ctx, const char *bdf, struct mlx_sensors *out)
{
	char base[128], dir[192], path[256], name[32];
	char **ent = NULL;
	size_t n = 0;
	int r;

	memset(out, 0, sizeof(*out));
	if (!mlx_name_is_safe(bdf))
		return mlx_err(ctx, EINVAL, "'%s' is not a PCI address", bdf);
	snprintf(base, sizeof(base), "/sys/bus/pci/devices/%s/hwmon", bdf);
	r = mlx_list_dir(ctx, base, &ent, &n);
	if (r < 0)
		return mlx_err(ctx, ENOENT, "%s has no hwmon device (the mlx5 hwmon needs Linux 6.1 and a PF)",
			       bdf);
	r = -ENOENT;
	for (size_t k = 0; k < n && r; k++) {
		if (strncmp(ent[k], "hwmon", 5) || !mlx_name_is_safe(ent[k]))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", base, ent[k]);
		snprintf(path, sizeof(path), "%s/name", dir);
		if (mlx_read_str(ctx, path, name, sizeof(name)) < 0 || strcmp(name, "mlx5"))
			continue;
		snprintf(out->hwmon, sizeof(out->hwmon), "%s", ent[k]);
		/* temp1 .. : stop at the first index without an input */
		for (unsigned i = 1; out->n < MLX_SENSORS_MAX; i++) {
			struct mlx_sensor *s = &out->s[out->n];

			s->temp_mc = opt(ctx, dir, i, "input");
			if (s->temp_mc == INT64_MIN)
				break;
			s->crit_mc = opt(ctx, dir, i, "crit");
			s->highest_mc = opt(ctx, dir, i, "highest");
			snprintf(path, sizeof(path), "%s/temp%u_label", dir, i);
			if (mlx_read_str(ctx, path, s->label, sizeof(s->label)) < 0)
				s->label[0] = '\0';
			out->n++;
		}
		r = 0;
	}
	mlx_strv_free(ent);
	if (r)
		return mlx_err(ctx, ENOENT, "%s has no mlx5 hwmon device", bdf);
	mlx_err_clear(ctx);
	return 0;
}
