/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A CR-space dump of a live PF: the gateway (vsec.c) over the config
 * space the kernel boundary opens (libpci live, lib/backend/pci-cfgio.c),
 * block by block as mstdump reads them.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "mlx-private.h"
#include "vsec.h"

struct mlx_crdump {
	struct mlx_ctx *ctx;
	const struct mlx_function *fn;
	struct mlx_cfgio *io;
	struct mlx_vsec g;
};

void mlx_crdump_close(struct mlx_crdump *d)
{
	if (!d)
		return;
	mlx_cfgio_close(d->io);
	free(d);
}

int mlx_crdump_open(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_crdump **out)
{
	struct mlx_crdump *d;
	uint32_t hdr = 0;
	int rc;

	*out = NULL;
	if (fn->role == MLX_FN_VF)
		return mlx_err(ctx, EOPNOTSUPP,
			       "%s is a virtual function: the CR-space gateway is on the PF only", fn->bdf);
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->ctx = ctx;
	d->fn = fn;
	rc = mlx_kernel_cfg_open(ctx, fn->domain, fn->bus, fn->dev, fn->func, &d->io);
	if (rc < 0)
		goto fail;
	if (!fn->cfg.vsec_offset) {
		rc = mlx_err(ctx, EOPNOTSUPP,
			     "%s has no vendor-specific capability (ID 0x09) in its config space: no CR-space gateway",
			     fn->bdf);
		goto fail;
	}
	mlx_vsec_init(&d->g, &mlx_cfgio_ops, d->io, fn->cfg.vsec_offset);
	/* Capability header: bits 31:24 are the VSC type; 0 is the
	 * functional gateway (pci_vsc.c, mtcr_ul_com.c). */
	rc = mlx_cfgio_ops.read32(d->io, fn->cfg.vsec_offset, &hdr);
	if (rc < 0) {
		rc = mlx_err(ctx, EIO, "cannot read the vendor-specific capability of %s", fn->bdf);
		goto fail;
	}
	if (hdr >> 24) {
		rc = mlx_err(ctx, EOPNOTSUPP, "the vendor-specific capability of %s is of type %u, not the CR-space gateway",
			     fn->bdf, hdr >> 24);
		goto fail;
	}
	*out = d;
	return 0;
fail:
	mlx_crdump_close(d);
	return rc;
}

int mlx_crdump_read(struct mlx_crdump *d, const struct mlx_cr_range *r, size_t n,
		    mlx_crdump_emit emit, void *arg, struct mlx_vsec_stats *st)
{
	struct mlx_ctx *ctx = d->ctx;
	const struct mlx_function *fn = d->fn;
	uint32_t *buf = NULL;
	size_t maxn = 0;
	int rc = 0;

	if (st)
		memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < n; i++)
		if (r[i].dwords > maxn)
			maxn = r[i].dwords;
	buf = malloc((maxn ? maxn : 1) * sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		rc = mlx_vsec_read(&d->g, MLX_VSC_SPACE_CR, r[i].addr, buf, r[i].dwords);
		if (rc < 0) {
			rc = mlx_err(ctx, -rc, "CR-space dump of %s stopped at block 0x%06x: %s", fn->bdf,
				     r[i].addr, d->g.err);
			break;
		}
		for (uint32_t k = 0; k < r[i].dwords && rc == 0; k++)
			rc = emit(arg, r[i].addr + 4 * k, buf[k]);
		if (rc < 0) {
			rc = mlx_err(ctx, -rc, "cannot write the CR-space dump of %s: %s", fn->bdf,
				     strerror(-rc));
			break;
		}
	}
	if (st)
		*st = d->g.st;
	free(buf);
	return rc;
}

int mlx_crdump(struct mlx_ctx *ctx, const struct mlx_function *fn, const struct mlx_cr_range *r,
	       size_t n, mlx_crdump_emit emit, void *arg, struct mlx_vsec_stats *st)
{
	struct mlx_crdump *d;
	int rc;

	if (st)
		memset(st, 0, sizeof(*st));
	rc = mlx_crdump_open(ctx, fn, &d);
	if (rc < 0)
		return rc;
	rc = mlx_crdump_read(d, r, n, emit, arg, st);
	mlx_crdump_close(d);
	return rc;
}
