/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI VPD decoder (format in lib/vpd.h).  Every length is checked against
 * the buffer before the bytes it covers are touched.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vpd.h"

#define TAG_ID_STRING 0x82
#define TAG_VPD_R     0x90
#define TAG_VPD_W     0x91
#define TAG_END       0x78

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

/* Copy a value, unprintable bytes as '.', trailing blanks/NULs cut. */
static void text(char *dst, size_t cap, const uint8_t *src, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < cap; i++)
		dst[k++] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : src[i] ? '.' : '\0';
	dst[k] = '\0';
	k = strlen(dst);
	while (k && dst[k - 1] == ' ')
		dst[--k] = '\0';
}

static int keywords(const uint8_t *buf, size_t start, size_t end, bool rw, struct mlx_vpd *out,
		    bool *bad_sum, char *err, size_t errlen)
{
	size_t p = start;

	while (p < end) {
		char kw[3];
		size_t klen;

		if (end - p < 3)
			return bad(err, errlen, "keyword header truncated at offset %zu", p);
		kw[0] = (char)buf[p];
		kw[1] = (char)buf[p + 1];
		kw[2] = '\0';
		klen = buf[p + 2];
		if (klen > end - p - 3)
			return bad(err, errlen, "keyword '%.2s' at offset %zu has %zu bytes, past the "
				   "end of its section at %zu", kw, p, klen, end);
		if (!rw && !strcmp(kw, "RV")) {
			uint8_t sum = 0;

			if (klen < 1)
				return bad(err, errlen, "RV keyword at offset %zu has no checksum byte",
					   p);
			/* All bytes from the start of VPD through the checksum
			 * byte sum to zero (PCI 3.0 I.3.1.1). */
			for (size_t i = 0; i <= p + 3; i++)
				sum = (uint8_t)(sum + buf[i]);
			out->has_rv = true;
			out->checksum_ok = sum == 0;
			out->rv_reserved = (unsigned)klen - 1;
			if (sum)
				*bad_sum = true;
		} else if (rw && !strcmp(kw, "RW")) {
			out->rw_free += (unsigned)klen;
		} else if (out->n < MLX_VPD_MAX_FIELDS) {
			struct mlx_vpd_field *f = &out->f[out->n++];

			memcpy(f->keyword, kw, 3);
			text(f->value, sizeof(f->value), buf + p + 3, klen);
			f->rw = rw;
		}
		p += 3 + klen;
	}
	return 0;
}

int mlx_vpd_decode(const uint8_t *buf, size_t len, struct mlx_vpd *out, char *err, size_t errlen)
{
	bool seen_id = false, bad_sum = false;
	size_t off = 0;
	int r;

	memset(out, 0, sizeof(*out));
	for (;;) {
		uint8_t tag;
		size_t l;

		if (off >= len)
			return bad(err, errlen, "no end tag (0x78) in %zu bytes of VPD", len);
		tag = buf[off];
		if (tag == TAG_END) {
			out->len = off + 1;
			break;
		}
		if (!(tag & 0x80))
			return bad(err, errlen, "unexpected small resource tag 0x%02x at offset %zu",
				   tag, off);
		if (len - off < 3)
			return bad(err, errlen, "resource header truncated at offset %zu", off);
		l = (size_t)buf[off + 1] | (size_t)buf[off + 2] << 8;
		if (l > len - off - 3)
			return bad(err, errlen, "resource 0x%02x at offset %zu is %zu bytes, past the "
				   "end of the %zu-byte VPD", tag, off, l, len);
		switch (tag) {
		case TAG_ID_STRING:
			text(out->product, sizeof(out->product), buf + off + 3, l);
			seen_id = true;
			break;
		case TAG_VPD_R:
		case TAG_VPD_W:
			if (!seen_id)
				return bad(err, errlen, "VPD does not start with the identifier string "
					   "(tag 0x%02x at offset %zu)", tag, off);
			r = keywords(buf, off + 3, off + 3 + l, tag == TAG_VPD_W, out, &bad_sum, err,
				     errlen);
			if (r < 0)
				return r;
			break;
		default:
			return bad(err, errlen, "unexpected resource tag 0x%02x at offset %zu", tag,
				   off);
		}
		off += 3 + l;
	}
	if (!seen_id)
		return bad(err, errlen, "VPD has no identifier string");
	if (bad_sum)
		return bad(err, errlen, "VPD checksum is wrong: the read-only section does not sum "
			   "to zero");
	return 0;
}

const char *mlx_vpd_get(const struct mlx_vpd *v, const char *kw)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->f[i].keyword, kw))
			return v->f[i].value;
	return NULL;
}

const char *mlx_vpd_keyword_name(const char *kw)
{
	static const char *const names[][2] = {
		{ "PN", "Part number" }, { "EC", "Engineering changes" },
		{ "FG", "Fabric geography" }, { "LC", "Location" }, { "MN", "Manufacture ID" },
		{ "PG", "PCI geography" }, { "SN", "Serial number" }, { "CP", "Extended capability" },
		{ "YA", "Asset tag" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(names[i][0], kw))
			return names[i][1];
	if (kw[0] == 'V')
		return "Vendor specific";
	if (kw[0] == 'Y')
		return "System specific";
	return NULL;
}
