/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the three module EEPROM decoders (sff8472.c,
 * sff8636.c, cmis.c) and module-eeprom.c; not part of libmlx's interface.
 */
#ifndef MLX_MODULE_EEPROM_PRIV_H
#define MLX_MODULE_EEPROM_PRIV_H

#include <stdarg.h>
#include <stdio.h>

#include "module-eeprom.h"

static inline unsigned mod_be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* The units every standard shares (SFF-8472 9.2, SFF-8636 6.2.4, CMIS 8.2.4). */
static inline double mod_temp_c(const uint8_t *p)
{
	return (double)(int16_t)mod_be16(p) / 256.0;
}
static inline double mod_vcc_v(const uint8_t *p)
{
	return mod_be16(p) / 10000.0;
}
static inline double mod_bias_ma(const uint8_t *p)
{
	return mod_be16(p) * 2 / 1000.0;
}
static inline double mod_power_mw(const uint8_t *p)
{
	return mod_be16(p) / 10000.0;
}

/* An ASCII field of @n bytes into @dst (n + 1 bytes): non-printable bytes
 * become '?', trailing blanks are cut (as ethtool prints them). */
void mod_ascii(char *dst, const uint8_t *src, size_t n);
/* Where a standard puts a module's identity (byte numbers as its spec
 * numbers them, into @p: SFF-8472 A0h table 4-1, SFF-8636 and CMIS page
 * 00h): one copy for all three decoders; sets identity_valid. */
struct mod_id_layout {
	uint8_t vendor, oui, part_number, revision, revision_len, serial, date_code;
};
void mod_identity(struct mlx_mod_info *out, const uint8_t *p, const struct mod_id_layout *l);
/* Sum of bytes [from, to] modulo 256 equals byte @at. */
bool mod_cc_ok(const uint8_t *page, unsigned from, unsigned to, unsigned at);
/* Thresholds: four 16-bit words high alarm, low alarm, high warning, low
 * warning, each converted by @conv. */
void mod_thresh(struct mlx_mod_thresh *t, const uint8_t *p, double (*conv)(const uint8_t *));
void mod_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void mod_info_init(struct mlx_mod_info *out, enum mlx_mod_std std);

#endif
