/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QoS of a port through DCB netlink (dcbnl): ETS, PFC, the APP table (the
 * DSCP->priority map, and on mlx5 the trust state), per-TC max rate, receive
 * buffers, the DCBX owner.  Issue 4; DESIGN.md "qosconfig trust/...".
 *
 * Wire format: include/uapi/linux/dcbnl.h (struct dcbmsg after the
 * nlmsghdr, DCB_ATTR_IFNAME, a DCB_ATTR_IEEE nest of fixed-size structs).
 * The structs below ARE the uapi structs (<linux/dcbnl.h>), so what we send
 * and parse is byte for byte what net/dcb/dcbnl.c reads and writes; the
 * unit tests check that against arrays laid out by hand.
 *
 * Three layers, as elsewhere in lib/:
 *   lib/decode/decode-dcb.c  pure: request builders, reply parsers, validation,
 *                     the max-rate quantisation, the qos/ sysfs parsers
 *   lib/qos/dcb.c         the queries (mlx_nl_query: live, or the capture
 *                     replayed under --sysroot) and the all-or-nothing
 *                     write engine
 *   lib/emul/dcb-emul.c    under --sysroot: the kernel's dcbnl.c + mlx5's
 *                     en_dcbnl.c, applied to the recorded replies
 *
 * Kernel facts this relies on (net/dcb/dcbnl.c, current):
 *  - dcb_doit(): RTM_SETDCB without CAP_NET_ADMIN -> -EPERM; no
 *    DCB_ATTR_IFNAME -> -EINVAL; no such netdev -> -ENODEV; a netdev
 *    without dcbnl_ops (veth, ...) -> -EOPNOTSUPP.  Those come back as an
 *    NLMSG_ERROR.
 *  - IEEE_SET / IEEE_DEL answer with an RTM_SETDCB message whose
 *    DCB_ATTR_IEEE is a u8 holding the (truncated) error of the first op
 *    that failed, 0 on success; the ops before it stay applied (no
 *    rollback in the kernel).  SDCBX answers DCB_ATTR_DCBX = the driver's
 *    setdcbx() result: 0 ok, 1 refused.
 *  - IEEE_GET (dcbnl_ieee_fill): DCB_ATTR_IFNAME, then the DCB_ATTR_IEEE
 *    nest (ETS, MAXRATE, PFC, DCB_BUFFER when the driver has the op and it
 *    succeeded; APP_TABLE always), then DCB_ATTR_DCBX when getdcbx exists.
 */
#ifndef MLX_DCB_H
#define MLX_DCB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>

#include "mlx.h"
#include "nl.h"

#define MLX_DCB_NPRIO 8
#define MLX_DCB_NTC 8
#define MLX_DCB_NDSCP 64
#define MLX_DCB_MAX_APP 256
/* mlx5: en_dcbnl.c MLX5E_MAX_CABLE_LENGTH; pfc.delay is the cable length */
#define MLX_DCB_MAX_CABLE_LEN 1000

/* The state of one port, as IEEE_GET + GDCBX return it. */
struct mlx_dcb_state {
	char ifname[16];
	bool has_ets, has_pfc, has_maxrate, has_buffer, has_dcbx;
	struct ieee_ets ets;
	struct ieee_pfc pfc;
	struct ieee_maxrate maxrate;        /* kbit/s, 0 = unlimited */
	struct dcbnl_buffer buffer;
	uint8_t dcbx;                       /* DCB_CAP_DCBX_* */
	size_t napp;
	struct dcb_app app[MLX_DCB_MAX_APP];
};

/* One IEEE_SET or IEEE_DEL message: each pointer NULL when not sent. */
struct mlx_dcb_msg {
	const struct ieee_ets *ets;
	const struct ieee_maxrate *maxrate;
	const struct ieee_pfc *pfc;
	const struct dcbnl_buffer *buffer;
	const struct dcb_app *app;
	size_t napp;
};

/* ---- lib/decode/decode-dcb.c: pure ---------------------------------------------- */

/* RTM_GETDCB with @cmd (DCB_CMD_IEEE_GET, DCB_CMD_GDCBX) for @ifname. */
int mlx_dcb_build_get(struct mlx_nlbuf *b, uint8_t cmd, const char *ifname);
/* RTM_SETDCB DCB_CMD_IEEE_SET or DCB_CMD_IEEE_DEL with the DCB_ATTR_IEEE
 * nest (attributes in the order dcbnl_ieee_set() applies them). */
int mlx_dcb_build_ieee(struct mlx_nlbuf *b, uint8_t cmd, const char *ifname,
		       const struct mlx_dcb_msg *m);
/* RTM_SETDCB DCB_CMD_SDCBX with DCB_ATTR_DCBX = mode. */
int mlx_dcb_build_sdcbx(struct mlx_nlbuf *b, const char *ifname, uint8_t mode);

/* The struct dcbmsg of a message: -EBADMSG when short. */
int mlx_dcb_msg_cmd(const struct nlmsghdr *h, size_t len, uint8_t *cmd);
/*
 * Parse an IEEE_GET reply into @st (fields not present stay as they were,
 * their has_* false when @st was zeroed).  GDCBX replies are accepted too
 * (they set dcbx).  -EBADMSG on a malformed message or a struct of the
 * wrong size, -E2BIG when the APP table has more than MLX_DCB_MAX_APP.
 */
int mlx_dcb_parse(const struct nlmsghdr *h, size_t len, struct mlx_dcb_state *st);
/*
 * The result of a set: IEEE_SET/IEEE_DEL reply -> the kernel's -errno (the
 * u8 in DCB_ATTR_IEEE sign-extended); SDCBX reply -> 0 or -EINVAL (the
 * driver refused the mode).  -EBADMSG when the reply has no such attribute.
 */
int mlx_dcb_parse_set_reply(const struct nlmsghdr *h, size_t len, int *kerr);

/* A request as dcb_doit() sees it (for the emulator and the tests). */
struct mlx_dcb_req {
	uint16_t type;                      /* RTM_GETDCB / RTM_SETDCB */
	uint8_t cmd;
	char ifname[16];
	bool has_ieee, has_dcbx;
	uint8_t dcbx;
	struct mlx_dcb_msg m;               /* points into the request */
	struct dcb_app app[MLX_DCB_MAX_APP];
};
/*
 * Check a request byte for byte against the uapi layout: nlmsg_len equal
 * to @len, NLM_F_REQUEST, a 4-byte struct dcbmsg with family AF_UNSPEC and
 * zero padding, a NUL-terminated DCB_ATTR_IFNAME, nested attributes of the
 * exact struct sizes.  -EINVAL (malformed, what the kernel's policy would
 * reject) with a reason in @why.
 */
int mlx_dcb_parse_req(const uint8_t *buf, size_t len, struct mlx_dcb_req *rq,
		      char *why, size_t whylen);

/* Encode @st as dcbnl_ieee_fill() would (the capture format of
 * "ieee-get"), and a GDCBX reply; NLM_F_* flags 0, seq 0. */
int mlx_dcb_encode_ieee(struct mlx_nlbuf *b, const struct mlx_dcb_state *st);
int mlx_dcb_encode_dcbx(struct mlx_nlbuf *b, const char *ifname, uint8_t dcbx);
/* The reply of a set (u8 attribute), and an NLMSG_ERROR. */
int mlx_dcb_encode_set_reply(struct mlx_nlbuf *b, uint8_t cmd, int err);
int mlx_dcb_encode_error(struct mlx_nlbuf *b, int err, const uint8_t *req, size_t reqlen);

/* ---- validation (before anything is written) ---- */

/* ETS as mlx5 and the ETS rules take it: prio_tc < ets_cap (and < 8),
 * TSA strict/ets/vendor (cbs not on mlx5), bandwidths of ETS TCs summing
 * to 100 and each <= 100, non-ETS TCs 0.  0 or -EINVAL + @why. */
int mlx_dcb_validate_ets(const struct ieee_ets *ets, char *why, size_t whylen);
/* PFC: cable length (delay) < 1000 m.  0 or -EINVAL + @why. */
int mlx_dcb_validate_pfc(const struct ieee_pfc *pfc, char *why, size_t whylen);
/* Buffer: prio2buffer < 8, sum of sizes <= total_size (when known). */
int mlx_dcb_validate_buffer(const struct dcbnl_buffer *b, char *why, size_t whylen);

/*
 * The per-TC max-rate rule (mlxtool "modify tc-bw", mlx5
 * mlx5e_dcbnl_ieee_setmaxrate): 0 = unlimited; up to 25.5 Gb/s in 100 Mb/s
 * units, above in 1 Gb/s units, rounded down; below 100 Mb/s raised to
 * 100 Mb/s; above 255 Gb/s -ERANGE.  Input and *applied in Mb/s; *how: 0
 * exact, 1 rounded down, 2 raised to the minimum.
 */
enum { MLX_RATE_EXACT, MLX_RATE_ROUNDED, MLX_RATE_RAISED };
int mlx_dcb_rate_quantize(uint64_t mbps, uint64_t *applied, int *how);
#define MLX_DCB_RATE_MAX_MBPS 255000ULL
#define MLX_DCB_RATE_100M_MAX_MBPS 25500ULL

/* The trust state mlx5 derives: true iff any DSCP APP entry. */
bool mlx_dcb_trust_dscp(const struct mlx_dcb_state *st);
/* The DSCP->priority map from the APP table: map[d] = prio or -1. */
void mlx_dcb_dscp_map(const struct mlx_dcb_state *st, int map[MLX_DCB_NDSCP]);
const char *mlx_dcb_tsa_name(uint8_t tsa);

/* OFED sysfs qos/: "Priority\tBuffer\n" + 8 lines; "Port buffer size = N"... */
int mlx_dcb_parse_sysfs_prio2buffer(const char *text, uint8_t p2b[MLX_DCB_NPRIO]);
int mlx_dcb_parse_sysfs_buffer_size(const char *text, uint32_t size[MLX_DCB_NPRIO],
				    uint32_t *total);

/* ---- lib/qos/dcb.c: queries and writes ---- */

/*
 * IEEE_GET + GDCBX for @ifname (object = ifname, requests "ieee-get" and
 * "gdcbx"): live or from the capture.  -EOPNOTSUPP (no DCB ops: the
 * driver has no DCB support), -ENODEV (no such netdev), -ENODATA (the
 * capture has no reply), with mlx_errmsg.
 */
int mlx_dcb_get(struct mlx_ctx *ctx, const char *ifname, struct mlx_dcb_state *st);

/* Where the buffers came from when dcbnl has none: OFED qos/ sysfs. */
int mlx_dcb_sysfs_buffer(struct mlx_ctx *ctx, const char *ifname, struct dcbnl_buffer *b);

/* One message: IEEE_SET/IEEE_DEL, or SDCBX (cmd DCB_CMD_SDCBX, mode). */
int mlx_dcb_send(struct mlx_ctx *ctx, const char *ifname, uint8_t cmd,
		 const struct mlx_dcb_msg *m, uint8_t dcbx_mode);

/*
 * Take the port from @old to @new, all or nothing: one message per kind
 * of change, in this order: DCBX, ETS, MAXRATE, PFC, BUFFER, APP adds
 * (IEEE_SET), APP removals (IEEE_DEL).  When message k fails, the state
 * is read back and the inverse of what had been applied is sent.
 * *nsent: messages that succeeded before the failure; *failed_what: the
 * name of the failed one ("pfc", ...); *restore_err 0 or the restore's
 * -errno.  Returns 0 or the failed message's -errno.
 */
struct mlx_dcb_result {
	size_t nsent;
	const char *failed_what;
	int restore_err;
	bool restored;
};
int mlx_dcb_apply(struct mlx_ctx *ctx, const char *ifname, const struct mlx_dcb_state *old,
		  const struct mlx_dcb_state *new, struct mlx_dcb_result *res);

/* Is a competing DCBX agent there?  lldpad: /run/lldpad.pid or
 * /var/run/lldpad.pid under the root. */
bool mlx_dcb_lldpad_running(struct mlx_ctx *ctx, char *pidfile, size_t len);
/* May this process send RTM_SETDCB (CAP_NET_ADMIN live; on a captured
 * system the files' permissions decide)?  The kernel boundary answers. */
bool mlx_dcb_may_write(struct mlx_ctx *ctx);

/* ---- lib/emul/dcb-emul.c: the kernel's side under --sysroot ---- */

/*
 * Answer the request @req as dcbnl.c + mlx5 would, from and into the
 * recorded state of @ifname (netlink/route/<ifname>/{ieee-get,gdcbx}.nl).
 * *reply (malloc'ed) holds the reply stream to feed to mlx_nl_replay.
 * Called by the captured system's kernel boundary, through the DCB
 * emulator's entry (lib/emul/dcb-emul.c, emulators.c), with the bytes
 * mlx_dcb_send() built.  A driver's refusal of
 * one op is injected by a test wrapping the operations table
 * (tests/fault/kops-fault.c), never by a file in the capture.
 */
int mlx_dcb_emul(struct mlx_ctx *ctx, const uint8_t *req, size_t len, uint8_t **reply,
		 size_t *rlen);

/*
 * DCB/QoS in the write engine (lib/write.h, lib/qos/dcb-write.c): one
 * typed change per setting, named as here.
 */
enum mlx_dcb_setting {
	MLX_DCB_DCBX,             /* string: host, firmware */
	MLX_DCB_PRIO_TC,          /* 8 TCs, by priority */
	MLX_DCB_TSA,              /* 8 names, by TC */
	MLX_DCB_TC_BW,            /* 8 percentages, by TC (0 for a non-ETS TC) */
	MLX_DCB_TC_MAXRATE,       /* 8 rates in Mb/s, by TC, 0 no limit */
	MLX_DCB_PFC,              /* the priorities with PFC on */
	MLX_DCB_CABLE_LEN,        /* metres */
	MLX_DCB_PRIO_BUFFER,      /* 8 buffers, by priority */
	MLX_DCB_BUFFER_SIZE,      /* 8 sizes in bytes, by buffer */
	MLX_DCB_DSCP2PRIO,        /* 64 priorities, by DSCP (none: no entry) */
	MLX_DCB_TRUST,            /* string: pcp, dscp (follows dscp2prio) */
};

struct mlx_dcb_writer {
	const char *ifname;
	/* now: as read (under the lock); sent: as the messages so far left
	 * it; want: as the writes so far ask; next: scratch. */
	struct mlx_dcb_state *now, *sent, *want, *next;
	bool fresh, started;
	/* The state the settings plan leads to (lib/qos/qos-settings.c), for
	 * the QoS lint's prediction; NULL before a plan. */
	struct mlx_dcb_state *planned;
};

struct mlx_plan;
struct mlx_write_ops;
extern const struct mlx_write_ops mlx_dcb_write_ops;
int mlx_dcb_writer_init(struct mlx_dcb_writer *w, const char *ifname);
void mlx_dcb_writer_free(struct mlx_dcb_writer *w);
/* The port's state as the writer read it (read now if it has not). */
int mlx_dcb_writer_state(struct mlx_ctx *ctx, struct mlx_dcb_writer *w,
			 const struct mlx_dcb_state **st);
/* Add a change to @pl for every setting @new has other than @old. */
int mlx_dcb_plan(struct mlx_plan *pl, const struct mlx_dcb_state *old,
		 const struct mlx_dcb_state *new);

#endif /* MLX_DCB_H */
