/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two ways a netlink reply parser meets bytes: directly, the whole
 * input as one message of @size bytes (whatever its nlmsg_len says), and
 * through mlx_nl_replay, the input as a recorded reply stream (the
 * format of the .nl files under netlink/ in a capture) cut into messages.
 */
#ifndef MLX_FUZZ_NL_H
#define MLX_FUZZ_NL_H

#include "fuzz-util.h"
#include "mlx.h"
#include "nl.h"

static struct mlx_ctx *fuzz_ctx;

static inline void fuzz_nl(const uint8_t *data, size_t size, mlx_nl_cb cb, void *arg)
{
	uint8_t *copy = fuzz_copy(data, size);
	char *msg = NULL;

	if (!copy)
		return;
	if (size >= NLMSG_HDRLEN)
		(void)cb((const struct nlmsghdr *)copy, size, arg);
	if (!fuzz_ctx && mlx_ctx_new("/", &fuzz_ctx, &msg) < 0)
		abort();
	free(msg);
	(void)mlx_nl_replay(fuzz_ctx, copy, size, cb, arg);
	free(copy);
}

#endif
