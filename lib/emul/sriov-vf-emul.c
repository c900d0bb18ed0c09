/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's side of the VF settings and the eswitch mode on a captured
 * system: the RTM_SETLINK and DEVLINK_CMD_ESWITCH_SET requests lib/sriov
 * builds for the live kernel, handed here by the captured system's kernel
 * boundary (lib/core/boundary-captured.c), change the recorded replies as
 * the kernel's state would change.  numvfs, which changes the tree, is
 * lib/emul/sriov-emul.c's.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include "emul.h"
#include "mlx-private.h"
#include "nl.h"
#include "snapshot.h"
#include "sriov.h"
#include "sriov-emul-private.h"

static int edit_one(struct mlx_link_vfs *l, const void *arg)
{
	const struct mlx_vf_set *s = arg;

	for (size_t i = 0; i < l->nvf; i++)
		if (l->vf[i].vf == s->vf) {
			mlx_vf_apply(&l->vf[i], s);
			return 0;
		}
	return -ENOENT;
}

/* Overwrite @n bytes at offset @off of the payload of @a, which points
 * into @buf (ours: the recorded reply being edited). */
static void poke(uint8_t *buf, const struct mlx_nla *a, size_t off, const void *v, size_t n)
{
	memcpy(buf + (a->data - buf) + off, v, n);
}

/*
 * Apply @s to the recorded reply in place: only the bytes of the setting
 * change (and its legacy twin: IFLA_VF_TX_RATE beside IFLA_VF_RATE, the
 * first IFLA_VF_VLAN_INFO beside IFLA_VF_VLAN, as the kernel fills both),
 * every other byte the kernel sent stays.  That keeps a write and its
 * undo byte-exact, which decode and re-encode would not be (the encoder
 * writes only what the decoder keeps).  0 done, -ENOENT no such VF, 1 the
 * reply lacks the attribute (the caller re-encodes).
 */
static int patch_vf(uint8_t *buf, size_t len, const struct mlx_vf_set *s)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a, info;

	if (mlx_nlmsg_attrs((const struct nlmsghdr *)buf, len, sizeof(struct ifinfomsg), &attrs,
			    &alen) < 0)
		return 1;
	while (mlx_nla_next(attrs, alen, &off, &a) == 1) {
		size_t o1 = 0;

		if (a.type != IFLA_VFINFO_LIST)
			continue;
		while (mlx_nla_next(a.data, a.len, &o1, &info) == 1) {
			struct mlx_nla v, main = { 0 }, twin = { 0 };
			size_t o2 = 0;
			uint32_t vf = UINT32_MAX;
			bool done = false;

			if (info.type != IFLA_VF_INFO)
				continue;
			while (mlx_nla_next(info.data, info.len, &o2, &v) == 1) {
				uint16_t want = s->attr == MLX_VF_SET_MAC ? IFLA_VF_MAC :
						s->attr == MLX_VF_SET_VLAN ? IFLA_VF_VLAN :
						s->attr == MLX_VF_SET_RATE ? IFLA_VF_RATE :
						s->attr == MLX_VF_SET_SPOOFCHK ? IFLA_VF_SPOOFCHK :
						s->attr == MLX_VF_SET_TRUST ? IFLA_VF_TRUST :
						IFLA_VF_LINK_STATE;

				/* every fixed VF struct starts with __u32 vf */
				if (v.type == IFLA_VF_MAC && v.len >= 4)
					memcpy(&vf, v.data, 4);
				if (v.type == want && v.len >= 8)
					main = v;
				if (v.type == IFLA_VF_TX_RATE && s->attr == MLX_VF_SET_RATE && v.len >= 8)
					twin = v;
				if (v.type == IFLA_VF_VLAN_LIST && s->attr == MLX_VF_SET_VLAN && !done) {
					size_t o3 = 0;
					struct mlx_nla vi;

					while (mlx_nla_next(v.data, v.len, &o3, &vi) == 1)
						if (vi.type == IFLA_VF_VLAN_INFO &&
						    vi.len >= sizeof(struct ifla_vf_vlan_info)) {
							twin = vi;
							done = true;
							break;
						}
				}
			}
			if (vf == UINT32_MAX && main.data)
				memcpy(&vf, main.data, 4);
			if (vf != s->vf)
				continue;
			if (!main.data)
				return 1;
			switch (s->attr) {
			case MLX_VF_SET_MAC:
				poke(buf, &main, 4, s->mac, 6);
				break;
			case MLX_VF_SET_VLAN:
				poke(buf, &main, 4, &s->vlan, 4);
				poke(buf, &main, 8, &s->qos, 4);
				if (twin.data) {
					poke(buf, &twin, 4, &s->vlan, 4);
					poke(buf, &twin, 8, &s->qos, 4);
				}
				break;
			case MLX_VF_SET_RATE:
				poke(buf, &main, 4, &s->min_tx_rate, 4);
				poke(buf, &main, 8, &s->max_tx_rate, 4);
				if (twin.data)
					poke(buf, &twin, 4, &s->max_tx_rate, 4);
				break;
			case MLX_VF_SET_SPOOFCHK:
			case MLX_VF_SET_TRUST: {
				uint32_t on = s->on;

				poke(buf, &main, 4, &on, 4);
				break;
			}
			case MLX_VF_SET_STATE:
				poke(buf, &main, 4, &s->link_state, 4);
				break;
			}
			return 0;
		}
	}
	return -ENOENT;
}

/* The netdev whose /sys/class/net/<name>/ifindex is @ifindex, as
 * rtnetlink resolves ifi_index (__dev_get_by_index). */
static int ifname_of(struct mlx_ctx *ctx, int ifindex, char *buf, size_t len)
{
	char **names = NULL, path[PATH_MAX];
	size_t n = 0;
	int r = mlx_list_dir(ctx, "/sys/class/net", &names, &n);

	if (r < 0)
		return r;
	r = -ENODEV;
	for (size_t i = 0; i < n; i++) {
		int64_t idx;

		if (r < 0 && mlx_name_is_safe(names[i]) &&
		    snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", names[i]) <
			    (int)sizeof(path) &&
		    mlx_read_s64(ctx, path, &idx) == 0 && idx == ifindex &&
		    strlen(names[i]) < len) {
			snprintf(buf, len, "%s", names[i]);
			r = 0;
		}
		free(names[i]);
	}
	free(names);
	return r;
}

/*
 * RTM_SETLINK with one IFLA_VF_INFO (do_setvfinfo in net/core/rtnetlink.c):
 * the bytes mlx_rtnl_setlink_vf_build() made for the live kernel.  A VF
 * the PF does not have is -EINVAL, as mlx5_eswitch_get_vport() answers.
 */
int mlx_emul_sriov_setlink(struct mlx_ctx *ctx, const uint8_t *req, size_t len)
{
	char ifname[MLX_IFNAME_LEN], why[160] = "";
	struct mlx_vf_set s;
	int ifindex, r;

	r = mlx_rtnl_setlink_vf_parse(req, len, &ifindex, &s, why, sizeof(why));
	if (r < 0) {
		mlx_nl_set_extack(ctx, why);
		return mlx_err(ctx, EINVAL, "malformed RTM_SETLINK request: %s", why);
	}
	r = ifname_of(ctx, ifindex, ifname, sizeof(ifname));
	if (r < 0)
		return mlx_err(ctx, r, "no network interface has index %d in '%s'", ifindex,
			       mlx_root(ctx));
	{
		char path[512], *data = NULL;
		size_t dlen = 0;

		r = mlx_emul_read_capture(ctx, "route", ifname, MLX_REQ_GETLINK_VF, path, sizeof(path), &data,
				 &dlen);
		if (r < 0)
			return r;
		r = patch_vf((uint8_t *)data, dlen, &s);
		if (r == 0)
			r = mlx_emul_write_file(ctx, path, data, dlen);
		free(data);
	}
	if (r == 1)
		r = mlx_emul_edit_vfs(ctx, NULL, ifname, ifname, edit_one, &s, true);
	if (r == -ENOENT) {
		char msg[96];

		snprintf(msg, sizeof(msg), "VF %u is not in the recorded VF list of %s", s.vf, ifname);
		mlx_nl_set_extack(ctx, msg);
		return mlx_err(ctx, EINVAL, "%s", msg);
	}
	return r;
}

/* DEVLINK_CMD_ESWITCH_SET (devlink_nl_eswitch_set_doit): bus and device
 * name, the mode; the recorded ESWITCH_GET reply takes the new mode. */
int mlx_emul_eswitch(struct mlx_ctx *ctx, const uint8_t *req, size_t rlen)
{
	char path[512], obj[80], bus[16] = "", dev[64] = "";
	char *data = NULL;
	size_t len = 0, off = 0, alen;
	const uint8_t *attrs;
	struct mlx_nla a;
	int r, mode = -1;

	r = mlx_nlmsg_attrs((const struct nlmsghdr *)req, rlen, GENL_HDRLEN, &attrs, &alen);
	while (r == 0 && (r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		uint16_t m;

		r = 0;
		if (a.type == DEVLINK_ATTR_BUS_NAME)
			mlx_nla_str(&a, bus, sizeof(bus));
		else if (a.type == DEVLINK_ATTR_DEV_NAME)
			mlx_nla_str(&a, dev, sizeof(dev));
		else if (a.type == DEVLINK_ATTR_ESWITCH_MODE && mlx_nla_u16(&a, &m) == 0)
			mode = m;
	}
	if (r < 0 || strcmp(bus, "pci") || !mlx_name_is_safe(dev) || mode < 0 ||
	    !mlx_eswitch_mode_str(mode))
		return mlx_err(ctx, EINVAL, "malformed devlink eswitch-set request (bus '%s', device "
			       "'%s', mode %d)", bus, dev, mode);
	snprintf(obj, sizeof(obj), "pci:%s", dev);
	r = mlx_emul_read_capture(ctx, "devlink", obj, MLX_REQ_ESWITCH_GET, path, sizeof(path), &data, &len);
	if (r < 0)
		return r;
	off = 0;
	r = mlx_nlmsg_attrs((const struct nlmsghdr *)data, len, GENL_HDRLEN, &attrs, &alen);
	while (r == 0 && mlx_nla_next(attrs, alen, &off, &a) == 1) {
		if (a.type == DEVLINK_ATTR_ESWITCH_MODE && a.len >= 2) {
			uint16_t m = (uint16_t)mode;

			/* attrs points into data, which we own: edit in place. */
			memcpy((uint8_t *)data + (a.data - (const uint8_t *)data), &m, 2);
			r = mlx_emul_write_file(ctx, path, data, len);
			free(data);
			return r;
		}
	}
	free(data);
	return mlx_err(ctx, EBADMSG, "'%s' has no eswitch mode to update", path + 1);
}

/* ---- the captured boundary's entry (emul.h) ------------------------------ */

/* RTM_SETLINK (a VF's settings: do_setvfinfo), DEVLINK_CMD_ESWITCH_SET. */
static bool sriov_takes(enum mlx_nl_family fam, const void *req, size_t len)
{
	struct nlmsghdr h;
	struct genlmsghdr g;

	memcpy(&h, req, sizeof(h));
	if (fam == MLX_NL_ROUTE)
		return h.nlmsg_type == RTM_SETLINK;
	if (fam != MLX_NL_DEVLINK || len < NLMSG_HDRLEN + GENL_HDRLEN)
		return false;
	memcpy(&g, (const uint8_t *)req + NLMSG_HDRLEN, sizeof(g));
	return g.cmd == DEVLINK_CMD_ESWITCH_SET;
}

static int sriov_request(struct mlx_ctx *ctx, enum mlx_nl_family fam, const void *req, size_t len,
			 mlx_nl_cb cb, void *arg)
{
	(void)cb;
	(void)arg;
	return fam == MLX_NL_ROUTE ? mlx_emul_sriov_setlink(ctx, req, len) :
				     mlx_emul_eswitch(ctx, req, len);
}

static const char numvfs_dir[] = "/sys/bus/pci/devices/", numvfs_file[] = "/sriov_numvfs";

/* /sys/bus/pci/devices/BDF/sriov_numvfs, BDF one path component */
static bool numvfs_takes(const char *path)
{
	size_t pl = strlen(path), dl = sizeof(numvfs_dir) - 1, fl = sizeof(numvfs_file) - 1;

	return !strncmp(path, numvfs_dir, dl) && pl > dl + fl && pl - dl - fl < 64 &&
	       !strcmp(path + pl - fl, numvfs_file) && !memchr(path + dl, '/', pl - dl - fl);
}

static int numvfs_write(struct mlx_ctx *ctx, const char *path, const char *val)
{
	char bdf[64];
	size_t bl = strlen(path) - (sizeof(numvfs_dir) - 1) - (sizeof(numvfs_file) - 1);

	memcpy(bdf, path + sizeof(numvfs_dir) - 1, bl);
	bdf[bl] = '\0';
	return mlx_emul_numvfs_write(ctx, bdf, val);
}

const struct mlx_emul mlx_emul_sriov = {
	.name = "sriov",
	.nl_takes = sriov_takes,
	.nl_request = sriov_request,
	.file_takes = numvfs_takes,
	.file_write = numvfs_write,
};
