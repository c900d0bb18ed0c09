/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the mstdump block-list parser (lib/backend/vsec.c
 * mlx_cr_ranges_parse): any bytes are a CSV file.  Every block it accepts
 * must be dword aligned, non-empty and inside the 30-bit CR-space address
 * space (the gateway's address field, MLX_VSC_ADDR_MASK), since the dump
 * reads each block through the gateway as given.
 */
#include <stdio.h>

#include "fuzz-util.h"
#include "vsec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = (char *)fuzz_copy(data, size);
	struct mlx_cr_range *r = NULL;
	size_t n = 0, line;
	char err[128];

	if (!text)
		return 0;
	if (mlx_cr_ranges_parse(text, size, &r, &n, &line, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < n; i++)
			if (!r[i].dwords || (r[i].addr & 3) ||
			    (uint64_t)r[i].addr + 4 * (uint64_t)r[i].dwords >
			    (uint64_t)MLX_VSC_ADDR_MASK + 1)
				abort();
		free(r);
	} else if (r || n) {
		abort();
	}
	free(text);
	return 0;
}
