/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The driver's ethtool statistics (`ethtool -S`), without running ethtool.
 *
 * Names: ethtool netlink ETHTOOL_MSG_STRSET_GET for ETH_SS_STATS
 * (include/uapi/linux/ethtool_netlink.h, net/ethtool/strset.c); when the
 * kernel has no ethtool netlink family, or its reply does not decode (a
 * STRINGS nest of thousands of names can exceed the 16-bit attribute
 * length), the SIOCETHTOOL ioctls ETHTOOL_GSSET_INFO + ETHTOOL_GSTRINGS.
 * Values: SIOCETHTOOL ETHTOOL_GSTATS, u64 per name in the same order
 * (include/uapi/linux/ethtool.h); the driver values have no netlink
 * equivalent (ETHTOOL_MSG_STATS_GET carries only the standard groups).
 *
 * One decoder path, live and offline.  Both halves travel as netlink
 * messages through mlx_nl_replay()/mlx_nl_query():
 *   netlink/ethtool/<if>/strset-stats.nl   the kernel's STRSET_GET reply,
 *        recorded by lib/backend/nl.c; when the ioctl supplied the names, a reply
 *        built here in the kernel's layout (mlx_encode_strset_msg), split
 *        into several ETHTOOL_A_STRSET_STRINGSETS attributes so that no
 *        nest exceeds 64 KiB;
 *   netlink/ethtool/<if>/stats-values.nl   a message of our own, since the
 *        kernel has none:
 *          struct nlmsghdr  { len, type = MLXCLI_STATS_MSG (0x4d58), 0, 0, 0 }
 *          struct genlmsghdr { cmd = 1, version = 1, reserved = 0 }
 *          attr 1 MLXCLI_A_STATS_DEV_NAME   string
 *          attr 2 MLXCLI_A_STATS_COUNT      u32, number of values
 *          attr 3 MLXCLI_A_STATS_VALUES     u64[] in host byte order, at most
 *                                           8000 per attribute, repeated in
 *                                           order until COUNT values
 * The ioctl results are encoded into these messages and decoded by the
 * same functions that read the files offline (where the captured kernel
 * boundary answers GSTATS from stats-values.nl).  Nests carry
 * NLA_F_NESTED: the ethtool family validates strictly and refuses a
 * request without it (-EINVAL), and the kernel sets it in its replies.
 */
#include "config.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "counters.h"
#include "mlx-private.h"
#include "nl.h"
#include "snapshot.h"

#define MLXCLI_STATS_MSG 0x4d58
#define MLXCLI_STATS_CMD 1
enum { MLXCLI_A_STATS_DEV_NAME = 1, MLXCLI_A_STATS_COUNT = 2, MLXCLI_A_STATS_VALUES = 3 };
#define VALUES_PER_ATTR 8000
#define NAMES_PER_SET 1000          /* 1000 x (8+8+8+36) bytes < 64 KiB */
#define MAX_STATS (1u << 20)        /* sanity bound on a count */

void mlx_ethtool_names_free(struct mlx_ethtool_names *n)
{
	if (!n->names)
		return;
	for (size_t i = 0; i < n->n; i++)
		free(n->names[i]);
	free(n->names);
	n->names = NULL;
	n->n = 0;
}

/* ---- pure codecs ---------------------------------------------------------- */

static int strings_nest(const uint8_t *p, size_t len, struct mlx_ethtool_names *out)
{
	size_t off = 0;
	struct mlx_nla a;
	int r;

	while ((r = mlx_nla_next(p, len, &off, &a)) == 1) {
		size_t o2 = 0;
		struct mlx_nla b;
		uint32_t idx = UINT32_MAX;
		char name[ETH_GSTRING_LEN + 1] = "";
		bool have_name = false;

		if (a.type != ETHTOOL_A_STRINGS_STRING)
			continue;
		while ((r = mlx_nla_next(a.data, a.len, &o2, &b)) == 1) {
			if (b.type == ETHTOOL_A_STRING_INDEX && mlx_nla_u32(&b, &idx) < 0)
				return -EBADMSG;
			if (b.type == ETHTOOL_A_STRING_VALUE) {
				mlx_nla_str(&b, name, sizeof(name));
				have_name = true;
			}
		}
		if (r < 0)
			return r;
		if (idx >= out->n || !have_name)
			return -EBADMSG;
		free(out->names[idx]);
		if (!(out->names[idx] = strdup(name)))
			return -ENOMEM;
	}
	return r;
}

static int stringset(const uint8_t *p, size_t len, struct mlx_ethtool_names *out)
{
	size_t off = 0;
	struct mlx_nla a;
	uint32_t id = UINT32_MAX, count = UINT32_MAX;
	const uint8_t *strings = NULL;
	size_t slen = 0;
	int r;

	while ((r = mlx_nla_next(p, len, &off, &a)) == 1) {
		if (a.type == ETHTOOL_A_STRINGSET_ID && mlx_nla_u32(&a, &id) < 0)
			return -EBADMSG;
		if (a.type == ETHTOOL_A_STRINGSET_COUNT && mlx_nla_u32(&a, &count) < 0)
			return -EBADMSG;
		if (a.type == ETHTOOL_A_STRINGSET_STRINGS) {
			strings = a.data;
			slen = a.len;
		}
	}
	if (r < 0)
		return r;
	if (id != ETH_SS_STATS)
		return 0;
	if (count == UINT32_MAX || count > MAX_STATS)
		return -EBADMSG;
	if (!out->names) {
		out->names = calloc(count ? count : 1, sizeof(*out->names));
		if (!out->names)
			return -ENOMEM;
		out->n = count;
	} else if (out->n != count) {
		return -EBADMSG;
	}
	return strings ? strings_nest(strings, slen, out) : 0;
}

/* Each attribute of type @inner nested in one of type @outer of a
 * strset reply, to @fn; the first error of @fn or of the walk ends it. */
static int strset_walk(const uint8_t *msg, size_t len, uint16_t outer, uint16_t inner,
		       int (*fn)(const struct mlx_nla *a, void *arg), void *arg)
{
	const uint8_t *attrs;
	size_t alen, off = 0;
	struct mlx_nla a;
	int r;

	if (len < NLMSG_HDRLEN)
		return -EBADMSG;
	r = mlx_nlmsg_attrs((const struct nlmsghdr *)msg, len, GENL_HDRLEN, &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		size_t o2 = 0;
		struct mlx_nla in;

		if (a.type != outer)
			continue;
		while ((r = mlx_nla_next(a.data, a.len, &o2, &in)) == 1)
			if (in.type == inner && (r = fn(&in, arg)) < 0)
				return r;
		if (r < 0)
			return r;
	}
	return r;
}

struct strset_arg {
	struct mlx_ethtool_names *out;
	bool seen;
};

static int one_stringset(const struct mlx_nla *s, void *arg)
{
	struct strset_arg *a = arg;
	int r = stringset(s->data, s->len, a->out);

	a->seen = a->seen || r >= 0;
	return r;
}

int mlx_decode_strset_msg(const uint8_t *msg, size_t len, struct mlx_ethtool_names *out)
{
	struct strset_arg a = { .out = out };
	int r;

	memset(out, 0, sizeof(*out));
	r = strset_walk(msg, len, ETHTOOL_A_STRSET_STRINGSETS, ETHTOOL_A_STRINGSETS_STRINGSET,
			one_stringset, &a);
	if (r < 0)
		goto fail;
	if (!a.seen || !out->names) {
		r = -ENODATA;
		goto fail;
	}
	for (size_t i = 0; i < out->n; i++)
		if (!out->names[i]) {
			r = -EBADMSG;       /* a hole: a truncated or partial reply */
			goto fail;
		}
	return 0;
fail:
	mlx_ethtool_names_free(out);
	return r;
}

struct name_arg {
	char *buf;
	size_t n;
};

static int dev_name(const struct mlx_nla *h, void *arg)
{
	struct name_arg *a = arg;

	mlx_nla_str(h, a->buf, a->n);
	return 0;
}

int mlx_decode_strset_dev(const uint8_t *msg, size_t len, char *ifname, size_t n)
{
	struct name_arg a = { ifname, n };
	int r;

	if (n)
		ifname[0] = '\0';
	r = strset_walk(msg, len, ETHTOOL_A_STRSET_HEADER, ETHTOOL_A_HEADER_DEV_NAME, dev_name, &a);
	return r < 0 ? r : (n && ifname[0] ? 0 : -ENODATA);
}

/* A growing buffer for messages larger than one page. */
static int grow(struct mlx_nlbuf *b, uint8_t **mem, size_t need)
{
	uint8_t *n = realloc(*mem, need);

	if (!n)
		return -ENOMEM;
	*mem = n;
	mlx_nlb_init(b, n, need);
	return 0;
}

int mlx_encode_strset_msg(const char *const *names, size_t n, uint8_t **buf, size_t *len)
{
	struct genlmsghdr g = { .cmd = ETHTOOL_MSG_STRSET_GET_REPLY, .version = ETHTOOL_GENL_VERSION };
	struct mlx_nlbuf b;
	uint8_t *mem = NULL;
	size_t cap = 256 + (n + 1) * (ETH_GSTRING_LEN + 32) + (n / NAMES_PER_SET + 1) * 64;
	int r;

	*buf = NULL;
	if (n > MAX_STATS)
		return -EINVAL;
	r = grow(&b, &mem, cap);
	if (r < 0)
		return r;
	mlx_nlb_msg(&b, 0, 0);
	mlx_nlb_put(&b, &g, sizeof(g));
	for (size_t first = 0; first < n || first == 0; first += NAMES_PER_SET) {
		size_t sets = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_STRSET_STRINGSETS);
		size_t set = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_STRINGSETS_STRINGSET);
		size_t strs;

		mlx_nlb_u32(&b, ETHTOOL_A_STRINGSET_ID, ETH_SS_STATS);
		mlx_nlb_u32(&b, ETHTOOL_A_STRINGSET_COUNT, (uint32_t)n);
		strs = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_STRINGSET_STRINGS);
		for (size_t i = first; i < n && i < first + NAMES_PER_SET; i++) {
			size_t s = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_STRINGS_STRING);

			mlx_nlb_u32(&b, ETHTOOL_A_STRING_INDEX, (uint32_t)i);
			mlx_nlb_str(&b, ETHTOOL_A_STRING_VALUE, names[i]);
			mlx_nlb_nest_end(&b, s);
		}
		mlx_nlb_nest_end(&b, strs);
		mlx_nlb_nest_end(&b, set);
		mlx_nlb_nest_end(&b, sets);
		if (n == 0)
			break;
	}
	r = mlx_nlb_finish(&b);
	if (r < 0) {
		free(mem);
		return r;
	}
	*buf = mem;
	*len = (size_t)r;
	return 0;
}

int mlx_encode_stats_msg(const char *ifname, const uint64_t *vals, size_t n, uint8_t **buf,
			 size_t *len)
{
	struct genlmsghdr g = { .cmd = MLXCLI_STATS_CMD, .version = 1 };
	struct mlx_nlbuf b;
	uint8_t *mem = NULL;
	int r;

	*buf = NULL;
	if (n > MAX_STATS)
		return -EINVAL;
	r = grow(&b, &mem, 128 + n * 8 + (n / VALUES_PER_ATTR + 1) * 8);
	if (r < 0)
		return r;
	mlx_nlb_msg(&b, MLXCLI_STATS_MSG, 0);
	mlx_nlb_put(&b, &g, sizeof(g));
	mlx_nlb_str(&b, MLXCLI_A_STATS_DEV_NAME, ifname);
	mlx_nlb_u32(&b, MLXCLI_A_STATS_COUNT, (uint32_t)n);
	for (size_t i = 0; i < n; i += VALUES_PER_ATTR) {
		size_t k = n - i < VALUES_PER_ATTR ? n - i : VALUES_PER_ATTR;

		mlx_nlb_attr(&b, MLXCLI_A_STATS_VALUES, vals + i, k * sizeof(*vals));
	}
	r = mlx_nlb_finish(&b);
	if (r < 0) {
		free(mem);
		return r;
	}
	*buf = mem;
	*len = (size_t)r;
	return 0;
}

int mlx_decode_stats_msg(const uint8_t *msg, size_t len, uint64_t *vals, size_t *n)
{
	const uint8_t *attrs;
	size_t alen, off = 0, got = 0;
	uint32_t count = UINT32_MAX;
	struct mlx_nla a;
	struct nlmsghdr h;
	int r;

	if (len < NLMSG_HDRLEN)
		return -EBADMSG;
	memcpy(&h, msg, sizeof(h));
	if (h.nlmsg_type != MLXCLI_STATS_MSG)
		return -EBADMSG;
	r = mlx_nlmsg_attrs((const struct nlmsghdr *)msg, len, GENL_HDRLEN, &attrs, &alen);
	if (r < 0)
		return r;
	while ((r = mlx_nla_next(attrs, alen, &off, &a)) == 1) {
		if (a.type == MLXCLI_A_STATS_COUNT) {
			if (mlx_nla_u32(&a, &count) < 0)
				return -EBADMSG;
		} else if (a.type == MLXCLI_A_STATS_VALUES) {
			size_t k = a.len / sizeof(uint64_t);

			if (a.len % sizeof(uint64_t) || got + k > *n)
				return -EBADMSG;
			memcpy(vals + got, a.data, k * sizeof(uint64_t));
			got += k;
		}
	}
	if (r < 0)
		return r;
	if (count != got)
		return -EBADMSG;
	*n = got;
	return 0;
}

/* ---- live: the ioctls ----------------------------------------------------- */

/* SIOCETHTOOL through the kernel boundary (lib/core/boundary-live.c). */
static int ethtool_ioctl(struct mlx_ctx *ctx, const char *ifname, void *data)
{
	return mlx_kernel_ethtool(ctx, ifname, data);
}

static int ioctl_count(struct mlx_ctx *ctx, const char *ifname, size_t *n)
{
	/* the header and room for the one count its flexible array returns */
	union {
		struct ethtool_sset_info hdr;
		uint8_t room[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} s;
	int r;

	memset(&s, 0, sizeof(s));
	s.hdr.cmd = ETHTOOL_GSSET_INFO;
	s.hdr.sset_mask = 1ULL << ETH_SS_STATS;
	r = ethtool_ioctl(ctx, ifname, &s);
	if (r < 0)
		return r;
	*n = (s.hdr.sset_mask & (1ULL << ETH_SS_STATS)) ? s.hdr.data[0] : 0;
	return *n > MAX_STATS ? -E2BIG : 0;
}

static int ioctl_names(struct mlx_ctx *ctx, const char *ifname, char ***names, size_t *n)
{
	struct ethtool_gstrings *gs;
	size_t cnt;
	int r;

	*names = NULL;
	r = ioctl_count(ctx, ifname, &cnt);
	if (r < 0)
		return r;
	gs = calloc(1, sizeof(*gs) + (cnt + 1) * ETH_GSTRING_LEN);
	if (!gs)
		return -ENOMEM;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = (uint32_t)cnt;
	r = ethtool_ioctl(ctx, ifname, gs);
	if (r == 0 && gs->len > cnt)
		r = -EAGAIN;             /* the set grew under us */
	if (r == 0) {
		cnt = gs->len;
		*names = calloc(cnt + 1, sizeof(**names));
		if (!*names)
			r = -ENOMEM;
		for (size_t i = 0; r == 0 && i < cnt; i++) {
			char tmp[ETH_GSTRING_LEN + 1];

			memcpy(tmp, gs->data + i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
			tmp[ETH_GSTRING_LEN] = '\0';
			if (!((*names)[i] = strdup(tmp)))
				r = -ENOMEM;
		}
		*n = cnt;
	}
	free(gs);
	if (r < 0 && *names) {
		for (size_t i = 0; (*names)[i]; i++)
			free((*names)[i]);
		free(*names);
		*names = NULL;
	}
	return r;
}

/* ---- capture files ------------------------------------------------------- */

/* A reply this file made (from an ioctl), kept while a snapshot records
 * (lib/backend/nl.c's recording: the same files a netlink reply goes to);
 * nothing done otherwise. */
static int record(struct mlx_ctx *ctx, const char *ifname, const char *request,
		  const uint8_t *buf, size_t len)
{
	struct iovec iov = { (void *)buf, len };
	char rel[512];

	if (mlx_netlink_capture_path(rel, sizeof(rel), "ethtool", ifname, request) < 0)
		return -EINVAL;
	return mlx_nl_record_file(ctx, rel, &iov, 1);
}

/* ---- the two queries ------------------------------------------------------ */

struct names_arg {
	struct mlx_ethtool_names *out;
	int err;
};

static int names_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct names_arg *a = arg;

	mlx_ethtool_names_free(a->out);
	a->err = mlx_decode_strset_msg((const uint8_t *)h, len, a->out);
	return 0;
}

int mlx_ethtool_stat_names(struct mlx_ctx *ctx, const char *ifname, struct mlx_ethtool_names *out)
{
	struct names_arg a = { .out = out, .err = -ENODATA };
	uint8_t req[256], *msg = NULL;
	struct mlx_nlbuf b;
	char **names = NULL;
	size_t n = 0, len = 0, set, inner;
	int r, rl;

	memset(out, 0, sizeof(*out));
	if (strlen(ifname) >= IFNAMSIZ || !mlx_name_is_safe(ifname))
		return mlx_err(ctx, EINVAL, "'%s' is not a valid interface name", ifname);
	mlx_nlb_init(&b, req, sizeof(req));
	mlx_ethtool_req_start(&b, ETHTOOL_MSG_STRSET_GET, 0, ifname, 0);
	set = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_STRSET_STRINGSETS);
	inner = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_STRINGSETS_STRINGSET);
	mlx_nlb_u32(&b, ETHTOOL_A_STRINGSET_ID, ETH_SS_STATS);
	mlx_nlb_nest_end(&b, inner);
	mlx_nlb_nest_end(&b, set);
	rl = mlx_nlb_finish(&b);
	if (rl < 0)
		return rl;

	r = mlx_nl_query(ctx, MLX_NL_ETHTOOL, ifname, "strset-stats", req, (size_t)rl, names_cb, &a);
	if (r == 0 && a.err == 0) {
		out->from_netlink = true;
		return 0;
	}
	mlx_ethtool_names_free(out);
	/* The target holds no answer (a capture that did not record one):
	 * another way of asking has none either. */
	if (r == -ENODATA)
		return r;
	/* No ethtool netlink (older kernel, module absent) or a reply too big
	 * for its nests: the ioctl, encoded into the same reply layout (a
	 * capture answers the ioctl only from what it recorded). */
	r = ioctl_names(ctx, ifname, &names, &n);
	if (r == -EAGAIN)
		r = ioctl_names(ctx, ifname, &names, &n);
	if (r < 0)
		return mlx_err(ctx, -r, "cannot read the statistics names of '%s' (SIOCETHTOOL "
			       "GSTRINGS): %s", ifname, strerror(-r));
	r = mlx_encode_strset_msg((const char *const *)names, n, &msg, &len);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (r < 0)
		return r;
	r = mlx_nl_replay(ctx, msg, len, names_cb, &a);
	if (r == 0)
		r = a.err;
	if (r == 0)
		r = record(ctx, ifname, "strset-stats", msg, len);
	free(msg);
	if (r < 0)
		mlx_ethtool_names_free(out);
	return r;
}

struct dump_arg {
	mlx_ethtool_names_cb cb;
	void *arg;
};

static int dump_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct dump_arg *d = arg;
	struct mlx_ethtool_names en;
	char ifname[IFNAMSIZ];
	int r;

	if (mlx_decode_strset_dev((const uint8_t *)h, len, ifname, sizeof(ifname)) < 0)
		return 0;             /* no device named: nothing to file it under */
	r = mlx_decode_strset_msg((const uint8_t *)h, len, &en);
	if (r == -ENOMEM)
		return r;
	if (r == -ENODATA)            /* no ETH_SS_STATS set: a device without statistics */
		memset(&en, 0, sizeof(en));
	else if (r < 0)               /* does not decode: the caller's own request (and */
		return 0;             /* its ioctl fallback) will deal with this one */
	en.from_netlink = true;
	return d->cb(ifname, &en, d->arg);
}

int mlx_ethtool_stat_names_dump(struct mlx_ctx *ctx, mlx_ethtool_names_cb cb, void *arg)
{
	struct dump_arg d = { .cb = cb, .arg = arg };
	struct mlx_nlbuf b;
	uint8_t req[128];
	size_t set, inner;
	int rl;

	mlx_nlb_init(&b, req, sizeof(req));
	mlx_ethtool_req_start(&b, ETHTOOL_MSG_STRSET_GET, NLM_F_DUMP, NULL, 0);
	set = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_STRSET_STRINGSETS);
	inner = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_STRINGSETS_STRINGSET);
	mlx_nlb_u32(&b, ETHTOOL_A_STRINGSET_ID, ETH_SS_STATS);
	mlx_nlb_nest_end(&b, inner);
	mlx_nlb_nest_end(&b, set);
	rl = mlx_nlb_finish(&b);
	if (rl < 0)
		return rl;
	return mlx_nl_query(ctx, MLX_NL_ETHTOOL, "all", "strset-stats-dump", req, (size_t)rl,
			    dump_cb, &d);
}

/*
 * The GSTATS buffer, laid out to end where a PROT_NONE page begins: a
 * driver with more values than the room makes the kernel's copy fail with
 * EFAULT instead of writing past it.  That spares the GSSET_INFO ioctl
 * (and its RTNL lock) that would otherwise size the buffer for every
 * netdev.  One mapping for the run, in the context, grown when asked for
 * more than it holds.
 */
static struct ethtool_stats *stats_buf(struct mlx_ctx *ctx, size_t values)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), bytes, len;
	uint8_t *m;

	if (!ctx->stats_map || ctx->stats_cap < values) {
		if (values > MAX_STATS)
			return NULL;
		if (values < 4096)
			values = 4096;
		if (ctx->stats_map)
			munmap(ctx->stats_map, ctx->stats_map_len);
		ctx->stats_map = NULL;
		bytes = (sizeof(struct ethtool_stats) + values * sizeof(uint64_t) + pg - 1) / pg * pg;
		len = bytes + pg;
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return NULL;
		if (mprotect(m + bytes, pg, PROT_NONE) < 0) {
			munmap(m, len);
			return NULL;
		}
		ctx->stats_map = m;
		ctx->stats_map_len = len;
		ctx->stats_cap = (bytes - sizeof(struct ethtool_stats)) / sizeof(uint64_t);
	}
	/* The header at the start, the last value right before the guard. */
	return ctx->stats_map;
}

struct values_arg {
	uint64_t *vals;
	size_t n;
	int err;
};

static int values_cb(const struct nlmsghdr *h, size_t len, void *arg)
{
	struct values_arg *a = arg;

	a->err = mlx_decode_stats_msg((const uint8_t *)h, len, a->vals, &a->n);
	return 0;
}

int mlx_ethtool_stat_values(struct mlx_ctx *ctx, const char *ifname, uint64_t *vals, size_t *n)
{
	struct values_arg a = { .vals = vals, .n = *n, .err = -ENODATA };
	struct ethtool_stats *st;
	uint8_t *msg = NULL;
	size_t len = 0;
	int r;

	if (strlen(ifname) >= IFNAMSIZ || !mlx_name_is_safe(ifname))
		return -EINVAL;
	/* GSTATS for as many values as we hold names (the string-set dump
	 * counted them): no GSSET_INFO ioctl, and its RTNL lock, per netdev
	 * (a captured system answers it from its stats-values recording:
	 * lib/backend/ethtool-record.c).
	 * When the driver's count has changed since, a current kernel copies
	 * no value and says n_stats 0; an older one copies them all whatever
	 * n_stats says, into a buffer that ends at a guard page (EFAULT, not
	 * an overrun, past its room).  Either way the names are out of date:
	 * the caller reads them again. */
	st = stats_buf(ctx, *n + 64);
	if (!st)
		return -ENOMEM;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = (uint32_t)*n;
	r = ethtool_ioctl(ctx, ifname, st);
	if (r == -EFAULT || (r == 0 && !st->n_stats && *n))
		return -ESTALE;
	if (r < 0)
		return mlx_err(ctx, -r, "cannot read the statistics of '%s' (SIOCETHTOOL GSTATS): %s",
			       ifname, strerror(-r));
	if (st->n_stats > *n)
		return -ESTALE;                 /* the names are out of date */
	r = mlx_encode_stats_msg(ifname, (const uint64_t *)st->data, st->n_stats, &msg, &len);
	if (r < 0)
		return r;
	r = mlx_nl_replay(ctx, msg, len, values_cb, &a);
	if (r == 0)
		r = a.err;
	if (r == 0)
		r = record(ctx, ifname, "stats-values", msg, len);
	free(msg);
	if (r == 0)
		*n = a.n;
	return r;
}
