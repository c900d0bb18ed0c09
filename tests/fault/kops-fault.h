/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test-only: a kernel that refuses a DCB APP entry (tests/fault/kops-fault.c). */
#ifndef KOPS_FAULT_H
#define KOPS_FAULT_H

struct mlx_ctx;

/*
 * Wrap @ctx's kernel boundary (a captured system's) so that the driver
 * fails one APP entry of a DCB request, as mlx5e_dcbnl_ieee_setapp or
 * _delapp can: @rule is "KIND ERRNO [N]", KIND "app" (IEEE_SET) or
 * "app-del" (IEEE_DEL), the N-th entry (default 1) of each such request
 * failing with ERRNO; what came before it in the request stays applied,
 * as dcbnl_ieee_set() leaves it.  0, or -EINVAL for a bad rule or a live
 * context (only an emulated kernel is faulted).
 */
int kfault_install(struct mlx_ctx *ctx, const char *rule);

#endif
