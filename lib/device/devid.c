/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ConnectX / BlueField NIC functions, vendor 0x15b3.
 *
 * IDs, PF->VF pairs and driver families: reference §5.3 (kernel
 * drivers/net/ethernet/mellanox/mlx4/main.c mlx4_pci_table and
 * mlx5/core/main.c mlx5_core_pci_table).  The pciids strings are the
 * device names from pciutils' pci.ids, vendor 15b3 section, verbatim;
 * tests/unit/test-devid.c checks them against that file.
 *
 * CX6 Dx and later PFs spawn the generic mlx5 VF 0x101e.  For CX9, CX10
 * and BlueField-4 the VF ID is not confirmed, so vf_device is 0 and
 * callers read sriov_vf_device (SR-IOV cap +0x1a) instead.
 *
 * Kept sorted by device ID: mlx_devid_lookup() bisects.
 */
#include <stdlib.h>

#include "devid.h"

static const struct mlx_devid devids[] = {
	{ 0x1003, "ConnectX-3", "MT27500 Family [ConnectX-3]",
	  false, 0x1004, MLX_FAM_MLX4 },
	{ 0x1004, "ConnectX-3/ConnectX-3 Pro VF",
	  "MT27500/MT27520 Family [ConnectX-3/ConnectX-3 Pro Virtual Function]",
	  true, 0, MLX_FAM_MLX4 },
	{ 0x1007, "ConnectX-3 Pro", "MT27520 Family [ConnectX-3 Pro]",
	  false, 0x1004, MLX_FAM_MLX4 },
	{ 0x1011, "Connect-IB", "MT27600 [Connect-IB]",
	  false, 0x1012, MLX_FAM_MLX5 },
	{ 0x1012, "Connect-IB VF", "MT27600 Family [Connect-IB Virtual Function]",
	  true, 0, MLX_FAM_MLX5 },
	{ 0x1013, "ConnectX-4", "MT27700 Family [ConnectX-4]",
	  false, 0x1014, MLX_FAM_MLX5 },
	{ 0x1014, "ConnectX-4 VF", "MT27700 Family [ConnectX-4 Virtual Function]",
	  true, 0, MLX_FAM_MLX5 },
	{ 0x1015, "ConnectX-4 Lx", "MT27710 Family [ConnectX-4 Lx]",
	  false, 0x1016, MLX_FAM_MLX5 },
	{ 0x1016, "ConnectX-4 Lx VF", "MT27710 Family [ConnectX-4 Lx Virtual Function]",
	  true, 0, MLX_FAM_MLX5 },
	{ 0x1017, "ConnectX-5", "MT27800 Family [ConnectX-5]",
	  false, 0x1018, MLX_FAM_MLX5 },
	{ 0x1018, "ConnectX-5 VF", "MT27800 Family [ConnectX-5 Virtual Function]",
	  true, 0, MLX_FAM_MLX5 },
	{ 0x1019, "ConnectX-5 Ex", "MT28800 Family [ConnectX-5 Ex]",
	  false, 0x101a, MLX_FAM_MLX5 },
	{ 0x101a, "ConnectX-5 Ex VF", "MT28800 Family [ConnectX-5 Ex Virtual Function]",
	  true, 0, MLX_FAM_MLX5 },
	{ 0x101b, "ConnectX-6", "MT28908 Family [ConnectX-6]",
	  false, 0x101c, MLX_FAM_MLX5 },
	{ 0x101c, "ConnectX-6 VF", "MT28908 Family [ConnectX-6 Virtual Function]",
	  true, 0, MLX_FAM_MLX5 },
	{ 0x101d, "ConnectX-6 Dx", "MT2892 Family [ConnectX-6 Dx]",
	  false, 0x101e, MLX_FAM_MLX5 },
	{ 0x101e, "ConnectX mlx5Gen VF", "ConnectX Family mlx5Gen Virtual Function",
	  true, 0, MLX_FAM_MLX5 },
	{ 0x101f, "ConnectX-6 Lx", "MT2894 Family [ConnectX-6 Lx]",
	  false, 0x101e, MLX_FAM_MLX5 },
	{ 0x1021, "ConnectX-7", "MT2910 Family [ConnectX-7]",
	  false, 0x101e, MLX_FAM_MLX5 },
	{ 0x1023, "ConnectX-8", "CX8 Family [ConnectX-8]",
	  false, 0x101e, MLX_FAM_MLX5 },
	{ 0x1025, "ConnectX-9", "CX9 Family [ConnectX-9]",
	  false, 0, MLX_FAM_MLX5 },
	{ 0x1027, "ConnectX-10", "CX10 Family [ConnectX-10]",
	  false, 0, MLX_FAM_MLX5 },
	{ 0xa2d2, "BlueField", "MT416842 BlueField integrated ConnectX-5 network controller",
	  false, 0xa2d3, MLX_FAM_MLX5 },
	{ 0xa2d3, "BlueField VF", "MT416842 BlueField multicore SoC family VF",
	  true, 0, MLX_FAM_MLX5 },
	{ 0xa2d6, "BlueField-2", "MT42822 BlueField-2 integrated ConnectX-6 Dx network controller",
	  false, 0x101e, MLX_FAM_MLX5 },
	{ 0xa2dc, "BlueField-3", "MT43244 BlueField-3 integrated ConnectX-7 network controller",
	  false, 0x101e, MLX_FAM_MLX5 },
	{ 0xa2df, "BlueField-4",
	  "BF4 Family integrated network controller [BlueField-4 integrated network controller]",
	  false, 0, MLX_FAM_MLX5 },
};

#define NDEVIDS (sizeof(devids) / sizeof(devids[0]))

static int devid_cmp(const void *key, const void *elem)
{
	uint16_t k = *(const uint16_t *)key;
	uint16_t e = ((const struct mlx_devid *)elem)->device;

	return (k > e) - (k < e);
}

const struct mlx_devid *mlx_devid_lookup(uint16_t device)
{
	return bsearch(&device, devids, NDEVIDS, sizeof(devids[0]), devid_cmp);
}

const struct mlx_devid *mlx_devid_table(size_t *n)
{
	if (n)
		*n = NDEVIDS;
	return devids;
}
