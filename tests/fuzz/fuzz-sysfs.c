/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the sysfs value parsers: mlx_parse_u64
 * (lib/core/rootfs.c, every numeric sysfs/debugfs file) and the MLNX_OFED
 * qos/prio2buffer and qos/buffer_size parsers (lib/decode/decode-dcb.c).  The
 * input is the file's text, cut at its first NUL as a read would give it.
 */
#include <errno.h>
#include <stdio.h>

#include "dcb.h"
#include "fuzz-util.h"
#include "mlx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	uint64_t v;
	uint8_t p2b[MLX_DCB_NPRIO];
	uint32_t sz[MLX_DCB_NPRIO], total;
	char back[32];
	int r;

	if (!s)
		return 0;
	r = mlx_parse_u64(s, &v);
	if (r == 0) {
		/* What parses is a plain decimal or 0x-hex number: it prints back
		 * to the same value. */
		snprintf(back, sizeof(back), "%llu", (unsigned long long)v);
		if (strtoull(back, NULL, 10) != v)
			abort();
	} else if (r != -EINVAL && r != -ERANGE) {
		abort();
	}
	memset(p2b, 0xee, sizeof(p2b));
	if (mlx_dcb_parse_sysfs_prio2buffer(s, p2b) == 0)
		for (int i = 0; i < MLX_DCB_NPRIO; i++)
			if (p2b[i] >= 8 && p2b[i] != 0xee)
				abort();
	(void)mlx_dcb_parse_sysfs_buffer_size(s, sz, &total);
	free(s);
	return 0;
}
