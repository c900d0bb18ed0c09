/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Collecting the knobs' values (issue 17).  The ethtool replies come from
 * one dump per message type (PRIVFLAGS, FEATURES, RINGS, CHANNELS,
 * COALESCE: net/ethtool/netlink.c ethnl_default_dumpit) and the devlink
 * parameters from one DEVLINK_CMD_PARAM_GET dump, each made on first use
 * and kept in the cache for every port of the run; all go through
 * mlx_nl_query, so a snapshot records them (netlink/<family>/all/
 * <request>.nl) and --sysroot replays them.  The MTU and the module
 * parameters are files read through the root prefix; the MTU's bounds come
 * from one RTM_GETLINK dump (IFLA_MIN_MTU, IFLA_MAX_MTU), absent from
 * captures made before issue 25 (then the catalogue's mlx5 range stands).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/devlink.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include "mlx-private.h"
#include "nl.h"
#include "params.h"

/* The five ethtool dumps, in the order of the sources they fill. */
static const struct {
	uint8_t cmd, reply;
	const char *request;          /* the capture file's name */
	enum mlx_knob_source src;
} eth_dumps[] = {
	{ ETHTOOL_MSG_PRIVFLAGS_GET, ETHTOOL_MSG_PRIVFLAGS_GET_REPLY, "privflags-dump",
	  MLX_KS_PRIVFLAG },
	{ ETHTOOL_MSG_FEATURES_GET, ETHTOOL_MSG_FEATURES_GET_REPLY, "features-dump",
	  MLX_KS_FEATURE },
	{ ETHTOOL_MSG_RINGS_GET, ETHTOOL_MSG_RINGS_GET_REPLY, "rings-dump", MLX_KS_RING },
	{ ETHTOOL_MSG_CHANNELS_GET, ETHTOOL_MSG_CHANNELS_GET_REPLY, "channels-dump",
	  MLX_KS_CHANNEL },
	{ ETHTOOL_MSG_COALESCE_GET, ETHTOOL_MSG_COALESCE_GET_REPLY, "coalesce-dump",
	  MLX_KS_COALESCE },
};
#define NDUMPS (sizeof(eth_dumps) / sizeof(eth_dumps[0]))

/* One reply message kept per netdev (or devlink parameter). */
struct kept {
	void *msg;
	size_t len;
};

struct vec {
	struct kept *v;
	size_t n, cap;
	bool done;
	int err;
};

struct mlx_params_cache {
	struct vec eth[NDUMPS];
	struct vec dl;
	struct vec link;         /* RTM_GETLINK dump: the MTU bounds */
};

/* A row made for a private flag the catalogue does not know: a stable
 * address (p->v moves when it grows), freed with the params. */
struct mlx_own_knob {
	struct mlx_knob k;
	char name[MLX_BIT_NAME];
	struct mlx_own_knob *next;
};

int mlx_params_cache_new(struct mlx_ctx *ctx, struct mlx_params_cache **out)
{
	(void)ctx;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

static void vec_free(struct vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i].msg);
	free(v->v);
}

void mlx_params_cache_free(struct mlx_params_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < NDUMPS; i++)
		vec_free(&c->eth[i]);
	vec_free(&c->dl);
	vec_free(&c->link);
	free(c);
}

static int keep_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct vec *v = arg;
	void *m;

	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		struct kept *k = realloc(v->v, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		v->v = k;
		v->cap = cap;
	}
	if (!(m = malloc(len)))
		return -ENOMEM;
	memcpy(m, h, len);
	v->v[v->n].msg = m;
	v->v[v->n].len = len;
	v->n++;
	return 0;
}

static int eth_dump(struct mlx_ctx *ctx, struct mlx_params_cache *c, size_t i)
{
	struct vec *v = &c->eth[i];
	struct mlx_nlbuf b;
	uint8_t req[64];
	int rl;

	if (v->done)
		return v->err;
	v->done = true;
	mlx_nlb_init(&b, req, sizeof(req));
	mlx_ethtool_req_start(&b, eth_dumps[i].cmd, NLM_F_DUMP, NULL, 0);
	rl = mlx_nlb_finish(&b);
	if (rl < 0)
		return v->err = rl;
	v->err = mlx_nl_query(ctx, MLX_NL_ETHTOOL, "all", eth_dumps[i].request, req, (size_t)rl,
			      keep_cb, v);
	return v->err;
}

static int dl_dump(struct mlx_ctx *ctx, struct mlx_params_cache *c)
{
	struct genlmsghdr g = { .cmd = DEVLINK_CMD_PARAM_GET, .version = DEVLINK_GENL_VERSION };
	struct mlx_nlbuf b;
	uint8_t req[64];
	int rl;

	if (c->dl.done)
		return c->dl.err;
	c->dl.done = true;
	mlx_nlb_init(&b, req, sizeof(req));
	mlx_nlb_msg(&b, 0, NLM_F_DUMP);
	mlx_nlb_put(&b, &g, sizeof(g));
	rl = mlx_nlb_finish(&b);
	if (rl < 0)
		return c->dl.err = rl;
	c->dl.err = mlx_nl_query(ctx, MLX_NL_DEVLINK, "all", "param-dump", req, (size_t)rl,
				 keep_cb, &c->dl);
	return c->dl.err;
}

/* Every netdev's RTM_NEWLINK (what `ip link` reads), for the MTU bounds. */
static int link_dump(struct mlx_ctx *ctx, struct mlx_params_cache *c)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct mlx_nlbuf b;
	uint8_t req[64];
	int rl;

	if (c->link.done)
		return c->link.err;
	c->link.done = true;
	mlx_nlb_init(&b, req, sizeof(req));
	mlx_nlb_msg(&b, RTM_GETLINK, NLM_F_DUMP);
	mlx_nlb_put(&b, &ifi, sizeof(ifi));
	rl = mlx_nlb_finish(&b);
	if (rl < 0)
		return c->link.err = rl;
	c->link.err = mlx_nl_query(ctx, MLX_NL_ROUTE, "all", "getlink-dump", req, (size_t)rl,
				   keep_cb, &c->link);
	return c->link.err;
}

int mlx_params_record(struct mlx_ctx *ctx)
{
	struct mlx_params_cache *c;
	int r = mlx_params_cache_new(ctx, &c);

	if (r < 0)
		return r;
	/* A family or a message type the kernel lacks is not a failure of
	 * the snapshot: its reply (the error) is recorded as it came. */
	for (size_t i = 0; i < NDUMPS; i++)
		(void)eth_dump(ctx, c, i);
	(void)dl_dump(ctx, c);
	(void)link_dump(ctx, c);
	mlx_params_cache_free(c);
	return 0;
}

/* ---- values --------------------------------------------------------------- */

static struct mlx_knob_value *add(struct mlx_params *p, const struct mlx_knob *k,
				  const char *name, enum mlx_knob_source src)
{
	struct mlx_knob_value *v;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;

		v = realloc(p->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		p->v = v;
		p->cap = cap;
	}
	v = &p->v[p->n++];
	memset(v, 0, sizeof(*v));
	v->k = k;
	v->src = src;
	/* unknown knobs: a module parameter takes effect at module load, the
	 * ethtool ones at once */
	v->apply = k ? k->apply : src == MLX_KS_MODULE ? MLX_KA_RELOAD : MLX_KA_RUNTIME;
	snprintf(v->name, sizeof(v->name), "%s", k ? k->name : name);
	return v;
}

static void set_value(const struct mlx_params *p, struct mlx_knob_value *v, const char *val)
{
	const char *d = mlx_params_default(p, v);

	v->known = true;
	snprintf(v->value, sizeof(v->value), "%s", val);
	v->is_default = d && !strcmp(d, val);
}

bool mlx_params_mlx5(const struct mlx_params *p)
{
	return !strcmp(p->driver, "mlx5_core");
}

const char *mlx_params_default(const struct mlx_params *p, const struct mlx_knob_value *v)
{
	const struct mlx_knob *k = v->k;

	/* the module's and the devlink instance's knobs are mlx5's by where
	 * they are read (mlx5_core's parameters, a ConnectX function) */
	if (!k || !k->dflt)
		return NULL;
	if ((k->flags & MLX_KF_DFLT_ANY) || mlx_params_mlx5(p) || k->src == MLX_KS_MODULE ||
	    k->src == MLX_KS_DEVLINK)
		return k->dflt;
	return NULL;
}

bool mlx_params_range(const struct mlx_params *p, const struct mlx_knob_value *v, uint64_t *lo,
		      uint64_t *hi)
{
	const struct mlx_knob *k = v->k;
	bool mlx5 = mlx_params_mlx5(p) || !(k && (k->flags & MLX_KF_RANGE_MLX5));
	uint64_t u;

	if (!k || (k->type != MLX_KT_U32 && k->type != MLX_KT_U64))
		return false;
	*lo = mlx5 ? k->min : 0;
	*hi = k->type == MLX_KT_U32 ? UINT32_MAX : UINT64_MAX;
	if (mlx5 && k->max)
		*hi = k->max;
	/* the device's own bounds win (dev_validate_mtu, ethnl_set_rings and
	 * ethnl_set_channels check against them) */
	if (v->minimum[0] && mlx_parse_u64(v->minimum, &u) == 0)
		*lo = u;
	if (v->maximum[0] && mlx_parse_u64(v->maximum, &u) == 0)
		*hi = u;
	return true;
}

/* The row of a private flag the catalogue does not know: made once per
 * name for @p, on|off, no default. */
static const struct mlx_knob *own_knob(struct mlx_params *p, const char *name)
{
	struct mlx_own_knob *o;

	for (o = p->own; o; o = o->next)
		if (!strcmp(o->name, name))
			return &o->k;
	if (!mlx_privflag_name_ok(name) || !(o = calloc(1, sizeof(*o))))
		return NULL;
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->k = mlx_knob_any_privflag;
	o->k.name = o->name;
	o->k.kname = o->name;
	o->next = p->own;
	p->own = o;
	return &o->k;
}

static void privflags(struct mlx_params_cache *c, const char *ifname, struct mlx_params *p)
{
	const struct vec *v = &c->eth[0];

	for (size_t i = 0; i < v->n; i++) {
		struct mlx_eth_privflags *pf = malloc(sizeof(*pf));

		if (!pf)
			return;
		if (mlx_ethtool_privflags_decode(v->v[i].msg, v->v[i].len, pf) == 0 &&
		    !strcmp(pf->ifname, ifname)) {
			for (size_t b = 0; b < pf->flags.n; b++) {
				const char *n = pf->flags.bit[b].name;
				const struct mlx_knob *k = mlx_knob_by_kname(MLX_KS_PRIVFLAG, n);
				struct mlx_knob_value *kv;

				/* any flag the device reports is a knob: settable,
				 * in state (issue 25: MLNX_OFED's tx_xdp_hw_checksum) */
				kv = add(p, k ? k : own_knob(p, n), n, MLX_KS_PRIVFLAG);
				if (kv)
					set_value(p, kv, pf->flags.bit[b].value ? "on" : "off");
			}
			free(pf);
			return;
		}
		free(pf);
	}
}

static void features(struct mlx_params_cache *c, const char *ifname, struct mlx_params *p)
{
	const struct vec *v = &c->eth[1];

	for (size_t i = 0; i < v->n; i++) {
		struct mlx_eth_features *f = malloc(sizeof(*f));

		if (!f)
			return;
		if (mlx_ethtool_features_decode(v->v[i].msg, v->v[i].len, f) == 0 &&
		    !strcmp(f->ifname, ifname)) {
			for (size_t k = 0; k < mlx_nknobs; k++) {
				const struct mlx_knob *kn = &mlx_knobs[k];
				struct mlx_knob_value one, *kv;

				if (kn->src != MLX_KS_FEATURE)
					continue;
				memset(&one, 0, sizeof(one));
				if (mlx_params_feature_value(f, kn, &one) < 0)
					continue;   /* the kernel has no such feature */
				kv = add(p, kn, NULL, MLX_KS_FEATURE);
				if (!kv)
					break;
				set_value(p, kv, one.value);
				kv->fixed = one.fixed;
				kv->nmembers = one.nmembers;
				memcpy(kv->members, one.members, sizeof(kv->members));
			}
			free(f);
			return;
		}
		free(f);
	}
}

/* @name's bit in @b: 1, 0, -1 unknown (no such set, or not named). */
static int in_set(const struct mlx_bitset *b, bool have, const char *name)
{
	return have ? mlx_bitset_get(b, name) : -1;
}

/* Add @name to the group's names @out (once). */
static void add_name(size_t *n, size_t max, const char *name, char (*out)[MLX_BIT_NAME])
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(out[i], name))
			return;
	if (*n < max)
		snprintf(out[(*n)++], MLX_BIT_NAME, "%s", name);
}

int mlx_params_feature_value(const struct mlx_eth_features *f, const struct mlx_knob *k,
			     struct mlx_knob_value *kv)
{
	const struct mlx_bitset *sets[4] = { &f->hw, &f->wanted, &f->active, &f->nochange };
	const bool have[4] = { f->have_hw, f->have_wanted, f->have_active, f->have_nochange };
	char names[32][MLX_BIT_NAME];
	size_t n = 0;
	bool on = false, changeable = false;

	if (!k->kname || !f->have_active)
		return -ENOENT;
	if (!strchr(k->kname, '*')) {
		/* one feature: a NOMASK set names the set bits only, so an
		 * unnamed one is off (and fixed when not in HW) */
		int a = mlx_bitset_get(&f->active, k->kname), hw;

		if (a < 0)
			return -ENOENT;
		hw = in_set(&f->hw, f->have_hw, k->kname);
		snprintf(kv->value, sizeof(kv->value), "%s", a ? "on" : "off");
		kv->fixed = hw == 0 || in_set(&f->nochange, f->have_nochange, k->kname) == 1;
		kv->nmembers = 0;
		if (!kv->fixed) {
			snprintf(kv->members[0], MLX_BIT_NAME, "%s", k->kname);
			kv->nmembers = 1;
		}
		return 0;
	}
	/* a group: every feature any set names that the pattern matches (a
	 * NOMASK set lists only its set bits; a fixed-off member is in none,
	 * and changes nothing) */
	for (size_t s = 0; s < 4; s++)
		for (size_t b = 0; have[s] && b < sets[s]->n; b++)
			if (sets[s]->bit[b].name[0] &&
			    mlx_feature_match(sets[s]->bit[b].name, k->kname))
				add_name(&n, 32, sets[s]->bit[b].name, names);
	kv->nmembers = 0;
	for (size_t i = 0; i < n; i++) {
		bool fixed = in_set(&f->hw, f->have_hw, names[i]) == 0 ||
			     in_set(&f->nochange, f->have_nochange, names[i]) == 1;

		/* ethtool -k's group line: on when any member is */
		on |= mlx_bitset_get(&f->active, names[i]) == 1;
		if (fixed || kv->nmembers >= MLX_FEATURE_GROUP_MAX)
			continue;
		changeable = true;
		snprintf(kv->members[kv->nmembers++], MLX_BIT_NAME, "%s", names[i]);
	}
	/* no member at all: a kernel that names every bit has no such
	 * feature; one that names only the set bits (NOMASK) has none of them
	 * on and none changeable: off, fixed (ethtool prints it off) */
	if (!n && !f->active.nomask)
		return -ENOENT;
	snprintf(kv->value, sizeof(kv->value), "%s", on ? "on" : "off");
	kv->fixed = !changeable;
	return 0;
}

static void flat(struct mlx_params_cache *c, size_t d, const char *ifname, struct mlx_params *p)
{
	const struct vec *v = &c->eth[d];
	struct mlx_eth_attrs a;

	for (size_t i = 0; i < v->n; i++) {
		if (mlx_ethtool_attrs_decode(v->v[i].msg, v->v[i].len, eth_dumps[d].reply, &a) < 0 ||
		    strcmp(a.ifname, ifname))
			continue;
		for (size_t k = 0; k < mlx_nknobs; k++) {
			const struct mlx_knob *kn = &mlx_knobs[k];
			struct mlx_knob_value *kv;
			char buf[16];

			if (kn->src != eth_dumps[d].src || !(a.present & (1ull << kn->attr)))
				continue;
			kv = add(p, kn, NULL, kn->src);
			if (!kv)
				return;
			if (kn->type == MLX_KT_BOOL)
				snprintf(buf, sizeof(buf), "%s", a.v[kn->attr] ? "on" : "off");
			else
				snprintf(buf, sizeof(buf), "%" PRIu32, a.v[kn->attr]);
			set_value(p, kv, buf);
			if (kn->max_attr && (a.present & (1ull << kn->max_attr)))
				snprintf(kv->maximum, sizeof(kv->maximum), "%" PRIu32,
					 a.v[kn->max_attr]);
		}
		return;
	}
}

static void devlink_params(struct mlx_params_cache *c, const char *bus, const char *bdf,
			   struct mlx_params *p)
{
	const struct vec *v = &c->dl;

	for (size_t i = 0; i < v->n; i++) {
		struct mlx_devlink_param dp;
		struct mlx_knob_value *kv;
		char buf[128];

		if (mlx_devlink_param_decode(v->v[i].msg, v->v[i].len, &dp) < 0 ||
		    strcmp(dp.bus, bus ? bus : "pci") || strcmp(dp.dev, bdf))
			continue;
		/* one row per configuration mode the parameter reports */
		for (unsigned m = 0; m < dp.ncmodes; m++) {
			kv = add(p, mlx_knob_by_kname(MLX_KS_DEVLINK, dp.name), dp.name,
				 MLX_KS_DEVLINK);
			if (!kv)
				return;
			kv->apply = dp.val[m].cmode == DEVLINK_PARAM_CMODE_RUNTIME ? MLX_KA_RUNTIME :
				    dp.val[m].cmode == DEVLINK_PARAM_CMODE_DRIVERINIT ? MLX_KA_RELOAD :
				    MLX_KA_FIRMWARE;
			kv->dl_type = dp.type;
			if (mlx_devlink_param_str(&dp, m, buf, sizeof(buf)))
				set_value(p, kv, buf);
		}
	}
}

/* The MTU's bounds of @ifname from the link dump, into @kv. */
static void mtu_bounds(struct mlx_ctx *ctx, struct mlx_params_cache *c, const char *ifname,
		       struct mlx_knob_value *kv)
{
	struct mlx_link_mtu m;

	if (link_dump(ctx, c) < 0) {
		mlx_err_clear(ctx);     /* a capture without it: the catalogue's */
		return;
	}
	for (size_t i = 0; i < c->link.n; i++) {
		if (mlx_link_mtu_decode(c->link.v[i].msg, c->link.v[i].len, &m) < 0 ||
		    strcmp(m.ifname, ifname))
			continue;
		if (m.have_min)
			snprintf(kv->minimum, sizeof(kv->minimum), "%" PRIu32, m.min);
		if (m.have_max)
			snprintf(kv->maximum, sizeof(kv->maximum), "%" PRIu32, m.max);
		return;
	}
}

/* issue 27: the PFC prevention timeout (an ethtool tunable, the ioctl:
 * -EOPNOTSUPP from a driver without it) and threaded NAPI (sysfs, Linux
 * 5.12: -ENOENT before), lib/params/params-tunable.c.  -ENOMEM only. */
static int tunable_napi(struct mlx_ctx *ctx, const char *ifname, struct mlx_params *out)
{
	struct mlx_knob_value *kv;
	char path[96], text[32], val[16];
	uint16_t ms;
	int r;

	r = mlx_ethtool_tunable_get_u16(ctx, ifname, ETHTOOL_PFC_PREVENTION_TOUT, &ms);
	/* a capture made before issue 27 recorded none: unknown, as absent */
	out->err[MLX_KS_TUNABLE] = r == -ENODATA ? -ENOENT : r;
	if (r == 0) {
		if (!(kv = add(out, mlx_knob_find("pfc_prevention_tout_msec"), NULL, MLX_KS_TUNABLE)))
			return -ENOMEM;
		snprintf(val, sizeof(val), "%u", ms);
		set_value(out, kv, val);
	}
	r = mlx_threaded_path(path, sizeof(path), ifname);
	if (r == 0)
		r = mlx_read_str(ctx, path, text, sizeof(text));
	if (r == 0)
		r = mlx_threaded_parse(text, val, sizeof(val));
	out->err[MLX_KS_NAPI] = r;
	if (r == 0) {
		if (!(kv = add(out, mlx_knob_find("threaded"), NULL, MLX_KS_NAPI)))
			return -ENOMEM;
		set_value(out, kv, val);
	}
	mlx_err_clear(ctx);
	return 0;
}

int mlx_params_port(struct mlx_ctx *ctx, struct mlx_params_cache *c, const char *ifname,
		    const char *bus, const char *bdf, bool pf, struct mlx_params *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->object, sizeof(out->object), "%s", ifname ? ifname : bdf);
	/* the driver the catalogue's facts must hold for: the netdev's
	 * device's (none for a veth), else the function's */
	if (ifname && mlx_name_is_safe(ifname)) {
		char path[128];

		snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", ifname);
		if (mlx_readlink_base(ctx, path, out->driver, sizeof(out->driver)) < 0)
			out->driver[0] = '\0';
	} else if (bdf && mlx_name_is_safe(bdf)) {
		char path[128];

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", bdf);
		if (mlx_readlink_base(ctx, path, out->driver, sizeof(out->driver)) < 0)
			out->driver[0] = '\0';
	}
	mlx_err_clear(ctx);
	if (ifname) {
		char path[128];
		uint64_t mtu;
		struct mlx_knob_value *kv;

		for (size_t d = 0; d < NDUMPS; d++) {
			out->err[eth_dumps[d].src] = eth_dump(ctx, c, d);
			if (out->err[eth_dumps[d].src] == -ENOMEM)
				return -ENOMEM;
		}
		privflags(c, ifname, out);
		for (size_t d = 2; d < NDUMPS; d++)
			flat(c, d, ifname, out);
		features(c, ifname, out);
		snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", ifname);
		out->err[MLX_KS_MTU] = mlx_name_is_safe(ifname) ? mlx_read_u64(ctx, path, &mtu)
								 : -EINVAL;
		if (out->err[MLX_KS_MTU] == 0 && (kv = add(out, mlx_knob_find("mtu"), NULL,
							   MLX_KS_MTU))) {
			char buf[24];

			snprintf(buf, sizeof(buf), "%" PRIu64, mtu);
			set_value(out, kv, buf);
			mtu_bounds(ctx, c, ifname, kv);
		}
		if (tunable_napi(ctx, ifname, out) < 0)
			return -ENOMEM;
	}
	/* devlink parameters belong to a PF's devlink instance (VFs have
	 * theirs only when probed with their own devlink: listed if present) */
	if (bdf) {
		out->err[MLX_KS_DEVLINK] = dl_dump(ctx, c);
		if (out->err[MLX_KS_DEVLINK] == -ENOMEM)
			return -ENOMEM;
		devlink_params(c, bus, bdf, out);
	}
	(void)pf;
	return 0;
}

int mlx_params_tclass_parse(const char *text, char *out, size_t len)
{
	const char *p = strstr(text, "tclass=");
	size_t n;

	if (!p) {
		/* empty: never written */
		for (p = text; *p == ' ' || *p == '\n'; p++)
			;
		if (*p)
			return -EBADMSG;
		snprintf(out, len, "unset");
		return 0;
	}
	p += strlen("tclass=");
	n = strspn(p, "0123456789");
	if (!n || n >= len)
		return -EBADMSG;
	snprintf(out, len, "%.*s", (int)n, p);
	return 0;
}

int mlx_params_tclass_get(struct mlx_ctx *ctx, const char *rdma_dev, unsigned port, char *val,
			  size_t len)
{
	char path[320], text[128];
	int r;

	if (!rdma_dev || !*rdma_dev || !mlx_name_is_safe(rdma_dev))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/tc/%u/traffic_class", rdma_dev,
		 port);
	r = mlx_read_str(ctx, path, text, sizeof(text));
	return r < 0 ? r : mlx_params_tclass_parse(text, val, len);
}

/* MLNX_OFED's per-port traffic class (no such file upstream: -ENOENT) */
static int rdma_tclass(struct mlx_ctx *ctx, const char *rdma_dev, unsigned port,
		       struct mlx_params *out)
{
	char val[16];
	struct mlx_knob_value *kv;
	int r = mlx_params_tclass_get(ctx, rdma_dev, port, val, sizeof(val));

	if (r < 0) {
		if (r != -ENOENT || !out->err[MLX_KS_RDMA])
			out->err[MLX_KS_RDMA] = r;
		return 0;
	}
	kv = add(out, mlx_knob_find("traffic_class"), "traffic_class", MLX_KS_RDMA);
	if (!kv)
		return -ENOMEM;
	set_value(out, kv, val);
	return 0;
}

int mlx_params_rdma(struct mlx_ctx *ctx, const char *rdma_dev, unsigned port,
		    struct mlx_params *out)
{
	static const char *const files[] = { "default_roce_mode", "default_roce_tos" };

	if (!rdma_dev || !*rdma_dev || !mlx_name_is_safe(rdma_dev))
		return 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[320], val[64];
		struct mlx_knob_value *kv;
		int r;

		r = mlx_rdma_cm_path(path, sizeof(path), rdma_dev, port, files[i]);
		if (r == 0)
			r = mlx_read_str(ctx, path, val, sizeof(val));
		if (r < 0) {
			out->err[MLX_KS_RDMA] = r;
			continue;
		}
		kv = add(out, mlx_knob_by_kname(MLX_KS_RDMA, files[i]), files[i], MLX_KS_RDMA);
		if (!kv)
			return -ENOMEM;
		set_value(out, kv, val);
	}
	return rdma_tclass(ctx, rdma_dev, port, out);
}

int mlx_params_module(struct mlx_ctx *ctx, struct mlx_params *out)
{
	char **names = NULL;
	size_t n = 0;
	int r;

	memset(out, 0, sizeof(*out));
	snprintf(out->object, sizeof(out->object), "mlx5_core");
	snprintf(out->driver, sizeof(out->driver), "mlx5_core");
	r = mlx_list_dir(ctx, "/sys/module/mlx5_core/parameters", &names, &n);
	out->err[MLX_KS_MODULE] = r;
	if (r < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char path[320], val[128];
		struct mlx_knob_value *kv;

		if (!mlx_name_is_safe(names[i]))
			continue;
		snprintf(path, sizeof(path), "/sys/module/mlx5_core/parameters/%s", names[i]);
		kv = add(out, mlx_knob_by_kname(MLX_KS_MODULE, names[i]), names[i], MLX_KS_MODULE);
		if (!kv) {
			mlx_strv_free(names);
			return -ENOMEM;
		}
		/* a write-only or unreadable parameter stays unknown */
		if (mlx_read_str(ctx, path, val, sizeof(val)) == 0) {
			/* bool parameters read Y/N; the catalogue says 1/0 */
			if (!strcmp(val, "Y"))
				strcpy(val, "1");
			else if (!strcmp(val, "N"))
				strcpy(val, "0");
			set_value(out, kv, val);
		}
	}
	mlx_strv_free(names);
	return 0;
}

void mlx_params_free(struct mlx_params *p)
{
	while (p->own) {
		struct mlx_own_knob *o = p->own;

		p->own = o->next;
		free(o);
	}
	free(p->v);
	p->v = NULL;
	p->n = p->cap = 0;
}

/* The netdev features of @ifname from the cache's dump: what the VXLAN
 * view reads (lib/netview/tunnel-filter.c), one dump for both. */
int mlx_params_features(struct mlx_ctx *ctx, struct mlx_params_cache *c, const char *ifname,
			struct mlx_eth_features *out)
{
	int r = eth_dump(ctx, c, 1);

	if (r < 0)
		return r;
	for (size_t i = 0; i < c->eth[1].n; i++)
		if (mlx_ethtool_features_decode(c->eth[1].v[i].msg, c->eth[1].v[i].len, out) == 0 &&
		    !strcmp(out->ifname, ifname))
			return 0;
	return mlx_err(ctx, ENODATA, "the features dump has no '%s'", ifname);
}
