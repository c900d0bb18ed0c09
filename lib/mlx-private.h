/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by lib/ files; not part of the API the CLI uses. */
#ifndef MLX_PRIVATE_H
#define MLX_PRIVATE_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include "mlx.h"
#include "nl.h"
#include "pcicfg.h"

/*
 * The kernel boundary: every operation through which lib/ reaches the
 * kernel, or stands in for it.  Two tables exist, chosen once by
 * mlx_ctx_new(): mlx_kops_live (lib/core/boundary-live.c: sockets,
 * ioctls, /dev/kmsg, uname, libpci's config space) and mlx_kops_captured
 * (lib/core/boundary-captured.c: the recorded netlink replies, and the
 * emulators of lib/emul/ fed the same request bytes and values the live
 * path sends).  A feature never asks which one it has: it calls the
 * operation, and a captured system answers what it recorded, what an
 * emulator makes of the request, or -EOPNOTSUPP/-EROFS with the story.
 * Reads of plain files are not here: the root prefix (lib/core/rootfs.c)
 * already makes them the same on both.  Unit tests wrap a table
 * (mlx_ctx_set_kops) to inject a kernel's error; the product has no other
 * test hook.
 */
/* A netlink multicast group: @proto NETLINK_ROUTE with @group its number
 * (RTNLGRP_*), or NETLINK_GENERIC with the group named by @genl_family and
 * @genl_group (resolved through the generic netlink controller).  @group2,
 * when not 0, is a second RTNLGRP_* joined on the same socket (the monitor
 * reads link and DCB notifications through one decoder loop).  @what
 * names it in messages ("rtnetlink link").  @dump_req (@dump_len bytes),
 * when set, is a request the live socket sends once subscribed, so that
 * its replies (every link's state) come before the first notification;
 * @recording is where a captured system keeps what such a socket
 * received ("/monitor/rtnl.nl"). */
struct mlx_nl_group {
	int proto;
	unsigned group, group2;
	const char *genl_family, *genl_group;
	const char *what;
	const void *dump_req;
	size_t dump_len;
	const char *recording;
};

/* One stream of kernel events for the monitor's event source
 * (lib/monitor/source.c), as the boundary's event_stream operation opens
 * it.  @fd is non-blocking and the caller's to close.  @framed: each
 * read(2) gives whole records (/dev/kmsg: one record; a netlink socket:
 * one datagram of whole messages), else the bytes of a recording that
 * the reader splits.  @filtered: a kernel log that holds some devices'
 * records only (a snapshot's), whose sequence gaps are not losses.
 * @answers: a request written to @fd is answered on it (a live socket).
 * @boot_time_us: the wall-clock time (CLOCK_REALTIME, µs) the stream's
 * kernel timestamps count from, 0 unknown. */
struct mlx_event_stream {
	int fd;
	bool framed, filtered, answers;
	uint64_t boot_time_us;
};

struct mlx_cfgio;

struct mlx_kops {
	const char *name;               /* "live", "captured" */
	/* One netlink request (@req: a complete message the mlx_nlb_*
	 * builders made), its replies to @cb; contract of mlx_nl_query. */
	int (*nl_request)(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
			  const char *request, const void *req, size_t len, mlx_nl_cb cb,
			  void *arg);
	/* Write @val to a kernel file (sysfs, debugfs) of the target, as the
	 * kernel takes it: what the driver does on such a write happens. */
	int (*write_file)(struct mlx_ctx *ctx, const char *path, const char *val);
	/* Store @val in a file of the target (mlx_write_str's contract): one
	 * write(2) to sysfs live; a captured file rewritten whole, or left
	 * as it was on a failure. */
	int (*store)(struct mlx_ctx *ctx, const char *path, const char *val);
	/* SIOCETHTOOL on @ifname: @data is the ethtool command struct. */
	int (*ethtool_ioctl)(struct mlx_ctx *ctx, const char *ifname, void *data);
	/* SIOCGIFFLAGS, then SIOCSIFFLAGS with @set added and @clear removed. */
	int (*link_flags)(struct mlx_ctx *ctx, const char *ifname, unsigned set, unsigned clear);
	/* The kernel log (mlx_kmsg_read's contract). */
	int (*kmsg_read)(struct mlx_ctx *ctx, char **text, size_t *len, const char **source);
	/* May this process change network settings (CAP_NET_ADMIN live; a
	 * captured system's file permissions decide, so true there)? */
	bool (*net_admin)(struct mlx_ctx *ctx);
	/* mlx_kernel_privileged's contract. */
	bool (*privileged)(struct mlx_ctx *ctx);
	/* Config-space access to one function (mlx_kernel_cfg_open). */
	int (*cfg_open)(struct mlx_ctx *ctx, unsigned domain, unsigned bus, unsigned dev,
			unsigned func, struct mlx_cfgio **io);
	/* mlx_kernel_identity's contract. */
	void (*identity)(struct mlx_ctx *ctx, char *host, size_t hlen, char *kernel, size_t klen);
	/* mlx_kernel_record's contract. */
	int (*record)(struct mlx_ctx *ctx, const char *dir);
	/* mlx_kernel_process_runs's contract. */
	bool (*process_runs)(struct mlx_ctx *ctx, const char *pid);
	/* mlx_target_name's contract. */
	const char *(*target_name)(const struct mlx_ctx *ctx);
	/* One stream of events (mlx_kernel_event_stream's contract). */
	int (*event_stream)(struct mlx_ctx *ctx, const struct mlx_nl_group *g, struct mlx_event_stream *es);
	/* The wall-clock time (µs since the epoch) the kernel log's
	 * timestamps count from (mlx_kernel_boot_time's contract). */
	int (*boot_time)(struct mlx_ctx *ctx, uint64_t *us);
};

extern const struct mlx_kops mlx_kops_live, mlx_kops_captured;

/* Replace the context's table (tests wrap the one mlx_ctx_new chose:
 * mlx_ctx_kops() gives it).  Never called by the product. */
void mlx_ctx_set_kops(struct mlx_ctx *ctx, const struct mlx_kops *ops);
const struct mlx_kops *mlx_ctx_kops(const struct mlx_ctx *ctx);

/* The boundary's operations, for lib/ (the table of @ctx). */
int mlx_kernel_write(struct mlx_ctx *ctx, const char *path, const char *val);
int mlx_kernel_ethtool(struct mlx_ctx *ctx, const char *ifname, void *data);
/* Open the config space of one function for the CR-space gateway
 * (lib/backend/pci-cfgio.c live: root only; a captured system has no CR
 * space behind its config file: -EOPNOTSUPP, mlx_errmsg says so).  The
 * handle goes with mlx_cfgio_ops (vsec.h) and mlx_cfgio_close. */
int mlx_kernel_cfg_open(struct mlx_ctx *ctx, unsigned domain, unsigned bus, unsigned dev,
			unsigned func, struct mlx_cfgio **io);
/* lib/backend/pci-cfgio.c: the live half, through libpci (root only:
 * -EACCES; -ENODEV no such function), and the close of either. */
int mlx_cfgio_open(struct mlx_ctx *ctx, unsigned domain, unsigned bus, unsigned dev,
		   unsigned func, struct mlx_cfgio **io);
void mlx_cfgio_close(struct mlx_cfgio *io);
/* The host name and kernel release of the target (empty when unknown):
 * live, uname(2); a captured system's own record (its
 * mlxcli-snapshot.json), else its proc/sys/kernel files. */
void mlx_kernel_identity(struct mlx_ctx *ctx, char *host, size_t hlen, char *kernel, size_t klen);
/*
 * A snapshot being made in @dir (a host path) keeps the target's answers
 * (NULL: stop).  Live, every request from now on is recorded there as the
 * kernel answers it (mlx_nl_set_capture): 0, and the caller asks what the
 * snapshot should hold.  A captured system's answers are recordings
 * already, the tree /netlink of its root: MLX_RECORDED, and the caller
 * copies that tree instead of asking.  -errno on a failure.
 */
#define MLX_RECORDED 1
int mlx_kernel_record(struct mlx_ctx *ctx, const char *dir);
/* Does the process whose pid file said @pid run on the target?  Live,
 * /proc/PID exists (a stale pid file of a stopped daemon does not count);
 * a captured system keeps no process table: its pid file is taken as the
 * process it names. */
bool mlx_kernel_process_runs(struct mlx_ctx *ctx, const char *pid);

/*
 * The emulators of lib/emul/: what the kernel and the driver do to a
 * captured system when the live path would write.  Each says which
 * requests are its own by pure predicates over exactly what the live path
 * hands the kernel (the request bytes; the path of a file write) and
 * answers them; a member it has no use for is NULL.  lib/emul/emulators.c
 * lists them in one static table, in the order they are asked;
 * mlx_ctx_new() gives it to the captured boundary, which asks nothing
 * else about features.  A write no emulator takes stores the value as
 * given; a netlink request none takes is answered from the recording.
 */
struct mlx_emul {
	const char *name;
	/* @req is one whole message of @len bytes (nlmsg_len checked). */
	bool (*nl_takes)(enum mlx_nl_family fam, const void *req, size_t len);
	int (*nl_request)(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req,
			  size_t len, mlx_nl_cb cb, void *arg);
	bool (*file_takes)(const char *path);
	int (*file_write)(struct mlx_ctx *ctx, const char *path, const char *val);
	/* SIOCSIFFLAGS (struct mlx_kops.link_flags's contract). */
	int (*link_flags)(struct mlx_ctx *ctx, const char *ifname, unsigned set, unsigned clear);
};
/* lib/emul/emulators.c: every emulator, NULL-terminated. */
extern const struct mlx_emul *const mlx_emulators[];
/* Give the captured boundary of @ctx another table (a unit test's);
 * never called by the product. */
void mlx_ctx_set_emulators(struct mlx_ctx *ctx, const struct mlx_emul *const *table);

/* lib/backend/ethtool-record.c: the SIOCETHTOOL replies a capture keeps.
 * Record: @result of the ioctl @data, while a snapshot records (else 0,
 * nothing done).  Replay: -EOPNOTSUPP for an ioctl never recorded,
 * -ENODATA when the capture lacks it, else the recorded result. */
int mlx_ethtool_ioctl_record(struct mlx_ctx *ctx, const char *ifname, const void *data, int result);
int mlx_ethtool_ioctl_replay(struct mlx_ctx *ctx, const char *ifname, void *data);
int mlx_kernel_link_flags(struct mlx_ctx *ctx, const char *ifname, unsigned set, unsigned clear);
bool mlx_kernel_net_admin(struct mlx_ctx *ctx);
/* The events of @g (NULL: the kernel log) into *@es: live, a socket
 * subscribed to @g that reports a storm's overflow (ENOBUFS on a read)
 * and has sent @g's dump request, or /dev/kmsg at the oldest record it
 * holds; on a captured system the recording (@g's, or <root>/dev/kmsg),
 * replayed, or -ENOENT when there is none.  0 or -errno with mlx_errmsg. */
int mlx_kernel_event_stream(struct mlx_ctx *ctx, const struct mlx_nl_group *g, struct mlx_event_stream *es);
/* When the system's kernel log starts, in wall-clock µs since the epoch
 * (an estimate: CLOCK_REALTIME minus CLOCK_MONOTONIC live; what a snapshot
 * recorded, <root>/dev/kmsg.boottime, on a captured system): 0, or
 * -ENOENT when it is not known. */
int mlx_kernel_boot_time(struct mlx_ctx *ctx, uint64_t *us);

/* The RDMA CM's per-port defaults in configfs (default_roce_mode,
 * default_roce_tos): one place says where, for `state`/`apply` and
 * `params` alike (lib/state/roce-cm.c).  -EINVAL for an unsafe name. */
int mlx_rdma_cm_path(char *buf, size_t len, const char *rdma_dev, unsigned port, const char *file);

/* lib/backend/nl.c: the live half of mlx_nl_query (socket, send, read,
 * record) and the replay of a recorded reply file. */
int mlx_nl_query_live(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
		      const char *request, const void *req, size_t len, mlx_nl_cb cb, void *arg);
int mlx_nl_query_recorded(struct mlx_ctx *ctx, enum mlx_nl_family fam, const char *object,
			  const char *request, mlx_nl_cb cb, void *arg);
/* The reason text of a refused request, as the kernel's extended ack
 * (mlx_nl_extack): what an emulator says when it refuses. */
void mlx_nl_set_extack(struct mlx_ctx *ctx, const char *text);

/* lib/core/boundary-captured.c: the string value of "@key" in the text of
 * a capture's mlxcli-snapshot.json (mlx_snapshot writes it), into @buf;
 * false when not JSON, absent, not a string, or too long.  The file is the
 * capture's: any bytes (fuzzed: tests/fuzz/fuzz-snapshot-meta.c). */
bool mlx_snapshot_meta_value(const char *text, const char *key, char *buf, size_t len);

/* lib/core/rootfs.c: mlx_write_str's two disciplines, one per boundary:
 * sysfs takes a value in one write(2); a captured file is rewritten whole
 * (after mlx_may_write) by a new file renamed over it. */
int mlx_store_sysfs(struct mlx_ctx *ctx, const char *path, const char *val);
int mlx_store_captured(struct mlx_ctx *ctx, const char *path, const char *val);

/* lib/emul/: the kernel's side of a write on a captured system, for the
 * emulators' table and the unit tests that feed them requests.  Each
 * takes what the live path hands the kernel: request bytes, or a path and
 * a value.  0 or -errno (mlx_errmsg says why). */
int mlx_emul_sriov_setlink(struct mlx_ctx *ctx, const uint8_t *req, size_t len);
int mlx_emul_eswitch(struct mlx_ctx *ctx, const uint8_t *req, size_t len);
int mlx_emul_numvfs_write(struct mlx_ctx *ctx, const char *bdf, const char *val);
int mlx_emul_link_flags(struct mlx_ctx *ctx, const char *ifname, unsigned set, unsigned clear);
/* `params set`'s requests (lib/emul/params-emul.c); @fam enum mlx_nl_family. */
int mlx_emul_params(struct mlx_ctx *ctx, int fam, const uint8_t *req, size_t len);
/* issue 27's writes (lib/emul/lifecycle-emul.c): does the emulator take
 * the request, and its answer.  HEALTH_REPORTER_SET; PAUSE_SET,
 * LINKMODES_SET, FEC_SET. */
bool mlx_emul_health_takes(enum mlx_nl_family fam, const void *req, size_t len);
int mlx_emul_health_request(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req,
			    size_t len, mlx_nl_cb cb, void *arg);
bool mlx_emul_link_takes(enum mlx_nl_family fam, const void *req, size_t len);
int mlx_emul_link_request(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req,
			  size_t len, mlx_nl_cb cb, void *arg);
/* MLNX_OFED's traffic_class file: a write reads back "Global tclass=N". */
bool mlx_emul_params_is_tclass(const char *path);
int mlx_emul_params_tclass(struct mlx_ctx *ctx, const char *path, const char *val);

struct mlx_ctx {
	char *root;             /* "/" or a captured system, no trailing '/' */
	const struct mlx_kops *kops;    /* the kernel boundary, chosen in mlx_ctx_new() */
	const struct mlx_emul *const *emulators;   /* the captured boundary's (lib/emul/) */
	bool live;              /* root is "/" (lib/core only: the rest asks kops) */
	int root_fd;            /* O_PATH fd of root when not live, else -1 */
	char errmsg[768];
	mlx_log_fn log_fn;
	void *log_data;
	enum mlx_log_level log_max;
	int base_fd;            /* mlx_chdir(): relative paths resolve here, -1 none */
	int ioctl_fd;           /* SIOCETHTOOL socket, opened on first use, -1 none */
	void *stats_map;        /* GSTATS buffer before a guard page (ethtool-stats.c) */
	size_t stats_map_len, stats_cap;   /* its mapping's bytes, the values it holds */
	unsigned tmp_seq;       /* mlx_replace_file(): unique temporary names */
	struct mlx_nl *nl;      /* netlink sockets and capture (lib/backend/nl.c), lazily */
	char *canon;            /* realpath of root when not live (lock names) */
	char *runtime_dir;      /* mlx_ctx_set_runtime_dir(), NULL none */
	char *incident;         /* the dump-me-now incident root is the snapshot of, or NULL */
	/* The journal of the write transaction running on a captured system
	 * (lib/journal.h): every change of its files is logged there first. */
	struct mlx_journal *journal;
	int lock_wait_ms;       /* lock.h: mlx_lock_set_wait(), -1 no limit */
	/* mlx_batch_begin(): descriptors done with, closed together */
	bool batching;
	unsigned nbatch;
	int batch[16];
};

/* A number unique in the context's life (names of temporary files). */
static inline unsigned mlx_ctx_seq(struct mlx_ctx *ctx)
{
	return ctx->tmp_seq++;
}

/* lib/core/lock.c: the private directory of this user's locks of captured
 * systems (and their journals, lib/core/journal.c); @make: made when
 * missing (a write), else only named (a read). */
int mlx_lock_dir(struct mlx_ctx *ctx, char *buf, size_t len, bool make);
/* The name of @ctx's system in that directory: "capture-<32 hex>". */
void mlx_capture_key(struct mlx_ctx *ctx, char *buf, size_t len);

/* 0 when the target may be written; -EROFS with the story when the root
 * is evidence (an incident's snapshot).  Every write path asks. */
int mlx_may_write(struct mlx_ctx *ctx);

/* lib/backend/nl.c: close the netlink sockets; called by mlx_ctx_free(). */
void mlx_nl_ctx_free(struct mlx_ctx *ctx);

/* The running kernel is at least @major.@minor (uname). */
bool mlx_kernel_at_least(unsigned major, unsigned minor);
/* open() a target path: under a sysroot, symlinks (absolute ones too)
 * resolve inside the root, so a captured tree cannot point us at the
 * live system (openat2 RESOLVE_IN_ROOT, Linux 5.6). */
int mlx_open(struct mlx_ctx *ctx, const char *path, int flags, mode_t mode);
/* "/a/b/c": an O_PATH descriptor of "/a/b", opened as mlx_open does, and
 * *@base "c"; -EINVAL for a path with no last name. */
int mlx_open_parent(struct mlx_ctx *ctx, const char *path, const char **base);
/* mlx_open(@path, O_RDONLY) for reads through mlx_attr_pread() only: a
 * captured file is not fstat'ed at the open, the read checks its type. */
int mlx_open_attr(struct mlx_ctx *ctx, const char *path);
/* The target's files are copies (a capture): reading more of one costs a
 * copy from the page cache, where live config space costs a device access
 * a dword. */
bool mlx_root_is_copy(const struct mlx_ctx *ctx);
/* pread(2) of an mlx_open_attr() descriptor: the bytes read, or -errno
 * (-EINVAL with the story for a captured FIFO, device or socket, which
 * is never waited on). */
ssize_t mlx_attr_pread(struct mlx_ctx *ctx, int fd, void *buf, size_t len, off_t off,
		       const char *path);
/* The same, and *size the file's size when the read had to look (a
 * captured file that filled @buf or gave nothing), else -1. */
ssize_t mlx_attr_pread_size(struct mlx_ctx *ctx, int fd, void *buf, size_t len, off_t off,
			    const char *path, off_t *size);
/* Done with @fd: closed, or kept for mlx_batch_end() while a batch is
 * open.  A batch (one function's files in the device scan) closes all its
 * descriptors with one close_range(2) a run of consecutive numbers. */
void mlx_fd_done(struct mlx_ctx *ctx, int fd);
void mlx_batch_begin(struct mlx_ctx *ctx);
void mlx_batch_end(struct mlx_ctx *ctx);
/* mlx_open()'s resolution where openat2() is missing (kernels before 5.6,
 * valgrind): PATH is walked from DIRFD one component at a time with
 * O_NOFOLLOW, symlinks are resolved here against DIRFD (absolute ones from
 * DIRFD, at most 40 of them), and ".." stops at DIRFD (IN_ROOT) or fails
 * with -EXDEV (BENEATH), as RESOLVE_IN_ROOT / RESOLVE_BENEATH do.  Returns
 * an fd or a negative errno. */
int mlx_open_walk(int dirfd, const char *path, int flags, mode_t mode, bool beneath);

/* One PCI function as the PCI backend (lib/backend/pci.c) found it. */
struct mlx_pci_raw {
	unsigned domain, bus, dev, func;
	uint16_t vendor, device;
	uint32_t class_code;        /* 24-bit class/subclass/prog-if */
	size_t cfg_len;             /* bytes of config space we could read */
	/* decoded from those bytes (one buffer for the scan: 2,048 times
	 * 4 KiB kept was 2,000 page faults more than lspci's) */
	bool cfg_decoded;
	struct mlx_pci_config cfg;
	/* A VF whose identity its PF's SR-IOV capability gave (vendor, VF
	 * device ID, place): vf_index >= 0 and the PF's address; -1 when
	 * the IDs came from the function's own header or sysfs files. */
	int vf_index;
	unsigned pf_bus, pf_dev, pf_func;
	bool dir;                   /* its directory is the mlx_chdir() one */
};

/*
 * The PCI functions of the target: ROOT/sys/bus/pci/devices listed once,
 * in address order (a PF before its VFs), then each read in turn from its
 * own directory, which stays the mlx_chdir() one for the caller's reads of
 * the function's other files: one path walk through the function's bus
 * link for all of them.  Every file is opened inside the root.
 */
struct mlx_pci_fn {
	uint64_t key;               /* domain, bus, device, function */
	unsigned domain, bus, dev, func;
	const char *name;           /* its entry in sys/bus/pci/devices */
};
struct mlx_vf_places;
struct mlx_pci_bus {
	struct mlx_pci_fn *fn;      /* n, in address order */
	size_t n;
	char **names;               /* the directory's entries (fn[].name) */
	struct mlx_vf_places *places;   /* where read PFs put their VFs */
	uint8_t *buf;               /* one config space at a time */
};
/* List the bus.  0, or -errno with the story (no sys/bus/pci/devices). */
int mlx_pci_bus_list(struct mlx_ctx *ctx, struct mlx_pci_bus *b);
/*
 * Read function @i (after every function before it, for the VF places):
 * @vf_std_only: a VF its PF placed gets its standard config space only
 * (cfg decoded from 256 bytes, cfg_len the file's 4 KiB all the same).
 * 1 with *raw when its vendor is @vendor, its directory then the
 * mlx_chdir() one when raw->dir (the caller ends with mlx_chdir(ctx,
 * NULL)); 0 for another vendor's or a function with no readable IDs, no
 * directory left current; -ENOMEM.
 */
int mlx_pci_bus_read(struct mlx_ctx *ctx, struct mlx_pci_bus *b, size_t i, uint16_t vendor,
		     bool vf_std_only, struct mlx_pci_raw *raw);
/* "dddd:bb:dd.f" (sysfs names a function so; the domain may be wider):
 * 0, or -EINVAL for a name that is no function.  Pure. */
int mlx_pci_parse_bdf(const char *s, unsigned *dom, unsigned *bus, unsigned *dev, unsigned *fn);
/* The index of the function named @bdf ("dddd:bb:dd.f"), or -1. */
ssize_t mlx_pci_bus_find(const struct mlx_pci_bus *b, const char *bdf);
void mlx_pci_bus_free(struct mlx_pci_bus *b);

/* ethtool GDRVINFO over SIOCETHTOOL (live system only; -EOPNOTSUPP under
 * a sysroot, where there is no kernel to ask). */
struct mlx_drvinfo {
	char driver[32], version[32], fw_version[32], bus_info[32];
	uint32_t n_stats;
};
int mlx_ethtool_drvinfo(struct mlx_ctx *ctx, const char *ifname, struct mlx_drvinfo *info);

#endif
