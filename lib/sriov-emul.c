/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's side of the SR-IOV writes, done to a captured system
 * (--sysroot, --sample working copies; DESIGN.md "The root prefix": "a
 * write command changes the files (and the recorded netlink state) in it,
 * as the kernel would").  Kept in this one file on purpose.
 *
 * numvfs (drivers/pci/iov.c sriov_enable/sriov_disable): sriov_numvfs and
 * the SR-IOV capability's NumVFs/VF Enable change; VF n gets routing ID
 * PF + First VF Offset + n * VF Stride; its sysfs directory, physfn,
 * virtfnN and /sys/bus/pci/devices links appear, bound to the PF's driver
 * when sriov_drivers_autoprobe is 1.  Not emulated: the VF netdevs and RDMA
 * devices a driver would create (they are removed on disable, not created
 * on enable).  The recorded RTM_NEWLINK reply of the PF gets one default
 * VF entry per VF (MAC 00:00:00:00:00:00, VLAN 0, no rate limit, spoof
 * check off, trust off, link state auto, zero statistics).
 *
 * VF settings and the eswitch mode: the recorded replies are decoded,
 * changed and re-encoded.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include "mlx-private.h"
#include "nl.h"
#include "snapshot.h"
#include "sriov.h"
#include "tree.h"

#define FN_DIR "/sys/bus/pci/devices/%s"

static int write_file(struct mlx_ctx *ctx, const char *path, const void *data, size_t len)
{
	int fd = mlx_open(ctx, path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
	ssize_t w;

	if (fd < 0)
		return mlx_err(ctx, fd, "cannot write '%s%s': %s", mlx_root(ctx), path,
			       strerror(-fd));
	w = write(fd, data, len);
	close(fd);
	return w == (ssize_t)len ? 0 : mlx_err(ctx, EIO, "short write to '%s'", path);
}

/* Run fn on the parent directory of @path with the last component. */
static int at_parent(struct mlx_ctx *ctx, const char *path, int (*op)(int dfd, const char *base,
								   const void *arg), const void *arg)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int dfd, r;

	if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir))
		return -EINVAL;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	dfd = mlx_open(ctx, dir, O_PATH | O_DIRECTORY, 0);
	if (dfd < 0)
		return dfd;
	r = op(dfd, slash + 1, arg);
	close(dfd);
	return r;
}

static int op_symlink(int dfd, const char *base, const void *target)
{
	return symlinkat(target, dfd, base) < 0 ? -errno : 0;
}

static int op_unlink(int dfd, const char *base, const void *arg)
{
	return unlinkat(dfd, base, 0) < 0 && errno != ENOENT ? -errno : 0;
}

static int op_mkdir(int dfd, const char *base, const void *arg)
{
	return mkdirat(dfd, base, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

/* The real directory of a function: /sys/bus/pci/devices/<bdf> resolved
 * (the kernel's link is relative: ../../../devices/pci.../<bdf>). */
static int fn_realdir(struct mlx_ctx *ctx, const char *bdf, char *buf, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *p;
	int r;

	snprintf(link, sizeof(link), FN_DIR, bdf);
	r = mlx_readlink(ctx, link, target, sizeof(target));
	if (r < 0)
		return r;
	p = target;
	snprintf(buf, len, "/sys/bus/pci/devices");
	while (!strncmp(p, "../", 3)) {
		char *sl = strrchr(buf, '/');

		if (!sl || sl == buf)
			return -EINVAL;
		*sl = '\0';
		p += 3;
	}
	if (strstr(p, "..") || strlen(buf) + strlen(p) + 2 > len)
		return -EINVAL;
	strcat(buf, "/");
	strcat(buf, p);
	return 0;
}

/* ---- the recorded netlink state ---- */

static int read_capture(struct mlx_ctx *ctx, const char *fam, const char *obj, const char *req,
			char *path, size_t plen, char **data, size_t *len)
{
	int r = mlx_netlink_capture_path(path, plen, fam, obj, req);

	if (r < 0)
		return r;
	r = mlx_read_file(ctx, path, data, len);
	if (r == -ENOENT)
		return mlx_err(ctx, ENODATA, "the capture '%s' has no %s '%s' reply for '%s' to "
			       "update (%s is missing)", mlx_root(ctx), fam, req, obj, path + 1);
	return r;
}

typedef int (*vf_edit)(struct mlx_link_vfs *l, const void *arg);

/* Decode the PF's recorded VF list, edit it, write it back re-encoded. */
static int edit_vfs(struct mlx_ctx *ctx, const struct mlx_function *pf, vf_edit edit,
		    const void *arg, bool must_exist)
{
	char path[512], err[160];
	char *data = NULL;
	struct mlx_link_vfs l;
	uint8_t *out = NULL;
	size_t len = 0, cap;
	int r;

	if (!pf->nports)
		return must_exist ? mlx_err(ctx, ENODEV, "%s has no network interface", pf->bdf) : 0;
	r = read_capture(ctx, "route", pf->ports[0].ifname, MLX_REQ_GETLINK_VF, path,
			 sizeof(path), &data, &len);
	if (r == -ENODATA && !must_exist)
		return 0;
	if (r < 0)
		return r;
	r = mlx_rtnl_vf_decode((const struct nlmsghdr *)data, len, &l, err, sizeof(err));
	if (r < 0) {
		free(data);
		return mlx_err(ctx, r, "cannot decode '%s': %s", path + 1, err);
	}
	r = edit(&l, arg);
	cap = len + 512 + (l.nvf + 1) * 512;
	if (r == 0 && !(out = malloc(cap)))
		r = -ENOMEM;
	if (r == 0) {
		r = mlx_rtnl_vf_encode((const struct nlmsghdr *)data, len, &l, out, cap);
		if (r > 0)
			r = write_file(ctx, path, out, (size_t)r);
	}
	free(out);
	free(data);
	mlx_link_vfs_free(&l);
	return r < 0 ? r : 0;
}

static int edit_count(struct mlx_link_vfs *l, const void *arg)
{
	unsigned n = *(const unsigned *)arg;
	struct mlx_vf_info *v = NULL;

	if (n) {
		v = calloc(n, sizeof(*v));
		if (!v)
			return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		v[i].vf = i;
		v[i].has_mac = v[i].has_vlan = v[i].has_rate = true;
		v[i].vlan_proto = 0x8100;
		v[i].spoofchk = v[i].trust = 0;
		v[i].rss_query_en = 0;
		v[i].link_state = 0;
		v[i].stats.present = true;
	}
	free(l->vf);
	l->vf = v;
	l->nvf = n;
	return 0;
}

static int edit_one(struct mlx_link_vfs *l, const void *arg)
{
	const struct mlx_vf_set *s = arg;

	for (size_t i = 0; i < l->nvf; i++)
		if (l->vf[i].vf == s->vf) {
			mlx_vf_apply(&l->vf[i], s);
			return 0;
		}
	return -ENOENT;
}

int mlx_emul_vf_set(struct mlx_ctx *ctx, const struct mlx_function *pf, const struct mlx_vf_set *s)
{
	int r = edit_vfs(ctx, pf, edit_one, s, true);

	if (r == -ENOENT)
		return mlx_err(ctx, EINVAL, "VF %u is not in the recorded VF list of %s", s->vf,
			       pf->bdf);
	return r;
}

int mlx_emul_eswitch_set(struct mlx_ctx *ctx, const struct mlx_function *pf, int mode)
{
	char path[512], obj[64];
	char *data = NULL;
	size_t len = 0, off = 0;
	const uint8_t *attrs;
	size_t alen;
	struct mlx_nla a;
	int r;

	mlx_devlink_object(pf, obj, sizeof(obj));
	r = read_capture(ctx, "devlink", obj, MLX_REQ_ESWITCH_GET, path, sizeof(path), &data, &len);
	if (r < 0)
		return r;
	r = mlx_nlmsg_attrs((const struct nlmsghdr *)data, len, GENL_HDRLEN, &attrs, &alen);
	while (r == 0 && mlx_nla_next(attrs, alen, &off, &a) == 1) {
		if (a.type == DEVLINK_ATTR_ESWITCH_MODE && a.len >= 2) {
			uint16_t m = (uint16_t)mode;

			/* attrs points into data, which we own: edit in place. */
			memcpy((uint8_t *)data + (a.data - (const uint8_t *)data), &m, 2);
			r = write_file(ctx, path, data, len);
			free(data);
			return r;
		}
	}
	free(data);
	return mlx_err(ctx, EBADMSG, "'%s' has no eswitch mode to update", path + 1);
}

/* ---- numvfs ---- */

static int remove_vf(struct mlx_ctx *ctx, const struct mlx_function *pf, int k)
{
	char path[PATH_MAX], vf[64], real[PATH_MAX], host[PATH_MAX];
	const char *const classes[] = { "net", "infiniband" };
	int r;

	snprintf(path, sizeof(path), FN_DIR "/virtfn%d", pf->bdf, k);
	if (mlx_readlink_base(ctx, path, vf, sizeof(vf)) < 0 || !mlx_name_is_safe(vf))
		return 0;
	r = fn_realdir(ctx, vf, real, sizeof(real));
	if (r == 0) {
		for (size_t c = 0; c < 2; c++) {
			char dir[PATH_MAX], **names = NULL;
			size_t n = 0;

			snprintf(dir, sizeof(dir), "%s/%s", real, classes[c]);
			if (mlx_list_dir(ctx, dir, &names, &n) < 0)
				continue;
			for (size_t i = 0; i < n; i++) {
				char cl[PATH_MAX];

				if (!mlx_name_is_safe(names[i]))
					continue;
				snprintf(cl, sizeof(cl), "/sys/class/%s/%s", classes[c], names[i]);
				at_parent(ctx, cl, op_unlink, NULL);
			}
			mlx_strv_free(names);
		}
		snprintf(host, sizeof(host), "%s%s", mlx_root(ctx), real);
		r = mlx_tree_remove(host);
		if (r < 0)
			return mlx_err(ctx, r, "cannot remove '%s': %s", host, strerror(-r));
	}
	snprintf(path, sizeof(path), FN_DIR, vf);
	at_parent(ctx, path, op_unlink, NULL);
	snprintf(path, sizeof(path), FN_DIR "/virtfn%d", pf->bdf, k);
	return at_parent(ctx, path, op_unlink, NULL);
}

static int wval(struct mlx_ctx *ctx, const char *dir, const char *name, const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_file(ctx, path, val, strlen(val));
}

static int create_vf(struct mlx_ctx *ctx, const struct mlx_function *pf, const char *pfreal,
		     int k, unsigned offset, unsigned stride, unsigned vf_did, bool probe)
{
	unsigned rid = (pf->bus << 8 | pf->dev << 3 | pf->func) + offset + (unsigned)k * stride;
	char bdf[32], dir[PATH_MAX], path[PATH_MAX], link[PATH_MAX], buf[64];
	uint8_t cfg[64] = { 0 };
	char res[17 * 60] = "";
	const char *slash = strrchr(pfreal, '/');
	int r;

	snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", pf->domain, (rid >> 8) & 0xff,
		 (rid >> 3) & 0x1f, rid & 7);
	snprintf(dir, sizeof(dir), "%.*s/%s", (int)(slash - pfreal), pfreal, bdf);
	r = at_parent(ctx, dir, op_mkdir, NULL);
	if (r < 0)
		return mlx_err(ctx, r, "cannot create '%s%s': %s", mlx_root(ctx), dir, strerror(-r));
	/* A VF's Vendor/Device ID registers read 0xffff (SR-IOV spec 3.4.1.1);
	 * the kernel's sysfs files give the real IDs. */
	memset(cfg, 0xff, 4);
	cfg[0x09] = (uint8_t)pf->class_code;
	cfg[0x0a] = (uint8_t)(pf->class_code >> 8);
	cfg[0x0b] = (uint8_t)(pf->class_code >> 16);
	cfg[0x2c] = (uint8_t)pf->subsys_vendor;
	cfg[0x2d] = (uint8_t)(pf->subsys_vendor >> 8);
	cfg[0x2e] = (uint8_t)pf->subsys_device;
	cfg[0x2f] = (uint8_t)(pf->subsys_device >> 8);
	snprintf(path, sizeof(path), "%s/config", dir);
	r = write_file(ctx, path, cfg, sizeof(cfg));
	snprintf(buf, sizeof(buf), "0x%04x\n", pf->vendor);
	r = r ? r : wval(ctx, dir, "vendor", buf);
	snprintf(buf, sizeof(buf), "0x%04x\n", vf_did);
	r = r ? r : wval(ctx, dir, "device", buf);
	snprintf(buf, sizeof(buf), "0x%04x\n", pf->subsys_vendor);
	r = r ? r : wval(ctx, dir, "subsystem_vendor", buf);
	snprintf(buf, sizeof(buf), "0x%04x\n", pf->subsys_device);
	r = r ? r : wval(ctx, dir, "subsystem_device", buf);
	snprintf(buf, sizeof(buf), "0x%06x\n", pf->class_code);
	r = r ? r : wval(ctx, dir, "class", buf);
	snprintf(buf, sizeof(buf), "0x%02x\n", pf->revision);
	r = r ? r : wval(ctx, dir, "revision", buf);
	snprintf(buf, sizeof(buf), "%d\n", pf->numa_node);
	r = r ? r : wval(ctx, dir, "numa_node", buf);
	r = r ? r : wval(ctx, dir, "irq", "0\n");
	for (int i = 0; i < 17; i++)
		strcat(res, "0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
	r = r ? r : wval(ctx, dir, "resource", res);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/physfn", dir);
	snprintf(link, sizeof(link), "../%s", pf->bdf);
	r = at_parent(ctx, path, op_symlink, link);
	snprintf(path, sizeof(path), FN_DIR "/virtfn%d", pf->bdf, k);
	snprintf(link, sizeof(link), "../%s", bdf);
	r = r ? r : at_parent(ctx, path, op_symlink, link);
	/* /sys/bus/pci/devices/<vf> -> ../../../devices/... */
	snprintf(path, sizeof(path), FN_DIR, bdf);
	snprintf(link, sizeof(link), "../../..%s", dir + strlen("/sys"));
	r = r ? r : at_parent(ctx, path, op_symlink, link);
	if (r == 0 && probe && pf->driver[0] && mlx_name_is_safe(pf->driver)) {
		/* <dir>/driver -> ../../...(to /sys)/bus/pci/drivers/<drv> */
		int depth = 0;

		for (const char *p = dir + strlen("/sys"); *p; p++)
			depth += *p == '/';
		link[0] = '\0';
		for (int i = 0; i < depth; i++)
			strcat(link, "../");
		strcat(link, "bus/pci/drivers/");
		strcat(link, pf->driver);
		snprintf(path, sizeof(path), "%s/driver", dir);
		r = at_parent(ctx, path, op_symlink, link);
	}
	if (r < 0)
		return mlx_err(ctx, r, "cannot create the links of VF %s: %s", bdf, strerror(-r));
	return 0;
}

/* NumVFs and VF Enable|VF MSE in the PF's SR-IOV capability (+0x10, +0x08). */
static int update_config(struct mlx_ctx *ctx, const struct mlx_function *pf, unsigned n)
{
	char path[PATH_MAX], *data = NULL;
	size_t len = 0;
	uint16_t off = pf->cfg.sriov.offset;
	int r;

	if (!pf->cfg_decoded || !pf->cfg.sriov.present)
		return 0;
	snprintf(path, sizeof(path), FN_DIR "/config", pf->bdf);
	r = mlx_read_file(ctx, path, &data, &len);
	if (r < 0)
		return 0;
	if ((size_t)off + 0x12 <= len) {
		uint8_t *c = (uint8_t *)data;
		uint16_t ctrl = (uint16_t)(c[off + 8] | c[off + 9] << 8);

		ctrl = n ? (ctrl | 0x09) : (ctrl & ~0x09);
		c[off + 8] = (uint8_t)ctrl;
		c[off + 9] = (uint8_t)(ctrl >> 8);
		c[off + 0x10] = (uint8_t)n;
		c[off + 0x11] = (uint8_t)(n >> 8);
		r = write_file(ctx, path, data, len);
	}
	free(data);
	return r;
}

int mlx_emul_set_numvfs(struct mlx_ctx *ctx, const struct mlx_function *pf, unsigned n)
{
	char dir[PATH_MAX], path[PATH_MAX], real[PATH_MAX], val[16];
	int64_t cur = 0, offset = 0, stride = 1, autoprobe = 1;
	uint64_t vfdid = 0;
	int r;

	snprintf(dir, sizeof(dir), FN_DIR, pf->bdf);
	snprintf(path, sizeof(path), "%s/sriov_numvfs", dir);
	r = mlx_read_s64(ctx, path, &cur);
	if (r < 0)
		return mlx_err(ctx, r, "cannot read '%s': %s", path, strerror(-r));
	if (cur == (int64_t)n)
		return 0;
	snprintf(path, sizeof(path), "%s/sriov_offset", dir);
	mlx_read_s64(ctx, path, &offset);
	snprintf(path, sizeof(path), "%s/sriov_stride", dir);
	mlx_read_s64(ctx, path, &stride);
	snprintf(path, sizeof(path), "%s/sriov_drivers_autoprobe", dir);
	mlx_read_s64(ctx, path, &autoprobe);
	snprintf(path, sizeof(path), "%s/sriov_vf_device", dir);
	if (mlx_read_str(ctx, path, val, sizeof(val)) == 0)
		vfdid = strtoull(val, NULL, 16);     /* "%x" without 0x (pci-sysfs) */
	if (!vfdid)
		vfdid = pf->cfg.sriov.vf_device;

	/* Disable first, as sriov_numvfs_store requires for a change. */
	for (int k = 0; k < cur; k++) {
		r = remove_vf(ctx, pf, k);
		if (r < 0)
			return r;
	}
	r = r ? r : wval(ctx, dir, "sriov_numvfs", "0\n");
	r = r ? r : edit_vfs(ctx, pf, edit_count, &(unsigned){ 0 }, false);
	if (r < 0 || n == 0)
		return r < 0 ? r : update_config(ctx, pf, 0);

	r = fn_realdir(ctx, pf->bdf, real, sizeof(real));
	if (r < 0)
		return mlx_err(ctx, r, "cannot resolve the directory of %s", pf->bdf);
	for (unsigned k = 0; k < n && r == 0; k++)
		r = create_vf(ctx, pf, real, (int)k, (unsigned)offset, (unsigned)stride,
			      (unsigned)vfdid, autoprobe == 1);
	snprintf(val, sizeof(val), "%u\n", n);
	r = r ? r : wval(ctx, dir, "sriov_numvfs", val);
	r = r ? r : edit_vfs(ctx, pf, edit_count, &n, false);
	r = r ? r : update_config(ctx, pf, n);
	return r;
}
