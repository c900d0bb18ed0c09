/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the SFF-8472 decoder (lib/decode/sff8472.c): the
 * input is an `ethtool -m raw on` file of an SFP, A0h 0-255 then A2h.
 */
#include "fuzz-module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fuzz_page layout[] = {
		{ MLX_MOD_I2C_A0, 0, 0 }, { MLX_MOD_I2C_A0, 0, 128 },
		{ MLX_MOD_I2C_A2, 0, 0 }, { MLX_MOD_I2C_A2, 0, 128 },
	};

	return fuzz_module(data, size, layout, 4, mlx_sff8472_decode);
}
