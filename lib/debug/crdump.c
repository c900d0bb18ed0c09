/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A CR-space dump of a live PF: the gateway (vsec.c) over libpci
 * (pci-cfgio.c), block by block as mstdump reads them.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "mlx-private.h"
#include "vsec.h"

int mlx_crdump(struct mlx_ctx *ctx, const struct mlx_function *fn, const struct mlx_cr_range *r,
	       size_t n, mlx_crdump_emit emit, void *arg, struct mlx_vsec_stats *st)
{
	struct mlx_cfgio *io = NULL;
	struct mlx_vsec g;
	uint32_t *buf = NULL, hdr = 0;
	size_t maxn = 0;
	int rc;

	if (st)
		memset(st, 0, sizeof(*st));
	if (fn->role == MLX_FN_VF)
		return mlx_err(ctx, EOPNOTSUPP,
			       "%s is a virtual function: the CR-space gateway is on the PF only", fn->bdf);
	rc = mlx_cfgio_open(ctx, fn->domain, fn->bus, fn->dev, fn->func, &io);
	if (rc < 0)
		return rc;
	if (!fn->cfg.vsec_offset) {
		rc = mlx_err(ctx, EOPNOTSUPP,
			     "%s has no vendor-specific capability (ID 0x09) in its config space: no CR-space gateway",
			     fn->bdf);
		goto out;
	}
	mlx_vsec_init(&g, &mlx_cfgio_ops, io, fn->cfg.vsec_offset);
	/* Capability header: bits 31:24 are the VSC type; 0 is the
	 * functional gateway (pci_vsc.c, mtcr_ul_com.c). */
	rc = mlx_cfgio_ops.read32(io, fn->cfg.vsec_offset, &hdr);
	if (rc < 0) {
		rc = mlx_err(ctx, EIO, "cannot read the vendor-specific capability of %s", fn->bdf);
		goto out;
	}
	if (hdr >> 24) {
		rc = mlx_err(ctx, EOPNOTSUPP, "the vendor-specific capability of %s is of type %u, not the CR-space gateway",
			     fn->bdf, hdr >> 24);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (r[i].dwords > maxn)
			maxn = r[i].dwords;
	buf = malloc((maxn ? maxn : 1) * sizeof(*buf));
	if (!buf) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		rc = mlx_vsec_read(&g, MLX_VSC_SPACE_CR, r[i].addr, buf, r[i].dwords);
		if (rc < 0) {
			rc = mlx_err(ctx, -rc, "CR-space dump of %s stopped at block 0x%06x: %s", fn->bdf,
				     r[i].addr, g.err);
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
		*st = g.st;
out:
	free(buf);
	mlx_cfgio_close(io);
	return rc;
}
