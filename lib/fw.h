/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Firmware and identity of a function (`mlxcli fw query`) and the PCIe
 * error counters (`mlxcli pci show`).
 *
 * Sources, in order: devlink dev info (DEVLINK_CMD_INFO_GET); the RDMA
 * device's fw_ver/board_id in sysfs; ethtool drvinfo (live only).  The
 * source that answered is reported with each value.  VPD from the
 * function's sysfs `vpd` file.
 */
#ifndef MLX_FW_H
#define MLX_FW_H

#include <linux/netlink.h>

#include "devlink.h"
#include "device.h"
#include "settings.h"
#include "vpd.h"

/* devlink's stored version when the pending-image query failed
 * (fixture devlink/cx6dx-devlink-dev-info-stored-fw-query-failed-255.txt). */
#define MLX_FW_QUERY_FAILED "255.255.65535"

struct mlx_fw_info {
	char running[64], stored[64], psid[64], board_id[64];
	const char *running_source;   /* "devlink", "sysfs", "ethtool" or NULL */
	const char *stored_source;    /* "devlink" or NULL */
	const char *psid_source;      /* "devlink" or "sysfs" */
	char serial[128], board_serial[128];
	const char *board_serial_source;   /* "devlink" or "vpd" */
	bool stored_query_failed;     /* devlink stored = 255.255.65535 */
	bool reset_pending;           /* a stored image differs from the running one */

	int devlink_err;              /* 0, or -errno of the devlink query */
	char devlink_errmsg[256];
	struct mlx_devlink_info devlink;

	bool has_vpd;
	int vpd_err;                  /* 0, -ENOENT (no vpd file), -EACCES, -EBADMSG */
	char vpd_errmsg[160];
	struct mlx_vpd vpd;
};

int mlx_fw_query(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_fw_info *out);
/* The same without the VPD (a slow config-space read): the versions, PSID,
 * serials from devlink and sysfs, and reset_pending; what a periodic
 * reader (the Prometheus gauge) needs. */
int mlx_fw_versions(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_fw_info *out);

/* ---- the firmware's life cycle (issue 27): flash and activate ---------------
 *
 * Decoders (lib/decode/decode-devlink-flash.c, pure, fuzzed): the image
 * file, the flash status notifications, the reload capabilities of a
 * devlink instance and the reply of a reload.  The flow (lib/device/
 * fw-flash.c): the image is read and checked before anything is sent,
 * placed where the kernel's firmware loader looks, flashed through
 * DEVLINK_CMD_FLASH_UPDATE while its notifications are read, and taken
 * away again; DEVLINK_CMD_RELOAD action fw_activate runs what was flashed.
 */

/* The image formats mlxcli knows (a mlx5 device takes MFA2 only). */
enum mlx_fw_image_kind {
	MLX_FW_IMAGE_UNKNOWN,         /* not a Mellanox format: another driver's (netdevsim) */
	MLX_FW_IMAGE_MFA2,            /* "MLNX.MFA2.XZ.00!": mlxfw's archive, PSIDs inside */
	MLX_FW_IMAGE_FS3,             /* a raw image ("MTFW" FS3 pattern): flint's, not devlink's */
	MLX_FW_IMAGE_FS4,             /* a raw image ("MTFW" FS4 pattern) */
};
#define MLX_FW_IMAGE_MAX_PSIDS 64
#define MLX_FW_IMAGE_MAX_BYTES (256u << 20)   /* read into memory whole; real ones are tens of MB */
struct mlx_fw_image {
	enum mlx_fw_image_kind kind;
	uint32_t raw_offset;          /* FS3/FS4: where the pattern was found */
	size_t ndevices, ncomponents; /* MFA2: its package descriptor's counts */
	size_t npsid;                 /* MFA2: the PSIDs it holds an image for (kept) */
	char psid[MLX_FW_IMAGE_MAX_PSIDS][17];
};
const char *mlx_fw_image_kind_name(enum mlx_fw_image_kind k);
/* Identify @buf: 0 (an unknown format is no error: the driver judges
 * it), -EBADMSG with @why when it says it is MFA2 and its descriptors are
 * not what mlxfw_mfa2_file_init() takes (drivers/net/ethernet/mellanox/
 * mlxfw/mlxfw_mfa2.c). */
int mlx_fw_image_decode(const uint8_t *buf, size_t len, struct mlx_fw_image *out, char *why,
			size_t whylen);
/* Does the image hold one for @psid (MFA2: a PSID TLV equal to it, as
 * mlxfw_mfa2_tlv_dev_get compares)? */
bool mlx_fw_image_has_psid(const struct mlx_fw_image *img, const char *psid);

/* A DEVLINK_CMD_FLASH_UPDATE / _STATUS / _END notification. */
struct mlx_flash_status {
	uint8_t cmd;                  /* DEVLINK_CMD_FLASH_UPDATE (begin), _STATUS, _END */
	char msg[128];                /* "Flashing", "Downloading component" */
	char component[64];
	uint64_t done, total;         /* bytes (or the driver's unit); 0 0: no count */
	uint64_t timeout_s;           /* the driver waits up to this long; 0 none */
};
/* 1 when @h is a flash notification of devlink instance @bus/@dev (into
 * @out), 0 when it is another message or device's, -EBADMSG malformed. */
int mlx_flash_status_decode(const struct nlmsghdr *h, size_t len, const char *bus,
			    const char *dev, struct mlx_flash_status *out);

/* What a devlink instance can reload (DEVLINK_CMD_GET: DEVLINK_ATTR_DEV_STATS'
 * RELOAD_STATS lists each supported action with each supported limit;
 * net/devlink devlink_reload_stats_put). */
struct mlx_reload_caps {
	bool known;
	uint32_t actions;             /* bits of DEVLINK_RELOAD_ACTION_* */
	uint32_t limits[8];           /* per action: bits of DEVLINK_RELOAD_LIMIT_* */
	uint32_t count[8][4];         /* per action and limit: how many were done */
	bool reload_failed;           /* DEVLINK_ATTR_RELOAD_FAILED */
};
int mlx_devlink_caps_decode(const struct nlmsghdr *h, size_t len, struct mlx_reload_caps *out);
/* The reply of a RELOAD that named an action: ACTIONS_PERFORMED bits; 0 if
 * it names none (an older kernel's bare ack), -EBADMSG malformed. */
int mlx_reload_reply_decode(const struct nlmsghdr *h, size_t len, uint32_t *performed);
const char *mlx_reload_action_name(unsigned action);

/* Requests (pure): DEVLINK_CMD_GET of @bus/@dev; FLASH_UPDATE of firmware
 * file @name (as the kernel's loader names it) and @component (NULL none);
 * RELOAD of @action with limit @limit (DEVLINK_RELOAD_LIMIT_UNSPEC: none). */
int mlx_devlink_get_build(void *buf, size_t cap, const char *bus, const char *dev);
int mlx_flash_build(void *buf, size_t cap, const char *bus, const char *dev, const char *name,
		    const char *component);
int mlx_reload_build(void *buf, size_t cap, const char *bus, const char *dev, uint8_t action,
		     uint8_t limit);

/* ---- the flow (lib/device/fw-flash.c) ---- */

struct mlx_fw_flash {
	/* in */
	const char *file;             /* the image as the user named it */
	const char *component;        /* NULL: the whole image */
	uint8_t *image;               /* its bytes, as checked (mlx_fw_image_load) */
	size_t len;
	struct mlx_fw_image info;
	/* the device's PSID when known ("" not) and whether the image must be
	 * MFA2 (the driver is mlx5_core, whose flash is mlxfw's) */
	char psid[64];
	bool mfa2_only;
	/* Progress: called from the run for each notification and when a
	 * signal comes; it renders, it waits on nothing. */
	void (*progress)(void *arg, const struct mlx_flash_status *st, int signal);
	void *progress_arg;
	/* out */
	char loader_name[128];        /* the name the kernel was given */
	bool staged;                  /* ... a copy mlxcli placed (and removed) */
	bool removed;                 /* the copy is gone again */
	int dirfd;                    /* the firmware directory while a copy is there; -1 */
	int signal;                   /* a signal that came during the flash (0 none) */
	struct mlx_flash_status last; /* the last status the device sent */
	size_t nstatus;
};
/*
 * Read @file (a regular file, readable, 1 byte to MLX_FW_IMAGE_MAX_BYTES)
 * into f->image and identify it.  0, or -errno with the story: -ENOENT,
 * -EACCES, -EISDIR / -EINVAL (not a regular file), -EFBIG, -ENODATA
 * (empty), -EBADMSG (a broken MFA2).
 */
int mlx_fw_image_load(struct mlx_ctx *ctx, const char *file, struct mlx_fw_flash *f);
/* The checks against the device (after mlx_fw_image_load): a mlx5 device
 * takes MFA2 only, and an MFA2 must hold the device's PSID.  0 or
 * -EINVAL / -EOPNOTSUPP with the story. */
int mlx_fw_image_check(struct mlx_ctx *ctx, const struct mlx_fw_flash *f, const char *on);
/* A flash with nothing in it yet (dirfd -1); free what it holds. */
void mlx_fw_flash_init(struct mlx_fw_flash *f);
void mlx_fw_flash_free(struct mlx_fw_flash *f);
/*
 * Where the kernel's firmware loader will find @f's bytes
 * (drivers/base/firmware_loader/main.c fw_path[]: firmware_class.path,
 * /lib/firmware/updates/<release>, /lib/firmware/updates,
 * /lib/firmware/<release>, /lib/firmware, searched in that order, from
 * the initial namespace's root): the file itself when it already lies in
 * one of them and no earlier one has the same name, else a new copy
 * /lib/firmware/mlxcli-flash-<pid>-<n>.bin (mode 0600, O_EXCL) that the
 * run removes as soon as the kernel has read it.  Said without doing it
 * (@dry): into f->loader_name.  0 or -errno (-EROFS: nowhere to put it).
 */
int mlx_fw_stage(struct mlx_ctx *ctx, struct mlx_fw_flash *f, bool dry);

/* The writers of the two actions (lib/txn.h MLX_ACT_FW_FLASH, _ACTIVATE). */
struct mlx_fw_activate {
	bool reset;                   /* --reset: activate with a reset even when no_reset works */
	/* out */
	uint8_t limit;                /* the limit asked (DEVLINK_RELOAD_LIMIT_*) */
	uint32_t performed;           /* the actions the kernel says it did */
	char running_before[64], stored[64];
};
struct mlx_fw_act_writer {
	struct mlx_port_ref t;
	const void *obj;              /* struct mlx_fw_flash or struct mlx_fw_activate */
	struct mlx_reload_caps caps;
};
struct mlx_subsys;
struct mlx_plan;
struct mlx_write_ops;
int mlx_fw_act_open(struct mlx_ctx *ctx, void *feat, const struct mlx_port_ref *t, void *parent);
int mlx_fw_flash_may_write(struct mlx_ctx *ctx, const struct mlx_port_ref *t);
int mlx_fw_flash_plan(struct mlx_ctx *ctx, void *feat, const void *obj, struct mlx_plan *pl);
int mlx_fw_activate_plan(struct mlx_ctx *ctx, void *feat, const void *obj, struct mlx_plan *pl);
extern const struct mlx_write_ops mlx_fw_flash_ops, mlx_fw_activate_ops;
/* The reload capabilities of @fn (DEVLINK_CMD_GET). */
int mlx_devlink_reload_caps(struct mlx_ctx *ctx, const struct mlx_function *fn,
			    struct mlx_reload_caps *out);

/* AER counters from sysfs aer_dev_correctable/nonfatal/fatal: the
 * TOTAL_ERR_* line of each (drivers/pci/pcie/aer.c). -1 when absent. */
struct mlx_aer_counts {
	int64_t correctable, nonfatal, fatal;
};
int mlx_aer_read(struct mlx_ctx *ctx, const struct mlx_function *fn, struct mlx_aer_counts *out);

#endif
