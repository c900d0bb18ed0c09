/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the config-space decoder: any byte string is a
 * config image of that length.  The decoder must never read past @size,
 * loop forever or trip UBSan; the lookups on its result must stay inside
 * the caps array.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pcicfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlx_pci_config c;
	uint8_t *copy;

	/* An exact-size heap copy, so ASan sees any read past the end. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	copy[0] = 0;
	if (size)
		memcpy(copy, data, size);

	if (mlx_pci_config_decode(copy, size, &c) == 0) {
		if (c.ncaps > MLX_PCI_MAX_CAPS)
			abort();
		for (size_t i = 0; i < c.ncaps; i++) {
			if (c.caps[i].offset >= size)
				abort();
			(void)mlx_pci_cap_name(c.caps[i].extended, c.caps[i].id);
		}
		(void)mlx_pci_find_cap(&c, true, MLX_PCI_EXT_CAP_SRIOV);
		(void)mlx_pcie_speed_str(c.pcie.sta.speed);
	} else if (size >= 64) {
		abort();
	}
	free(copy);
	return 0;
}
