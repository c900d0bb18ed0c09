/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device model: one PCI scan, then the sysfs children of each
 * ConnectX function (net/, infiniband/, SR-IOV links).  Each file is read
 * once; rendering never goes back to the files.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "mlx-private.h"

#define FN_DIR "/sys/bus/pci/devices/%s"

/* "dddd:bb:dd.f", as the kernel names a function (pci_name()); by hand:
 * 2,048 functions format some 6,000 addresses. */
static void fmt_bdf(char *buf, size_t len, unsigned dom, unsigned bus, unsigned dev, unsigned fn)
{
	static const char hex[] = "0123456789abcdef";
	char b[13];

	dom &= 0xffffu;
	b[0] = hex[dom >> 12];
	b[1] = hex[(dom >> 8) & 15];
	b[2] = hex[(dom >> 4) & 15];
	b[3] = hex[dom & 15];
	b[4] = ':';
	b[5] = hex[(bus >> 4) & 15];
	b[6] = hex[bus & 15];
	b[7] = ':';
	b[8] = hex[(dev >> 4) & 1];
	b[9] = hex[dev & 15];
	b[10] = '.';
	b[11] = (char)('0' + (fn & 7u));
	b[12] = '\0';
	if (len >= sizeof(b)) {
		memcpy(buf, b, sizeof(b));
	} else if (len) {
		memcpy(buf, b, len - 1);
		buf[len - 1] = '\0';
	}
}

/* @dir (ending in '/', or "") and @name as one relative path; -1 when it
 * does not fit.  By hand, not printf: a scan makes 20,000 of them. */
static int attr_path(char *path, size_t len, const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);

	if (d + n >= len)
		return -1;
	memcpy(path, dir, d);
	memcpy(path + d, name, n + 1);
	return 0;
}

/* @src into @dst of @len bytes, cut to fit as snprintf("%s") would; by
 * hand, as attr_path: a scan copies some ten strings a function. */
static void set_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Read an optional string attribute @dir@name; "" when absent or unreadable. */
static void read_opt(struct mlx_ctx *ctx, char *buf, size_t len, const char *dir, const char *name)
{
	char path[PATH_MAX];

	buf[0] = '\0';
	if (attr_path(path, sizeof(path), dir, name) < 0)
		return;
	if (mlx_read_str(ctx, path, buf, len) < 0)
		buf[0] = '\0';
}

static int64_t read_int_opt(struct mlx_ctx *ctx, int64_t dflt, const char *dir, const char *name)
{
	char path[PATH_MAX];
	int64_t v;

	if (attr_path(path, sizeof(path), dir, name) < 0 || mlx_read_s64(ctx, path, &v) < 0)
		return dflt;
	return v;
}

static int scan_port(struct mlx_ctx *ctx, struct mlx_function *fn, const char *ifname,
		     struct mlx_port *p, unsigned want)
{
	char dir[PATH_MAX], buf[64];

	memset(p, 0, sizeof(*p));
	p->fn = fn;
	p->ifindex = -1;
	p->dev_port = -1;
	p->speed_mbps = -1;
	set_str(p->ifname, sizeof(p->ifname), ifname);
	if (attr_path(dir, sizeof(dir) - 1, "net/", ifname) < 0)    /* below mlx_chdir(fn) */
		return -ENAMETOOLONG;
	strcat(dir, "/");

	read_opt(ctx, p->operstate, sizeof(p->operstate), dir, "operstate");
	/* 'speed' is -1 (SPEED_UNKNOWN) or unreadable (EINVAL) while the link
	 * is down; both mean "no speed to report". */
	p->speed_mbps = read_int_opt(ctx, -1, dir, "speed");
	if (p->speed_mbps <= 0 || p->speed_mbps == 0xffffffffLL)
		p->speed_mbps = -1;
	if (!(want & MLX_SCAN_PORT_DETAILS))
		return 0;
	p->ifindex = (int)read_int_opt(ctx, -1, dir, "ifindex");
	p->dev_port = (int)read_int_opt(ctx, -1, dir, "dev_port");
	read_opt(ctx, p->phys_port_name, sizeof(p->phys_port_name), dir, "phys_port_name");
	read_opt(ctx, p->mac, sizeof(p->mac), dir, "address");
	read_opt(ctx, buf, sizeof(buf), dir, "carrier");
	if (buf[0]) {
		p->carrier_known = true;
		p->carrier = buf[0] == '1';
	}
	p->mtu = (unsigned)read_int_opt(ctx, 0, dir, "mtu");
	return 0;
}

#define MLX_MAX_IB_PORTS 255         /* an IB port number is a u8, 1-based */

/* Whether every netdev of @fn has its RDMA port: no later port can add one. */
static bool all_ports_tied(const struct mlx_function *fn)
{
	for (size_t k = 0; k < fn->nports; k++)
		if (!fn->ports[k].rdma_dev[0])
			return false;
	return true;
}

/* Port @pn of RDMA device @name is the netdev @ndev of @fn (NULL: its
 * only one) unless that one has its port already. */
static void tie_port(struct mlx_ctx *ctx, struct mlx_function *fn, const char *name,
		     const char *dir, unsigned pn, const char *ndev, unsigned want)
{
	for (size_t k = 0; k < fn->nports; k++) {
		struct mlx_port *p = &fn->ports[k];
		bool match = ndev ? !strcmp(ndev, p->ifname) : true;

		if (match && !p->rdma_dev[0]) {
			set_str(p->rdma_dev, sizeof(p->rdma_dev), name);
			p->rdma_port = pn;
			if (want & MLX_SCAN_PORT_DETAILS) {
				char ll[32];

				snprintf(ll, sizeof(ll), "ports/%u/link_layer", pn);
				read_opt(ctx, p->link_layer, sizeof(p->link_layer), dir, ll);
			}
		}
	}
}

/* The first RDMA device of @fn that told its firmware version. */
static const struct mlx_rdma *rdma_with_fw(const struct mlx_function *fn)
{
	for (size_t i = 0; fn && i < fn->nrdma; i++)
		if (fn->rdma[i].fw_ver[0])
			return &fn->rdma[i];
	return NULL;
}

/*
 * @name, the RDMA device of @fn.  @pf is the mlx5 PF of an mlx5 VF
 * (mlx5_vf_pf), read before it, and then two of the device's files are
 * known without opening them (issue 28: a VF's files are most of a
 * 2,048-function scan, and a file in a subdirectory costs the kernel its
 * cold dentries):
 * - fw_ver and board_id are the PF's.  mlx5_ib's fw_ver is
 *   fw_rev_maj/min/sub() of the function's own mlx5_core_dev, read from
 *   its initialization segment at each read (drivers/infiniband/hw/mlx5/
 *   main.c get_dev_fw_str, include/linux/mlx5/driver.h), which the one
 *   firmware running the adapter fills for every function; board_id is
 *   the PSID that firmware answers to QUERY_ADAPTER (mlx5_query_board_id,
 *   kept in mdev->board_id; main.c board_id_show).  A new image runs only
 *   after a reset of the whole adapter, which reloads every function.
 * - port 1 is the VF's one netdev, when it has one and this is its one
 *   RDMA device: an mlx5 function is one port (a VF one vport of it), and
 *   its RDMA port's netdev is the function's own unless the function is
 *   in a RoCE LAG (mlx5_ib_get_netdev), which only PFs join (mlx5/core/
 *   lag/lag.c: a LAG needs vport_group_manager and lag_master, which no
 *   VF has).  Reading ports/1/gid_attrs/ndevs/0 would name it again;
 *   without it, the loop below ends after port 1 just the same.
 */
static void scan_rdma(struct mlx_ctx *ctx, struct mlx_function *fn, const char *name,
		      struct mlx_rdma *rd, unsigned want, const struct mlx_function *pf, bool only)
{
	const struct mlx_rdma *pfrd = rdma_with_fw(pf);
	char dir[PATH_MAX], path[PATH_MAX];
	bool port1_named = false;
	unsigned nports;

	memset(rd, 0, sizeof(*rd));
	set_str(rd->name, sizeof(rd->name), name);
	if (attr_path(dir, sizeof(dir) - 1, "infiniband/", name) < 0)   /* below the function's directory */
		return;
	strcat(dir, "/");
	if (pfrd) {
		memcpy(rd->fw_ver, pfrd->fw_ver, sizeof(rd->fw_ver));
		memcpy(rd->board_id, pfrd->board_id, sizeof(rd->board_id));
	} else {
		read_opt(ctx, rd->fw_ver, sizeof(rd->fw_ver), dir, "fw_ver");
		read_opt(ctx, rd->board_id, sizeof(rd->board_id), dir, "board_id");
	}
	if (pf && only && fn->nports == 1) {
		rd->nports = 1;
		tie_port(ctx, fn, name, dir, 1, NULL, want);
		return;
	}

	/* Tie each IB port to its netdev: ports/N/gid_attrs/ndevs/0 names it
	 * (RoCE); on mlx5 the one netdev of the function is the port anyway.
	 * Ports are numbered 1 to N (IBTA), so they are probed in turn rather
	 * than ports/ listed (four syscalls): port 1 by its ndevs/0 (asking
	 * whether the port is there only when that is missing), each next
	 * one by its directory first.  A port is tied as it is found, the
	 * first port naming a netdev winning; once every netdev of the
	 * function has its port no later one can change anything, so the
	 * probing stops there (a function with one netdev asks for no port
	 * 2).  A port 1 that names no netdev is the function's one netdev
	 * when the device has that one port: port 2 is asked for then. */
	for (nports = 0; nports < MLX_MAX_IB_PORTS; nports++) {
		char ndev[MLX_IFNAME_LEN];

		if (nports && all_ports_tied(fn))
			break;
		snprintf(path, sizeof(path), "%sports/%u", dir, nports + 1);
		if (nports && !mlx_exists(ctx, path))
			break;
		strcat(path, "/gid_attrs/ndevs/0");
		if (mlx_read_str(ctx, path, ndev, sizeof(ndev)) == 0) {
			port1_named |= !nports && ndev[0];
			if (ndev[0])
				tie_port(ctx, fn, name, dir, nports + 1, ndev, want);
			continue;
		}
		snprintf(path, sizeof(path), "%sports/%u", dir, nports + 1);
		if (!nports && !mlx_exists(ctx, path))
			break;
	}
	rd->nports = nports;
	if (nports == 1 && !port1_named && fn->nports == 1)
		tie_port(ctx, fn, name, dir, 1, NULL, want);
}

/*
 * The function's netdevs (net/) and RDMA devices (infiniband/), each
 * list from the class listing (class_children) or, without one, from
 * the function's own directory (mlx_chdir).
 */
static int scan_children(struct mlx_ctx *ctx, struct mlx_function *fn, unsigned want,
			 char **net, char **ib, const struct mlx_function *pf)
{
	char **names = NULL;
	size_t n = 0, k = 0;
	int r;

	if (net)
		for (n = 0; net[n]; n++)
			;
	if (net ? n : mlx_list_dir(ctx, "net", &names, &n) == 0 && n) {
		char **v = net ? net : names;

		fn->ports = calloc(n, sizeof(*fn->ports));
		if (!fn->ports) {
			mlx_strv_free(names);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			if (!mlx_name_is_safe(v[i]) || strlen(v[i]) >= MLX_IFNAME_LEN) {
				mlx_log(ctx, MLX_LOG_WARN, "%s: ignoring netdev with unsafe name", fn->bdf);
				continue;
			}
			r = scan_port(ctx, fn, v[i], &fn->ports[k], want);
			if (r == 0)
				k++;
		}
		fn->nports = k;
	}
	mlx_strv_free(names);
	names = NULL;

	n = 0;
	if (ib)
		for (n = 0; ib[n]; n++)
			;
	if (ib ? n : mlx_list_dir(ctx, "infiniband", &names, &n) == 0 && n) {
		char **v = ib ? ib : names;

		fn->rdma = calloc(n, sizeof(*fn->rdma));
		if (!fn->rdma) {
			mlx_strv_free(names);
			return -ENOMEM;
		}
		k = 0;
		for (size_t i = 0; i < n; i++) {
			if (!mlx_name_is_safe(v[i]) || strlen(v[i]) >= MLX_NAME_LEN)
				continue;
			scan_rdma(ctx, fn, v[i], &fn->rdma[k++], want, pf, n == 1);
		}
		fn->nrdma = k;
	}
	mlx_strv_free(names);
	return 0;
}

/*
 * Firmware version, from the most direct source that answers: the RDMA
 * device's fw_ver (sysfs, works without root and offline), else ethtool
 * drvinfo of a netdev ("16.35.2000 (MT_0000000008)", live only).
 */
static void find_fw(struct mlx_ctx *ctx, struct mlx_function *fn)
{
	for (size_t i = 0; i < fn->nrdma; i++) {
		if (fn->rdma[i].fw_ver[0]) {
			set_str(fn->fw_version, sizeof(fn->fw_version), fn->rdma[i].fw_ver);
			set_str(fn->fw_source, sizeof(fn->fw_source), "sysfs");
			set_str(fn->psid, sizeof(fn->psid), fn->rdma[i].board_id);
			return;
		}
	}
	for (size_t i = 0; i < fn->nports; i++) {
		struct mlx_drvinfo di;
		char *sp;

		if (mlx_ethtool_drvinfo(ctx, fn->ports[i].ifname, &di) < 0 || !di.fw_version[0])
			continue;
		sp = strchr(di.fw_version, ' ');
		if (sp) {
			*sp = '\0';
			if (sp[1] == '(') {
				char *end = strchr(sp + 2, ')');

				if (end)
					*end = '\0';
				snprintf(fn->psid, sizeof(fn->psid), "%s", sp + 2);
			}
		}
		snprintf(fn->fw_version, sizeof(fn->fw_version), "%s", di.fw_version);
		snprintf(fn->fw_source, sizeof(fn->fw_source), "ethtool");
		return;
	}
}

static int cmp_fn(const void *a, const void *b)
{
	const struct mlx_function *x = a, *y = b;

	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	if (x->bus != y->bus)
		return x->bus < y->bus ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (int)x->func - (int)y->func;
}

/* devs->fn is sorted by address (cmp_fn), so a lookup is a bisection. */
static struct mlx_function *find_bdf(struct mlx_devices *devs, const char *bdf)
{
	struct mlx_function key;

	if (!devs->nfn)
		return NULL;
	memset(&key, 0, sizeof(key));
	if (mlx_pci_parse_bdf(bdf, &key.domain, &key.bus, &key.dev, &key.func) < 0)
		return NULL;
	return bsearch(&key, devs->fn, devs->nfn, sizeof(*devs->fn), cmp_fn);
}

/* Identity, from what the PCI scan read (no file of its own). */
static void fill_function(struct mlx_function *fn, const struct mlx_pci_raw *raw)
{
	set_str(fn->bus_name, sizeof(fn->bus_name), "pci");
	fn->domain = raw->domain;
	fn->bus = raw->bus;
	fn->dev = raw->dev;
	fn->func = raw->func;
	fmt_bdf(fn->bdf, sizeof(fn->bdf), raw->domain, raw->bus, raw->dev, raw->func);
	fn->vendor = raw->vendor;
	fn->device = raw->device;
	fn->class_code = raw->class_code;
	fn->id = mlx_devid_lookup(raw->device);
	fn->vf_index = -1;
	fn->numa_node = -1;
	fn->sriov_totalvfs = fn->sriov_numvfs = -1;
	if (raw->vf_index >= 0) {
		fn->sriov_pf.known = true;
		fn->sriov_pf.vf_index = raw->vf_index;
		fmt_bdf(fn->sriov_pf.bdf, sizeof(fn->sriov_pf.bdf), raw->domain, raw->pf_bus,
			raw->pf_dev, raw->pf_func);
	}

	fn->cfg_len = raw->cfg_len;
	fn->cfg_decoded = raw->cfg_decoded;
	fn->cfg = raw->cfg;
	/* Subsystem and revision: the config header has them (a VF reads
	 * 0xffff only for its vendor and device IDs, SR-IOV spec 3.4.1);
	 * sysfs (read_function) when we could not read the header. */
	if (fn->cfg_decoded) {
		fn->subsys_vendor = fn->cfg.subsys_vendor;
		fn->subsys_device = fn->cfg.subsys_device;
		fn->revision = fn->cfg.revision;
	}
}

/*
 * The function's sysfs attributes and children, all relative to its
 * directory, which the PCI scan made the mlx_chdir() one (one path walk
 * through its bus link for every file).  What the config space answered
 * is not read again; the port attributes no caller asked for (want) are
 * not read.
 */
static int read_function(struct mlx_ctx *ctx, struct mlx_function *fn, unsigned want,
			 char **net, char **ib, const struct mlx_function *pf)
{
	char buf[64];
	uint64_t u;

	if (!fn->cfg_decoded) {
		read_opt(ctx, buf, sizeof(buf), "", "subsystem_vendor");
		if (buf[0] && mlx_parse_u64(buf, &u) == 0)
			fn->subsys_vendor = (uint16_t)u;
		read_opt(ctx, buf, sizeof(buf), "", "subsystem_device");
		if (buf[0] && mlx_parse_u64(buf, &u) == 0)
			fn->subsys_device = (uint16_t)u;
		read_opt(ctx, buf, sizeof(buf), "", "revision");
		if (buf[0] && mlx_parse_u64(buf, &u) == 0)
			fn->revision = (uint8_t)u;
	}

	if (mlx_readlink_base(ctx, "driver", fn->driver, sizeof(fn->driver)) < 0)
		fn->driver[0] = '\0';
	/* A function its PF's SR-IOV capability places is a VF: its physfn
	 * link would only say so again. */
	fn->role = fn->sriov_pf.known || mlx_exists(ctx, "physfn") ? MLX_FN_VF
		 : (fn->id && fn->id->is_vf) ? MLX_FN_VF : MLX_FN_PF;
	fn->numa_node = (int)read_int_opt(ctx, -1, "", "numa_node");

	/* The kernel's reading of the link registers, needed only when we
	 * could not decode the PCIe capability ourselves (non-root). */
	if (!fn->cfg_decoded || !fn->cfg.pcie.present) {
		read_opt(ctx, fn->cur_link_speed, sizeof(fn->cur_link_speed), "", "current_link_speed");
		read_opt(ctx, fn->max_link_speed, sizeof(fn->max_link_speed), "", "max_link_speed");
		fn->cur_link_width = (unsigned)read_int_opt(ctx, 0, "", "current_link_width");
		fn->max_link_width = (unsigned)read_int_opt(ctx, 0, "", "max_link_width");
	}
	if (fn->role == MLX_FN_PF) {
		fn->sriov_totalvfs = (int)read_int_opt(ctx, -1, "", "sriov_totalvfs");
		fn->sriov_numvfs = (int)read_int_opt(ctx, -1, "", "sriov_numvfs");
	}
	return scan_children(ctx, fn, want, net, ib, pf);
}

/* VF k of pf, where its SR-IOV capability puts it, was linked already. */
static bool vf_placed(struct mlx_devices *devs, const struct mlx_function *pf, int k)
{
	const struct mlx_sriov_info *sr = &pf->cfg.sriov;
	struct mlx_function *vf;
	char bdf[MLX_BDF_LEN];
	uint32_t rid;

	if (!pf->cfg_decoded || !sr->present)
		return false;
	rid = (pf->bus << 8 | pf->dev << 3 | pf->func) + sr->vf_offset + (uint32_t)k * sr->vf_stride;
	if (rid > 0xffff)
		return false;
	fmt_bdf(bdf, sizeof(bdf), pf->domain, rid >> 8, (rid >> 3) & 0x1f, rid & 7);
	vf = find_bdf(devs, bdf);
	return vf && vf->pf == pf && vf->vf_index == k;
}

/*
 * Link VFs and PFs.  One pass from the PF side: virtfnN -> VF gives both the
 * PF and the VF index with one readlink per VF (16 PFs x 127 VFs stays
 * linear).  A VF whose PF did not list it (a PF we could not read) falls
 * back to its own physfn link.
 */
static void link_vfs(struct mlx_ctx *ctx, struct mlx_devices *devs)
{
	char path[PATH_MAX], target[MLX_BDF_LEN + 16];
	struct mlx_function *vf, *pf;

	/* The VFs the PCI scan placed from their PF's SR-IOV capability,
	 * where the kernel's virtfnN links would point: no readlink.  As the
	 * links would, only up to the PF's sriov_numvfs. */
	for (size_t i = 0; i < devs->nfn; i++) {
		vf = &devs->fn[i];
		if (!vf->sriov_pf.known)
			continue;
		pf = find_bdf(devs, vf->sriov_pf.bdf);
		if (pf && pf != vf && pf->role == MLX_FN_PF && vf->sriov_pf.vf_index < pf->sriov_numvfs) {
			vf->pf = pf;
			vf->vf_index = vf->sriov_pf.vf_index;
		}
	}
	for (size_t i = 0; i < devs->nfn; i++) {
		pf = &devs->fn[i];
		if (pf->role != MLX_FN_PF || pf->sriov_numvfs <= 0)
			continue;
		for (int k = 0; k < pf->sriov_numvfs; k++) {
			if (vf_placed(devs, pf, k))
				continue;
			snprintf(path, sizeof(path), FN_DIR "/virtfn%d", pf->bdf, k);
			if (mlx_readlink_base(ctx, path, target, sizeof(target)) < 0)
				continue;
			vf = find_bdf(devs, target);
			if (vf && vf != pf) {
				vf->pf = pf;
				vf->vf_index = k;
				vf->role = MLX_FN_VF;
			}
		}
	}
	for (size_t i = 0; i < devs->nfn; i++) {
		vf = &devs->fn[i];
		if (vf->role != MLX_FN_VF || vf->pf)
			continue;
		snprintf(path, sizeof(path), FN_DIR "/physfn", vf->bdf);
		if (mlx_readlink_base(ctx, path, target, sizeof(target)) == 0)
			vf->pf = find_bdf(devs, target);
	}
}

static void free_children(char ***per, size_t n)
{
	for (size_t i = 0; per && i < n; i++)
		mlx_strv_free(per[i]);
	free(per);
}

/*
 * The netdevs (cls "net") or RDMA devices ("infiniband") of every function
 * at once: one listing of /sys/class/CLS and one readlink a device, whose
 * target ends in ".../<BDF>/CLS/<name>", where listing each function's
 * CLS/ directory costs four syscalls a function.  *per[i] is the sorted
 * list of function i of @bus (NULL for none).  -ENOENT without the class
 * directory (a partial capture), -ERANGE when it holds many other
 * devices: the caller lists the functions' directories.
 */
static int class_children(struct mlx_ctx *ctx, const struct mlx_pci_bus *bus, const char *cls,
			  char ****per)
{
	char dir[32], **names = NULL, target[PATH_MAX];
	size_t n = 0, *cnt;
	int r;

	*per = NULL;
	snprintf(dir, sizeof(dir), "/sys/class/%s", cls);
	r = mlx_list_dir(ctx, dir, &names, &n);
	if (r < 0)
		return r;
	/* A readlink a device beats four syscalls a function only while
	 * the class holds few devices that are not ours (a host with two
	 * ConnectX functions and 200 containers' veths lists per function). */
	if (n > 3 * bus->n) {
		mlx_strv_free(names);
		return -ERANGE;
	}
	r = mlx_chdir(ctx, dir);
	*per = calloc(bus->n + 1, sizeof(**per));
	cnt = calloc(bus->n + 1, sizeof(*cnt));
	if (r == 0 && (!*per || !cnt))
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < n; i++) {
		char *end, *bdf, **nv;
		ssize_t fi;
		size_t k, len;

		/* names are sorted (mlx_list_dir): so is each function's list */
		if (mlx_readlink(ctx, names[i], target, sizeof(target)) < 0)
			continue;
		len = strlen(target);
		k = strlen(names[i]) + strlen(cls) + 2;          /* "/CLS/name" */
		if (len <= k || strcmp(target + len - strlen(names[i]), names[i]) ||
		    target[len - k] != '/' || strncmp(target + len - k + 1, cls, strlen(cls)) ||
		    target[len - strlen(names[i]) - 1] != '/')
			continue;
		end = target + len - k;
		*end = '\0';
		bdf = strrchr(target, '/');
		fi = mlx_pci_bus_find(bus, bdf ? bdf + 1 : target);
		if (fi < 0)
			continue;
		k = (size_t)fi;
		nv = realloc((*per)[k], (cnt[k] + 2) * sizeof(*nv));
		if (!nv) {
			r = -ENOMEM;
			break;
		}
		(*per)[k] = nv;
		nv[cnt[k]] = strdup(names[i]);
		if (!nv[cnt[k]]) {
			r = -ENOMEM;
			break;
		}
		nv[++cnt[k]] = NULL;
	}
	mlx_chdir(ctx, NULL);
	mlx_strv_free(names);
	free(cnt);
	if (r < 0) {
		free_children(*per, bus->n);
		*per = NULL;
	}
	return r;
}

/*
 * The PF of @fn when both are mlx5 functions and @fn is a VF its PF's
 * SR-IOV capability placed, within the PF's sriov_numvfs (what link_vfs
 * will link): the PF comes first in address order (First VF Offset is
 * never 0), so it is read already.  NULL otherwise.
 */
static const struct mlx_function *mlx5_vf_pf(struct mlx_devices *devs, const struct mlx_function *fn)
{
	const struct mlx_function *pf;

	if (!fn->sriov_pf.known || !fn->id || !fn->id->is_vf || fn->id->family != MLX_FAM_MLX5)
		return NULL;
	pf = find_bdf(devs, fn->sriov_pf.bdf);
	if (!pf || pf == fn || pf->role != MLX_FN_PF || !pf->id || pf->id->family != MLX_FAM_MLX5 ||
	    fn->sriov_pf.vf_index >= pf->sriov_numvfs)
		return NULL;
	return pf;
}

int mlx_devices_scan(struct mlx_ctx *ctx, struct mlx_devices *devs)
{
	return mlx_devices_scan_for(ctx, devs, MLX_SCAN_ALL);
}

/*
 * One pass over the bus in address order: each function's directory is
 * opened once, its config space read there (the PCI backend) and, for a
 * ConnectX function, every other file of it.
 */
int mlx_devices_scan_for(struct mlx_ctx *ctx, struct mlx_devices *devs, unsigned want)
{
	char ***net = NULL, ***ib = NULL, *none[] = { NULL };
	struct mlx_pci_bus bus;
	int r;

	memset(devs, 0, sizeof(*devs));
	r = mlx_pci_bus_list(ctx, &bus);
	if (r < 0)
		return r;
	if (bus.n) {
		devs->fn = calloc(bus.n, sizeof(*devs->fn));
		if (!devs->fn) {
			r = -ENOMEM;
			goto fail;
		}
		/* Both lists from the class directories when there are any;
		 * an empty list there means no netdev or RDMA device on the
		 * function (the class directory names every one the kernel
		 * registered). */
		r = class_children(ctx, &bus, "net", &net);
		if (r == -ENOMEM)
			goto fail;
		r = class_children(ctx, &bus, "infiniband", &ib);
		if (r == -ENOMEM)
			goto fail;
	}
	for (size_t i = 0; i < bus.n; i++) {
		struct mlx_function *fn = &devs->fn[devs->nfn];
		struct mlx_pci_raw raw;
		uint32_t cls;

		/* the function's descriptors closed together (mlx_batch_end) */
		mlx_batch_begin(ctx);
		r = mlx_pci_bus_read(ctx, &bus, i, MLX_VENDOR_ID, !(want & MLX_SCAN_VF_EXT_CONFIG), &raw);
		if (r < 0)
			goto fail;
		if (r == 0) {
			devs->non_mlx_seen++;
			continue;
		}
		/* Only network/InfiniBand controllers (class 02 and 0c06) are
		 * adapter functions; the PCIe bridges inside CX5+ and BlueField
		 * (0x1974.., 0x197c) share the vendor ID and are skipped. */
		cls = raw.class_code >> 8;
		if ((cls >> 8) != 0x02 && cls != 0x0c06 && !mlx_devid_lookup(raw.device)) {
			devs->non_mlx_seen++;
			mlx_chdir(ctx, NULL);
			continue;
		}
		fill_function(fn, &raw);
		devs->nfn++;
		if (raw.dir) {
			r = read_function(ctx, fn, want, net ? (net[i] ? net[i] : none) : NULL,
					  ib ? (ib[i] ? ib[i] : none) : NULL, mlx5_vf_pf(devs, fn));
			mlx_chdir(ctx, NULL);
			if (r < 0)
				goto fail;
		}
		find_fw(ctx, fn);
	}
	mlx_batch_end(ctx);
	free_children(net, bus.n);
	free_children(ib, bus.n);
	mlx_pci_bus_free(&bus);
	link_vfs(ctx, devs);
	return 0;
fail:
	mlx_chdir(ctx, NULL);
	mlx_batch_end(ctx);
	free_children(net, bus.n);
	free_children(ib, bus.n);
	mlx_pci_bus_free(&bus);
	mlx_devices_free(devs);
	return r;
}

/* @name's bus and device: "BUS/NAME" as given, or a netdev's sysfs
 * "device" link (../../../netdevsim1, its subsystem ../../bus/netdevsim). */
static int other_handle(struct mlx_ctx *ctx, const char *name, char *bus, size_t blen,
			char *dev, size_t dlen)
{
	const char *slash = strchr(name, '/');
	char path[PATH_MAX];

	if (slash) {
		if ((size_t)(slash - name) >= blen || strlen(slash + 1) >= dlen)
			return mlx_err(ctx, EINVAL, "'%s' is too long for a devlink handle", name);
		snprintf(bus, blen, "%.*s", (int)(slash - name), name);
		snprintf(dev, dlen, "%s", slash + 1);
	} else {
		if (!mlx_name_is_safe(name) || strlen(name) >= MLX_IFNAME_LEN)
			return mlx_err(ctx, EINVAL, "'%s' is not a network interface name", name);
		if (!mlx_netdev_exists(ctx, name))
			return mlx_err(ctx, ENODEV, "no network interface or device '%s'", name);
		snprintf(path, sizeof(path), "/sys/class/net/%s/device", name);
		if (mlx_readlink_base(ctx, path, dev, dlen) < 0) {
			mlx_err_clear(ctx);
			return mlx_err(ctx, ENODEV, "'%s' is a virtual interface: it has no device "
				       "(no devlink instance, no SR-IOV)", name);
		}
		snprintf(path, sizeof(path), "/sys/class/net/%s/device/subsystem", name);
		if (mlx_readlink_base(ctx, path, bus, blen) < 0)
			return mlx_err(ctx, ENODEV, "cannot tell the bus of %s's device %s", name, dev);
	}
	if (!bus[0] || !dev[0] || !mlx_name_is_safe(bus) || !mlx_name_is_safe(dev))
		return mlx_err(ctx, EINVAL, "'%s' is not a device (BUS/NAME or a netdev)", name);
	return 0;
}

int mlx_netdev_device(struct mlx_ctx *ctx, const char *ifname, char *bus, size_t blen, char *dev,
		      size_t dlen)
{
	if (!blen || !dlen)
		return -EINVAL;
	bus[0] = dev[0] = '\0';
	/* a devlink handle is other_handle's other form, not a netdev */
	if (strchr(ifname, '/'))
		return mlx_err(ctx, EINVAL, "'%s' is not a network interface name", ifname);
	return other_handle(ctx, ifname, bus, blen, dev, dlen);
}

int mlx_devices_add_other(struct mlx_ctx *ctx, struct mlx_devices *devs, const char *name,
			  unsigned want, struct mlx_function **out)
{
	char bus[sizeof(devs->fn->bus_name)], dev[MLX_BDF_LEN], dir[PATH_MAX];
	struct mlx_function *fn, *nfn;
	ptrdiff_t *pf = NULL;
	int r;

	*out = NULL;
	r = other_handle(ctx, name, bus, sizeof(bus), dev, sizeof(dev));
	if (r < 0)
		return r;
	for (size_t i = 0; i < devs->nfn; i++)
		if (!strcmp(devs->fn[i].bus_name, bus) && !strcmp(devs->fn[i].bdf, dev))
			return mlx_err(ctx, EEXIST, "%s/%s is a ConnectX function already", bus, dev);
	snprintf(dir, sizeof(dir), "/sys/bus/%s/devices/%s", bus, dev);
	if (!mlx_is_dir(ctx, dir))
		return mlx_err(ctx, ENODEV, "no device %s/%s (no %s)", bus, dev, dir);
	/* Functions point at their PF and ports at their function: keep the
	 * PFs as indexes over the move, then point everything again. */
	if (devs->nfn && !(pf = calloc(devs->nfn, sizeof(*pf))))
		return -ENOMEM;
	for (size_t i = 0; i < devs->nfn; i++)
		pf[i] = devs->fn[i].pf ? devs->fn[i].pf - devs->fn : -1;
	nfn = realloc(devs->fn, (devs->nfn + 1) * sizeof(*nfn));
	if (!nfn) {
		free(pf);
		return -ENOMEM;
	}
	devs->fn = nfn;
	for (size_t i = 0; i < devs->nfn; i++) {
		devs->fn[i].pf = pf[i] >= 0 ? &devs->fn[pf[i]] : NULL;
		for (size_t k = 0; k < devs->fn[i].nports; k++)
			devs->fn[i].ports[k].fn = &devs->fn[i];
	}
	free(pf);
	fn = &devs->fn[devs->nfn];
	memset(fn, 0, sizeof(*fn));
	snprintf(fn->bus_name, sizeof(fn->bus_name), "%s", bus);
	snprintf(fn->bdf, sizeof(fn->bdf), "%s", dev);
	fn->vf_index = -1;
	fn->numa_node = -1;
	fn->sriov_totalvfs = fn->sriov_numvfs = -1;
	/* read_function reads relative to the function's directory, which
	 * the PCI scan makes the mlx_chdir() one; here it is made so */
	r = mlx_chdir(ctx, dir);
	if (r == 0)
		r = read_function(ctx, fn, want, NULL, NULL, NULL);
	mlx_chdir(ctx, NULL);
	if (r < 0) {
		free(fn->ports);
		free(fn->rdma);
		return r;
	}
	devs->nfn++;
	*out = fn;
	return 0;
}
