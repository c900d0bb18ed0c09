/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Module EEPROM pages, the choice of decoder and what the decoders share.
 * Identifier and connector names are SFF-8024 rev 4.10 tables 4-1 and 4-3,
 * spelled as ethtool's sff-common.c prints them.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "module-eeprom-priv.h"

int mlx_mod_add(struct mlx_mod_eeprom *e, uint8_t i2c, uint8_t bank, uint8_t page,
		uint16_t offset, uint16_t len, const uint8_t *data)
{
	if ((unsigned)offset + len > 256 || (len && !data))
		return -EINVAL;
	if (e->n >= MLX_MOD_MAX_PAGES)
		return -ENOSPC;
	e->p[e->n++] = (struct mlx_mod_page){ i2c, bank, page, offset, len, data };
	return 0;
}

const uint8_t *mlx_mod_bytes(const struct mlx_mod_eeprom *e, uint8_t i2c, uint8_t bank,
			     uint8_t page, uint16_t offset, uint16_t len)
{
	for (size_t i = 0; i < e->n; i++) {
		const struct mlx_mod_page *p = &e->p[i];

		if (p->i2c != i2c || p->bank != bank || p->page != page)
			continue;
		if (offset >= p->offset && (unsigned)offset + len <= (unsigned)p->offset + p->len)
			return p->data + (offset - p->offset);
	}
	return NULL;
}

enum mlx_mod_std mlx_mod_std_of(uint8_t id)
{
	switch (id) {
	case 0x02: /* soldered module: SFF-8472 map */
	case 0x03: /* SFP/SFP+/SFP28 */
		return MLX_MOD_SFF8472;
	case 0x0c: /* QSFP */
	case 0x0d: /* QSFP+ */
	case 0x11: /* QSFP28 */
		return MLX_MOD_SFF8636;
	case 0x18: /* QSFP-DD */
	case 0x19: /* OSFP */
	case 0x1b: /* DSFP */
	case 0x1e: /* QSFP+ or later with CMIS */
	case 0x1f: /* SFP-DD with CMIS */
	case 0x20: /* SFP+ with CMIS */
		return MLX_MOD_CMIS;
	default:
		return MLX_MOD_STD_UNKNOWN;
	}
}

const char *mlx_mod_std_name(enum mlx_mod_std s)
{
	switch (s) {
	case MLX_MOD_SFF8472: return "sff-8472";
	case MLX_MOD_SFF8636: return "sff-8636";
	case MLX_MOD_CMIS: return "cmis";
	default: return NULL;
	}
}

int mlx_mod_from_flat(struct mlx_mod_eeprom *e, const uint8_t *buf, size_t len)
{
	int rc = 0;

	memset(e, 0, sizeof(*e));
	if (len < 1)
		return -ENODATA;
	switch (mlx_mod_std_of(buf[0])) {
	case MLX_MOD_SFF8472:
		/* A0h 0-255 then A2h 0-255 (ethtool sfp layout) */
		for (size_t off = 0; off < len && off < 512 && !rc; off += 128) {
			size_t n = len - off < 128 ? len - off : 128;

			rc = mlx_mod_add(e, off < 256 ? MLX_MOD_I2C_A0 : MLX_MOD_I2C_A2, 0, 0,
					 (uint16_t)(off % 256), (uint16_t)n, buf + off);
		}
		return rc;
	case MLX_MOD_SFF8636:
		/* lower, page 00h, then upper page N at 128 * (N + 1): the
		 * kernel's ETH_MODULE_SFF_8636_MAX_LEN (640) layout */
		for (size_t off = 0; off < len && off < 640 && !rc; off += 128) {
			size_t n = len - off < 128 ? len - off : 128;
			uint8_t page = off < 256 ? 0 : (uint8_t)(off / 128 - 1);

			rc = mlx_mod_add(e, MLX_MOD_I2C_A0, 0, page, off < 128 ? 0 : 128,
					 (uint16_t)n, buf + off);
		}
		return rc;
	default:
		/* CMIS and unknown: what the ioctl gives, lower + page 00h */
		for (size_t off = 0; off < len && off < 256 && !rc; off += 128) {
			size_t n = len - off < 128 ? len - off : 128;

			rc = mlx_mod_add(e, MLX_MOD_I2C_A0, 0, 0, (uint16_t)off, (uint16_t)n, buf + off);
		}
		return rc;
	}
}

size_t mlx_mod_pages_wanted(const uint8_t *lower, struct mlx_mod_want *w, size_t max)
{
	size_t n = 0;

#define WANT(i2c_, bank_, page_, off_)                                                   \
	do {                                                                             \
		if (n < max)                                                             \
			w[n++] = (struct mlx_mod_want){ i2c_, bank_, page_, off_, 128 };    \
	} while (0)

	switch (mlx_mod_std_of(lower[0])) {
	case MLX_MOD_SFF8472:
		/* A0h upper holds CC_EXT's tail (64-95 are in the lower half):
		 * identity is A0h 0-127; diagnostics A2h 0-127 when byte 92
		 * bit 6 says they exist (SFF-8472 8.8) */
		if (lower[92] & 0x40)
			WANT(MLX_MOD_I2C_A2, 0, 0, 0);
		break;
	case MLX_MOD_SFF8636:
		WANT(MLX_MOD_I2C_A0, 0, 0, 128);
		if (!(lower[2] & 0x04))   /* not flat: thresholds on page 03h */
			WANT(MLX_MOD_I2C_A0, 0, 3, 128);
		break;
	case MLX_MOD_CMIS:
		WANT(MLX_MOD_I2C_A0, 0, 0, 128);
		if (!(lower[2] & 0x80)) { /* paged: advertising, thresholds, lanes */
			WANT(MLX_MOD_I2C_A0, 0, 1, 128);
			WANT(MLX_MOD_I2C_A0, 0, 2, 128);
			WANT(MLX_MOD_I2C_A0, 0, 0x11, 128);
		}
		break;
	default:
		break;
	}
#undef WANT
	return n;
}

const char *mlx_mod_level_name(enum mlx_mod_level l)
{
	switch (l) {
	case MLX_MOD_OFF: return "off";
	case MLX_MOD_OK: return "ok";
	case MLX_MOD_WARNING: return "warning";
	case MLX_MOD_ALARM: return "alarm";
	default: return NULL;
	}
}

enum mlx_mod_level mlx_mod_value_level(const struct mlx_mod_value *v, const struct mlx_mod_thresh *t)
{
	if (!v->valid)
		return MLX_MOD_LEVEL_UNKNOWN;
	/* the module's own flags first: it knows its thresholds' hysteresis */
	if (v->flags_valid) {
		if (v->high_alarm || v->low_alarm)
			return MLX_MOD_ALARM;
		if (v->high_warning || v->low_warning)
			return MLX_MOD_WARNING;
		return MLX_MOD_OK;
	}
	if (!t || !t->valid)
		return MLX_MOD_LEVEL_UNKNOWN;
	if (v->v >= t->high_alarm || v->v <= t->low_alarm)
		return MLX_MOD_ALARM;
	if (v->v >= t->high_warning || v->v <= t->low_warning)
		return MLX_MOD_WARNING;
	return MLX_MOD_OK;
}

enum mlx_mod_level mlx_mod_lane_level(const struct mlx_mod_lane *l, const struct mlx_mod_value *v,
				      const struct mlx_mod_thresh *t, bool rx)
{
	enum mlx_mod_level lv = mlx_mod_value_level(v, t);
	bool dark = rx ? v->valid && v->v == 0 :
		    l->bias_ma.valid && l->bias_ma.v == 0 && l->tx_power_mw.valid &&
		    l->tx_power_mw.v == 0;

	/* a raised flag is the module's word; a 0 it does not flag is a
	 * laser switched off or a fibre without light, not "ok" (issue 25) */
	if (dark && v->valid && v->v == 0 && (!v->flags_valid || lv == MLX_MOD_OK))
		return MLX_MOD_OFF;
	return lv;
}

const char *mlx_mod_flag_key(enum mlx_mod_flag f)
{
	static const char *const k[MLX_MOD_NFLAGS] = { "rx_los", "tx_los", "tx_fault", "rx_lol",
							"tx_lol" };

	return (unsigned)f < MLX_MOD_NFLAGS ? k[f] : NULL;
}

const char *mlx_mod_flag_text(enum mlx_mod_flag f)
{
	static const char *const t[MLX_MOD_NFLAGS] = { "Rx loss of signal", "Tx loss of signal",
							"Tx fault", "Rx loss of lock",
							"Tx loss of lock" };

	return (unsigned)f < MLX_MOD_NFLAGS ? t[f] : NULL;
}

const char *mlx_mod_encoding_name(enum mlx_mod_std std, uint8_t code)
{
	/* ethtool sff-common.c sff8024_show_encoding's spelling; codes 4-6
	 * mean other things in SFF-8472 and SFF-8636 */
	static const char *const sfp[] = { "Manchester", "SONET Scrambled", "64B/66B" };
	static const char *const qsfp[] = { "SONET Scrambled", "64B/66B", "Manchester" };

	switch (code) {
	case 0x00: return "unspecified";
	case 0x01: return "8B/10B";
	case 0x02: return "4B/5B";
	case 0x03: return "NRZ";
	case 0x04: case 0x05: case 0x06:
		return std == MLX_MOD_SFF8472 ? sfp[code - 4] : std == MLX_MOD_SFF8636 ?
		       qsfp[code - 4] : NULL;
	case 0x07: return "256B/257B (transcoded FEC-enabled data)";
	case 0x08: return "PAM4";
	default: return NULL;
	}
}

double mlx_mod_mw_to_dbm(double mw)
{
	return 10.0 * log10(mw);
}

void mod_ascii(char *dst, const uint8_t *src, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
		if (src[i] != ' ' && src[i] != 0)
			len = i + 1;
	}
	dst[len] = '\0';
}

void mod_identity(struct mlx_mod_info *out, const uint8_t *p, const struct mod_id_layout *l)
{
	out->identity_valid = true;
	mod_ascii(out->vendor, p + l->vendor, 16);
	memcpy(out->oui, p + l->oui, 3);
	mod_ascii(out->part_number, p + l->part_number, 16);
	mod_ascii(out->revision, p + l->revision, l->revision_len);
	mod_ascii(out->serial, p + l->serial, 16);
	mod_ascii(out->date_code, p + l->date_code, 8);
}

bool mod_cc_ok(const uint8_t *page, unsigned from, unsigned to, unsigned at)
{
	uint8_t sum = 0;

	for (unsigned i = from; i <= to; i++)
		sum = (uint8_t)(sum + page[i]);
	return sum == page[at];
}

void mod_thresh(struct mlx_mod_thresh *t, const uint8_t *p, double (*conv)(const uint8_t *))
{
	if (!p)
		return;
	t->valid = true;
	t->high_alarm = conv(p);
	t->low_alarm = conv(p + 2);
	t->high_warning = conv(p + 4);
	t->low_warning = conv(p + 6);
}

void mod_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void mod_info_init(struct mlx_mod_info *out, enum mlx_mod_std std)
{
	memset(out, 0, sizeof(*out));
	out->std = std;
	out->cdr_tx = out->cdr_rx = -1;
	for (unsigned i = 0; i < MLX_MOD_MAX_LANES; i++)
		memset(out->lane[i].flag, 0xff, sizeof(out->lane[i].flag));
}

int mlx_mod_decode(const struct mlx_mod_eeprom *e, struct mlx_mod_info *out, char *err, size_t errlen)
{
	const uint8_t *id = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 0, 1);

	/* SFF-8636 and CMIS repeat the identifier at byte 128 (page 00h) */
	if (!id)
		id = mlx_mod_bytes(e, MLX_MOD_I2C_A0, 0, 0, 128, 1);
	mod_info_init(out, MLX_MOD_STD_UNKNOWN);
	if (!id) {
		mod_err(err, errlen, "no module EEPROM (page 0 byte 0 missing)");
		return -ENODATA;
	}
	out->identifier = id[0];
	switch (mlx_mod_std_of(id[0])) {
	case MLX_MOD_SFF8472:
		return mlx_sff8472_decode(e, out, err, errlen);
	case MLX_MOD_SFF8636:
		return mlx_sff8636_decode(e, out, err, errlen);
	case MLX_MOD_CMIS:
		return mlx_cmis_decode(e, out, err, errlen);
	default:
		mod_err(err, errlen, "unknown module identifier 0x%02x%s", id[0],
			id[0] == 0 ? " (no module or unspecified)" : "");
		return -EPROTONOSUPPORT;
	}
}

static const char *const id_names[] = {
	[0x00] = "No module present, unknown, or unspecified",
	[0x01] = "GBIC",
	[0x02] = "Module soldered to motherboard",
	[0x03] = "SFP",
	[0x04] = "300 pin XBI",
	[0x05] = "XENPAK",
	[0x06] = "XFP",
	[0x07] = "XFF",
	[0x08] = "XFP-E",
	[0x09] = "XPAK",
	[0x0a] = "X2",
	[0x0b] = "DWDM-SFP",
	[0x0c] = "QSFP",
	[0x0d] = "QSFP+",
	[0x0e] = "CXP",
	[0x0f] = "Shielded Mini Multilane HD 4X",
	[0x10] = "Shielded Mini Multilane HD 8X",
	[0x11] = "QSFP28",
	[0x12] = "CXP2/CXP28",
	[0x13] = "CDFP Style 1/Style 2",
	[0x14] = "Shielded Mini Multilane HD 4X Fanout Cable",
	[0x15] = "Shielded Mini Multilane HD 8X Fanout Cable",
	[0x16] = "CDFP Style 3",
	[0x17] = "microQSFP",
	[0x18] = "QSFP-DD Double Density 8X Pluggable Transceiver (INF-8628)",
	[0x19] = "OSFP 8X Pluggable Transceiver",
	[0x1a] = "SFP-DD Double Density 2X Pluggable Transceiver",
	[0x1b] = "DSFP Dual Small Form Factor Pluggable Transceiver",
	[0x1c] = "x4 MiniLink/OcuLink",
	[0x1d] = "x8 MiniLink",
	[0x1e] = "QSFP+ or later with CMIS",
	[0x1f] = "SFP-DD Double Density 2X Pluggable Transceiver with CMIS",
	[0x20] = "SFP+ and later with CMIS",
};

const char *mlx_mod_identifier_name(uint8_t id)
{
	return id < sizeof(id_names) / sizeof(id_names[0]) ? id_names[id] : NULL;
}

const char *mlx_mod_connector_name(uint8_t c)
{
	static const char *const lo[] = {
		[0x00] = "unknown or unspecified", [0x01] = "SC", [0x02] = "Fibre Channel Style 1 copper",
		[0x03] = "Fibre Channel Style 2 copper", [0x04] = "Bayonet/Threaded Neill-Concelman",
		[0x05] = "Fibre Channel coaxial headers", [0x06] = "FibreJack", [0x07] = "LC",
		[0x08] = "MT-RJ", [0x09] = "MU", [0x0a] = "SG", [0x0b] = "Optical pigtail",
		[0x0c] = "MPO Parallel Optic", [0x0d] = "MPO Parallel Optic - 2x16",
	};
	static const char *const hi[] = {
		[0x00] = "HSSDC II", [0x01] = "Copper pigtail", [0x02] = "RJ45",
		[0x03] = "No separable connector", [0x04] = "MXC 2x16", [0x05] = "CS optical connector",
		[0x06] = "Mini CS optical connector", [0x07] = "MPO 2x12", [0x08] = "MPO 1x16",
	};

	if (c < sizeof(lo) / sizeof(lo[0]))
		return lo[c];
	if (c >= 0x20 && c - 0x20u < sizeof(hi) / sizeof(hi[0]))
		return hi[c - 0x20];
	return NULL;
}
