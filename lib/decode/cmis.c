/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CMIS 4.0 / 5.2 (QSFP-DD, OSFP, QSFP+ with CMIS): lower page (module
 * state 3, module flags 9, temperature 14-15, Vcc 16-17, media type 85,
 * applications 1-8 at 86-117), page 00h (identity 128-222, media
 * interface technology 212), page 01h (lengths 132-136, wavelength
 * 138-139, banks 142, which monitors exist 159-160, applications 9-15 at
 * 223-250),
 * page 02h (thresholds 128-199) and page 11h of each bank (lane flags
 * 139-152, lane monitors 154-201; bank b holds lanes 8b+1 .. 8b+8): CMIS
 * 5.2 tables 8-4 .. 8-84.
 */
#include <errno.h>
#include <string.h>

#include "module-eeprom-priv.h"

#define P11_TX_FAULT 135     /* a bit per lane: Tx fault, Tx LOS, Tx CDR LOL */
#define P11_RX_LOS 147       /* Rx LOS, Rx CDR LOL */
#define P11_FLAG_TXPWR 139   /* HA, LA, HW, LW: one byte each, a bit per lane */
#define P11_FLAG_BIAS 143
#define P11_FLAG_RXPWR 149
#define P11_TXPWR 154
#define P11_BIAS 170
#define P11_RXPWR 186

static void lane_flags(struct mlx_mod_value *v, const uint8_t *p, unsigned lane)
{
	v->flags_valid = true;
	v->high_alarm = p[0] >> lane & 1;
	v->low_alarm = p[1] >> lane & 1;
	v->high_warning = p[2] >> lane & 1;
	v->low_warning = p[3] >> lane & 1;
}

/* lower byte 9: temperature HA bit 0, LA 1, HW 2, LW 3; Vcc bits 4-7 */
static void module_flags(struct mlx_mod_value *v, uint8_t b, unsigned shift)
{
	v->flags_valid = true;
	v->high_alarm = b >> shift & 1;
	v->low_alarm = b >> (shift + 1) & 1;
	v->high_warning = b >> (shift + 2) & 1;
	v->low_warning = b >> (shift + 3) & 1;
}

/* One 4-byte application descriptor (CMIS 5.2 table 8-7): false at the
 * end of the list (host interface 0xff) or on an unused one (0x00). */
static bool app(const uint8_t *d, struct mlx_mod_app *a)
{
	if (d[0] == 0xff || d[0] == 0x00)
		return false;
	a->host_id = d[0];
	a->media_id = d[1];
	a->host_lanes = d[2] >> 4;
	a->media_lanes = d[2] & 0x0f;
	a->host_lane_options = d[3];
	return true;
}

static void apps(struct mlx_mod_info *out, const uint8_t *lo, const uint8_t *p1)
{
	bool end = false;

	/* lower 86-117: applications 1-8; page 01h 223-250: 9-15 (CMIS 4.0+) */
	for (unsigned i = 0; i < MLX_MOD_MAX_APPS && !end; i++) {
		const uint8_t *d = i < 8 ? lo + 86 + 4 * i : p1 ? p1 - 128 + 223 + 4 * (i - 8) : NULL;

		if (!d || d[0] == 0xff)
			end = true;
		else if (app(d, &out->app[out->napps]))
			out->napps++;
	}
}

size_t mlx_mod_banks_wanted(const struct mlx_mod_eeprom *e, struct mlx_mod_want *w, size_t max)
{
	const uint8_t *lo = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 0, 3);
	const uint8_t *b = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 1, 142, 1);
	size_t n = 0;

	if (!lo || !b || mlx_mod_std_of(lo[0]) != MLX_MOD_CMIS || (lo[2] & 0x80))
		return 0;
	/* 142 bits 1-0: 0 bank 0, 1 banks 0-1, 2 banks 0-3 */
	for (unsigned k = 1; k < (1u << (b[0] & 0x03)) && k < MLX_MOD_MAX_BANKS && n < max; k++)
		w[n++] = (struct mlx_mod_want){ MLX_MOD_I2C_A0, (uint8_t)k, 0x11, 128, 128 };
	return n;
}

int mlx_cmis_decode(const struct mlx_mod_eeprom *e, struct mlx_mod_info *out, char *err, size_t errlen)
{
	const uint8_t *lo = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 0, 18);
	const uint8_t *lo_apps = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 85, 33);
	const uint8_t *p1_ext = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 1, 128, 123);
	const uint8_t *up = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 128, 95);
	/* each page only as far as the fields read from it */
	const uint8_t *p1 = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 1, 128, 33);
	const uint8_t *p2 = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 2, 128, 72);
	const uint8_t *p11[MLX_MOD_MAX_BANKS] = { NULL };
	/* page 01h 157-158: which lane flags exist; 161-162: the CDRs */
	const uint8_t *p1_sig = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 1, 157, 6);
	bool temp_mon = true, vcc_mon = true, bias_mon = true, tx_mon = true, rx_mon = true;
	unsigned bias_mul = 1;

	mod_info_init(out, MLX_MOD_CMIS);
	if (!lo) {
		mod_err(err, errlen, "CMIS: the lower page is not complete");
		return -ENODATA;
	}
	out->identifier = lo[0];
	out->cmis_rev = lo[1];
	out->flat_memory = lo[2] & 0x80;
	out->module_state = (lo[3] >> 1) & 0x07;
	if (out->flat_memory)
		p1 = p2 = p1_ext = p1_sig = NULL;   /* a flat module has only page 00h */
	else
		p11[0] = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0x11, 128, 74);
	if (p1) {
		/* 142 bits 1-0: banks 0, 0-1, 0-3; the lanes of each bank
		 * that was read */
		out->nbanks = 1u << (p1[142 - 128] & 0x03);
		if (out->nbanks > MLX_MOD_MAX_BANKS)
			out->nbanks = MLX_MOD_MAX_BANKS;
		for (unsigned b = 1; b < out->nbanks; b++)
			p11[b] = mlx_mod_bytes(e, MLX_MOD_I2C_A0, (uint8_t)b, 0x11, 128, 74);
	}
	if (lo_apps) {
		out->media_type = lo_apps[0];
		apps(out, lo_apps - 85, p1_ext);
	}

	if (p1) {
		const uint8_t *u = p1 - 128;
		static const double mul[4] = { 0.1, 1, 10, 100 };

		/* 159: bit 0 temperature, 1 Vcc monitor; 160: bit 0 bias,
		 * 1 Tx power, 2 Rx power, 4-3 bias multiplier (x1, x2, x4) */
		temp_mon = u[159] & 0x01;
		vcc_mon = u[159] & 0x02;
		bias_mon = u[160] & 0x01;
		tx_mon = u[160] & 0x02;
		rx_mon = u[160] & 0x04;
		bias_mul = 1u << ((u[160] >> 3) & 0x03);
		out->length_smf_m = (unsigned)((u[132] & 0x3f) * mul[u[132] >> 6] * 1000);
		out->length_om5_m = u[133] * 2u;
		out->length_om4_m = u[134] * 2u;
		out->length_om3_m = u[135] * 2u;
		out->length_om2_m = u[136];
		out->wavelength_nm = mod_be16(u + 138) * 0.05;
		out->wavelength_tol_nm = mod_be16(u + 140) * 0.005;
	}
	if (p1_sig) {
		out->cdr_tx = (int8_t)(p1_sig[161 - 157] & 1);
		out->cdr_rx = (int8_t)(p1_sig[162 - 157] & 1);
	}
	if (up) {
		const uint8_t *u = up - 128;
		static const double mul[4] = { 0.1, 1, 10, 100 };

		mod_identity(out, u, &(const struct mod_id_layout){ 129, 145, 148, 164, 2, 166, 182 });
		out->length_cable_m = (u[202] & 0x3f) * mul[u[202] >> 6];
		/* 200 bits 7-5: power class - 1; 201: maximum power, 0.25 W */
		out->power_class = (u[200] >> 5) + 1u;
		out->max_power_w = u[201] * 0.25;
		out->connector = u[203];
		out->tx_tech_valid = true;
		out->tx_tech = u[212];
		out->cc_checked = true;
		out->cc_base_ok = out->cc_ext_ok = mod_cc_ok(u, 128, 221, 222);
	}
	/* a flat module (passive copper) has no monitors */
	if (!out->flat_memory) {
		out->dom = true;
		if (temp_mon) {
			out->temperature_c.valid = true;
			out->temperature_c.v = mod_temp_c(lo + 14);
			module_flags(&out->temperature_c, lo[9], 0);
		}
		if (vcc_mon) {
			out->voltage_v.valid = true;
			out->voltage_v.v = mod_vcc_v(lo + 16);
			module_flags(&out->voltage_v, lo[9], 4);
		}
	}
	if (p2) {
		const uint8_t *t = p2 - 128;

		mod_thresh(&out->temperature_th, t + 128, mod_temp_c);
		mod_thresh(&out->voltage_th, t + 136, mod_vcc_v);
		mod_thresh(&out->tx_power_th, t + 176, mod_power_mw);
		mod_thresh(&out->bias_th, t + 184, mod_bias_ma);
		mod_thresh(&out->rx_power_th, t + 192, mod_power_mw);
		out->bias_th.high_alarm *= bias_mul;
		out->bias_th.low_alarm *= bias_mul;
		out->bias_th.high_warning *= bias_mul;
		out->bias_th.low_warning *= bias_mul;
	}
	/* lanes up to the last bank read: a bank missing in between leaves
	 * its lanes unknown, never shifts the later ones */
	for (unsigned b = 0; b < MLX_MOD_MAX_BANKS; b++) {
		const uint8_t *l = p11[b] ? p11[b] - 128 : NULL;

		if (!l)
			continue;
		out->nlanes = (b + 1) * MLX_MOD_LANES_PER_BANK;
		for (unsigned i = 0; i < MLX_MOD_LANES_PER_BANK; i++) {
			struct mlx_mod_lane *ln = &out->lane[b * MLX_MOD_LANES_PER_BANK + i];

			if (tx_mon) {
				ln->tx_power_mw.valid = true;
				ln->tx_power_mw.v = mod_power_mw(l + P11_TXPWR + 2 * i);
				lane_flags(&ln->tx_power_mw, l + P11_FLAG_TXPWR, i);
			}
			if (bias_mon) {
				ln->bias_ma.valid = true;
				ln->bias_ma.v = mod_bias_ma(l + P11_BIAS + 2 * i) * bias_mul;
				lane_flags(&ln->bias_ma, l + P11_FLAG_BIAS, i);
			}
			if (rx_mon) {
				ln->rx_power_mw.valid = true;
				ln->rx_power_mw.v = mod_power_mw(l + P11_RXPWR + 2 * i);
				lane_flags(&ln->rx_power_mw, l + P11_FLAG_RXPWR, i);
			}
			/* the lane flags page 01h says the module has (ethtool
			 * cmis.c cmis_show_signals): 157 bit 0 Tx fault, 1 Tx
			 * LOS, 2 Tx CDR LOL; 158 bit 1 Rx LOS, 2 Rx CDR LOL */
			if (p1_sig) {
				const struct {
					enum mlx_mod_flag f;
					bool implemented;
					uint8_t byte;
				} sig[] = {
					{ MLX_MOD_TX_FAULT, p1_sig[0] & 0x01, l[P11_TX_FAULT] },
					{ MLX_MOD_TX_LOS, p1_sig[0] & 0x02, l[P11_TX_FAULT + 1] },
					{ MLX_MOD_TX_LOL, p1_sig[0] & 0x04, l[P11_TX_FAULT + 2] },
					{ MLX_MOD_RX_LOS, p1_sig[1] & 0x02, l[P11_RX_LOS] },
					{ MLX_MOD_RX_LOL, p1_sig[1] & 0x04, l[P11_RX_LOS + 1] },
				};

				for (size_t k = 0; k < sizeof(sig) / sizeof(sig[0]); k++)
					if (sig[k].implemented)
						ln->flag[sig[k].f] = (int8_t)(sig[k].byte >> i & 1);
			}
		}
	}
	if (out->cc_checked && !out->cc_base_ok) {
		mod_err(err, errlen, "CMIS page 00h checksum (byte 222) is wrong");
		return -EBADMSG;
	}
	return 0;
}
