/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A test-local netlink attribute writer for the unit tests that build
 * replies by hand (test-decode-netlink, test-devlink-health): independent
 * of lib/backend/nl-attr.c's builder, so a bug there cannot hide in both the
 * encoder and the decoder under test.
 */
#ifndef MLX_TEST_NL_WRITER_H
#define MLX_TEST_NL_WRITER_H

#include <linux/netlink.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct w {
	uint8_t b[16384];
	size_t n;
};

/* Append one attribute (payload padded to 4); returns its offset. */
static inline size_t attr(struct w *w, uint16_t type, const void *p, size_t len)
{
	struct nlattr a = { .nla_len = (uint16_t)(4 + len), .nla_type = type };
	size_t at = w->n;

	memcpy(w->b + w->n, &a, 4);
	if (len)
		memcpy(w->b + w->n + 4, p, len);
	w->n += NLA_ALIGN(4 + len);
	return at;
}

/* Close the nest whose header attr() wrote at @at. */
static inline void nest_end(struct w *w, size_t at)
{
	uint16_t len = (uint16_t)(w->n - at);

	memcpy(w->b + at, &len, 2);
}

#endif
