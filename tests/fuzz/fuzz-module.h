/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the module EEPROM harnesses (fuzz-sff8472.c, fuzz-sff8636.c,
 * fuzz-cmis.c): the input is cut into 128-byte pages, each an exact heap
 * copy (the last one possibly short: a truncated read), handed to one
 * decoder as the pages it reads; then the invariants every decode keeps.
 */
#ifndef MLX_FUZZ_MODULE_H
#define MLX_FUZZ_MODULE_H

#include <math.h>
#include <stdio.h>

#include "fuzz-util.h"
#include "module-eeprom.h"

struct fuzz_page {
	uint8_t i2c, page;
	uint16_t offset;
};

typedef int (*fuzz_mod_decoder)(const struct mlx_mod_eeprom *, struct mlx_mod_info *, char *, size_t);

static void fuzz_mod_check_value(const struct mlx_mod_value *v, const struct mlx_mod_thresh *t)
{
	enum mlx_mod_level l = mlx_mod_value_level(v, t);

	if (l > MLX_MOD_ALARM || (v->valid && isnan(v->v)))
		abort();
	(void)mlx_mod_level_name(l);
}

/* a lane's levels (a dark lane is "off") and its flags: 1, 0 or -1 */
static void fuzz_mod_check_lane(const struct mlx_mod_info *mi, const struct mlx_mod_lane *l)
{
	const struct mlx_mod_value *v[3] = { &l->bias_ma, &l->tx_power_mw, &l->rx_power_mw };
	const struct mlx_mod_thresh *t[3] = { &mi->bias_th, &mi->tx_power_th, &mi->rx_power_th };

	for (int k = 0; k < 3; k++) {
		fuzz_mod_check_value(v[k], t[k]);
		if (mlx_mod_lane_level(l, v[k], t[k], k == 2) > MLX_MOD_ALARM)
			abort();
	}
	for (int f = 0; f < MLX_MOD_NFLAGS; f++)
		if (l->flag[f] < -1 || l->flag[f] > 1 || !mlx_mod_flag_key(f))
			abort();
}

/* what ethtool -m shows besides (issue 25): in their ranges */
static void fuzz_mod_check_extra(const struct mlx_mod_info *mi)
{
	if (mi->power_class > 8 || mi->cdr_tx < -1 || mi->cdr_tx > 1 || mi->cdr_rx < -1 || mi->cdr_rx > 1 ||
	    !isfinite(mi->max_power_w) || mi->max_power_w < 0 || !isfinite(mi->wavelength_tol_nm) ||
	    mi->wavelength_tol_nm < 0)
		abort();
	(void)mlx_mod_encoding_name(mi->std, mi->encoding);
}

static int fuzz_module(const uint8_t *data, size_t size, const struct fuzz_page *layout, size_t npages,
		       fuzz_mod_decoder decode)
{
	uint8_t *copy[MLX_MOD_MAX_PAGES] = { 0 };
	struct mlx_mod_eeprom e;
	struct mlx_mod_info mi;
	struct mlx_mod_want w[8];
	char err[128];
	size_t k = 0;

	memset(&e, 0, sizeof(e));
	for (size_t off = 0; off < size && k < npages; off += 128, k++) {
		size_t n = size - off < 128 ? size - off : 128;

		copy[k] = fuzz_copy(data + off, n);
		if (!copy[k] || mlx_mod_add(&e, layout[k].i2c, 0, layout[k].page, layout[k].offset,
					    (uint16_t)n, copy[k]))
			abort();
	}
	/* through the dispatcher and straight into the decoder */
	for (int pass = 0; pass < 2; pass++) {
		int rc = pass ? decode(&e, &mi, err, sizeof(err)) : mlx_mod_decode(&e, &mi, err, sizeof(err));

		if (rc && strnlen(err, sizeof(err)) == sizeof(err))
			abort();
		if (mi.nlanes > MLX_MOD_MAX_LANES)
			abort();
		if (strnlen(mi.vendor, sizeof(mi.vendor)) == sizeof(mi.vendor) ||
		    strnlen(mi.part_number, sizeof(mi.part_number)) == sizeof(mi.part_number) ||
		    strnlen(mi.serial, sizeof(mi.serial)) == sizeof(mi.serial) ||
		    strnlen(mi.revision, sizeof(mi.revision)) == sizeof(mi.revision) ||
		    strnlen(mi.date_code, sizeof(mi.date_code)) == sizeof(mi.date_code))
			abort();
		fuzz_mod_check_value(&mi.temperature_c, &mi.temperature_th);
		fuzz_mod_check_value(&mi.voltage_v, &mi.voltage_th);
		for (unsigned i = 0; i < mi.nlanes; i++)
			fuzz_mod_check_lane(&mi, &mi.lane[i]);
		fuzz_mod_check_extra(&mi);
		(void)mlx_mod_identifier_name(mi.identifier);
		(void)mlx_mod_connector_name(mi.connector);
	}
	if (copy[0] && size >= 128 && mlx_mod_pages_wanted(copy[0], w, 8) > 8)
		abort();
	for (size_t i = 0; i < k; i++)
		free(copy[i]);
	return 0;
}

#endif
