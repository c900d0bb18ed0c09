/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SFF-8472 rev 12.4 (SFP, SFP+, SFP28): identity in A0h bytes 0-95,
 * diagnostics in A2h 0-127 when A0h byte 92 bit 6 says so.  Offsets are
 * the spec's tables 4-1 (A0h) and 9-5 .. 9-17 (A2h); the external
 * calibration is section 9.3, as ethtool's sfpdiag.c applies it.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "module-eeprom-priv.h"

/* A2h: thresholds 0-39, calibration 56-91, live values 96-105 */
#define A2_TH_TEMP 0
#define A2_TH_VCC 8
#define A2_TH_BIAS 16
#define A2_TH_TXPWR 24
#define A2_TH_RXPWR 32
#define A2_CAL_RXPWR4 56
#define A2_CAL_TXI 76
#define A2_CAL_TXPWR 80
#define A2_CAL_T 84
#define A2_CAL_V 88
#define A2_TEMP 96
#define A2_STATUS 110   /* bit 2 TX_Fault state, bit 1 Rx_LOS state */
#define A2_ALARM 112
#define A2_WARN 116

static double cal_float(const uint8_t *p)
{
	uint32_t u = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	float f;

	memcpy(&f, &u, sizeof(f));
	return isfinite(f) ? f : 0.0;
}

/* y = slope * x + offset, slope unsigned 8.8 fixed point, offset signed */
static unsigned cal_lin(unsigned x, const uint8_t *cal)
{
	double y = (double)x * mod_be16(cal) / 256.0 + (int16_t)mod_be16(cal + 2);

	if (y < 0)
		return 0;
	return y > 65535 ? 65535 : (unsigned)y;
}

/* The five values of one A2h block (live at 96 or a threshold word) as
 * raw 16-bit words after calibration: temp, vcc, bias, tx, rx. */
static void a2_words(const uint8_t *a2, bool ext, const uint8_t w[5][2], uint8_t out[5][2])
{
	for (int i = 0; i < 5; i++)
		memcpy(out[i], w[i], 2);
	if (!ext)
		return;
	unsigned t = cal_lin(mod_be16(w[0]), a2 + A2_CAL_T);
	unsigned v = cal_lin(mod_be16(w[1]), a2 + A2_CAL_V);
	unsigned b = cal_lin(mod_be16(w[2]), a2 + A2_CAL_TXI);
	unsigned tx = cal_lin(mod_be16(w[3]), a2 + A2_CAL_TXPWR);
	double x = mod_be16(w[4]), rx = 0;

	/* temperature is signed: calibrate the signed reading */
	{
		double y = (double)(int16_t)mod_be16(w[0]) * mod_be16(a2 + A2_CAL_T) / 256.0 +
			   (int16_t)mod_be16(a2 + A2_CAL_T + 2);
		int yi = y < -32768 ? -32768 : y > 32767 ? 32767 : (int)y;

		t = (uint16_t)yi;
	}
	/* Rx power: fourth-order polynomial, coefficients from Rx_PWR(4) down */
	for (int k = 0; k < 5; k++)
		rx += cal_float(a2 + A2_CAL_RXPWR4 + 4 * k) * pow(x, 4 - k);
	rx = rx < 0 ? 0 : rx > 65535 ? 65535 : rx;
	unsigned r = (unsigned)rx;
	unsigned vals[5] = { t, v, b, tx, r };

	for (int i = 0; i < 5; i++) {
		out[i][0] = (uint8_t)(vals[i] >> 8);
		out[i][1] = (uint8_t)vals[i];
	}
}

static void set_th(struct mlx_mod_thresh *t, const uint8_t words[4][5][2], int i,
		   double (*conv)(const uint8_t *))
{
	t->valid = true;
	t->high_alarm = conv(words[0][i]);
	t->low_alarm = conv(words[1][i]);
	t->high_warning = conv(words[2][i]);
	t->low_warning = conv(words[3][i]);
}

static void set_val(struct mlx_mod_value *v, const uint8_t *w, double (*conv)(const uint8_t *),
		    const uint8_t *fl, int byte, int bit)
{
	v->valid = true;
	v->v = conv(w);
	if (!fl)
		return;
	v->flags_valid = true;
	v->high_alarm = fl[byte] >> bit & 1;
	v->low_alarm = fl[byte] >> (bit - 1) & 1;
	v->high_warning = fl[4 + byte] >> bit & 1;
	v->low_warning = fl[4 + byte] >> (bit - 1) & 1;
}

static void decode_diag(const uint8_t *a0, const uint8_t *a2, struct mlx_mod_info *out)
{
	bool ext = a0[92] & 0x10;   /* externally calibrated */
	const uint8_t *fl = a2 + A2_ALARM;   /* alarms 112-113, warnings 116-117 */
	uint8_t th[4][5][2], live[5][2], w[5][2];

	/* thresholds are laid out per quantity: HA, LA, HW, LW */
	for (int k = 0; k < 4; k++) {
		for (int i = 0; i < 5; i++)
			memcpy(w[i], a2 + 8 * i + 2 * k, 2);
		a2_words(a2, ext, (const uint8_t(*)[2])w, th[k]);
	}
	for (int i = 0; i < 5; i++)
		memcpy(w[i], a2 + A2_TEMP + 2 * i, 2);
	a2_words(a2, ext, (const uint8_t(*)[2])w, live);

	out->dom = true;
	out->nlanes = 1;
	set_th(&out->temperature_th, (const uint8_t(*)[5][2])th, 0, mod_temp_c);
	set_th(&out->voltage_th, (const uint8_t(*)[5][2])th, 1, mod_vcc_v);
	set_th(&out->bias_th, (const uint8_t(*)[5][2])th, 2, mod_bias_ma);
	set_th(&out->tx_power_th, (const uint8_t(*)[5][2])th, 3, mod_power_mw);
	set_th(&out->rx_power_th, (const uint8_t(*)[5][2])th, 4, mod_power_mw);
	/* flags only when A0h byte 93 bit 7 says alarm/warning flags exist */
	if (!(a0[93] & 0x80))
		fl = NULL;
	set_val(&out->temperature_c, live[0], mod_temp_c, fl, 0, 7);
	set_val(&out->voltage_v, live[1], mod_vcc_v, fl, 0, 5);
	set_val(&out->lane[0].bias_ma, live[2], mod_bias_ma, fl, 0, 3);
	set_val(&out->lane[0].tx_power_mw, live[3], mod_power_mw, fl, 0, 1);
	set_val(&out->lane[0].rx_power_mw, live[4], mod_power_mw, fl, 1, 7);
	/* the pins' states in byte 110 where A0h byte 93 says they are
	 * monitored (bit 5 soft TX_FAULT, bit 4 soft RX_LOS; table 8-6) */
	if (a0[93] & 0x20)
		out->lane[0].flag[MLX_MOD_TX_FAULT] = (int8_t)(a2[A2_STATUS] >> 2 & 1);
	if (a0[93] & 0x10)
		out->lane[0].flag[MLX_MOD_RX_LOS] = (int8_t)(a2[A2_STATUS] >> 1 & 1);
}

int mlx_sff8472_decode(const struct mlx_mod_eeprom *e, struct mlx_mod_info *out, char *err, size_t errlen)
{
	const uint8_t *a0 = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 0, 96);
	const uint8_t *a2;

	mod_info_init(out, MLX_MOD_SFF8472);
	if (!a0) {
		const uint8_t *id = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 0, 1);

		if (id)
			out->identifier = id[0];
		mod_err(err, errlen, "SFF-8472 A0h page truncated: need bytes 0-95");
		return -ENODATA;
	}
	out->identifier = a0[0];
	out->ext_identifier = a0[1];
	out->connector = a0[2];
	mod_identity(out, a0, &(const struct mod_id_layout){ 20, 37, 40, 56, 4, 68, 84 });
	/* 12: nominal rate in 100 MBd; 0xff means "see byte 66 in 250 MBd" */
	out->nominal_mbd = a0[12] == 0xff ? a0[66] * 250u : a0[12] * 100u;
	out->length_smf_m = a0[14] ? a0[14] * 1000u : a0[15] * 100u;
	out->length_om2_m = a0[16] * 10u;
	out->length_om1_m = a0[17] * 10u;
	out->length_copper_m = a0[18];
	out->length_om3_m = a0[19] * 10u;
	out->encoding_valid = true;
	out->encoding = a0[11];
	/* 60-61: wavelength, unless 8 (transceiver codes) says copper cable */
	if (!(a0[8] & 0x0c))
		out->wavelength_nm = mod_be16(a0 + 60);
	out->cc_checked = true;
	out->cc_base_ok = mod_cc_ok(a0, 0, 62, 63);
	out->cc_ext_ok = mod_cc_ok(a0, 64, 94, 95);

	a2 = mlx_mod_bytes(e, MLX_MOD_I2C_A2, 0, 0, 0, 120);
	if ((a0[92] & 0x40) && a2)
		decode_diag(a0, a2, out);
	if (!out->cc_base_ok || !out->cc_ext_ok) {
		mod_err(err, errlen, "SFF-8472 checksum %s is wrong", !out->cc_base_ok ? "CC_BASE (byte 63)" : "CC_EXT (byte 95)");
		return -EBADMSG;
	}
	return 0;
}
