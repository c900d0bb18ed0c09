/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's side of the SR-IOV writes, done to a captured system
 * (--sysroot, --sample working copies; DESIGN.md "The root prefix": "a
 * write command changes the files (and the recorded netlink state) in it,
 * as the kernel would"): sriov_numvfs, written with the value the live
 * path writes (this emulator's entry takes it: sriov-vf-emul.c), and the undo
 * journal every change goes through.  VF settings and the eswitch mode,
 * which arrive as netlink requests, are lib/emul/sriov-vf-emul.c's.
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
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include "journal.h"
#include "mlx-private.h"
#include "nl.h"
#include "snapshot.h"
#include "sriov.h"
#include "sriov-emul-private.h"

#define FN_DIR "/sys/bus/pci/devices/%s"

/*
 * Every change below is one step that a failure cannot leave half done:
 * files are written to a new name beside them (O_CREAT|O_EXCL|O_NOFOLLOW)
 * and renamed over the old one.  `sriov set numvfs` changes many files;
 * it records each step with its undo in a journal (struct txn) and on a
 * failure undoes them newest first, so the tree is as it was before.
 * Removed VF directories are only renamed aside until the end.
 */
enum undo_kind {
	UNDO_FILE,              /* put data back into path (or unlink it: data NULL, !existed) */
	UNDO_LINK,              /* unlink the link path that was created */
	UNDO_UNLINK,            /* re-create link path -> aux */
	UNDO_MKDIR,             /* remove the tree path that was created */
	UNDO_MOVE,              /* rename aux (the directory put aside) back to path */
};

struct undo {
	enum undo_kind kind;
	char *path, *aux, *data;
	size_t len;
	bool existed;
};

struct txn {                    /* declared in sriov-emul-private.h */
	struct undo *v;
	size_t n, cap;
};

static int txn_add(struct txn *t, enum undo_kind kind, const char *path, const char *aux,
		   char *data, size_t len, bool existed)
{
	struct undo *u;

	if (!t) {
		free(data);
		return 0;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct undo *v = realloc(t->v, cap * sizeof(*v));

		if (!v) {
			free(data);
			return -ENOMEM;
		}
		t->v = v;
		t->cap = cap;
	}
	u = &t->v[t->n];
	memset(u, 0, sizeof(*u));
	u->kind = kind;
	u->path = strdup(path);
	u->aux = aux ? strdup(aux) : NULL;
	u->data = data;
	u->len = len;
	u->existed = existed;
	if (!u->path || (aux && !u->aux)) {
		free(u->path);
		free(u->aux);
		free(data);
		return -ENOMEM;
	}
	t->n++;
	return 0;
}

static void txn_free(struct txn *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].path);
		free(t->v[i].aux);
		free(t->v[i].data);
	}
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

/* Split a target path into its parent (opened O_PATH) and last component. */
static int open_parent(struct mlx_ctx *ctx, const char *path, const char **base)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir) || !slash[1])
		return -EINVAL;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	*base = slash + 1;
	return mlx_open(ctx, dir, O_PATH | O_DIRECTORY, 0);
}



/* Write @path atomically; with @t, keep its old bytes for the undo. */
static int write_file_t(struct mlx_ctx *ctx, struct txn *t, const char *path, const void *data,
			size_t len)
{
	char *old = NULL;
	size_t olen = 0;
	bool existed = false;
	int r;

	if (t) {
		r = mlx_read_file(ctx, path, &old, &olen);
		if (r == 0)
			existed = true;
		else if (r != -ENOENT)
			return mlx_err(ctx, r, "cannot read '%s%s': %s", mlx_root(ctx), path,
				       strerror(-r));
	}
	r = mlx_replace_file(ctx, path, data, len);
	if (r < 0) {
		free(old);
		return mlx_err(ctx, r, "cannot write '%s%s': %s", mlx_root(ctx), path,
			       strerror(-r));
	}
	r = txn_add(t, UNDO_FILE, path, NULL, old, olen, existed);
	return r < 0 ? mlx_err(ctx, r, "cannot record the update of '%s'", path) : 0;
}

int mlx_emul_write_file(struct mlx_ctx *ctx, const char *path, const void *data, size_t len)
{
	return write_file_t(ctx, NULL, path, data, len);
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

int mlx_emul_read_capture(struct mlx_ctx *ctx, const char *fam, const char *obj, const char *req,
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

/* Decode @ifname's recorded VF list, edit it, write it back re-encoded.
 * @who names the owner in messages (the PF's address). */
int mlx_emul_edit_vfs(struct mlx_ctx *ctx, struct txn *t, const char *ifname, const char *who,
		      mlx_vf_edit edit, const void *arg, bool must_exist)
{
	char path[512], err[160];
	char *data = NULL;
	struct mlx_link_vfs l;
	uint8_t *out = NULL;
	size_t len = 0, cap;
	int r;

	if (!ifname)
		return must_exist ? mlx_err(ctx, ENODEV, "%s has no network interface", who) : 0;
	r = mlx_emul_read_capture(ctx, "route", ifname, MLX_REQ_GETLINK_VF, path, sizeof(path), &data,
			 &len);
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
			r = write_file_t(ctx, t, path, out, (size_t)r);
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

/* ---- numvfs ---- */

/* The undo journal's steps (struct txn above). */
static int unlink_t(struct mlx_ctx *ctx, struct txn *t, const char *path)
{
	char target[PATH_MAX];
	const char *base;
	int dfd, r;

	r = mlx_readlink(ctx, path, target, sizeof(target));
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return mlx_err(ctx, r, "cannot read the link '%s%s': %s", mlx_root(ctx), path,
			       strerror(-r));
	r = mlx_journal_unlink(ctx, path, target);
	if (r < 0)
		return r;
	dfd = open_parent(ctx, path, &base);
	if (dfd < 0)
		return mlx_err(ctx, dfd, "cannot open the directory of '%s%s': %s", mlx_root(ctx),
			       path, strerror(-dfd));
	r = unlinkat(dfd, base, 0) < 0 ? -errno : 0;
	close(dfd);
	if (r < 0)
		return mlx_err(ctx, r, "cannot remove '%s%s': %s", mlx_root(ctx), path,
			       strerror(-r));
	r = txn_add(t, UNDO_UNLINK, path, target, NULL, 0, true);
	return r < 0 ? mlx_err(ctx, r, "cannot record the removal of '%s'", path) : 0;
}

static int symlink_t(struct mlx_ctx *ctx, struct txn *t, const char *path, const char *target)
{
	struct stat st;
	const char *base;
	int dfd, r;

	dfd = open_parent(ctx, path, &base);
	if (dfd < 0)
		return dfd;
	/* the undo log names only what this makes: not what is there */
	r = fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 ? -EEXIST : 0;
	if (r == 0)
		r = mlx_journal_link(ctx, path);
	if (r == 0)
		r = symlinkat(target, dfd, base) < 0 ? -errno : 0;
	close(dfd);
	if (r == 0 && (r = txn_add(t, UNDO_LINK, path, NULL, NULL, 0, true)) < 0)
		return r;
	return r;
}

static int mkdir_t(struct mlx_ctx *ctx, struct txn *t, const char *path)
{
	struct stat st;
	const char *base;
	int dfd, r;

	dfd = open_parent(ctx, path, &base);
	if (dfd < 0)
		return dfd;
	/* the undo log names only what this makes: not what is there */
	r = fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 ? -EEXIST : 0;
	if (r == 0)
		r = mlx_journal_mkdir(ctx, path);
	if (r == 0)
		r = mkdirat(dfd, base, 0755) < 0 ? -errno : 0;
	close(dfd);
	if (r == 0)
		r = txn_add(t, UNDO_MKDIR, path, NULL, NULL, 0, true);
	return r;
}

/* Put the directory @path aside (removed for good by txn_commit). */
static int move_aside_t(struct mlx_ctx *ctx, struct txn *t, const char *path)
{
	char aside[PATH_MAX];
	const char *base;
	int dfd, r;

	dfd = open_parent(ctx, path, &base);
	if (dfd < 0)
		return mlx_err(ctx, dfd, "cannot open the directory of '%s%s': %s", mlx_root(ctx),
			       path, strerror(-dfd));
	/* unique in the process: a transaction keeps them until it ends,
	 * and may put the same VF aside twice (a numvfs change put back) */
	if (snprintf(aside, sizeof(aside), "%.*s.%s.removed.%ld.%u", (int)(base - path), path,
		     base, (long)getpid(), mlx_ctx_seq(ctx)) >= (int)sizeof(aside)) {
		close(dfd);
		return mlx_err(ctx, ENAMETOOLONG, "cannot remove '%s%s': name too long",
			       mlx_root(ctx), path);
	}
	r = mlx_journal_move(ctx, path, aside);
	if (r < 0) {
		close(dfd);
		return r;
	}
	r = renameat(dfd, base, dfd, aside + (base - path)) < 0 ? -errno : 0;
	close(dfd);
	if (r < 0)
		return mlx_err(ctx, r, "cannot remove '%s%s': %s", mlx_root(ctx), path,
			       strerror(-r));
	r = txn_add(t, UNDO_MOVE, path, aside, NULL, 0, true);
	return r < 0 ? mlx_err(ctx, r, "cannot record the removal of '%s'", path) : 0;
}

/* Undo the journal newest first; the tree is then as before the first step. */
static void txn_undo(struct mlx_ctx *ctx, struct txn *t)
{
	for (size_t i = t->n; i-- > 0;) {
		const struct undo *u = &t->v[i];
		const char *base;
		int dfd = -1, r = 0;

		if (u->kind != UNDO_MKDIR && !(u->kind == UNDO_FILE && u->existed)) {
			dfd = open_parent(ctx, u->path, &base);
			if (dfd < 0) {
				r = dfd;
				goto report;
			}
		}
		switch (u->kind) {
		case UNDO_FILE:
			if (u->existed)
				r = mlx_replace_file(ctx, u->path, u->data, u->len);
			else if (unlinkat(dfd, base, 0) < 0 && errno != ENOENT)
				r = -errno;
			break;
		case UNDO_LINK:
			if (unlinkat(dfd, base, 0) < 0 && errno != ENOENT)
				r = -errno;
			break;
		case UNDO_UNLINK:
			if (symlinkat(u->aux, dfd, base) < 0)
				r = -errno;
			break;
		case UNDO_MKDIR:
			/* inside the root: the capture's links may lead out */
			r = mlx_remove_tree(ctx, u->path);
			break;
		case UNDO_MOVE:
			if (renameat(dfd, strrchr(u->aux, '/') + 1, dfd, base) < 0)
				r = -errno;
			break;
		}
		if (dfd >= 0)
			close(dfd);
report:
		if (r < 0)
			mlx_log(ctx, MLX_LOG_ERR, "cannot undo the change of '%s%s': %s",
				mlx_root(ctx), u->path, strerror(-r));
	}
	txn_free(t);
}

/* Keep the journal's changes: the directories put aside go (when the
 * write transaction this runs in ends: until then it may be undone). */
static void txn_commit(struct mlx_ctx *ctx, struct txn *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].kind == UNDO_MOVE && mlx_journal_cleanup(ctx, t->v[i].aux) == 0)
			mlx_remove_tree(ctx, t->v[i].aux);
	mlx_err_clear(ctx);
	txn_free(t);
}

static int remove_vf(struct mlx_ctx *ctx, struct txn *t, const struct mlx_function *pf, int k)
{
	char path[PATH_MAX], vf[64], real[PATH_MAX];
	const char *const classes[] = { "net", "infiniband" };
	int r;

	snprintf(path, sizeof(path), FN_DIR "/virtfn%d", pf->bdf, k);
	if (mlx_readlink_base(ctx, path, vf, sizeof(vf)) < 0 || !mlx_name_is_safe(vf))
		return 0;
	r = fn_realdir(ctx, vf, real, sizeof(real));
	if (r == 0) {
		for (size_t c = 0; c < 2 && r == 0; c++) {
			char dir[PATH_MAX], **names = NULL;
			size_t n = 0;

			snprintf(dir, sizeof(dir), "%s/%s", real, classes[c]);
			if (mlx_list_dir(ctx, dir, &names, &n) < 0)
				continue;
			for (size_t i = 0; i < n && r == 0; i++) {
				char cl[PATH_MAX];

				if (!mlx_name_is_safe(names[i]))
					continue;
				snprintf(cl, sizeof(cl), "/sys/class/%s/%s", classes[c], names[i]);
				r = unlink_t(ctx, t, cl);
			}
			mlx_strv_free(names);
		}
		r = r ? r : move_aside_t(ctx, t, real);
		if (r < 0)
			return r;
	}
	snprintf(path, sizeof(path), FN_DIR, vf);
	r = unlink_t(ctx, t, path);
	snprintf(path, sizeof(path), FN_DIR "/virtfn%d", pf->bdf, k);
	return r ? r : unlink_t(ctx, t, path);
}

static int wval(struct mlx_ctx *ctx, struct txn *t, const char *dir, const char *name,
		const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_file_t(ctx, t, path, val, strlen(val));
}

static int create_vf(struct mlx_ctx *ctx, struct txn *t, const struct mlx_function *pf,
		     const char *pfreal,
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
	r = mkdir_t(ctx, t, dir);     /* the files in it go with it on an undo */
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
	r = mlx_emul_write_file(ctx, path, cfg, sizeof(cfg));
	snprintf(buf, sizeof(buf), "0x%04x\n", pf->vendor);
	r = r ? r : wval(ctx, NULL, dir, "vendor", buf);
	snprintf(buf, sizeof(buf), "0x%04x\n", vf_did);
	r = r ? r : wval(ctx, NULL, dir, "device", buf);
	snprintf(buf, sizeof(buf), "0x%04x\n", pf->subsys_vendor);
	r = r ? r : wval(ctx, NULL, dir, "subsystem_vendor", buf);
	snprintf(buf, sizeof(buf), "0x%04x\n", pf->subsys_device);
	r = r ? r : wval(ctx, NULL, dir, "subsystem_device", buf);
	snprintf(buf, sizeof(buf), "0x%06x\n", pf->class_code);
	r = r ? r : wval(ctx, NULL, dir, "class", buf);
	snprintf(buf, sizeof(buf), "0x%02x\n", pf->revision);
	r = r ? r : wval(ctx, NULL, dir, "revision", buf);
	snprintf(buf, sizeof(buf), "%d\n", pf->numa_node);
	r = r ? r : wval(ctx, NULL, dir, "numa_node", buf);
	r = r ? r : wval(ctx, NULL, dir, "irq", "0\n");
	for (int i = 0; i < 17; i++)
		strcat(res, "0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
	r = r ? r : wval(ctx, NULL, dir, "resource", res);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/physfn", dir);
	snprintf(link, sizeof(link), "../%s", pf->bdf);
	r = at_parent(ctx, path, op_symlink, link);
	snprintf(path, sizeof(path), FN_DIR "/virtfn%d", pf->bdf, k);
	snprintf(link, sizeof(link), "../%s", bdf);
	r = r ? r : symlink_t(ctx, t, path, link);
	/* /sys/bus/pci/devices/<vf> -> ../../../devices/... */
	snprintf(path, sizeof(path), FN_DIR, bdf);
	snprintf(link, sizeof(link), "../../..%s", dir + strlen("/sys"));
	r = r ? r : symlink_t(ctx, t, path, link);
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
static int update_config(struct mlx_ctx *ctx, struct txn *t, const struct mlx_function *pf,
			 unsigned n)
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
		r = write_file_t(ctx, t, path, data, len);
	}
	free(data);
	return r;
}

static int set_numvfs(struct mlx_ctx *ctx, const struct mlx_function *pf, unsigned n)
{
	char dir[PATH_MAX], path[PATH_MAX], real[PATH_MAX], val[16];
	int64_t cur = 0, offset = 0, stride = 1, autoprobe = 1;
	uint64_t vfdid = 0;
	struct txn t = { 0 };
	int r;

	/* Links and directories change here by *at() calls, not through
	 * mlx_replace_file(): ask before the first. */
	r = mlx_may_write(ctx);
	if (r < 0)
		return r;
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

	/* Disable first, as sriov_numvfs_store requires for a change, then
	 * enable; every step is journaled and a failure undoes them all. */
	for (int k = 0; k < cur && r == 0; k++)
		r = remove_vf(ctx, &t, pf, k);
	if (r == 0 && n) {
		r = fn_realdir(ctx, pf->bdf, real, sizeof(real));
		if (r < 0)
			mlx_err(ctx, r, "cannot resolve the directory of %s", pf->bdf);
	}
	for (unsigned k = 0; k < n && r == 0; k++)
		r = create_vf(ctx, &t, pf, real, (int)k, (unsigned)offset, (unsigned)stride,
			      (unsigned)vfdid, autoprobe == 1);
	snprintf(val, sizeof(val), "%u\n", n);
	r = r ? r : wval(ctx, &t, dir, "sriov_numvfs", val);
	r = r ? r : mlx_emul_edit_vfs(ctx, &t, pf->nports ? pf->ports[0].ifname : NULL, pf->bdf, edit_count,
				    &n, false);
	r = r ? r : update_config(ctx, &t, pf, n);
	if (r < 0)
		txn_undo(ctx, &t);
	else
		txn_commit(ctx, &t);
	return r;
}

/*
 * A write of sriov_numvfs (sriov_numvfs_store in drivers/pci/iov.c), with
 * the value the live path writes.  One deviation, on purpose: a non-zero
 * count over a non-zero one is taken in one journaled step where the
 * kernel answers EBUSY, so that a failure leaves the capture as it was
 * (the caller writes the count directly first: lib/sriov/sriov.c).
 */
int mlx_emul_numvfs_write(struct mlx_ctx *ctx, const char *bdf, const char *val)
{
	struct mlx_devices devs;
	const struct mlx_function *pf = NULL;
	char *end;
	unsigned long n;
	int r;

	errno = 0;
	n = strtoul(val, &end, 10);
	if (errno || end == val || (*end && strcmp(end, "\n")) || n > 0xffff)
		return mlx_err(ctx, EINVAL, "'%s' is not a VF count", val);
	r = mlx_devices_scan(ctx, &devs);
	if (r < 0)
		return r;
	for (size_t i = 0; i < devs.nfn && !pf; i++)
		if (!strcmp(devs.fn[i].bdf, bdf))
			pf = &devs.fn[i];
	if (!pf || pf->role != MLX_FN_PF || pf->sriov_totalvfs < 0)
		r = mlx_err(ctx, ENOENT, "%s has no sriov_numvfs in '%s'", bdf, mlx_root(ctx));
	else if (n > (unsigned long)pf->sriov_totalvfs)
		r = mlx_err(ctx, ERANGE, "%s supports at most %d VFs", bdf, pf->sriov_totalvfs);
	else
		r = set_numvfs(ctx, pf, (unsigned)n);
	mlx_devices_free(&devs);
	return r;
}
