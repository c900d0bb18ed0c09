/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What lib/settings/txn.c (the run) and lib/settings/txn-recover.c (the
 * recovery of an interrupted one) share: a journal's text fields and the
 * device locks of a transaction.  Private to lib/.
 */
#ifndef MLX_TXN_PRIVATE_H
#define MLX_TXN_PRIVATE_H

#include <stddef.h>

#include "mlx.h"

/* Lines of text gathered for a journal record. */
struct mlx_txn_lines {
	char **v;
	size_t n;
};
/* Append a copy of @text to @arg (a struct mlx_txn_lines): 0 or -ENOMEM. */
int mlx_txn_lines_add(void *arg, const char *text);
void mlx_txn_lines_free(struct mlx_txn_lines *l);

/* A journal's field for string @s: its bytes in hex, "-" when empty (a
 * field has no blank whatever the name holds): 0 or -ENOSPC. */
int mlx_txn_hex(const char *s, char *buf, size_t len);
/* ... and back: 0 or -EBADMSG. */
int mlx_txn_unhex(const char *h, char *buf, size_t len);

/* The locks of @names (NULLs skipped; sorted here: each once, in address
 * order, so two transactions over overlapping devices cannot wait on each
 * other) into @fds: 0 or -errno with the story, none held. */
int mlx_txn_lock_all(struct mlx_ctx *ctx, const char **names, size_t n, int *fds, size_t *nfd);
void mlx_txn_unlock_all(int *fds, size_t n);

#endif /* MLX_TXN_PRIVATE_H */
