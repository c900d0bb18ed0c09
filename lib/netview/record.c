/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a snapshot keeps for the views of lib/netview.h: the netlink
 * replies, recorded by asking them while the capture records (lib/nl.h),
 * and the procfs and sysfs files outside a function's own tree, named for
 * the snapshot to copy (lib/capture/snapshot.c).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx-private.h"
#include "netview.h"

int mlx_netview_record(struct mlx_ctx *ctx, const struct mlx_devices *devs)
{
	struct mlx_vxlan_dev *vx = NULL;
	size_t nvx = 0;

	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		/* a capture holds PCI functions (snapshot.c), not --any-device's others */
		if (!mlx_fn_is_pci(fn))
			continue;
		for (size_t j = 0; j < fn->nports; j++) {
			const char *ifname = fn->ports[j].ifname;
			struct mlx_tunnel_info *ti = malloc(sizeof(*ti));
			struct mlx_rss *rss = malloc(sizeof(*rss));
			struct mlx_filter f;

			if (ifname[0] && ti && rss) {
				/* a failure is recorded as the kernel's answer */
				mlx_tunnel_info_get(ctx, ifname, ti);
				mlx_rss_get(ctx, ifname, rss);
				if (mlx_filter_get(ctx, ifname, &f) == 0)
					mlx_filter_free(&f);
			}
			free(ti);
			free(rss);
			mlx_err_clear(ctx);
		}
	}
	if (mlx_vxlan_devs_get(ctx, &vx, &nvx) == 0)
		free(vx);
	mlx_err_clear(ctx);
	return 0;
}

struct strv {
	char **v;
	size_t n, cap;
};

static int add(struct strv *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int add(struct strv *s, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int r;

	if (s->n + 1 >= s->cap) {
		char **nv;

		s->cap = s->cap ? s->cap * 2 : 32;
		nv = realloc(s->v, s->cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		s->v = nv;
	}
	va_start(ap, fmt);
	r = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	s->v[s->n++] = p;
	s->v[s->n] = NULL;
	return 0;
}

/* The IRQs of @bdf: their procfs files and the action's directory. */
static int irq_paths(struct mlx_ctx *ctx, const char *bdf, struct strv *files, struct strv *dirs)
{
	static const char *const f[] = { "smp_affinity_list", "effective_affinity_list", "node" };
	char path[128], **names = NULL;
	size_t n = 0;
	int r = 0;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/msi_irqs", bdf);
	if (mlx_list_dir(ctx, path, &names, &n) < 0)
		return 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		char **sub = NULL;
		size_t ns = 0;
		uint64_t irq;

		if (mlx_parse_u64(names[i], &irq) < 0 || irq > 1u << 24)
			continue;
		for (size_t k = 0; k < 3 && r == 0; k++) {
			snprintf(path, sizeof(path), "/proc/irq/%llu/%s", (unsigned long long)irq, f[k]);
			if (mlx_exists(ctx, path))
				r = add(files, "%s", path);
		}
		snprintf(path, sizeof(path), "/proc/irq/%llu", (unsigned long long)irq);
		if (r == 0 && mlx_list_dir(ctx, path, &sub, &ns) == 0) {
			for (size_t k = 0; k < ns && r == 0; k++) {
				char d[192];

				snprintf(d, sizeof(d), "%s/%s", path, sub[k]);
				if (mlx_name_is_safe(sub[k]) && mlx_is_dir(ctx, d))
					r = add(dirs, "%s", d);
			}
			mlx_strv_free(sub);
		}
	}
	mlx_strv_free(names);
	return r;
}

/*
 * The real directory of /sys/class/net/<if> (a relative link, "../../
 * devices/pci0000:5d/.../net/<if>"): a snapshot copies that link and the
 * function's tree, so the queue files go where the link points.
 */
static int netdev_dir(struct mlx_ctx *ctx, const char *ifname, char *buf, size_t len)
{
	char link[96], target[512], *parts[64];
	size_t np = 0;
	char tmp[640];

	snprintf(link, sizeof(link), "/sys/class/net/%s", ifname);
	if (mlx_readlink(ctx, link, target, sizeof(target)) < 0)
		return -ENOENT;
	if (target[0] == '/')
		snprintf(tmp, sizeof(tmp), "%s", target);
	else
		snprintf(tmp, sizeof(tmp), "/sys/class/net/%s", target);
	for (char *save = NULL, *w = strtok_r(tmp, "/", &save); w; w = strtok_r(NULL, "/", &save)) {
		if (!strcmp(w, ".") || !*w)
			continue;
		if (!strcmp(w, "..")) {
			if (np)
				np--;
			continue;
		}
		if (np == 64)
			return -ENAMETOOLONG;
		parts[np++] = w;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < np; i++) {
		size_t l = strlen(buf);

		if (snprintf(buf + l, len - l, "/%s", parts[i]) >= (int)(len - l))
			return -ENAMETOOLONG;
	}
	return np ? 0 : -ENOENT;
}

static int queue_paths(struct mlx_ctx *ctx, const char *ifname, struct strv *files)
{
	char path[640], dir[512], **names = NULL;
	size_t n = 0;
	int r = 0;

	if (!mlx_name_is_safe(ifname) || netdev_dir(ctx, ifname, dir, sizeof(dir)) < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/queues", dir);
	if (mlx_list_dir(ctx, path, &names, &n) < 0)
		return 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		static const char *const tx[] = { "xps_cpus", "xps_rxqs", NULL }, *const rx[] = {
			"rps_cpus", NULL };
		const char *const *f = !strncmp(names[i], "tx-", 3) ? tx :
				       !strncmp(names[i], "rx-", 3) ? rx : NULL;

		for (size_t k = 0; f && f[k] && r == 0 && mlx_name_is_safe(names[i]); k++) {
			snprintf(path, sizeof(path), "%s/queues/%s/%s", dir, names[i], f[k]);
			if (mlx_exists(ctx, path))
				r = add(files, "%s", path);
		}
	}
	mlx_strv_free(names);
	return r;
}

int mlx_netview_capture_paths(struct mlx_ctx *ctx, const struct mlx_devices *devs, char ***files,
			      char ***dirs)
{
	struct strv f = { NULL, 0, 0 }, d = { NULL, 0, 0 };
	static const char *const global[] = { "/proc/net/dev_mcast", "/sys/devices/system/cpu/online" };
	int r = 0;

	*files = *dirs = NULL;
	for (size_t i = 0; i < 2 && r == 0; i++)
		if (mlx_exists(ctx, global[i]))
			r = add(&f, "%s", global[i]);
	for (size_t i = 0; i < devs->nfn && r == 0; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (!mlx_fn_is_pci(fn))
			continue;
		r = irq_paths(ctx, fn->bdf, &f, &d);
		for (size_t j = 0; j < fn->nports && r == 0; j++) {
			char path[160];

			if (!fn->ports[j].ifname[0])
				continue;
			r = queue_paths(ctx, fn->ports[j].ifname, &f);
			/* IPoIB endpoints (root's debugfs) */
			for (int k = 0; k < 2 && r == 0; k++) {
				snprintf(path, sizeof(path), "/sys/kernel/debug/ipoib/%s_%s",
					 fn->ports[j].ifname, k ? "path" : "mcg");
				if (mlx_exists(ctx, path))
					r = add(&f, "%s", path);
			}
		}
	}
	if (r < 0) {
		mlx_strv_free(f.v);
		mlx_strv_free(d.v);
		return r;
	}
	/* never NULL: an empty list */
	if (!f.v && add(&f, "%s", "") == 0) {
		free(f.v[0]);
		f.v[0] = NULL;
		f.n = 0;
	}
	if (!d.v && add(&d, "%s", "") == 0) {
		free(d.v[0]);
		d.v[0] = NULL;
		d.n = 0;
	}
	if (!f.v || !d.v) {
		mlx_strv_free(f.v);
		mlx_strv_free(d.v);
		return -ENOMEM;
	}
	*files = f.v;
	*dirs = d.v;
	return 0;
}
