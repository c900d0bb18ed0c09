/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the two SR-IOV emulators share (lib/emul/sriov-emul.c: numvfs and
 * the journal; lib/emul/sriov-vf-emul.c: VF settings, eswitch mode).
 * Not part of the library's interface.
 */
#ifndef MLX_SRIOV_EMUL_PRIVATE_H
#define MLX_SRIOV_EMUL_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "sriov.h"

struct mlx_ctx;
struct txn;             /* the undo journal of sriov-emul.c; NULL: none */

/* A recorded reply (fam/obj/req.nl) read whole; its path in @path.
 * -ENODATA with the story when the capture lacks it. */
int mlx_emul_read_capture(struct mlx_ctx *ctx, const char *fam, const char *obj, const char *req,
			  char *path, size_t plen, char **data, size_t *len);
/* Replace a captured file whole (a new file renamed over it). */
int mlx_emul_write_file(struct mlx_ctx *ctx, const char *path, const void *data, size_t len);

typedef int (*mlx_vf_edit)(struct mlx_link_vfs *l, const void *arg);
/* Decode @ifname's recorded VF list, edit it, write it back re-encoded
 * (journaled in @t).  @who names the owner in messages. */
int mlx_emul_edit_vfs(struct mlx_ctx *ctx, struct txn *t, const char *ifname, const char *who,
		      mlx_vf_edit edit, const void *arg, bool must_exist);

#endif
