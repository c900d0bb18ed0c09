/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IPoIB (lib/netview.h): the PKey table of an InfiniBand port, the IPoIB
 * interfaces and their endpoints.
 *
 *  /sys/class/infiniband/<dev>/ports/<p>/pkeys/<i>: "0x%04x" per entry
 *    (drivers/infiniband/core/sysfs.c show_port_pkey); 0x0000 is an unused
 *    slot.
 *  /sys/class/net/<if>/: type 32 (ARPHRD_INFINIBAND), pkey ("0x%04x"),
 *    mode ("datagram"/"connected", ipoib_cm.c), umcast, parent (a child's,
 *    ipoib_vlan.c), address (20 bytes: flags, QPN, GID).
 *  debugfs ipoib/<if>_mcg and <if>_path (ipoib_fs.c): the multicast
 *    groups and the paths (remote endpoints) the interface knows.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx-private.h"
#include "netview.h"

int mlx_pkeys_get(struct mlx_ctx *ctx, const char *dev, unsigned port, struct mlx_pkey_table *out)
{
	char path[192], buf[32], **names = NULL;
	size_t n = 0;
	int r;

	memset(out, 0, sizeof(*out));
	if (!mlx_name_is_safe(dev))
		return mlx_err(ctx, EINVAL, "'%s' is not an RDMA device name", dev);
	snprintf(out->rdma_dev, sizeof(out->rdma_dev), "%s", dev);
	out->port = port;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/link_layer", dev, port);
	mlx_read_str(ctx, path, out->link_layer, sizeof(out->link_layer));
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/pkeys", dev, port);
	r = mlx_list_dir(ctx, path, &names, &n);
	if (r < 0)
		return r == -ENOENT ? -ENOENT : mlx_err(ctx, r, "cannot list '%s': %s", path, strerror(-r));
	out->table_size = n;
	for (size_t idx = 0; idx < n && out->n < MLX_PKEYS_MAX; idx++) {
		uint16_t pk;

		/* the entries are named 0..n-1; read them in index order */
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/pkeys/%zu", dev, port,
			 idx);
		if (mlx_read_str(ctx, path, buf, sizeof(buf)) < 0 || mlx_pkey_parse(buf, &pk) < 0)
			continue;       /* unreadable or garbled: skipped, as mlxtool skips broken entries */
		if (!(pk & 0x7fff))
			continue;       /* 0x0000 (and 0x8000): an unused slot */
		out->e[out->n].index = (unsigned)idx;
		out->e[out->n].pkey = pk;
		out->n++;
	}
	mlx_strv_free(names);
	return 0;
}

static int cmp_if(const void *a, const void *b)
{
	return strcmp(((const struct mlx_ipoib_if *)a)->ifname, ((const struct mlx_ipoib_if *)b)->ifname);
}

static int hex_addr(const char *s, uint8_t *a, size_t max, size_t *n)
{
	*n = 0;
	while (*s && *n < max) {
		unsigned v;
		int k;

		if (sscanf(s, "%2x%n", &v, &k) != 1 || k != 2)
			return -EINVAL;
		a[(*n)++] = (uint8_t)v;
		s += 2;
		if (*s == ':')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return 0;
}

int mlx_ipoib_list(struct mlx_ctx *ctx, struct mlx_ipoib_if **out, size_t *nout)
{
	char **names = NULL, path[192], buf[128];
	struct mlx_ipoib_if *v = NULL;
	size_t n = 0, k = 0;
	int r;

	*out = NULL;
	*nout = 0;
	r = mlx_list_dir(ctx, "/sys/class/net", &names, &n);
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		mlx_strv_free(names);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct mlx_ipoib_if *x = &v[k];
		uint64_t type, u;
		uint8_t addr[32];
		size_t alen;

		if (!mlx_name_is_safe(names[i]) || strlen(names[i]) >= MLX_IFNAME_LEN)
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/type", names[i]);
		if (mlx_read_u64(ctx, path, &type) < 0 || type != 32)
			continue;
		memset(x, 0, sizeof(*x));
		snprintf(x->ifname, sizeof(x->ifname), "%s", names[i]);
		x->pkey = x->umcast = -1;
		snprintf(path, sizeof(path), "/sys/class/net/%s/pkey", names[i]);
		if (mlx_read_u64(ctx, path, &u) == 0 && u <= 0xffff)
			x->pkey = (int)u;
		snprintf(path, sizeof(path), "/sys/class/net/%s/umcast", names[i]);
		if (mlx_read_u64(ctx, path, &u) == 0 && u <= 1)
			x->umcast = (int)u;
		snprintf(path, sizeof(path), "/sys/class/net/%s/mode", names[i]);
		if (mlx_read_str(ctx, path, buf, sizeof(buf)) == 0 &&
		    (!strcmp(buf, "datagram") || !strcmp(buf, "connected")))
			snprintf(x->mode, sizeof(x->mode), "%s", buf);
		snprintf(path, sizeof(path), "/sys/class/net/%s/parent", names[i]);
		if (mlx_read_str(ctx, path, buf, sizeof(buf)) == 0 && mlx_name_is_safe(buf) &&
		    strcmp(buf, x->ifname))
			snprintf(x->parent, sizeof(x->parent), "%.15s", buf);
		snprintf(path, sizeof(path), "/sys/class/net/%s/device", names[i]);
		if (mlx_readlink_base(ctx, path, buf, sizeof(buf)) == 0 && mlx_name_is_safe(buf))
			snprintf(x->bdf, sizeof(x->bdf), "%.15s", buf);
		snprintf(path, sizeof(path), "/sys/class/net/%s/address", names[i]);
		if (mlx_read_str(ctx, path, buf, sizeof(buf)) == 0 &&
		    hex_addr(buf, addr, sizeof(addr), &alen) == 0 && alen == 20) {
			snprintf(x->address, sizeof(x->address), "%s", buf);
			mlx_ipoib_addr(addr, alen, &x->qpn, x->gid, sizeof(x->gid));
		}
		snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", names[i]);
		if (mlx_read_u64(ctx, path, &u) == 0 && u < 1u << 20)
			x->mtu = (unsigned)u;
		snprintf(path, sizeof(path), "/sys/class/net/%s/dev_port", names[i]);
		if (mlx_read_u64(ctx, path, &u) == 0 && u < 255)
			x->port = (unsigned)u + 1;      /* ipoib_main.c: dev_port = port - 1 */
		snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", names[i]);
		mlx_read_str(ctx, path, x->operstate, sizeof(x->operstate));
		k++;
	}
	mlx_strv_free(names);
	qsort(v, k, sizeof(*v), cmp_if);
	if (!k) {
		free(v);
		v = NULL;
	}
	*out = v;
	*nout = k;
	mlx_err_clear(ctx);
	return 0;
}

int mlx_ipoib_endpoints(struct mlx_ctx *ctx, const char *ifname, const char *kind,
			struct mlx_ipoib_ep **out, size_t *n)
{
	char path[160], *text = NULL;
	size_t len = 0;
	int r;

	*out = NULL;
	*n = 0;
	if (!mlx_name_is_safe(ifname) || (strcmp(kind, "mcg") && strcmp(kind, "path")))
		return mlx_err(ctx, EINVAL, "'%s' is not an IPoIB interface name", ifname);
	snprintf(path, sizeof(path), "/sys/kernel/debug/ipoib/%s_%s", ifname, kind);
	r = mlx_read_file(ctx, path, &text, &len);
	if (r < 0)
		return r == -EACCES || r == -EPERM ?
		       mlx_err(ctx, EACCES, "reading '%s' needs root (debugfs)", path) :
		       r == -ENOENT ? mlx_err(ctx, ENOENT, "'%s' is missing (debugfs not mounted, or "
					     "ipoib built without CONFIG_INFINIBAND_IPOIB_DEBUG)", path) :
		       mlx_err(ctx, r, "cannot read '%s': %s", path, strerror(-r));
	r = mlx_ipoib_debugfs_parse(text, len, out, n);
	free(text);
	if (r < 0 && r != -ENOMEM)
		return mlx_err(ctx, r, "'%s' is not in the form ipoib_fs.c prints", path);
	return r;
}

int mlx_delay_drop_get(struct mlx_ctx *ctx, const char *bdf, struct mlx_delay_drop *out)
{
	static const char *const files[] = { "timeout", "num_timeout_events", "num_rqs" };
	int64_t *dst[] = { &out->timeout_usec, &out->timeout_events, &out->rqs };
	char path[160];

	memset(out, 0, sizeof(*out));
	out->timeout_usec = out->timeout_events = out->rqs = -1;
	if (!mlx_name_is_safe(bdf))
		return mlx_err(ctx, EINVAL, "'%s' is not a PCI address", bdf);
	snprintf(out->bdf, sizeof(out->bdf), "%.15s", bdf);
	snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5/%s/delay_drop", bdf);
	if (!mlx_is_dir(ctx, path)) {
		char **names = NULL;
		size_t n = 0;
		int r = mlx_list_dir(ctx, "/sys/kernel/debug", &names, &n);

		/* debugfs is root's (mode 0700): say which of the two it is */
		mlx_strv_free(names);
		out->err = r == -EACCES || r == -EPERM ? -EACCES : -ENOENT;
		mlx_err_clear(ctx);
		return 0;
	}
	for (size_t i = 0; i < 3; i++) {
		int64_t v;
		int r;

		snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5/%s/delay_drop/%s", bdf, files[i]);
		r = mlx_read_s64(ctx, path, &v);
		if (r == 0 && v >= 0)
			*dst[i] = v;
		else if (r < 0 && !out->err)
			out->err = r;
	}
	mlx_err_clear(ctx);
	return 0;
}
