/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's and mlx5's side of two writes on a captured system (issue
 * 27, lib/params/params-tunable.c):
 *
 *  - SIOCETHTOOL ETHTOOL_STUNABLE of the PFC storm prevention timeout.
 *    net/ethtool/ioctl.c ethtool_set_tunable refuses a request whose type
 *    or length is not the tunable's (-EINVAL, ethtool_tunable_valid); mlx5
 *    (en_ethtool.c mlx5e_set_pfc_prevention_tout) answers -EOPNOTSUPP
 *    without the pcam pfcc_mask and debug stall_detect capabilities,
 *    which the capture tells by its recorded GTUNABLE (an error there is
 *    the driver's answer to a write too), -EINVAL outside 0, 80..8000 and
 *    auto, and stores auto as 100 ms: the recorded reply
 *    (netlink/ethtool/IF/ioctl-gtunable-3.bin) takes what the next
 *    GTUNABLE would read.
 *  - a write of /sys/class/net/IF/threaded (net/core/net-sysfs.c
 *    threaded_store -> modify_napi_threaded): not a number -EINVAL
 *    (kstrtoul in netdev_store), no NAPI instance -EOPNOTSUPP, a value
 *    other than 0 and 1 -EOPNOTSUPP.  mlx5 adds its channels' NAPIs when
 *    the port opens (en_main.c mlx5e_open_channel), so a port that is down
 *    (IFF_UP clear in its flags file) has none.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/ethtool.h>

#include "emul.h"
#include "mlx-private.h"
#include "params.h"
#include "sriov-emul-private.h"

static bool tunable_takes(const void *data)
{
	uint32_t cmd;

	memcpy(&cmd, data, sizeof(cmd));
	return cmd == ETHTOOL_STUNABLE;
}

static int tunable_set(struct mlx_ctx *ctx, const char *ifname, void *data)
{
	const struct mlx_tunable_u16 *t = data;
	uint8_t out[MLX_TUNABLE_REC_LEN];
	char path[160], *text = NULL;
	size_t len = 0;
	uint16_t old, nv;
	int e = 0, r;

	if (!mlx_name_is_safe(ifname) ||
	    snprintf(path, sizeof(path), "/netlink/ethtool/%s/ioctl-gtunable-%u.bin", ifname,
		     t->id) >= (int)sizeof(path))
		return -EINVAL;
	/* ethtool_set_tunable: the tunable's own type and length first */
	if (t->id != ETHTOOL_PFC_PREVENTION_TOUT)
		return mlx_err(ctx, EOPNOTSUPP, "tunable %u of '%s': only the PFC prevention "
			       "timeout is emulated", t->id, ifname);
	if (!mlx_tunable_u16_valid(t, t->id))
		return mlx_err(ctx, EINVAL, "tunable %u of '%s': type %u, %u bytes: not a u16",
			       t->id, ifname, t->type_id, t->len);
	r = mlx_read_file(ctx, path, &text, &len);
	if (r == -ENOENT)
		return mlx_err(ctx, EOPNOTSUPP, "the capture '%s' recorded no PFC prevention "
			       "timeout of '%s' (%s)", mlx_root(ctx), ifname, path + 1);
	if (r < 0)
		return r;
	r = mlx_tunable_rec_decode((const uint8_t *)text, len, t->id, &e, &old);
	if (r < 0) {
		r = mlx_err(ctx, EBADMSG, "the capture's %s is no GTUNABLE recording", path + 1);
		goto out;
	}
	if (e) {
		/* the driver's answer to a GTUNABLE is its answer to a write */
		r = mlx_err(ctx, -e, "'%s' answers the PFC prevention timeout with: %s", ifname,
			    strerror(-e));
		goto out;
	}
	if (mlx_pfc_tout_mlx5_check(t->data) < 0) {
		r = mlx_err(ctx, EINVAL, "pfc prevention tout %u not in range (%u-%u)", t->data,
			    MLX_PFC_TOUT_MLX5_MIN, MLX_PFC_TOUT_MLX5_MAX);
		goto out;
	}
	/* the recording with the value mlx5 keeps (auto: 100 ms) */
	nv = mlx_pfc_tout_mlx5_effective(t->data);
	memcpy(out, text, sizeof(out));
	memcpy(out + sizeof(int32_t) + offsetof(struct mlx_tunable_u16, data), &nv, sizeof(nv));
	r = mlx_emul_write_file(ctx, path, out, sizeof(out));
out:
	free(text);
	return r;
}

static bool threaded_takes(const char *path)
{
	static const char pre[] = "/sys/class/net/", suf[] = "/threaded";
	size_t l = strlen(path), pl = sizeof(pre) - 1, sl = sizeof(suf) - 1;

	/* exactly /sys/class/net/<name>/threaded */
	return l > pl + sl && !strncmp(path, pre, pl) && !strcmp(path + l - sl, suf) &&
	       !memchr(path + pl, '/', l - pl - sl);
}

static int threaded_write(struct mlx_ctx *ctx, const char *path, const char *val)
{
	char flags_path[128], v[16];
	const char *slash = strrchr(path, '/');
	uint64_t u, flags;
	size_t n = strspn(val, "0123456789");

	if (!mlx_exists(ctx, path))
		return mlx_err(ctx, ENOENT, "no %s in '%s'", path, mlx_root(ctx));
	if (!n || n > 10 || (val[n] && strcmp(val + n, "\n")))
		return mlx_err(ctx, EINVAL, "threaded: '%s' is not a number", val);
	snprintf(v, sizeof(v), "%.*s", (int)n, val);
	if (mlx_parse_u64(v, &u) < 0)
		return mlx_err(ctx, EINVAL, "threaded: '%s' is not a number", val);
	snprintf(flags_path, sizeof(flags_path), "%.*s/flags", (int)(slash - path), path);
	if (mlx_read_u64(ctx, flags_path, &flags) < 0 || !(flags & IFF_UP))
		return mlx_err(ctx, EOPNOTSUPP, "%.*s has no NAPI instance while it is down",
			       (int)(slash - path), path);
	if (u > 1)
		return mlx_err(ctx, EOPNOTSUPP, "threaded takes 0 or 1, not %" PRIu64, u);
	snprintf(v, sizeof(v), "%" PRIu64 "\n", u);
	return mlx_write_str(ctx, path, v);
}

const struct mlx_emul mlx_emul_tunable = {
	.name = "tunable",
	.file_takes = threaded_takes,
	.file_write = threaded_write,
	.ethtool_takes = tunable_takes,
	.ethtool_ioctl = tunable_set,
};
