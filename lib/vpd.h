/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI Vital Product Data (PCI Local Bus spec 3.0 section 6.4 and appendix
 * I; the kernel exposes it as the binary sysfs file `vpd`).  Pure decoder.
 * Resource tags: 0x82 identifier string, 0x90 VPD-R (read-only keywords,
 * ending with RV whose first byte is the checksum), 0x91 VPD-W, 0x78 end.
 */
#ifndef MLX_VPD_H
#define MLX_VPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MLX_VPD_MAX_FIELDS 48

struct mlx_vpd_field {
	char keyword[3];          /* "PN", "SN", "V0", ... */
	char value[256];          /* printable, trailing blanks and NULs cut */
	bool rw;                  /* from VPD-W */
};

struct mlx_vpd {
	char product[256];        /* identifier string */
	struct mlx_vpd_field f[MLX_VPD_MAX_FIELDS];
	size_t n;
	bool has_rv;              /* a checksum was present */
	bool checksum_ok;
	unsigned rv_reserved;     /* bytes after the checksum byte */
	unsigned rw_free;         /* bytes of RW areas */
	size_t len;               /* bytes up to and including the end tag */
};

/*
 * Decode @len bytes.  0 on success.  -EBADMSG with a reason in @err for:
 * a truncated resource or keyword, an unknown tag, no end tag, no
 * identifier string, a checksum that does not sum to zero (then *out still
 * holds every field decoded, checksum_ok false).  Never reads past @len.
 */
int mlx_vpd_decode(const uint8_t *buf, size_t len, struct mlx_vpd *out, char *err, size_t errlen);
/* A field's value by keyword; NULL when absent. */
const char *mlx_vpd_get(const struct mlx_vpd *v, const char *kw);
/* "Part number", "Serial number"... as lspci names them; NULL if unnamed. */
const char *mlx_vpd_keyword_name(const char *kw);

#endif
