/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the generic netlink attribute walker
 * (lib/backend/nl-attr.c) and the reply-stream replay (mlx_nl_replay in
 * lib/backend/nl.c, which also reads the extended-ack text of error messages).
 * Every attribute is walked, nests recursively, read as every width, and
 * copied into a request with the builder (which must never overflow its
 * buffer).
 */
#include "fuzz-nl.h"

static void walk(const uint8_t *buf, size_t len, int depth, struct mlx_nlbuf *b)
{
	struct mlx_nla a;
	size_t off = 0;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	char s[64];

	while (mlx_nla_next(buf, len, &off, &a) == 1) {
		if (a.data < buf || a.data + a.len > buf + len)
			abort();
		(void)mlx_nla_u8(&a, &u8);
		(void)mlx_nla_u16(&a, &u16);
		(void)mlx_nla_u32(&a, &u32);
		(void)mlx_nla_u64(&a, &u64);
		mlx_nla_str(&a, s, sizeof(s));
		if (strnlen(s, sizeof(s)) == sizeof(s))
			abort();
		mlx_nla_str(&a, s, 1);
		if (b)
			mlx_nlb_attr(b, a.type, a.data, a.len);
		if (depth < 8)
			walk(a.data, a.len, depth + 1, NULL);
	}
}

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	static const size_t hdrlens[] = { 0, 4, 16 };
	static uint8_t out[1 << 17];
	const uint8_t *attrs;
	struct mlx_nlbuf b;
	size_t alen;

	(void)arg;
	for (size_t i = 0; i < sizeof(hdrlens) / sizeof(hdrlens[0]); i++) {
		if (mlx_nlmsg_attrs(h, len, hdrlens[i], &attrs, &alen) < 0)
			continue;
		if (attrs + alen > (const uint8_t *)h + len)
			abort();
		mlx_nlb_init(&b, out, sizeof(out));
		mlx_nlb_msg(&b, 16, 0);
		walk(attrs, alen, 0, &b);
		(void)mlx_nlb_finish(&b);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	fuzz_nl(data, size, on_msg, NULL);
	/* The bare walker over the raw bytes, no message header. */
	copy = fuzz_copy(data, size);
	if (copy)
		walk(copy, size, 0, NULL);
	free(copy);
	return 0;
}
