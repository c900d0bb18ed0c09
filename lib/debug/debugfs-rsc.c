/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mlx5_core's debugfs lists of event, completion and queue-pair objects
 * (drivers/net/ethernet/mellanox/mlx5/core/debugfs.c): one directory per
 * object named "0x<number>" under EQs/, CQs/ and QPs/ of the device's
 * debugfs directory, one file per field.  Reading a field makes the driver
 * query the firmware (QUERY_EQ, QUERY_CQ, QUERY_QP), so a large host is
 * read up to a bound, and the caller says so.  Values are "0x%llx" or, for
 * a QP's state and transport, a word.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx-private.h"
#include "netview.h"

/* The fields each kind has, in the kernel's order (debugfs.c qp_fields,
 * eq_fields, cq_fields). */
static const char *const eq_fields[] = { "num_eqes", "intr", "log_page_size", NULL };
static const char *const cq_fields[] = { "pid", "num_cqes", "log_page_size", NULL };
static const char *const qp_fields[] = {
	"pid", "state", "transport", "mtu", "num_recv", "rcv_wqe_sz", "num_send", "log2_page_sz",
	"remote_qpn", NULL,
};

static const struct {
	const char *name, *dir;
	const char *const *fields;
} kinds[MLX_RSC_NKINDS] = {
	[MLX_RSC_EQ] = { "eqs", "EQs", eq_fields },
	[MLX_RSC_CQ] = { "cqs", "CQs", cq_fields },
	[MLX_RSC_QP] = { "qps", "QPs", qp_fields },
};

const char *mlx_rsc_kind_name(enum mlx_rsc_kind k)
{
	return (unsigned)k < MLX_RSC_NKINDS ? kinds[k].name : NULL;
}

static int cmp_rsc(const void *a, const void *b)
{
	uint32_t x = ((const struct mlx_rsc *)a)->number, y = ((const struct mlx_rsc *)b)->number;

	return (x > y) - (x < y);
}

int mlx_rsc_list(struct mlx_ctx *ctx, const char *bdf, enum mlx_rsc_kind kind, size_t max,
		 struct mlx_rsc **out, size_t *nout, bool *truncated)
{
	char dir[128], path[224], **names = NULL;
	struct mlx_rsc *v;
	size_t n = 0, k = 0;
	int r;

	*out = NULL;
	*nout = 0;
	*truncated = false;
	if ((unsigned)kind >= MLX_RSC_NKINDS || !mlx_name_is_safe(bdf))
		return mlx_err(ctx, EINVAL, "'%s' is not a PCI address", bdf);
	snprintf(dir, sizeof(dir), "/sys/kernel/debug/mlx5/%s/%s", bdf, kinds[kind].dir);
	r = mlx_list_dir(ctx, dir, &names, &n);
	if (r < 0)
		return r == -EACCES || r == -EPERM ?
		       mlx_err(ctx, EACCES, "reading '%s' needs root (debugfs)", dir) :
		       mlx_err(ctx, r, "cannot list '%s': %s", dir, strerror(-r));
	v = calloc(n ? (n < max ? n : max) : 1, sizeof(*v));
	if (!v) {
		mlx_strv_free(names);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t num;

		if (strncmp(names[i], "0x", 2) || mlx_parse_u64(names[i], &num) < 0 ||
		    num > UINT32_MAX)
			continue;
		if (k == max) {
			*truncated = true;
			break;
		}
		v[k].number = (uint32_t)num;
		for (size_t f = 0; kinds[kind].fields[f] && f < MLX_RSC_MAX_FIELDS; f++) {
			char val[64];

			snprintf(path, sizeof(path), "%s/%s/%s", dir, names[i], kinds[kind].fields[f]);
			v[k].f[f].name = kinds[kind].fields[f];
			if (mlx_read_str(ctx, path, val, sizeof(val)) == 0)
				snprintf(v[k].f[f].value, sizeof(v[k].f[f].value), "%.23s", val);
			v[k].n = f + 1;
		}
		k++;
	}
	mlx_strv_free(names);
	qsort(v, k, sizeof(*v), cmp_rsc);
	*out = v;
	*nout = k;
	mlx_err_clear(ctx);
	return 0;
}
