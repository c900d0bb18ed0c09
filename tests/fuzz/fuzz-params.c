/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the decoders of the driver's knobs
 * (lib/decode/decode-ethtool-params.c, decode-devlink-param.c): ethtool
 * PRIVFLAGS and FEATURES bitsets, RINGS/CHANNELS/COALESCE attributes,
 * devlink PARAM_GET values of every type, RTM_NEWLINK's MTU bounds; the
 * feature groups evaluated on every decoded FEATURES reply.  Bitsets must
 * stay within their arrays, every name and string must be terminated, a
 * parameter's values must be within its cmodes, a group's members within
 * MLX_FEATURE_GROUP_MAX.
 */
#include <linux/ethtool_netlink.h>

#include "fuzz-nl.h"
#include "params.h"

static void check_bits(const struct mlx_bitset *b)
{
	if (b->n > MLX_BITSET_MAX)
		abort();
	for (size_t i = 0; i < b->n; i++) {
		if (strnlen(b->bit[i].name, MLX_BIT_NAME) == MLX_BIT_NAME)
			abort();
		if (b->bit[i].name[0] && mlx_bitset_get(b, b->bit[i].name) < 0)
			abort();
	}
}

struct scratch {
	struct mlx_knob_value kv;
	struct mlx_link_mtu m;
	struct mlx_eth_features f;
	struct mlx_eth_privflags p;
	struct mlx_eth_attrs a;
	struct mlx_devlink_param d;
};

static int on_msg(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct scratch *s = arg;
	static const uint8_t flat[] = { ETHTOOL_MSG_RINGS_GET_REPLY, ETHTOOL_MSG_CHANNELS_GET_REPLY,
					ETHTOOL_MSG_COALESCE_GET_REPLY };
	char buf[128];

	if (mlx_ethtool_features_decode(h, len, &s->f) == 0) {
		check_bits(&s->f.hw);
		check_bits(&s->f.wanted);
		check_bits(&s->f.active);
		check_bits(&s->f.nochange);
		if (strnlen(s->f.ifname, sizeof(s->f.ifname)) == sizeof(s->f.ifname))
			abort();
		for (size_t k = 0; k < mlx_nknobs; k++) {
			if (mlx_knobs[k].src != MLX_KS_FEATURE ||
			    mlx_params_feature_value(&s->f, &mlx_knobs[k], &s->kv) < 0)
				continue;
			if (s->kv.nmembers > MLX_FEATURE_GROUP_MAX ||
			    (strcmp(s->kv.value, "on") && strcmp(s->kv.value, "off")))
				abort();
			for (unsigned i = 0; i < s->kv.nmembers; i++)
				if (strnlen(s->kv.members[i], MLX_BIT_NAME) == MLX_BIT_NAME ||
				    !mlx_feature_match(s->kv.members[i], mlx_knobs[k].kname))
					abort();
		}
	}
	if (mlx_link_mtu_decode(h, len, &s->m) == 0 &&
	    strnlen(s->m.ifname, sizeof(s->m.ifname)) == sizeof(s->m.ifname))
		abort();
	if (mlx_ethtool_privflags_decode(h, len, &s->p) == 0)
		check_bits(&s->p.flags);
	for (size_t i = 0; i < sizeof(flat); i++)
		if (mlx_ethtool_attrs_decode(h, len, flat[i], &s->a) == 0 &&
		    (s->a.present >> MLX_ETH_ATTRS))
			abort();
	if (mlx_devlink_param_decode(h, len, &s->d) == 0) {
		if (s->d.ncmodes > MLX_DL_CMODES || !s->d.name[0])
			abort();
		for (unsigned i = 0; i < s->d.ncmodes; i++) {
			const char *v = mlx_devlink_param_str(&s->d, i, buf, sizeof(buf));

			if (v && strnlen(v, sizeof(buf)) == sizeof(buf))
				abort();
			(void)mlx_devlink_cmode_name(s->d.val[i].cmode);
		}
		(void)mlx_devlink_ptype_name(s->d.type);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scratch *s = malloc(sizeof(*s));

	if (s)
		fuzz_nl(data, size, on_msg, s);
	free(s);
	/* a bare bitset attribute payload too */
	{
		struct mlx_bitset *b = malloc(sizeof(*b));
		uint8_t *copy = fuzz_copy(data, size);

		if (b && copy && mlx_ethtool_bitset_decode(copy, size, b) == 0)
			check_bits(b);
		free(copy);
		free(b);
	}
	return 0;
}
