/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the physical layer's netlink decoders
 * (lib/phy/link.c, lib/phy/module.c): LINKMODES, FEC and PAUSE replies and
 * MODULE_EEPROM_GET replies.  Mode lists stay within their arrays, every
 * name is terminated, a page never exceeds the buffer it is copied to.
 */
#include "fuzz-nl.h"
#include "phy.h"

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct mlx_link *l = arg;
	const struct mlx_link_modes *m[] = { &l->supported, &l->advertised, &l->partner, &l->fec_configured };
	uint8_t page[MLX_MOD_PAGE_LEN];
	uint16_t got;

	(void)mlx_link_decode(h, len, l);
	for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		if (m[k]->n > MLX_LINK_MAX_MODES)
			abort();
		for (size_t i = 0; i < m[k]->n; i++)
			if (strnlen(m[k]->name[i], MLX_LINK_MODE_LEN) == MLX_LINK_MODE_LEN)
				abort();
			else
				(void)mlx_link_mode_speed(m[k]->name[i]);
	}
	if (l->fec_nlanes > MLX_FEC_MAX_LANES)
		abort();
	if (mlx_module_eeprom_decode(h, len, page, sizeof(page), &got) == 0 && got > sizeof(page))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlx_link *l = calloc(1, sizeof(*l));

	if (l)
		fuzz_nl(data, size, on_msg, l);
	free(l);
	return 0;
}
