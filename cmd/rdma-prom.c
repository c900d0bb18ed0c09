/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA in `counters --format prometheus` (issue 24): per RDMA device the
 * number of resources of each type (RDMA_NLDEV_CMD_RES_GET, as `rdma show`
 * counts them) and the queue pairs in an error state, gauges with the
 * labels rdma_device, pci_address (a device with a PCI function) and type.
 * A system without RDMA (no ib_core, a capture without the replies) adds
 * nothing: the counters do not fail for it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"
#include "rdma-cmd.h"

static void labels(char *buf, size_t len, const struct rdma_sel *s, const char *dev)
{
	const struct mlx_function *fn = rdma_fn(s, dev);
	char d[160], p[64];

	prom_escape_label(d, sizeof(d), dev);
	if (fn) {
		prom_escape_label(p, sizeof(p), fn->bdf);
		snprintf(buf, len, "rdma_device=\"%s\",pci_address=\"%s\"", d, p);
	} else {
		snprintf(buf, len, "rdma_device=\"%s\"", d);
	}
}

int prom_write_rdma(struct cli *cli, FILE *fp, const struct mlx_function *only)
{
	struct rdma_sel s = { 0 };
	struct mlx_rdma_summary *sum = NULL;
	size_t nsum = 0;
	char lab[256];
	int r;

	memset(&s, 0, sizeof(s));
	if (mlx_rdma_devs_get(cli->ctx, &s.devs) < 0 || !s.devs.n) {
		mlx_err_clear(cli->ctx);
		mlx_rdma_devs_free(&s.devs);
		return 0;
	}
	r = cli_devices(cli, &s.mdevs);
	if (r)
		goto out;
	if (mlx_rdma_summary_get(cli->ctx, &sum, &nsum) == 0 && nsum) {
		fprintf(fp, "# HELP mlxcli_rdma_resources RDMA resources of a device by type "
			"(RDMA netlink RES_GET)\n# TYPE mlxcli_rdma_resources gauge\n");
		for (size_t i = 0; i < nsum; i++) {
			const struct mlx_function *fn = rdma_fn(&s, sum[i].dev);

			if (only && fn != only)
				continue;
			labels(lab, sizeof(lab), &s, sum[i].dev);
			for (int k = 0; k < MLX_RDMA_NKINDS; k++)
				if (sum[i].count[k] >= 0)
					fprintf(fp, "mlxcli_rdma_resources{%s,type=\"%s\"} %lld\n", lab,
						mlx_rdma_kind_name((enum mlx_rdma_kind)k),
						(long long)sum[i].count[k]);
		}
	}
	fprintf(fp, "# HELP mlxcli_rdma_qps_in_error queue pairs in the ERR or SQE state\n"
		"# TYPE mlxcli_rdma_qps_in_error gauge\n");
	for (size_t i = 0; i < s.devs.n; i++) {
		const struct mlx_rdma_dev *d = &s.devs.v[i];
		struct mlx_rdma_res_list l = { 0 };
		uint64_t n = 0;

		if (only && rdma_fn(&s, d->name) != only)
			continue;
		if (mlx_rdma_res_get(cli->ctx, d, MLX_RDMA_QP, &l) < 0) {
			mlx_err_clear(cli->ctx);
			continue;
		}
		for (size_t j = 0; j < l.n; j++)
			n += (l.v[j].has & MLX_RES_STATE) && mlx_rdma_qp_state_failed(l.v[j].state);
		mlx_rdma_res_list_free(&l);
		labels(lab, sizeof(lab), &s, d->name);
		fprintf(fp, "mlxcli_rdma_qps_in_error{%s} %llu\n", lab, (unsigned long long)n);
	}
	r = ferror(fp) ? -EIO : 0;
out:
	free(sum);
	mlx_rdma_devs_free(&s.devs);
	mlx_err_clear(cli->ctx);
	return r;
}
