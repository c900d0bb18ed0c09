/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device model: every ConnectX PCI function (vendor 0x15b3) with its
 * PF/VF relations, the network ports (netdevs) and RDMA devices on it.
 *
 * Built once per command by mlx_devices_scan(): one scan of the
 * target's /sys/bus/pci, then the sysfs children of each function.  Pure
 * data afterwards; commands never go back to the files to render it.
 */
#ifndef MLX_DEVICE_H
#define MLX_DEVICE_H

#include "mlx.h"
#include "pcicfg.h"
#include "devid.h"

#define MLX_BDF_LEN 16       /* "0000:5e:00.0" + NUL, rounded up */
#define MLX_IFNAME_LEN 16    /* IFNAMSIZ */
#define MLX_NAME_LEN 64

struct mlx_function;

/* One network port: a netdev on a function (mlx5: one per function). */
struct mlx_port {
	char ifname[MLX_IFNAME_LEN];
	int ifindex;                 /* -1 when unknown */
	int dev_port;                /* sysfs dev_port, -1 unknown */
	char phys_port_name[MLX_NAME_LEN];
	char mac[24];
	char operstate[16];          /* "up", "down", "unknown"... */
	bool carrier_known, carrier;
	int64_t speed_mbps;          /* -1 when unknown (link down) */
	unsigned mtu;
	char rdma_dev[MLX_NAME_LEN]; /* "mlx5_0" or "" */
	unsigned rdma_port;          /* 1-based IB port number, 0 if none */
	char link_layer[16];         /* "Ethernet", "InfiniBand" or "" */
	struct mlx_function *fn;
};

/* One RDMA device (infiniband class) on a function. */
struct mlx_rdma {
	char name[MLX_NAME_LEN];
	char fw_ver[MLX_NAME_LEN];
	char board_id[MLX_NAME_LEN];  /* PSID */
	/* ports looked at: all of them, or fewer once every netdev of the
	 * function had its RDMA port (device.c scan_rdma) */
	unsigned nports;
};

enum mlx_fn_role { MLX_FN_PF, MLX_FN_VF };

struct mlx_function {
	/* The bus the device is on, as sysfs (/sys/bus/<bus_name>/devices/
	 * <bdf>) and devlink (<bus_name>/<bdf>) name it: "pci" for every
	 * ConnectX function; another bus ("netdevsim") only for a device that
	 * is no ConnectX function, added by mlx_devices_add_other(), and then
	 * bdf is its name on that bus ("netdevsim1"), not a PCI address. */
	char bus_name[16];
	char bdf[MLX_BDF_LEN];        /* always the full "dddd:bb:dd.f" form */
	unsigned domain, bus, dev, func;
	uint16_t vendor, device, subsys_vendor, subsys_device;
	uint32_t class_code;
	uint8_t revision;
	const struct mlx_devid *id;   /* NULL for an ID we do not know */
	enum mlx_fn_role role;
	struct mlx_function *pf;      /* the PF of a VF (NULL if not visible) */
	int vf_index;                 /* index under its PF (virtfnN), -1 */
	char driver[MLX_NAME_LEN];    /* "" when unbound */
	int numa_node;                /* -1 unknown */

	/* Config space as far as we could read it (non-root: 64 bytes). */
	size_t cfg_len;
	struct mlx_pci_config cfg;
	bool cfg_decoded;

	/* The kernel's own view of the link (sysfs), used when the config
	 * space could not be read far enough to decode the PCIe capability. */
	char cur_link_speed[32], max_link_speed[32];
	unsigned cur_link_width, max_link_width;

	/* SR-IOV, from sysfs (PF only). */
	int sriov_totalvfs, sriov_numvfs;   /* -1 when absent */

	struct mlx_port *ports;
	size_t nports;
	struct mlx_rdma *rdma;
	size_t nrdma;

	/* Where the PF's SR-IOV capability puts this VF (PCI scan): its
	 * PF's address and index; link_vfs() turns it into pf/vf_index. */
	struct {
		bool known;
		int vf_index;
		char bdf[MLX_BDF_LEN];
	} sriov_pf;

	char fw_version[MLX_NAME_LEN];      /* "" when nobody told us */
	char fw_source[32];                 /* where fw_version came from */
	char psid[MLX_NAME_LEN];
};

struct mlx_devices {
	struct mlx_function *fn;
	size_t nfn;
	unsigned non_mlx_seen;              /* other PCI functions skipped */
};

/* Scan the target system.  0 or -errno (mlx_errmsg has the story). */
int mlx_devices_scan(struct mlx_ctx *ctx, struct mlx_devices *devs);

/*
 * The same, reading only the attributes a caller shows (a sysfs file
 * costs three syscalls: `devices` on 2,048 functions read 150,000).
 * Without MLX_SCAN_PORT_DETAILS a port has its name, operstate, speed
 * and RDMA port, and ifindex, dev_port, phys_port_name, mac, carrier,
 * mtu and link_layer stay unknown.
 */
#define MLX_SCAN_PORT_DETAILS 0x1u
/* Without MLX_SCAN_VF_EXT_CONFIG a VF its PF's SR-IOV capability placed
 * has its standard config space decoded (header, PCIe link: what
 * `devices` shows) and not the extended one (AER, ARI, serial number). */
#define MLX_SCAN_VF_EXT_CONFIG 0x2u
#define MLX_SCAN_ALL (~0u)
int mlx_devices_scan_for(struct mlx_ctx *ctx, struct mlx_devices *devs, unsigned want);

/*
 * A device that is no ConnectX function, for the generic parts (devlink
 * health, SR-IOV numvfs and VF settings): @name is a netdev of it (its
 * sysfs "device") or its devlink handle "BUS/NAME" ("netdevsim/
 * netdevsim1", "pci/0000:03:00.0").  It is appended to @devs as a PF
 * with no device ID (id NULL), its ports the netdevs below it, its SR-IOV
 * the bus's sriov_numvfs/sriov_totalvfs where it has them; *out points to
 * it (pointers into @devs stay valid: they are moved with it).  A netdev
 * without a device (veth, bridge) is -ENODEV with the story in mlx_errmsg;
 * so is a device that is already one of @devs' functions (-EEXIST).
 */
/*
 * The device netdev @ifname sits on, as its sysfs "device" link and that
 * device's subsystem name it: bus "netdevsim" and name "netdevsim1" for a
 * netdevsim port, "pci" and the PCI address for a NIC; its devlink handle
 * is BUS/NAME.  A netdev without a device (veth, bridge) is -ENODEV with
 * the story in mlx_errmsg, a name that cannot be a netdev -EINVAL.
 */
int mlx_netdev_device(struct mlx_ctx *ctx, const char *ifname, char *bus, size_t blen, char *dev,
		      size_t dlen);
/* A devlink instance's name: BUS/DEV (a buffer for mlx_netdev_device). */
struct mlx_devlink_name {
	char bus[16], dev[64];
};
int mlx_devices_add_other(struct mlx_ctx *ctx, struct mlx_devices *devs, const char *name,
			  unsigned want, struct mlx_function **out);
/* "/sys/bus/<bus_name>/devices/<bdf>": the function's sysfs directory. */
void mlx_fn_sysfs_dir(const struct mlx_function *fn, char *buf, size_t len);
/* Whether @fn is a PCI function (every ConnectX one); renderers print no
 * pci_address for the others. */
bool mlx_fn_is_pci(const struct mlx_function *fn);
/* Its bus_name, "pci" when unset (a function made by hand, in tests). */
const char *mlx_fn_bus(const struct mlx_function *fn);
/* The port whose netdev is @ifname, the function whose address is @bdf;
 * NULL when none (or @devs is NULL, or the name is empty). */
const struct mlx_port *mlx_devices_port_of(const struct mlx_devices *devs, const char *ifname);
const struct mlx_function *mlx_devices_fn_of(const struct mlx_devices *devs, const char *bdf);

/* ---- network interfaces by name, any driver (lib/device/netdev.c) ---- */
/* Is @name a network interface of the target (a safe name that exists)? */
bool mlx_netdev_exists(struct mlx_ctx *ctx, const char *name);
/* Every interface name of the target (safe names only), malloc'ed. */
int mlx_netdev_list(struct mlx_ctx *ctx, char ***names, size_t *n);
/* Its operstate into @oper ("" unknown) and carrier (1, 0, -1 unknown:
 * unreadable while down).  0, or -ENODEV when there is no such interface. */
int mlx_netdev_link(struct mlx_ctx *ctx, const char *name, char *oper, size_t len, int *carrier);
/* Down, then up (SIOCSIFFLAGS through the kernel boundary; a captured
 * system's emulator changes flags and operstate).  0 or -errno. */
int mlx_netdev_restart(struct mlx_ctx *ctx, const char *name);

/* 1 when a VLAN device is stacked on @ifname, 0 when not, -1 unreadable. */
int mlx_netdev_has_vlan_upper(struct mlx_ctx *ctx, const char *ifname);
void mlx_devices_free(struct mlx_devices *devs);

/* Ports of all functions, in function order. */
size_t mlx_devices_nports(const struct mlx_devices *devs);

/* ---- device selection (lib/core/select.c) ------------------------------------
 * -d/--device accepts: a PCI address in hex as lspci prints it
 * ("0000:08:00.0", "08:00.0", "8:0.0"), devlink's handle ("pci/0000:08:00.0"),
 * the decimal mlxtool triple with blanks ("8 0 0"), a netdev name, an RDMA
 * device name.  (DESIGN.md "Device selection"; issue 25: a colon form is
 * hex, never decimal.)
 */
enum mlx_sel_kind { MLX_SEL_PCI, MLX_SEL_NAME };

/* How the text was read: "94:00.0" and "94:0.0" are hex bus 0x94, "94 0 0"
 * mlxtool's decimal bus 94 (0x5e).  cmd/ says so when nothing matches. */
enum mlx_sel_reading {
	MLX_READ_NAME,          /* a netdev or RDMA device */
	MLX_READ_PCI,           /* a PCI address, hex */
	MLX_READ_DECIMAL,       /* mlxtool's decimal bus, device, function */
	/* what a name matched (mlx_select_candidates only) */
	MLX_READ_NETDEV,
	MLX_READ_RDMA,
};

struct mlx_selector {
	enum mlx_sel_kind kind;
	bool has_domain;
	unsigned domain, bus, dev, func;
	char name[MLX_NAME_LEN];            /* netdev or RDMA name */
	char text[96];                      /* what the user typed, normalised */
	enum mlx_sel_reading reading;
	/* A colon form of decimal digits without a domain: mlxtool's decimal
	 * reading of its bus and device is a valid address (other_valid),
	 * and a different one (has_other); same function. */
	bool other_valid, has_other;
	unsigned other_bus, other_dev;
};

/* Parse what the user typed.  -EINVAL with mlx_errmsg() on bad syntax. */
int mlx_selector_parse(struct mlx_ctx *ctx, const char *text, struct mlx_selector *sel);
/* The selector the decimal reading of @sel's digits gives ("94:0.0": decimal
 * 94 0 0, i.e. 5e:00.0), in *other; false when there is none.  Pure. */
bool mlx_selector_other_reading(const struct mlx_selector *sel, struct mlx_selector *other);

/*
 * Resolve a selector against the scanned devices.  On success *fn is the
 * function and *port the port when the selector named one (else NULL).
 * -ENODEV when nothing matches; -EINVAL when an address without a domain
 * is in two PCI domains.  A name that is a netdev and another function's
 * RDMA device selects the netdev's.
 */
int mlx_select(struct mlx_ctx *ctx, const struct mlx_devices *devs,
	       const struct mlx_selector *sel,
	       struct mlx_function **fn, struct mlx_port **port);

/* A ConnectX function a selector can name, and how it names it. */
struct mlx_sel_candidate {
	struct mlx_function *fn;
	enum mlx_sel_reading reading;   /* PCI, DECIMAL, NETDEV or RDMA */
};
/*
 * Every distinct function @sel could name, read every way it can be read
 * (hex and mlxtool's decimal reading of an address's digits; a name that
 * is one function's netdev and another's RDMA device), mlx_select's choice
 * first; at most @max.  Two mean the text is ambiguous: a write must not
 * guess (cmd/cli-select.c).  Pure.
 */
size_t mlx_select_candidates(const struct mlx_devices *devs, const struct mlx_selector *sel,
			     struct mlx_sel_candidate *out, size_t max);

#endif /* MLX_DEVICE_H */
