/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the SFF-8636 decoder (lib/decode/sff8636.c): the
 * input is the lower page, upper page 00h, then upper page 03h.
 */
#include "fuzz-module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fuzz_page layout[] = {
		{ MLX_MOD_I2C_A0, 0, 0 }, { MLX_MOD_I2C_A0, 0, 128 }, { MLX_MOD_I2C_A0, 3, 128 },
	};

	return fuzz_module(data, size, layout, 3, mlx_sff8636_decode);
}
