/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by lib/ files; not part of the API the CLI uses. */
#ifndef MLX_PRIVATE_H
#define MLX_PRIVATE_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include "mlx.h"
#include "pcicfg.h"

struct mlx_ctx {
	char *root;             /* "/" or a captured system, no trailing '/' */
	bool live;
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
};

/* 0 when the target may be written; -EROFS with the story when the root
 * is evidence (an incident's snapshot).  Every write path asks. */
int mlx_may_write(struct mlx_ctx *ctx);

/* lib/backend/nl.c: close the netlink sockets; called by mlx_ctx_free(). */
void mlx_nl_ctx_free(struct mlx_ctx *ctx);

/* open() a target path: under a sysroot, symlinks (absolute ones too)
 * resolve inside the root, so a captured tree cannot point us at the
 * live system (openat2 RESOLVE_IN_ROOT, Linux 5.6). */
/* The running kernel is at least @major.@minor (uname). */
bool mlx_kernel_at_least(unsigned major, unsigned minor);
int mlx_open(struct mlx_ctx *ctx, const char *path, int flags, mode_t mode);

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
};

/* Every PCI function of @vendor on the target (libpci, sysfs method
 * pointed at ROOT/sys/bus/pci); *others counts the functions skipped. */
int mlx_pci_scan(struct mlx_ctx *ctx, uint16_t vendor, struct mlx_pci_raw **out,
		 size_t *n, unsigned *others);

/* ethtool GDRVINFO over SIOCETHTOOL (live system only; -EOPNOTSUPP under
 * a sysroot, where there is no kernel to ask). */
struct mlx_drvinfo {
	char driver[32], version[32], fw_version[32], bus_info[32];
	uint32_t n_stats;
};
int mlx_ethtool_drvinfo(struct mlx_ctx *ctx, const char *ifname, struct mlx_drvinfo *info);

#endif
