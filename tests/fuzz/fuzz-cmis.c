/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the CMIS decoder (lib/decode/cmis.c): the input is
 * the lower page, then upper pages 00h, 01h, 02h and 11h.
 */
#include "fuzz-module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fuzz_page layout[] = {
		{ MLX_MOD_I2C_A0, 0, 0 },   { MLX_MOD_I2C_A0, 0, 128 },    { MLX_MOD_I2C_A0, 1, 128 },
		{ MLX_MOD_I2C_A0, 2, 128 }, { MLX_MOD_I2C_A0, 0x11, 128 },
	};

	return fuzz_module(data, size, layout, 5, mlx_cmis_decode);
}
