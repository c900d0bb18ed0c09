/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the ethtool statistics decoders
 * (lib/backend/ethtool-stats.c): the ETHTOOL_MSG_STRSET_GET reply holding the
 * ETH_SS_STATS names and the device it is about (dumps), and the values
 * message of a capture.
 */
#include "counters.h"
#include "fuzz-nl.h"

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct mlx_ethtool_names names;
	uint64_t vals[512];
	size_t n = 512;

	(void)arg;
	memset(&names, 0, sizeof(names));
	if (mlx_decode_strset_msg((const uint8_t *)h, len, &names) == 0)
		for (size_t i = 0; i < names.n; i++)
			if (names.names[i] && strlen(names.names[i]) > len)
				abort();
	mlx_ethtool_names_free(&names);
	{
		char dev[16];

		/* the name is NUL-terminated within the buffer given */
		if (mlx_decode_strset_dev((const uint8_t *)h, len, dev, sizeof(dev)) == 0 &&
		    strnlen(dev, sizeof(dev)) == sizeof(dev))
			abort();
	}
	if (mlx_decode_stats_msg((const uint8_t *)h, len, vals, &n) == 0 && n > 512)
		abort();
	/* No room at all: either nothing is written or it is refused. */
	n = 0;
	(void)mlx_decode_stats_msg((const uint8_t *)h, len, vals, &n);
	if (n != 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_nl(data, size, on_msg, NULL);
	return 0;
}
