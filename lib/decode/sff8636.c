/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SFF-8636 rev 2.10a (QSFP+, QSFP28): lower page 00h (status, interrupt
 * flags 3-21, free-side monitors 22-57), upper page 00h (identity, 128-223;
 * extended identifier 129: power class and CDRs, encoding 139, transmitter
 * technology 147, wavelength and its tolerance 186-189, extended
 * compliance 192, options 193-195) and upper page 03h (thresholds
 * 128-199), tables 6-2 .. 6-29.
 */
#include <errno.h>
#include <string.h>

#include "module-eeprom-priv.h"

#define L_STATUS 2           /* bit 2: flat memory (no page 03h) */
#define L_FLAG_LOS 3         /* Tx LOS lanes 4-1 bits 7-4, Rx LOS bits 3-0 */
#define L_FLAG_FAULT 4       /* Tx fault bits 3-0 */
#define L_FLAG_LOL 5         /* Tx CDR LOL bits 7-4, Rx CDR LOL bits 3-0 */
#define L_CLASS8_POWER 107   /* power class 8: maximum power, 0.1 W */
#define L_FLAG_TEMP 6
#define L_FLAG_VCC 7
#define L_FLAG_RXPWR 9       /* 9-10, two lanes a byte */
#define L_FLAG_BIAS 11
#define L_FLAG_TXPWR 13
#define L_TEMP 22
#define L_VCC 26
#define L_RXPWR 34
#define L_BIAS 42
#define L_TXPWR 50

/* module-level flags: high alarm bit 7, low alarm 6, high warning 5, low warning 4 */
static void flags_module(struct mlx_mod_value *v, uint8_t b)
{
	v->flags_valid = true;
	v->high_alarm = b >> 7 & 1;
	v->low_alarm = b >> 6 & 1;
	v->high_warning = b >> 5 & 1;
	v->low_warning = b >> 4 & 1;
}

/* lane flags: two lanes per byte, lane 1 in the high nibble (table 6-9) */
static void flags_lane(struct mlx_mod_value *v, const uint8_t *p, unsigned lane)
{
	uint8_t nib = (uint8_t)(p[lane / 2] >> ((lane % 2) ? 0 : 4));

	v->flags_valid = true;
	v->high_alarm = nib >> 3 & 1;
	v->low_alarm = nib >> 2 & 1;
	v->high_warning = nib >> 1 & 1;
	v->low_warning = nib & 1;
}

static void live(struct mlx_mod_value *v, const uint8_t *p, double (*conv)(const uint8_t *))
{
	v->valid = true;
	v->v = conv(p);
}

/* The lane flags the module says it implements (ethtool qsfp.c
 * sff8636_show_signals: Rx LOS has no bit of its own, Tx LOS's stands for
 * both; byte 195 bit 1 Tx LOS, bit 3 Tx fault; 194 bit 5 Tx LOL, bit 4 Rx
 * LOL), lane n at bit n-1 of its nibble. */
static void lane_signals(struct mlx_mod_info *out, const uint8_t *lo, const uint8_t *u)
{
	const uint8_t o3 = u[194], o4 = u[195];
	const struct {
		enum mlx_mod_flag f;
		bool implemented;
		uint8_t nibble;
	} sig[] = {
		{ MLX_MOD_RX_LOS, o4 & 0x02, lo[L_FLAG_LOS] & 0x0f },
		{ MLX_MOD_TX_LOS, o4 & 0x02, lo[L_FLAG_LOS] >> 4 },
		{ MLX_MOD_TX_FAULT, o4 & 0x08, lo[L_FLAG_FAULT] & 0x0f },
		{ MLX_MOD_RX_LOL, o3 & 0x10, lo[L_FLAG_LOL] & 0x0f },
		{ MLX_MOD_TX_LOL, o3 & 0x20, lo[L_FLAG_LOL] >> 4 },
	};

	for (size_t k = 0; k < sizeof(sig) / sizeof(sig[0]); k++)
		for (unsigned i = 0; sig[k].implemented && i < 4; i++)
			out->lane[i].flag[sig[k].f] = (int8_t)(sig[k].nibble >> i & 1);
}

/* Byte 129: power classes 1-4 in bits 7-6, 5-7 in bits 1-0, 8 in bit 5
 * (its power in byte 107); CDRs in Tx (bit 3) and Rx (bit 2): table 6-16. */
static void ext_identifier(struct mlx_mod_info *out, uint8_t b, const uint8_t *class8)
{
	static const double watts[8] = { 0, 1.5, 2.0, 2.5, 3.5, 4.0, 4.5, 5.0 };

	out->power_class = (b & 0x03) ? 4u + (b & 0x03) : 1u + (b >> 6);
	out->max_power_w = watts[out->power_class];
	/* class 8 needs its power: 0 there says nothing (a module that sets
	 * the bit and leaves 107 empty keeps its class 1-7) */
	if ((b & 0x20) && class8 && class8[0]) {
		out->power_class = 8;
		out->max_power_w = class8[0] / 10.0;
	}
	out->cdr_tx = (int8_t)(b >> 3 & 1);
	out->cdr_rx = (int8_t)(b >> 2 & 1);
}

int mlx_sff8636_decode(const struct mlx_mod_eeprom *e, struct mlx_mod_info *out, char *err, size_t errlen)
{
	const uint8_t *lo = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 0, 58);
	const uint8_t *up = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 128, 96);
	/* page 03h: only the thresholds (128-199) are needed, so a short
	 * read that has them still gives them */
	const uint8_t *p3 = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 3, 128, 72);
	const uint8_t *class8 = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, L_CLASS8_POWER, 1);
	const uint8_t *u;

	mod_info_init(out, MLX_MOD_SFF8636);
	if (!lo && !up) {
		mod_err(err, errlen, "SFF-8636: neither the lower page nor page 00h is complete");
		return -ENODATA;
	}
	if (up) {
		u = up - 128;        /* index with the spec's byte numbers */
		out->identifier = u[128];
		out->ext_identifier = u[129];
		out->connector = u[130];
		mod_identity(out, u, &(const struct mod_id_layout){ 148, 165, 168, 184, 2, 196, 212 });
		/* 140: 100 Mb/s units; 0xff: byte 222 in 250 Mb/s */
		out->nominal_mbd = u[140] == 0xff ? u[222] * 250u : u[140] * 100u;
		out->length_smf_m = u[142] * 1000u;
		out->length_om3_m = u[143] * 2u;
		out->length_om2_m = u[144];
		out->length_om1_m = u[145];
		out->length_copper_m = u[146];
		out->encoding_valid = true;
		out->encoding = u[139];
		ext_identifier(out, u[129], class8);
		/* 147 bits 7-4: transmitter technology; below 0xa0 it is a laser,
		 * and 186-187 are the wavelength in 1/20 nm, 188-189 its
		 * tolerance in 1/200 nm (table 6-19) */
		if ((u[147] & 0xf0) < 0xa0) {
			out->wavelength_nm = mod_be16(u + 186) / 20.0;
			out->wavelength_tol_nm = mod_be16(u + 188) / 200.0;
		}
		out->tx_tech_valid = true;
		out->tx_tech = u[147] & 0xf0;
		/* 131 bit 7: the extended compliance code (192) applies */
		out->ext_compliance_valid = u[131] & 0x80;
		out->ext_compliance = u[192];
		out->cc_checked = true;
		out->cc_base_ok = mod_cc_ok(u, 128, 190, 191);
		out->cc_ext_ok = mod_cc_ok(u, 192, 222, 223);
	}
	if (lo) {
		if (!up)
			out->identifier = lo[0];
		out->flat_memory = lo[L_STATUS] & 0x04;
		out->dom = true;
		out->nlanes = 4;
		live(&out->temperature_c, lo + L_TEMP, mod_temp_c);
		live(&out->voltage_v, lo + L_VCC, mod_vcc_v);
		flags_module(&out->temperature_c, lo[L_FLAG_TEMP]);
		flags_module(&out->voltage_v, lo[L_FLAG_VCC]);
		for (unsigned i = 0; i < 4; i++) {
			struct mlx_mod_lane *l = &out->lane[i];

			live(&l->rx_power_mw, lo + L_RXPWR + 2 * i, mod_power_mw);
			live(&l->bias_ma, lo + L_BIAS + 2 * i, mod_bias_ma);
			live(&l->tx_power_mw, lo + L_TXPWR + 2 * i, mod_power_mw);
			flags_lane(&l->rx_power_mw, lo + L_FLAG_RXPWR, i);
			flags_lane(&l->bias_ma, lo + L_FLAG_BIAS, i);
			flags_lane(&l->tx_power_mw, lo + L_FLAG_TXPWR, i);
		}
		if (up)
			lane_signals(out, lo, up - 128);
	}
	if (p3 && !out->flat_memory) {
		const uint8_t *t = p3 - 128;

		mod_thresh(&out->temperature_th, t + 128, mod_temp_c);
		mod_thresh(&out->voltage_th, t + 144, mod_vcc_v);
		mod_thresh(&out->rx_power_th, t + 176, mod_power_mw);
		mod_thresh(&out->bias_th, t + 184, mod_bias_ma);
		mod_thresh(&out->tx_power_th, t + 192, mod_power_mw);
	}
	if (out->cc_checked && (!out->cc_base_ok || !out->cc_ext_ok)) {
		mod_err(err, errlen, "SFF-8636 checksum %s is wrong",
			!out->cc_base_ok ? "CC_BASE (byte 191)" : "CC_EXT (byte 223)");
		return -EBADMSG;
	}
	return 0;
}
