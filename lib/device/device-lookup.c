/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Questions asked of a scanned device model (lib/device/device.c scans):
 * a function's bus and sysfs directory, the port or function of a name,
 * the number of ports, a VLAN stacked on a netdev; and freeing the model.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "mlx-private.h"

void mlx_fn_sysfs_dir(const struct mlx_function *fn, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/bus/%s/devices/%s", mlx_fn_bus(fn), fn->bdf);
}

bool mlx_fn_is_pci(const struct mlx_function *fn)
{
	return !strcmp(mlx_fn_bus(fn), "pci");
}

const char *mlx_fn_bus(const struct mlx_function *fn)
{
	return fn->bus_name[0] ? fn->bus_name : "pci";
}

void mlx_devices_free(struct mlx_devices *devs)
{
	for (size_t i = 0; i < devs->nfn; i++) {
		free(devs->fn[i].ports);
		free(devs->fn[i].rdma);
	}
	free(devs->fn);
	memset(devs, 0, sizeof(*devs));
}

size_t mlx_devices_nports(const struct mlx_devices *devs)
{
	size_t n = 0;

	for (size_t i = 0; i < devs->nfn; i++)
		n += devs->fn[i].nports;
	return n;
}

/* Whether a VLAN device is stacked on @ifname (an upper_ link whose uevent
 * says DEVTYPE=vlan): RoCE over a VLAN carries a PCP, which the QoS lint
 * needs to know.  1 yes, 0 no, -1 the netdev's directory is unreadable. */
int mlx_netdev_has_vlan_upper(struct mlx_ctx *ctx, const char *ifname)
{
	char path[160], **names = NULL, *ue = NULL;
	size_t n, len;
	int r = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	if (mlx_list_dir(ctx, path, &names, &n) < 0) {
		mlx_err_clear(ctx);
		return -1;
	}
	for (size_t i = 0; i < n && !r; i++) {
		if (strncmp(names[i], "upper_", 6) || !mlx_name_is_safe(names[i]))
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/%s/uevent", ifname, names[i]);
		if (mlx_read_file(ctx, path, &ue, &len) == 0)
			r = strstr(ue, "DEVTYPE=vlan\n") != NULL;
		free(ue);
		ue = NULL;
	}
	mlx_strv_free(names);
	mlx_err_clear(ctx);
	return r;
}

const struct mlx_port *mlx_devices_port_of(const struct mlx_devices *devs, const char *ifname)
{
	for (size_t i = 0; devs && ifname[0] && i < devs->nfn; i++)
		for (size_t j = 0; j < devs->fn[i].nports; j++)
			if (!strcmp(devs->fn[i].ports[j].ifname, ifname))
				return &devs->fn[i].ports[j];
	return NULL;
}

const struct mlx_function *mlx_devices_fn_of(const struct mlx_devices *devs, const char *bdf)
{
	for (size_t i = 0; devs && bdf[0] && i < devs->nfn; i++)
		if (!strcmp(devs->fn[i].bdf, bdf))
			return &devs->fn[i];
	return NULL;
}
