/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Network interfaces by name, whatever their driver: whether one exists,
 * the list of all, their operstate and carrier, and the restart `dbg
 * restart` does.  cmd/ asks these instead of naming /sys/class/net
 * (DESIGN "Layers": cmd/ never names a kernel path); the restart goes
 * through the kernel boundary, so a captured system is restarted by its
 * emulator (lib/emul/link-emul.c).
 */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "mlx-private.h"

static bool name_ok(const char *name)
{
	return mlx_name_is_safe(name) && strlen(name) < MLX_IFNAME_LEN;
}

bool mlx_netdev_exists(struct mlx_ctx *ctx, const char *name)
{
	char path[64];

	if (!name_ok(name))
		return false;
	snprintf(path, sizeof(path), "/sys/class/net/%s", name);
	return mlx_exists(ctx, path);
}

int mlx_netdev_list(struct mlx_ctx *ctx, char ***names, size_t *n)
{
	char **v = NULL;
	size_t k = 0, m = 0;
	int r = mlx_list_dir(ctx, "/sys/class/net", &v, &m);

	if (r < 0)
		return r;
	/* Only names that may become paths (a capture is data). */
	for (size_t i = 0; i < m; i++) {
		if (name_ok(v[i]))
			v[k++] = v[i];
		else
			free(v[i]);
	}
	*names = v;
	*n = k;
	return 0;
}

int mlx_netdev_link(struct mlx_ctx *ctx, const char *name, char *oper, size_t len, int *carrier)
{
	char path[96], c[8] = "";
	int r;

	oper[0] = '\0';
	*carrier = -1;
	if (!name_ok(name))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", name);
	r = mlx_read_str(ctx, path, oper, len);
	if (r < 0)
		oper[0] = '\0';
	/* carrier is unreadable (EINVAL) while the interface is down */
	snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", name);
	if (mlx_read_str(ctx, path, c, sizeof(c)) == 0 && c[0])
		*carrier = c[0] == '1';
	mlx_err_clear(ctx);
	return r == -ENOENT && !mlx_netdev_exists(ctx, name) ? -ENODEV : 0;
}

int mlx_netdev_restart(struct mlx_ctx *ctx, const char *name)
{
	int r;

	if (!name_ok(name))
		return mlx_err(ctx, EINVAL, "invalid interface name '%s'", name);
	r = mlx_may_write(ctx);
	if (r < 0)
		return r;
	r = mlx_kernel_link_flags(ctx, name, 0, IFF_UP);
	if (r == 0)
		r = mlx_kernel_link_flags(ctx, name, IFF_UP, 0);
	if (r < 0)
		return mlx_err(ctx, r, "cannot restart '%s': %s", name, strerror(-r));
	return 0;
}
