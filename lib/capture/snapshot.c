/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Snapshot capture.  Source paths go through the root prefix (so a
 * captured system can itself be re-captured, which the tests use);
 * destination files are created with O_EXCL|O_NOFOLLOW under a private
 * temporary directory that is renamed into place at the end.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/ethtool.h>

#include "incident.h"
#include "mlx-private.h"
#include "counters.h"
#include "dcb.h"
#include "devlink.h"
#include "nl.h"
#include "json-writer.h"
#include "netview.h"
#include "params.h"
#include "rdma.h"
#include "snapshot.h"
#include "health.h"
#include "phy.h"
#include "sriov.h"
#include "tree.h"

/* sysfs entries never copied: BAR and ROM images (large, and reading a
 * BAR can upset a device), and the write-only triggers. */
static const char *const skip_names[] = {
	"rom", "remove", "rescan", "reset", "reset_method", "config_space_dump",
	"power", "queues", "subsystem", "firmware_node", "iommu", "iommu_group",
	"msi_bus", "driver_override", NULL,
};

#define MAX_FILE_BYTES (1u << 20)
#define MAX_DEPTH 8

struct snap {
	struct mlx_ctx *ctx;
	const char *tmp;          /* temporary destination directory */
	struct mlx_snapshot_stats *st;
	unsigned debugfs_budget;
	bool rdma_raw;            /* record the RDMA raw vendor contexts */
};

static bool skip(const char *name)
{
	if (!strncmp(name, "resource", 8) && name[8])   /* resource0, resource2_wc */
		return true;
	for (const char *const *p = skip_names; *p; p++)
		if (!strcmp(name, *p))
			return true;
	return false;
}

/* mkdir -p of a target path under the temporary destination. */
static int mkdirs(struct snap *s, const char *path)
{
	char buf[PATH_MAX];
	size_t n;

	if (snprintf(buf, sizeof(buf), "%s%s", s->tmp, path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	n = strlen(s->tmp) + 1;
	for (char *p = buf + n; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0755) < 0 && errno != EEXIST)
				return -errno;
			if (c == '\0')
				break;
			*p = c;
			if (c == '/' && p == buf + n)
				continue;
			s->st->dirs++;
		}
	}
	return 0;
}

static int write_new(const char *path, const void *data, size_t len, mode_t mode)
{
	const char *p = data;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			w = -errno;
			close(fd);
			return (int)w;
		}
		p += w;
		len -= (size_t)w;
	}
	if (close(fd) < 0)
		return -errno;
	return 0;
}

static int copy_link(struct snap *s, const char *path)
{
	char target[PATH_MAX], dst[PATH_MAX], *slash;
	int r;

	r = mlx_readlink(s->ctx, path, target, sizeof(target));
	if (r < 0)
		return r;
	slash = strrchr(path, '/');
	if (slash && slash != path) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		r = mkdirs(s, dir);
		if (r < 0)
			return r;
	}
	snprintf(dst, sizeof(dst), "%s%s", s->tmp, path);
	if (symlink(target, dst) < 0)
		return errno == EEXIST ? 0 : -errno;
	s->st->links++;
	return 0;
}

static int copy_file(struct snap *s, const char *path, mode_t mode)
{
	char dst[PATH_MAX], *data = NULL;
	size_t len = 0;
	int r;

	r = mlx_read_file(s->ctx, path, &data, &len);
	if (r < 0 || len > MAX_FILE_BYTES) {
		/* Unreadable attributes are normal in sysfs (write-only ones,
		 * 'speed' on a down link, root-only ones): note and go on. */
		free(data);
		s->st->skipped++;
		mlx_log(s->ctx, MLX_LOG_DEBUG, "snapshot: skipped %s: %s", path,
			r < 0 ? strerror(-r) : "too large");
		return 0;
	}
	snprintf(dst, sizeof(dst), "%s%s", s->tmp, path);
	r = write_new(dst, data, len, mode & 0644 ? (mode & 0666) : 0644);
	free(data);
	if (r < 0)
		return mlx_err(s->ctx, r, "cannot write '%s': %s", dst, strerror(-r));
	s->st->files++;
	s->st->bytes += len;
	return 0;
}

/* Copy a directory tree; symlinks are copied as links, never followed. */
static int copy_tree(struct snap *s, const char *path, int depth, bool debugfs)
{
	char **names = NULL;
	size_t n = 0;
	int r;

	r = mkdirs(s, path);
	if (r < 0)
		return mlx_err(s->ctx, r, "cannot create '%s%s': %s", s->tmp, path, strerror(-r));
	if (mlx_list_dir(s->ctx, path, &names, &n) < 0) {
		s->st->skipped++;
		return 0;
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		char child[PATH_MAX];
		struct stat st;
		int fd;

		if (!mlx_name_is_safe(names[i]) || skip(names[i]))
			continue;
		if (snprintf(child, sizeof(child), "%s/%s", path, names[i]) >= (int)sizeof(child))
			continue;
		fd = mlx_open(s->ctx, child, O_PATH | O_NOFOLLOW, 0);
		if (fd < 0)
			continue;
		r = fstat(fd, &st) < 0 ? -errno : 0;
		close(fd);
		if (r < 0) {
			r = 0;
			continue;
		}
		if (debugfs && s->debugfs_budget-- == 0)
			break;
		if (S_ISLNK(st.st_mode))
			r = copy_link(s, child);
		else if (S_ISDIR(st.st_mode))
			r = depth < MAX_DEPTH ? copy_tree(s, child, depth + 1, debugfs) : 0;
		else if (S_ISREG(st.st_mode))
			r = copy_file(s, child, st.st_mode);
	}
	mlx_strv_free(names);
	return r;
}

/* An empty string is unknown: null. */
static const char *or_null(const char *v)
{
	return v && *v ? v : NULL;
}

/* mlxcli-snapshot.json, through the one JSON writer (lib/json-writer.h). */
static int write_meta(struct snap *s, const struct mlx_snapshot_meta *meta)
{
	char path[PATH_MAX], when[32], host[256], kernel[256];
	time_t now = time(NULL);
	struct mlx_json *j = mlx_json_new(true);
	struct tm tm;
	FILE *f;
	int fd, r;

	if (!j)
		return -ENOMEM;
	mlx_kernel_identity(s->ctx, host, sizeof(host), kernel, sizeof(kernel));
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	mlx_json_obj_begin(j, NULL);
	mlx_json_int(j, "schema_version", 1);
	mlx_json_str(j, "format", "mlxcli-sysroot");
	mlx_json_int(j, "format_version", 1);
	mlx_json_str(j, "mlxcli_version", meta && meta->tool_version ? meta->tool_version : "");
	mlx_json_str(j, "captured_at", when);
	mlx_json_str(j, "hostname", or_null(meta && meta->hostname ? meta->hostname : host));
	mlx_json_str(j, "kernel", or_null(kernel));
	mlx_json_str(j, "source", mlx_target_name(s->ctx));
	r = mlx_json_finish(j);
	if (r < 0)
		goto out;
	snprintf(path, sizeof(path), "%s/mlxcli-snapshot.json", s->tmp);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		r = -ENOMEM;
		goto out;
	}
	r = mlx_json_fwrite(j, f);
	if (fclose(f) != 0 && r == 0)
		r = -errno;
out:
	mlx_json_free(j);
	return r;
}

int mlx_netlink_capture_path(char *buf, size_t len, const char *family, const char *object,
			     const char *request)
{
	if (!mlx_name_is_safe(family) || !mlx_name_is_safe(object) || !mlx_name_is_safe(request))
		return -EINVAL;
	if (snprintf(buf, len, "/netlink/%s/%s/%s.nl", family, object, request) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* /sys/class/<cls>/<name> and the device directory it points to, unless
 * a function's copy has it already: the RDMA devices that are no ConnectX
 * function's (rxe over a veth) and their netdevs, so that `rdma gids` and
 * the active MTU replay from a snapshot as they read live. */
static int copy_class_entry(struct snap *s, const char *cls, const char *name)
{
	char link[PATH_MAX], target[PATH_MAX], real[PATH_MAX], dst[PATH_MAX];
	const char *p;
	struct stat st;
	int r;

	if (!mlx_name_is_safe(name))
		return 0;
	snprintf(link, sizeof(link), "/sys/class/%s/%s", cls, name);
	snprintf(dst, sizeof(dst), "%s%s", s->tmp, link);
	if (lstat(dst, &st) == 0 || mlx_readlink(s->ctx, link, target, sizeof(target)) < 0) {
		mlx_err_clear(s->ctx);
		return 0;
	}
	if (target[0] == '/')
		return 0;                        /* sysfs links are relative */
	snprintf(real, sizeof(real), "/sys/class/%s", cls);
	for (p = target; !strncmp(p, "../", 3); p += 3) {
		char *sl = strrchr(real, '/');

		if (!sl || sl == real)
			return 0;                /* it would leave /sys: not ours */
		*sl = '\0';
	}
	if (strstr(p, "/../") || strlen(real) + 1 + strlen(p) >= sizeof(real))
		return 0;
	strcat(strcat(real, "/"), p);
	r = copy_link(s, link);
	if (r == 0)
		r = copy_tree(s, real, 0, false);
	return r;
}

static void capture_rdma_devices(struct snap *s)
{
	struct mlx_rdma_devs devs;

	if (mlx_rdma_devs_get(s->ctx, &devs) < 0) {
		mlx_err_clear(s->ctx);
		return;
	}
	for (size_t i = 0; i < devs.n; i++) {
		struct mlx_rdma_port *ports = NULL;
		size_t np = 0;

		copy_class_entry(s, "infiniband", devs.v[i].name);
		if (mlx_rdma_ports_get(s->ctx, &devs.v[i], &ports, &np) == 0)
			for (size_t k = 0; k < np; k++)
				if (ports[k].netdev[0])
					copy_class_entry(s, "net", ports[k].netdev);
		free(ports);
	}
	mlx_rdma_devs_free(&devs);
	mlx_err_clear(s->ctx);
}

static int capture_function(struct snap *s, const struct mlx_function *fn)
{
	char link[PATH_MAX], target[PATH_MAX], real[PATH_MAX];
	const char *p;
	int r;

	/* /sys/bus/pci/devices/<bdf> -> ../../../devices/pci.../<bdf> */
	snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s", fn->bdf);
	r = mlx_readlink(s->ctx, link, target, sizeof(target));
	if (r < 0)
		return mlx_err(s->ctx, r, "cannot read link '%s': %s", link, strerror(-r));
	/* Resolve the relative link text against /sys/bus/pci/devices. */
	p = target;
	snprintf(real, sizeof(real), "/sys/bus/pci/devices");
	while (!strncmp(p, "../", 3)) {
		char *sl = strrchr(real, '/');

		if (!sl || sl == real)
			return mlx_err(s->ctx, EINVAL, "link '%s' leaves the system root", link);
		*sl = '\0';
		p += 3;
	}
	if (target[0] == '/')
		snprintf(real, sizeof(real), "%s", target);
	else if (strlen(real) + 1 + strlen(p) < sizeof(real))
		strcat(strcat(real, "/"), p);
	r = copy_link(s, link);
	if (r == 0)
		r = copy_tree(s, real, 0, false);
	if (r < 0)
		return r;

	if (fn->driver[0]) {
		snprintf(link, sizeof(link), "/sys/bus/pci/drivers/%s", fn->driver);
		r = mkdirs(s, link);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < fn->nports && r == 0; i++) {
		snprintf(link, sizeof(link), "/sys/class/net/%s", fn->ports[i].ifname);
		r = copy_link(s, link);
	}
	for (size_t i = 0; i < fn->nrdma && r == 0; i++) {
		snprintf(link, sizeof(link), "/sys/class/infiniband/%s", fn->rdma[i].name);
		r = copy_link(s, link);
	}
	if (r < 0)
		return r;
	snprintf(link, sizeof(link), "/sys/kernel/debug/mlx5/%s", fn->bdf);
	if (mlx_is_dir(s->ctx, link)) {
		s->debugfs_budget = 2000;
		r = copy_tree(s, link, 0, true);
	}
	return r;
}

/*
 * The netlink replies the read commands replay offline: per PF, the
 * RTM_GETLINK VF list, devlink dev info and the eswitch mode.  The kernel
 * boundary records them as the queries below are answered
 * (mlx_kernel_record); a captured system's replies are recordings
 * already, and are copied.  A failed query is not a failed snapshot (no
 * devlink, no netdev): the error reply is recorded when the kernel sent
 * one.
 */
static int capture_netlink(struct snap *s, const struct mlx_devices *devs)
{
	int r;

	r = mlx_kernel_record(s->ctx, s->tmp);
	if (r == MLX_RECORDED) {
		/* the recorded owners' names of RDMA resources (issue 24) come
		 * with the replies; a capture's /proc holds nothing else */
		r = mlx_is_dir(s->ctx, "/proc") ? copy_tree(s, "/proc", 0, false) : 0;
		if (r == 0)
			r = mlx_is_dir(s->ctx, "/netlink") ? copy_tree(s, "/netlink", 0, false) : 0;
		return r;
	}
	if (r < 0)
		return r;
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];
		struct mlx_link_vfs l;
		struct mlx_devlink_info info;
		struct mlx_eswitch esw;

		if (fn->role != MLX_FN_PF || !mlx_fn_is_pci(fn))
			continue;       /* a device of another bus: not in the format */
		if (fn->nports && mlx_sriov_query(s->ctx, fn, &l) == 0)
			mlx_link_vfs_free(&l);
		mlx_devlink_info_get(s->ctx, fn, &info);
		mlx_devlink_eswitch_get(s->ctx, fn, &esw);
		/* --- DCB (issue 4, lib/qos/dcb.c): per PF netdev, the IEEE_GET and
		 * GDCBX replies ("ieee-get", "gdcbx") that `show qos` replays.
		 * An error reply (no DCB ops) is recorded like any other. --- */
		for (size_t j = 0; j < fn->nports; j++) {
			struct mlx_dcb_state *dcb = malloc(sizeof(*dcb));

			if (dcb && fn->ports[j].ifname[0])
				mlx_dcb_get(s->ctx, fn->ports[j].ifname, dcb);
			free(dcb);
		}
		/* --- end DCB --- */
		/* --- devlink health and link state (issue 7 follow-up,
		 * lib/debug/health.c): the reporter list ("health-get"), each
		 * reporter's diagnose ("diagnose-<reporter>[-port<N>]", an
		 * error reply when it has none) and each PF netdev's ethtool
		 * link state (netlink/ethtool/<if>/linkstate-get), which
		 * `dbg get-state` and `dbg pddrinfo` replay.  No dumps: a
		 * DUMP_GET makes the kernel take one. --- */
		{
			struct mlx_health *h = calloc(1, sizeof(*h));

			if (h && mlx_health_get(s->ctx, fn, h) == 0)
				for (size_t j = 0; j < h->n; j++) {
					struct mlx_fmsg_node *d = NULL;

					mlx_health_diagnose(s->ctx, fn, &h->r[j], &d);
					mlx_fmsg_free(d);
				}
			free(h);
			for (size_t j = 0; j < fn->nports; j++) {
				struct mlx_linkstate ls;

				if (fn->ports[j].ifname[0])
					mlx_linkstate_get(s->ctx, fn->ports[j].ifname, &ls);
			}
		}
		/* --- end devlink health --- */
		/* --- the physical layer (issue 18, lib/phy/): each PF port's
		 * MODULE_EEPROM_GET replies, only the pages the lower page says
		 * exist ("module-eeprom-i2c...", or the error reply of an empty
		 * cage), and its "linkmodes-get", "fec-get", "pause-get". --- */
		for (size_t j = 0; j < fn->nports; j++) {
			struct mlx_module *m = malloc(sizeof(*m));
			struct mlx_link *lk = malloc(sizeof(*lk));

			if (m && lk && fn->ports[j].ifname[0]) {
				uint16_t ms;

				mlx_module_read(s->ctx, fn->ports[j].ifname, m);
				mlx_link_get(s->ctx, fn->ports[j].ifname, lk);
				/* issue 27: the PFC prevention timeout's
				 * GTUNABLE, "ioctl-gtunable-3.bin" (its error too) */
				(void)mlx_ethtool_tunable_get_u16(s->ctx, fn->ports[j].ifname,
								  ETHTOOL_PFC_PREVENTION_TOUT, &ms);
			}
			free(m);
			free(lk);
		}
		/* --- end transceiver modules --- */
	}
	/* Counters (issue 5): the ethtool statistics of every netdev, as
	 * netlink/ethtool/<if>/strset-stats.nl (the STRSET_GET reply, recorded
	 * by the query itself) and stats-values.nl (the GSTATS values in the
	 * synthetic message of lib/backend/ethtool-stats.c).  sysfs counter files
	 * (statistics/, hw_counters/, counters/, aer_dev_*) are already copied
	 * with each function. */
	mlx_counters_capture(s->ctx, devs);
	/* params (issue 17, lib/params/params.c): the five ethtool dumps and
	 * the devlink parameter dump (netlink/{ethtool,devlink}/all/). */
	mlx_params_record(s->ctx);
	/* RDMA (issue 24, lib/rdma/rdma.c): every RDMA netlink reply `mlxcli
	 * rdma` reads, for every RDMA device (a software one too), and the
	 * /proc/<pid>/comm of the owners; the raw vendor contexts only in a
	 * dump-me-now incident. */
	mlx_rdma_record(s->ctx, s->rdma_raw);
	capture_rdma_devices(s);
	/* the views of issue 27 (lib/netview.h): tunnel tables, RSS, the
	 * packet filter's link info and lists, the VXLAN link dump */
	mlx_netview_record(s->ctx, devs);
	mlx_kernel_record(s->ctx, NULL);
	mlx_err_clear(s->ctx);
	return 0;
}

/* The files of lib/netview.h outside a function's tree (IRQ affinity,
 * XPS/RPS maps, dev_mcast), each unless the copy already holds it. */
static int capture_views(struct snap *s, const struct mlx_devices *devs)
{
	char **files = NULL, **dirs = NULL, dst[PATH_MAX];
	struct stat sb;
	int r = mlx_netview_capture_paths(s->ctx, devs, &files, &dirs);

	for (size_t i = 0; r == 0 && dirs[i]; i++)
		r = mkdirs(s, dirs[i]);
	for (size_t i = 0; r == 0 && files[i]; i++) {
		char *slash = strrchr(files[i], '/');

		snprintf(dst, sizeof(dst), "%s%s", s->tmp, files[i]);
		if (lstat(dst, &sb) == 0 || !slash)
			continue;
		*slash = '\0';
		r = mkdirs(s, files[i]);
		*slash = '/';
		if (r == 0)
			r = copy_file(s, files[i], 0644);
	}
	mlx_strv_free(files);
	mlx_strv_free(dirs);
	return r;
}

/* ---- the kernel log of the devices (dev/kmsg) ---- */

/* The block is small: the devices' most recent records, at most. */
#define KMSG_RECORDS 256
#define KMSG_BYTES (128 * 1024)

/* The names a record about one of @devs carries: the PCI address (in the
 * text and in "DEVICE=+pci:BDF"), the netdevs, the RDMA devices. */
static bool kmsg_about(const char *rec, size_t len, const struct mlx_devices *devs)
{
	for (size_t i = 0; i < devs->nfn; i++) {
		const struct mlx_function *fn = &devs->fn[i];

		if (memmem(rec, len, fn->bdf, strlen(fn->bdf)))
			return true;
		for (size_t j = 0; j < fn->nports; j++)
			if (fn->ports[j].ifname[0] &&
			    memmem(rec, len, fn->ports[j].ifname, strlen(fn->ports[j].ifname)))
				return true;
		for (size_t j = 0; j < fn->nrdma; j++)
			if (memmem(rec, len, fn->rdma[j].name, strlen(fn->rdma[j].name)))
				return true;
	}
	return false;
}

/* "PRIO,SEQ,": a /dev/kmsg record (not a syslog line). */
static bool kmsg_is_record(const char *p, const char *end)
{
	int commas = 0;

	for (; p < end && commas < 2; p++) {
		if (*p == ',')
			commas++;
		else if (*p < '0' || *p > '9')
			return false;
	}
	return commas == 2;
}

static const char kmsg_filter_note[] =
	"filtered: the records of this snapshot's devices only (the most recent,\n"
	"at most 256 records or 128 KiB), as /dev/kmsg gives them; a gap in the\n"
	"sequence numbers is another device's records, not records lost.\n";

/*
 * dev/kmsg: the devices' recent kernel-log records in the /dev/kmsg format
 * (each record with its " KEY=VALUE" lines), which `monitor --sysroot`
 * replays and dump-me-now's kernel-log item reads; dev/kmsg.filter says it
 * is a filtered capture.  A log that is not records (a syslog copy), or
 * none, is no block: the snapshot goes on without it.
 */
static int capture_kmsg(struct snap *s, const struct mlx_devices *devs)
{
	uint64_t boot;
	struct { size_t off, len; } keep[KMSG_RECORDS];
	size_t nkeep = 0, first = 0, total = 0, len = 0;
	char *text = NULL, dst[PATH_MAX], *buf, *w;
	const char *source, *p, *end;
	int r;

	if (mlx_kmsg_read(s->ctx, &text, &len, &source) < 0) {
		mlx_err_clear(s->ctx);
		return 0;
	}
	end = text + len;
	if (!kmsg_is_record(text, end)) {
		free(text);
		return 0;
	}
	for (p = text; p < end;) {
		const char *e = p;

		/* a record: its line, then the lines that start with a space */
		do {
			const char *nl = memchr(e, '\n', (size_t)(end - e));

			e = nl ? nl + 1 : end;
		} while (e < end && *e == ' ');
		if (kmsg_about(p, (size_t)(e - p), devs)) {
			keep[nkeep % KMSG_RECORDS].off = (size_t)(p - text);
			keep[nkeep % KMSG_RECORDS].len = (size_t)(e - p);
			nkeep++;
		}
		p = e;
	}
	/* the newest that fit, written oldest first */
	if (nkeep > KMSG_RECORDS)
		first = nkeep - KMSG_RECORDS;
	for (size_t i = nkeep; i > first; i--) {
		size_t l = keep[(i - 1) % KMSG_RECORDS].len;

		if (total + l > KMSG_BYTES) {
			first = i;
			break;
		}
		total += l;
	}
	buf = w = malloc(total + 1);
	if (!buf) {
		free(text);
		return -ENOMEM;
	}
	for (size_t i = first; i < nkeep; i++) {
		memcpy(w, text + keep[i % KMSG_RECORDS].off, keep[i % KMSG_RECORDS].len);
		w += keep[i % KMSG_RECORDS].len;
	}
	free(text);
	r = mkdirs(s, "/dev");
	snprintf(dst, sizeof(dst), "%s/dev/kmsg", s->tmp);
	if (r == 0)
		r = write_new(dst, buf, total, 0644);
	free(buf);
	if (r == 0) {
		snprintf(dst, sizeof(dst), "%s/dev/kmsg.filter", s->tmp);
		r = write_new(dst, kmsg_filter_note, sizeof(kmsg_filter_note) - 1, 0644);
	}
	if (r < 0)
		return mlx_err(s->ctx, r, "cannot write '%s': %s", dst, strerror(-r));
	s->st->files += 2;
	s->st->bytes += total + sizeof(kmsg_filter_note) - 1;
	/* when the records' timestamps start (the kernel's boot, in the wall
	 * clock): a replay dates its events with it (issue 25 item 14) */
	if (mlx_kernel_boot_time(s->ctx, &boot) == 0) {
		char line[32];
		int n = snprintf(line, sizeof(line), "%" PRIu64 "\n", boot);

		snprintf(dst, sizeof(dst), "%s/dev/kmsg.boottime", s->tmp);
		r = write_new(dst, line, (size_t)n, 0644);
		if (r < 0)
			return mlx_err(s->ctx, r, "cannot write '%s': %s", dst, strerror(-r));
		s->st->files++;
		s->st->bytes += (size_t)n;
	}
	mlx_err_clear(s->ctx);
	return 0;
}

int mlx_snapshot(struct mlx_ctx *ctx, const struct mlx_devices *devs, const char *dest,
		 const struct mlx_snapshot_meta *meta, struct mlx_snapshot_stats *st)
{
	struct mlx_snapshot_stats local;
	char tmp[PATH_MAX], readme[PATH_MAX];
	struct snap s = { .ctx = ctx };
	struct stat sb;
	int r = 0;
	static const char nl_readme[] =
		"Captured netlink replies: <family>/<object>/<request>.nl, each the raw\n"
		"reply messages (struct nlmsghdr framed) as the kernel sent them.\n";

	mlx_err_clear(ctx);
	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	s.st = st;
	if (lstat(dest, &sb) == 0)
		return mlx_err(ctx, EEXIST, "'%s' already exists; give a new directory", dest);
	/* never into an incident (evidence), at any depth (lib/incident.h) */
	r = mlx_incident_guard(ctx, dest);
	if (r < 0)
		return r;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", dest) >= (int)sizeof(tmp))
		return mlx_err(ctx, ENAMETOOLONG, "path too long: '%s'", dest);
	if (!mkdtemp(tmp))
		return mlx_err(ctx, errno, "cannot create '%s': %s", tmp, strerror(errno));
	s.tmp = tmp;
	s.rdma_raw = meta && meta->rdma_raw;

	/* The format holds PCI functions; a device of another bus (a
	 * netdevsim that --any-device added to the model) is left out. */
	for (size_t i = 0; i < devs->nfn && r == 0; i++) {
		if (mlx_fn_is_pci(&devs->fn[i]))
			r = capture_function(&s, &devs->fn[i]);
		if (meta && meta->progress)
			meta->progress(meta->progress_arg, i + 1, devs->nfn + 1);
	}
	if (r == 0)
		r = mkdirs(&s, "/sys/bus/pci/devices");
	if (r == 0)
		r = capture_netlink(&s, devs);
	/* params (issue 17): mlx5_core's module parameters, rdma_cm's RoCE knobs */
	if (r == 0 && mlx_is_dir(ctx, "/sys/module/mlx5_core/parameters"))
		r = copy_tree(&s, "/sys/module/mlx5_core/parameters", 0, false);
	if (r == 0 && mlx_is_dir(ctx, "/sys/kernel/config/rdma_cm"))
		r = copy_tree(&s, "/sys/kernel/config/rdma_cm", 0, false);
	/* rdma show's driver version (issue 24): MLNX_OFED modules have one */
	if (r == 0 && mlx_exists(ctx, "/sys/module/mlx5_core/version")) {
		r = mkdirs(&s, "/sys/module/mlx5_core");
		if (r == 0)
			r = copy_file(&s, "/sys/module/mlx5_core/version", 0444);
	}
	if (r == 0)
		r = capture_views(&s, devs);
	if (r == 0)
		r = capture_kmsg(&s, devs);
	if (r == 0)
		r = mkdirs(&s, "/netlink");
	if (r == 0) {
		snprintf(readme, sizeof(readme), "%s/netlink/README", tmp);
		r = write_new(readme, nl_readme, sizeof(nl_readme) - 1, 0644);
		if (r == -EEXIST)
			r = 0;      /* copied from the sysroot being re-captured */
	}
	if (r == 0)
		r = write_meta(&s, meta);
	/* the last step: the host-wide parts after the functions are in */
	if (r == 0 && meta && meta->progress)
		meta->progress(meta->progress_arg, devs->nfn + 1, devs->nfn + 1);
	/* The directory stays 0700 (mkdtemp): a capture holds serial numbers
	 * and addresses; its owner decides whom to show it to. */
	if (r == 0 && rename(tmp, dest) < 0)
		r = mlx_err(ctx, errno, "cannot rename '%s' to '%s': %s", tmp, dest, strerror(errno));
	if (r < 0) {
		if (!mlx_errmsg(ctx)[0])
			mlx_err(ctx, r, "snapshot failed: %s", strerror(-r));
		mlx_tree_remove(tmp);
	}
	return r;
}
