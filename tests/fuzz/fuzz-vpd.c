/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the VPD decoder (lib/decode/decode-vpd.c): any byte string
 * is the content of a function's sysfs `vpd` file.  The decoder must stay
 * inside the buffer, keep its field count within the array, and every
 * string it returns must be terminated inside its field.
 */
#include <stdio.h>

#include "fuzz-util.h"
#include "vpd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlx_vpd *v = malloc(sizeof(*v));
	uint8_t *copy = fuzz_copy(data, size);
	char err[128];

	if (!v || !copy)
		goto out;
	if (mlx_vpd_decode(copy, size, v, err, sizeof(err)) == 0) {
		if (v->n > MLX_VPD_MAX_FIELDS || v->len > size)
			abort();
		if (strnlen(v->product, sizeof(v->product)) == sizeof(v->product))
			abort();
		for (size_t i = 0; i < v->n; i++) {
			if (strnlen(v->f[i].value, sizeof(v->f[i].value)) == sizeof(v->f[i].value) ||
			    strnlen(v->f[i].keyword, 3) == 3)
				abort();
			(void)mlx_vpd_keyword_name(v->f[i].keyword);
			if (mlx_vpd_get(v, v->f[i].keyword) == NULL)
				abort();
		}
	} else if (strnlen(err, sizeof(err)) == sizeof(err)) {
		abort();
	}
out:
	free(copy);
	free(v);
	return 0;
}
