/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the RDMA reply decoders share (lib/decode/decode-rdma*.c): not an
 * interface outside lib/decode.
 */
#ifndef MLX_DECODE_RDMA_PRIV_H
#define MLX_DECODE_RDMA_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "nl.h"

/* Format the story into @err; returns -EBADMSG. */
int mlx_rdma_bad(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The attributes of an NLDEV message (no family header); its command, or
 * -EBADMSG. */
int mlx_rdma_msg_attrs(const struct nlmsghdr *h, size_t len, const uint8_t **attrs, size_t *alen,
		       char *err, size_t errlen);
/* Room for one more element of an array that grows by doubling: 0, -ENOMEM. */
int mlx_rdma_grow(void **v, size_t *cap, size_t n, size_t size);
/* The device index of a message, then each @entry nest of its @table nest
 * to @fn (-ENOMEM stops the walk as is; another failure is -EBADMSG). */
int mlx_rdma_walk_table(const struct nlmsghdr *h, size_t len, uint16_t table, uint16_t entry,
			uint32_t *dev_index, int (*fn)(const struct mlx_nla *e, uint32_t dev, void *arg),
			void *arg, const char *what, char *err, size_t errlen);

#endif
