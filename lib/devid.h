/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ConnectX / BlueField PCI device-ID table (vendor 0x15b3).
 * Names follow the pci.ids database (vendor 15b3 section); product
 * families and VF IDs follow the kernel's mlx4/mlx5 PCI tables.
 */
#ifndef MLX_DEVID_H
#define MLX_DEVID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MLX_VENDOR_ID 0x15b3

enum mlx_driver_family { MLX_FAM_MLX4, MLX_FAM_MLX5, MLX_FAM_OTHER };

struct mlx_devid {
	uint16_t device;
	const char *product;     /* short: "ConnectX-5 Ex", "ConnectX-6 Dx VF" */
	const char *pciids;      /* pci.ids name: "MT28800 Family [ConnectX-5 Ex]" */
	bool is_vf;
	uint16_t vf_device;      /* the VF ID this PF spawns; 0 none/unknown */
	enum mlx_driver_family family;
};

/* NULL when the ID is not a ConnectX/BlueField NIC function we know. */
const struct mlx_devid *mlx_devid_lookup(uint16_t device);
/* The whole table, for tests and completion. */
const struct mlx_devid *mlx_devid_table(size_t *n);

#endif /* MLX_DEVID_H */
