/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SHA-256 (FIPS 180-2/180-4 §6.2), for the dump-me-now manifest. */
#ifndef MLX_SHA256_H
#define MLX_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct mlx_sha256 {
	uint32_t h[8];
	uint64_t len;          /* bytes hashed */
	uint8_t buf[64];
	size_t nbuf;
};

void mlx_sha256_init(struct mlx_sha256 *s);
void mlx_sha256_update(struct mlx_sha256 *s, const void *data, size_t len);
void mlx_sha256_final(struct mlx_sha256 *s, uint8_t out[32]);
/* 64 lowercase hex digits and a NUL. */
void mlx_sha256_hex(const uint8_t d[32], char out[65]);

#endif
