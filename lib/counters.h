/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters (issue #5): every counter of every port, from every source, in
 * one pass over the kernel per sample, each with a group, a unit and a
 * description from the catalogue (lib/counters/counters-catalog.c).
 *
 * Sources, per port (a netdev, with its RDMA port and PCI function):
 *   ethtool     the driver's `ethtool -S` statistics: names from ethtool
 *               netlink ETHTOOL_MSG_STRSET_GET (ETH_SS_STATS), or the
 *               SIOCETHTOOL GSTRINGS ioctl when netlink cannot; values from
 *               the SIOCETHTOOL GSTATS ioctl (driver values have no netlink
 *               equivalent).  lib/backend/ethtool-stats.c.
 *   hw_counters RDMA /sys/class/infiniband/<dev>/ports/<p>/hw_counters/
 *   ib_counters RDMA /sys/class/infiniband/<dev>/ports/<p>/counters/ (PMA)
 *   netdev      live: IFLA_STATS64 from RTM_GETLINK (one dump for many
 *               netdevs); offline: /sys/class/net/<if>/statistics/, the
 *               same struct rtnl_link_stats64 (see mlx_counters_sample())
 *   aer         /sys/bus/pci/devices/<bdf>/aer_dev_{correctable,nonfatal,fatal}
 *
 * Names are fetched and catalogued once per run (struct mlx_cstate) and
 * reused by every later sample (`counters watch`).
 */
#ifndef MLX_COUNTERS_H
#define MLX_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "device.h"

enum mlx_csrc {
	MLX_CSRC_ETHTOOL,
	MLX_CSRC_HW,            /* RDMA hw_counters */
	MLX_CSRC_IB,            /* RDMA counters/ (PMA) */
	MLX_CSRC_NETDEV,
	MLX_CSRC_AER,
	MLX_CSRC_N
};
#define MLX_CSRC_ALL ((1u << MLX_CSRC_N) - 1)

const char *mlx_csrc_name(enum mlx_csrc s);

/* Catalogue flags. */
enum {
	MLX_CF_ERROR = 1u << 0,    /* an error: a frame or operation that failed */
	MLX_CF_DROP  = 1u << 1,    /* a discard/drop without an error */
	MLX_CF_CC    = 1u << 2,    /* RoCE congestion control (CNP, ECN, retransmit) */
	MLX_CF_GAUGE = 1u << 3,    /* a level or a setting, not a running count */
	MLX_CF_PAUSE = 1u << 4,    /* flow control (pause frames, durations) */
};

/* One catalogue entry (a name, or a %d family). */
struct mlx_cat {
	const char *pattern;       /* exact name, or with one "%d" */
	uint8_t srcs;              /* bit mask of enum mlx_csrc it applies to */
	const char *group;         /* port vport prio queue channel pcie congestion rdma netdev driver module ptp */
	const char *unit;          /* packets bytes events microseconds milliseconds nanoseconds bits count */
	const char *metric;        /* Prometheus family after "mlxcli_" (NULL: derived) */
	const char *label;         /* label for the %d index: priority, queue, lane */
	const char *lvalue;        /* or a fixed label value (size histogram buckets) */
	uint8_t flags;
	uint8_t width;             /* counter width in bits (0: 64) */
	uint8_t scale;             /* value multiplier to reach unit (0: 1) */
	const char *desc;
	const char *meaning;       /* errors view: what it usually means (NULL: none) */
};

/* What the catalogue says about one name. */
struct mlx_cat_match {
	const struct mlx_cat *e;   /* NULL: uncatalogued */
	int index;                 /* the %d, -1 when none */
	const char *dir;           /* "rx", "tx" or NULL (per-queue families) */
	struct {
		const char *name;  /* "priority", "queue", "direction", "severity" */
		char value[40];
	} labels[3];               /* Prometheus labels beyond device/netdev/port */
	unsigned nlabels;
	const char *group;         /* e->group, "queue"/"channel", or "uncatalogued" */
	const char *unit;          /* "count" when uncatalogued */
	const char *prefix;        /* description prefix for derived entries ("" none) */
	uint8_t flags;
	unsigned width;            /* 64, 32, 16, 8, 4; 0: unknown (uncatalogued) */
	unsigned scale;            /* 1, or 4 for IB 4-octet data words */
	char metric[80];           /* Prometheus name after "mlxcli_", without unit/_total */
	/* 0, or k when this is the (k+1)th counter of its name in its
	 * listing (a driver that names two statistics alike): a document
	 * keyed by name calls it "name#k+1" */
	unsigned dup;
};

/* Look @name up for @src.  Pure.  Returns true when catalogued. */
bool mlx_cat_lookup(enum mlx_csrc src, const char *name, struct mlx_cat_match *m);
/* The table; *n receives its length (tests). */
const struct mlx_cat *mlx_cat_table(size_t *n);
/* The group names --group accepts (NULL-terminated); "errors" and
 * "uncatalogued" select by flag rather than by group. */
extern const char *const mlx_counter_groups[];
bool mlx_counter_group_valid(const char *g);
/* The sources (enum mlx_csrc bits) whose counters group @g can select:
 * a sample for `--group G` reads only those.  Pure. */
unsigned mlx_counter_group_sources(const char *g);

/* ---- arithmetic (pure) --------------------------------------------------- */

/*
 * The increase from @prev to @cur of a counter @width bits wide (0:
 * unknown).  A counter that went down was reset (driver reload, counters
 * cleared): the increase is unknown, the result 0 and *reset is set.  The
 * one exception is a 32-bit counter (the mlx5 q counters) that went down
 * by more than half its range: it wrapped once, modulo 2^32.
 */
uint64_t mlx_counter_delta(uint64_t prev, uint64_t cur, unsigned width, bool *reset);
/* @delta over @seconds; 0 when seconds <= 0. */
double mlx_counter_rate(uint64_t delta, double seconds);

/* ---- collection --------------------------------------------------------- */

struct mlx_counter {
	const char *name;          /* as the source names it */
	const struct mlx_cat_match *m;
	uint8_t src;               /* enum mlx_csrc */
	bool valid;                /* false: the file said "N/A" or was unreadable */
	uint64_t raw;              /* as read */
	uint64_t value;            /* raw * scale (saturating): in m->unit */
};

struct mlx_counter_port {
	char bdf[MLX_BDF_LEN];
	char ifname[MLX_IFNAME_LEN];
	char rdma_dev[MLX_NAME_LEN];
	unsigned rdma_port;
	int port_label;            /* the "port" label: RDMA port, else dev_port + 1 */
	const struct mlx_function *fn;    /* NULL in --any-netdev mode */
	struct mlx_counter *c;
	size_t n, cap;
	int err[MLX_CSRC_N];       /* 0, or -errno of that source */
	bool gone;                 /* the netdev vanished since the last sample */
	bool names_netlink;        /* ethtool names came over netlink (else ioctl) */
	/* live: the kernel says the netdev has no parent device (a veth, a
	 * bridge, lo: software), so no transceiver module and no FEC */
	bool no_device;
};

struct mlx_counters {
	struct mlx_counter_port *ports;
	size_t nports;
	double t;                  /* CLOCK_MONOTONIC seconds of the sample */
	struct timespec wall;      /* CLOCK_REALTIME of the sample */
};

/* Names and catalogue matches cached for the run, per port and source. */
struct mlx_cstate;

struct mlx_cstate *mlx_cstate_new(void);
void mlx_cstate_free(struct mlx_cstate *st);

/* What to sample: ConnectX ports, or bare netdevs (--any-netdev). */
struct mlx_ctarget {
	const struct mlx_function *fn;   /* NULL: a bare netdev */
	const struct mlx_port *port;     /* NULL with fn: the function's AER only */
	const char *ifname;              /* bare netdev name */
};

/*
 * One sample of every target, sources in @srcs (mask).  Errors of one
 * source of one port are recorded in port->err and do not fail the sample
 * (a port without RDMA has no hw_counters); a netdev that disappeared is
 * marked gone.  Returns 0 or -errno (out of memory).
 *
 * Live, one RTM_GETLINK dump (or one request each for up to 8 netdevs)
 * says which netdevs exist, their PCI parents and their statistics
 * (IFLA_STATS64), and with more than 8 netdevs to name one ethtool
 * STRSET_GET dump gives their statistics names; what remains per netdev
 * is the GSSET_INFO and GSTATS ioctls.  Offline, the netdev statistics
 * come from the capture's statistics/ files: the same rtnl_link_stats64
 * fields (net-sysfs.c netstat_show and rtnl_fill_stats both call
 * dev_get_stats), so a snapshot needs no synthetic capture of them.
 */
int mlx_counters_sample(struct mlx_ctx *ctx, struct mlx_cstate *st,
			const struct mlx_ctarget *t, size_t nt, unsigned srcs,
			struct mlx_counters *out);
void mlx_counters_free(struct mlx_counters *c);

/* The counter of @p named @name from @src, or NULL. */
const struct mlx_counter *mlx_counters_find(const struct mlx_counter_port *p,
					    enum mlx_csrc src, const char *name);

/*
 * The change of one counter between two samples of its port: what `counters
 * watch` and `top` show, computed here once for both.
 */
struct mlx_crate {
	bool reset;                /* went down (cleared): delta and rate unknown (0) */
	uint64_t delta;            /* in the counter's unit: the raw increase times its
				    * scale (saturating) */
	double per_second;         /* delta over the interval; 0 when reset */
};
/*
 * The change of @c since @prev, the same port's sample taken @seconds
 * earlier (NULL or gone: none); @k is @c's index in its own sample, where
 * the previous value usually is (the names of a port rarely change).
 * false when there is nothing to rate: @c or its previous value missing
 * or not valid, or @c a gauge (a level, not a running count).  Pure.
 */
bool mlx_counter_change(const struct mlx_counter_port *prev, size_t k,
			const struct mlx_counter *c, double seconds, struct mlx_crate *out);

/* `mlxcli snapshot`: read the ethtool statistics of every netdev of @devs
 * while the snapshot records (mlx_kernel_record; see
 * lib/backend/ethtool-stats.c for the files). */
int mlx_counters_capture(struct mlx_ctx *ctx, const struct mlx_devices *devs);

/* ---- ethtool statistics (lib/backend/ethtool-stats.c) ---------------------------- */

struct mlx_ethtool_names {
	char **names;              /* n strings */
	size_t n;
	bool from_netlink;         /* else the GSTRINGS ioctl */
};

/* The ETH_SS_STATS names of @ifname (netlink, else ioctl; offline: the
 * recorded reply), recorded while a snapshot records. */
int mlx_ethtool_stat_names(struct mlx_ctx *ctx, const char *ifname, struct mlx_ethtool_names *out);
void mlx_ethtool_names_free(struct mlx_ethtool_names *n);
/*
 * Every netdev's ETH_SS_STATS names in one STRSET_GET dump (a capture
 * holds replies per interface: -ENODATA there).
 * @cb gets each device's name and its names, which it takes over (n = 0,
 * names NULL: the device has no statistics); a non-zero return stops the
 * dump.  The kernel ends a dump with an error when one device's names do
 * not fit a message (-EMSGSIZE: thousands of per-queue counters); the
 * devices reported before it stay reported, the caller asks the rest one
 * by one with mlx_ethtool_stat_names().
 */
typedef int (*mlx_ethtool_names_cb)(const char *ifname, struct mlx_ethtool_names *names,
				    void *arg);
int mlx_ethtool_stat_names_dump(struct mlx_ctx *ctx, mlx_ethtool_names_cb cb, void *arg);
/* The values, in name order: *n in = room in vals, out = how many;
 * recorded while a snapshot records. */
int mlx_ethtool_stat_values(struct mlx_ctx *ctx, const char *ifname, uint64_t *vals, size_t *n);

/* Pure codecs (also the unit tests and the fuzzer's). */
int mlx_decode_strset_msg(const uint8_t *msg, size_t len, struct mlx_ethtool_names *out);
/* The interface a STRSET_GET reply is about (its header's DEV_NAME). */
int mlx_decode_strset_dev(const uint8_t *msg, size_t len, char *ifname, size_t n);
/* Build a reply the way the kernel lays out a STRSET_GET reply. */
int mlx_encode_strset_msg(const char *const *names, size_t n, uint8_t **buf, size_t *len);
/* The synthetic values message (format in lib/backend/ethtool-stats.c). */
int mlx_encode_stats_msg(const char *ifname, const uint64_t *vals, size_t n, uint8_t **buf,
			 size_t *len);
int mlx_decode_stats_msg(const uint8_t *msg, size_t len, uint64_t *vals, size_t *n);

#endif /* MLX_COUNTERS_H */
