/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the knob catalogue (lib/params/params-catalog.c) and the
 * decoders of lib/decode/decode-ethtool-params.c and decode-devlink-param.c.
 * Replies are laid out here with the test's own writer (tests/unit/
 * nl-writer.h) as the kernel sends them (net/ethtool/bitset.c verbose and
 * compact bitsets; net/devlink/param.c), from the values of the real
 * captures in $FIXTURES: ethtool/cx5ex-upstream-6.4rc2 (private flags),
 * ethtool/cx4lx-25g-pve6.8 (-k -g -c -l) and devlink/KERNELDOC (param
 * show examples).  Without $FIXTURES those cases skip.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/devlink.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "mlx.h"
#include "nl.h"
#include "nl-writer.h"
#include "params.h"

static void str(struct w *w, uint16_t t, const char *s) { attr(w, t, s, strlen(s) + 1); }
static void u8a(struct w *w, uint16_t t, uint8_t v) { attr(w, t, &v, 1); }
static void u16a(struct w *w, uint16_t t, uint16_t v) { attr(w, t, &v, 2); }
static void u32a(struct w *w, uint16_t t, uint32_t v) { attr(w, t, &v, 4); }
static void u64a(struct w *w, uint16_t t, uint64_t v) { attr(w, t, &v, 8); }
static void flag(struct w *w, uint16_t t) { attr(w, t, NULL, 0); }
static size_t nest(struct w *w, uint16_t t) { return attr(w, t | NLA_F_NESTED, NULL, 0); }

static void msg_start(struct w *w, uint8_t cmd)
{
	struct nlmsghdr h = { .nlmsg_type = 0x15, .nlmsg_seq = 1 };
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };

	w->n = 0;
	memcpy(w->b, &h, sizeof(h));
	memcpy(w->b + NLMSG_HDRLEN, &g, sizeof(g));
	w->n = NLMSG_HDRLEN + GENL_HDRLEN;
}

static const struct nlmsghdr *msg_end(struct w *w)
{
	uint32_t len = (uint32_t)w->n;

	memcpy(w->b, &len, 4);
	return (const struct nlmsghdr *)w->b;
}

static void eth_header(struct w *w, const char *ifname, uint32_t ifindex)
{
	size_t h = nest(w, 1);

	u32a(w, ETHTOOL_A_HEADER_DEV_INDEX, ifindex);
	str(w, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	nest_end(w, h);
}

/* ---- the captures ---------------------------------------------------------- */

static char *fixture(const char *rel)
{
	const char *fx = getenv("FIXTURES");
	char path[1024], *buf;
	FILE *f;
	long n;

	if (!fx || !*fx)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", fx, rel);
	if (!(f = fopen(path, "r")))
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

#define NEED(var, rel) \
	char *var = fixture(rel); \
	if (!var) { fprintf(stderr, "# $FIXTURES/%s absent: skipping\n", rel); skip(); }

struct kv { char name[40]; char val[40]; bool fixed; };

/* "name : on" lines (ethtool --show-priv-flags) or "name: on [fixed]"
 * (ethtool -k) between the line starting with @from and a blank line */
static size_t parse_onoff(const char *text, const char *from, struct kv *out, size_t max)
{
	const char *p = strstr(text, from);
	size_t n = 0;

	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	while (*p && n < max) {
		char line[160], *c, *s;
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = '\0';
		p = e ? e + 1 : p + l;
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (!*s || !(c = strchr(s, ':')))
			break;
		*c = '\0';
		for (char *t = c - 1; t >= s && *t == ' '; t--)
			*t = '\0';
		c++;
		while (*c == ' ')
			c++;
		snprintf(out[n].name, sizeof(out[n].name), "%s", s);
		snprintf(out[n].val, sizeof(out[n].val), "%.3s", c);
		if (out[n].val[2] == ' ')
			out[n].val[2] = '\0';
		out[n].fixed = strstr(c, "[fixed]") != NULL;
		n++;
	}
	return n;
}

/* ---- catalogue --------------------------------------------------------------- */

static void test_catalogue(void **state)
{
	(void)state;
	assert_true(mlx_nknobs > 40);
	for (size_t i = 0; i < mlx_nknobs; i++) {
		const struct mlx_knob *k = &mlx_knobs[i];
		enum mlx_knob_source s;

		assert_ptr_equal(mlx_knob_find(k->name), k);     /* names are unique */
		assert_non_null(k->dflt_from);
		assert_true(strlen(k->dflt_from) > 3);
		assert_non_null(k->desc);
		assert_int_equal(mlx_knob_source_parse(mlx_knob_source_name(k->src), &s), 0);
		assert_int_equal(s, k->src);
		assert_string_not_equal(mlx_knob_apply_name(k->apply), "?");
		if (k->src == MLX_KS_RING || k->src == MLX_KS_CHANNEL || k->src == MLX_KS_COALESCE)
			assert_true(k->attr > 1 && k->attr < MLX_ETH_ATTRS);
		else
			assert_true(k->src == MLX_KS_MTU || k->kname != NULL);
		if (k->choices && k->dflt) {    /* a default is one of the choices */
			bool found = false;

			for (size_t c = 0; k->choices[c]; c++)
				found |= !strcmp(k->choices[c], k->dflt);
			assert_true(found);
		}
		if (!k->dflt)                   /* nobody knows: the reason is given */
			assert_non_null(strstr(k->dflt_from, "unknown"));
	}
	assert_int_equal(mlx_knob_source_parse("bogus", &(enum mlx_knob_source){0}), -EINVAL);
	assert_non_null(mlx_knob_by_kname(MLX_KS_FEATURE, "rx-lro"));
	assert_null(mlx_knob_by_kname(MLX_KS_PRIVFLAG, "rx-lro"));
	/* dropless mode and packet burst are named with their Windows keys */
	assert_string_equal(mlx_knob_find("dropless_rq")->windows, "DelayDropTimeout");
	assert_non_null(strstr(mlx_knob_find("rx_ring")->windows, "RfdReservationFactor"));
}

/* ---- private flags ---------------------------------------------------------- */

static const struct nlmsghdr *privflags_reply(struct w *w, const struct kv *f, size_t n)
{
	size_t set, bits;

	msg_start(w, ETHTOOL_MSG_PRIVFLAGS_GET_REPLY);
	eth_header(w, "mlx5p1", 3);
	set = nest(w, ETHTOOL_A_PRIVFLAGS_FLAGS);
	u32a(w, ETHTOOL_A_BITSET_SIZE, (uint32_t)n);
	bits = nest(w, ETHTOOL_A_BITSET_BITS);
	for (size_t i = 0; i < n; i++) {
		size_t b = nest(w, ETHTOOL_A_BITSET_BITS_BIT);

		u32a(w, ETHTOOL_A_BITSET_BIT_INDEX, (uint32_t)i);
		str(w, ETHTOOL_A_BITSET_BIT_NAME, f[i].name);
		if (!strcmp(f[i].val, "on"))
			flag(w, ETHTOOL_A_BITSET_BIT_VALUE);
		nest_end(w, b);
	}
	nest_end(w, bits);
	nest_end(w, set);
	return msg_end(w);
}

static void test_privflags_capture(void **state)
{
	NEED(text, "ethtool/cx5ex-upstream-6.4rc2-show-priv-flags-and-ethtool-i.txt");
	struct kv f[32];
	size_t n = parse_onoff(text, "Private flags for", f, 32);
	struct w w;
	struct mlx_eth_privflags *pf = malloc(sizeof(*pf));
	const struct nlmsghdr *h;

	(void)state;
	assert_int_equal(n, 8);
	h = privflags_reply(&w, f, n);
	assert_int_equal(mlx_ethtool_privflags_decode(h, w.n, pf), 0);
	assert_string_equal(pf->ifname, "mlx5p1");
	assert_int_equal(pf->ifindex, 3);
	assert_int_equal(pf->flags.n, n);
	for (size_t i = 0; i < n; i++) {
		const struct mlx_knob *k = mlx_knob_by_kname(MLX_KS_PRIVFLAG, f[i].name);

		assert_string_equal(pf->flags.bit[i].name, f[i].name);
		assert_int_equal(mlx_bitset_get(&pf->flags, f[i].name), !strcmp(f[i].val, "on"));
		/* every upstream flag is catalogued; its default is this
		 * capture's value (the driver's defaults on a CX5) */
		assert_non_null(k);
		assert_string_equal(k->dflt, f[i].val);
	}
	assert_int_equal(mlx_bitset_get(&pf->flags, "dropless_rq"), -1);
	/* another command's reply is not a private-flags reply */
	w.b[NLMSG_HDRLEN] = ETHTOOL_MSG_RINGS_GET_REPLY;
	assert_int_equal(mlx_ethtool_privflags_decode(h, w.n, pf), -ENOMSG);
	free(pf);
	free(text);
}

/* MLNX_OFED's traffic_class file as the capture shows it after "echo 106",
 * empty before; anything else is no value */
static void test_tclass_capture(void **state)
{
	NEED(text, "dcqcn/mlx5-sysfs-tc1-traffic_class-global-tclass.txt");
	char v[16];

	(void)state;
	assert_int_equal(mlx_params_tclass_parse(text, v, sizeof(v)), 0);
	assert_string_equal(v, "106");
	assert_int_equal(mlx_params_tclass_parse("", v, sizeof(v)), 0);
	assert_string_equal(v, "unset");
	assert_int_equal(mlx_params_tclass_parse("\n", v, sizeof(v)), 0);
	assert_string_equal(v, "unset");
	assert_int_equal(mlx_params_tclass_parse("Global tclass=\n", v, sizeof(v)), -EBADMSG);
	assert_int_equal(mlx_params_tclass_parse("garbage", v, sizeof(v)), -EBADMSG);
	assert_int_equal(mlx_params_tclass_parse("Global tclass=123456789012345678", v, sizeof(v)),
			 -EBADMSG);
	free(text);
}

static void test_bitset_compact(void **state)
{
	struct w w;
	struct mlx_bitset *b = malloc(sizeof(*b));
	uint32_t val[2] = { 0x80000005u, 0x1u }, mask[2] = { ~0u, 0x1u };

	(void)state;
	w.n = 0;
	u32a(&w, ETHTOOL_A_BITSET_SIZE, 33);
	attr(&w, ETHTOOL_A_BITSET_VALUE, val, 8);
	attr(&w, ETHTOOL_A_BITSET_MASK, mask, 8);
	assert_int_equal(mlx_ethtool_bitset_decode(w.b, w.n, b), 0);
	assert_true(b->compact);
	assert_int_equal(b->n, 33);
	assert_true(b->bit[0].value);
	assert_false(b->bit[1].value);
	assert_true(b->bit[2].value);
	assert_true(b->bit[31].value);
	assert_true(b->bit[32].value);
	/* SIZE beyond the VALUE words: malformed */
	w.n = 0;
	u32a(&w, ETHTOOL_A_BITSET_SIZE, 65);
	attr(&w, ETHTOOL_A_BITSET_VALUE, val, 8);
	assert_int_equal(mlx_ethtool_bitset_decode(w.b, w.n, b), -EBADMSG);
	/* more bits than we hold */
	w.n = 0;
	u32a(&w, ETHTOOL_A_BITSET_SIZE, 32 * 8);
	{
		uint32_t big[8] = { 0 };

		attr(&w, ETHTOOL_A_BITSET_VALUE, big, sizeof(big));
	}
	assert_int_equal(mlx_ethtool_bitset_decode(w.b, w.n, b), -E2BIG);
	/* a bit with neither index nor name */
	w.n = 0;
	{
		size_t bits = nest(&w, ETHTOOL_A_BITSET_BITS), bit = nest(&w, ETHTOOL_A_BITSET_BITS_BIT);

		flag(&w, ETHTOOL_A_BITSET_BIT_VALUE);
		nest_end(&w, bit);
		nest_end(&w, bits);
	}
	assert_int_equal(mlx_ethtool_bitset_decode(w.b, w.n, b), -EBADMSG);
	free(b);
}

/* ---- features --------------------------------------------------------------- */

/* ethtool -k prints its own old names for some features (ethtool's
 * off_flag_def table); the reply carries the kernel's. */
static const char *const k_alias[][2] = {
	{ "rx-checksumming", "rx-checksum" },
	{ "generic-segmentation-offload", "tx-generic-segmentation" },
	{ "generic-receive-offload", "rx-gro" },
	{ "large-receive-offload", "rx-lro" },
	{ "rx-vlan-offload", "rx-vlan-hw-parse" },
	{ "tx-vlan-offload", "tx-vlan-hw-insert" },
	{ "ntuple-filters", "rx-ntuple-filter" },
	{ "receive-hashing", "rx-hashing" },
};

static const char *kernel_name(const char *n)
{
	for (size_t i = 0; i < sizeof(k_alias) / sizeof(k_alias[0]); i++)
		if (!strcmp(k_alias[i][0], n))
			return k_alias[i][1];
	return n;
}

static void bitset(struct w *w, uint16_t type, const struct kv *f, size_t n, int which)
{
	size_t set = nest(w, type), bits;

	u32a(w, ETHTOOL_A_BITSET_SIZE, (uint32_t)n);
	bits = nest(w, ETHTOOL_A_BITSET_BITS);
	for (size_t i = 0; i < n; i++) {
		size_t b = nest(w, ETHTOOL_A_BITSET_BITS_BIT);
		bool v = which == 0 ? !strcmp(f[i].val, "on") : !f[i].fixed;

		u32a(w, ETHTOOL_A_BITSET_BIT_INDEX, (uint32_t)i);
		str(w, ETHTOOL_A_BITSET_BIT_NAME, kernel_name(f[i].name));
		if (v)
			flag(w, ETHTOOL_A_BITSET_BIT_VALUE);
		nest_end(w, b);
	}
	nest_end(w, bits);
	nest_end(w, set);
}

static void test_features_capture(void **state)
{
	NEED(text, "ethtool/cx4lx-25g-pve6.8-ethtool-settings-g-k-i-c-l.txt");
	struct kv f[96];
	size_t n = parse_onoff(text, "Features for", f, 96), checked = 0;
	struct w *w = malloc(sizeof(*w));
	struct mlx_eth_features *d = malloc(sizeof(*d));

	(void)state;
	assert_true(n > 50);
	msg_start(w, ETHTOOL_MSG_FEATURES_GET_REPLY);
	eth_header(w, "enp1s0f0np0", 4);
	bitset(w, ETHTOOL_A_FEATURES_HW, f, n, 1);
	bitset(w, ETHTOOL_A_FEATURES_ACTIVE, f, n, 0);
	msg_end(w);
	assert_int_equal(mlx_ethtool_features_decode((struct nlmsghdr *)w->b, w->n, d), 0);
	assert_string_equal(d->ifname, "enp1s0f0np0");
	assert_true(d->have_hw && d->have_active && !d->have_wanted);
	for (size_t k = 0; k < mlx_nknobs; k++) {
		const struct mlx_knob *kn = &mlx_knobs[k];
		struct mlx_knob_value kv;
		/* the line ethtool -k prints for it: a group's own line
		 * (netlink/features.c dump_features), else the feature's */
		static const char *const group_line[][2] = {
			{ "tx-checksum-*", "tx-checksumming" },
			{ "tx-scatter-gather*", "scatter-gather" },
			{ "tx-tcp*-segmentation", "tcp-segmentation-offload" },
		};
		const char *line = NULL;

		if (kn->src != MLX_KS_FEATURE)
			continue;
		for (size_t g = 0; g < 3; g++)
			if (!strcmp(group_line[g][0], kn->kname))
				line = group_line[g][1];
		memset(&kv, 0, sizeof(kv));
		assert_int_equal(mlx_params_feature_value(d, kn, &kv), 0);
		for (size_t i = 0; i < n; i++) {
			if (line ? strcmp(f[i].name, line) : strcmp(kernel_name(f[i].name), kn->kname))
				continue;
			/* the value ethtool -k printed, the group's line included */
			assert_string_equal(kv.value, f[i].val);
			if (!line) {
				assert_int_equal(mlx_bitset_get(&d->active, kn->kname),
						 !strcmp(f[i].val, "on"));
				assert_int_equal(mlx_bitset_get(&d->hw, kn->kname), !f[i].fixed);
				assert_int_equal(kv.fixed, f[i].fixed);
			}
			/* the catalogue's defaults cite this capture */
			assert_string_equal(kn->dflt, f[i].val);
			checked++;
		}
	}
	assert_int_equal(checked, 18);     /* every catalogued feature is in the capture */
	/* the groups' members: the changeable ones ethtool -K sets (the
	 * capture's [fixed] ones left out) */
	{
		struct mlx_knob_value kv;

		memset(&kv, 0, sizeof(kv));
		assert_int_equal(mlx_params_feature_value(d, mlx_knob_find("tso"), &kv), 0);
		assert_int_equal(kv.nmembers, 3);
		assert_string_equal(kv.members[0], "tx-tcp-segmentation");
		assert_string_equal(kv.members[1], "tx-tcp-mangleid-segmentation");
		assert_string_equal(kv.members[2], "tx-tcp6-segmentation");
		assert_false(kv.fixed);
		assert_int_equal(mlx_params_feature_value(d, mlx_knob_find("tx_checksum"), &kv), 0);
		assert_int_equal(kv.nmembers, 1);
		assert_string_equal(kv.members[0], "tx-checksum-ip-generic");
		assert_int_equal(mlx_params_feature_value(d, mlx_knob_find("scatter_gather"), &kv), 0);
		assert_int_equal(kv.nmembers, 1);
		assert_string_equal(kv.members[0], "tx-scatter-gather");
		/* a single feature is a group of one; a fixed one of none */
		assert_int_equal(mlx_params_feature_value(d, mlx_knob_find("gro"), &kv), 0);
		assert_int_equal(kv.nmembers, 1);
		assert_int_equal(mlx_params_feature_value(d, mlx_knob_find("gro_hw"), &kv), 0);
		assert_true(kv.fixed);
		assert_int_equal(kv.nmembers, 0);
	}

	/* the kernel's own form (features.c passes no mask): NOMASK, only the
	 * set bits listed, no VALUE flags; a bit not listed is clear */
	msg_start(w, ETHTOOL_MSG_FEATURES_GET_REPLY);
	eth_header(w, "enp1s0f0np0", 4);
	{
		size_t set = nest(w, ETHTOOL_A_FEATURES_ACTIVE), bits;

		flag(w, ETHTOOL_A_BITSET_NOMASK);
		u32a(w, ETHTOOL_A_BITSET_SIZE, (uint32_t)n);
		bits = nest(w, ETHTOOL_A_BITSET_BITS);
		for (size_t i = 0; i < n; i++) {
			size_t b;

			if (strcmp(f[i].val, "on"))
				continue;
			b = nest(w, ETHTOOL_A_BITSET_BITS_BIT);
			u32a(w, ETHTOOL_A_BITSET_BIT_INDEX, (uint32_t)i);
			str(w, ETHTOOL_A_BITSET_BIT_NAME, kernel_name(f[i].name));
			nest_end(w, b);
		}
		nest_end(w, bits);
		nest_end(w, set);
	}
	msg_end(w);
	assert_int_equal(mlx_ethtool_features_decode((struct nlmsghdr *)w->b, w->n, d), 0);
	assert_true(d->active.nomask);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(mlx_bitset_get(&d->active, kernel_name(f[i].name)),
				 !strcmp(f[i].val, "on"));
	free(w);
	free(d);
	free(text);
}

/* ethtool's pattern match (netlink/features.c flag_pattern_match): one
 * '*', any middle, the whole name */
static void test_feature_match(void **state)
{
	static const struct { const char *name, *pattern; bool match; } t[] = {
		{ "tx-tcp-segmentation", "tx-tcp*-segmentation", true },
		{ "tx-tcp6-segmentation", "tx-tcp*-segmentation", true },
		{ "tx-tcp-mangleid-segmentation", "tx-tcp*-segmentation", true },
		{ "tx-tcp-accecn-segmentation", "tx-tcp*-segmentation", true },
		{ "tx-udp-segmentation", "tx-tcp*-segmentation", false },
		{ "tx-tcp-segmentationx", "tx-tcp*-segmentation", false },
		{ "tx-tcp-segment", "tx-tcp*-segmentation", false },
		{ "tx-checksum-ipv4", "tx-checksum-*", true },
		{ "tx-checksum-", "tx-checksum-*", true },
		{ "tx-checksumming", "tx-checksum-*", false },
		{ "tx-scatter-gather", "tx-scatter-gather*", true },
		{ "tx-scatter-gather-fraglist", "tx-scatter-gather*", true },
		{ "rx-gro", "rx-gro", true },
		{ "rx-gro-hw", "rx-gro", false },
		{ "", "rx-gro", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		print_message("%s ~ %s\n", t[i].name, t[i].pattern);
		assert_int_equal(mlx_feature_match(t[i].name, t[i].pattern), t[i].match);
	}
	/* the catalogue's ethtool groups are ethtool's own patterns */
	assert_string_equal(mlx_knob_find("tso")->kname, "tx-tcp*-segmentation");
	assert_string_equal(mlx_knob_find("scatter_gather")->kname, "tx-scatter-gather*");
	assert_string_equal(mlx_knob_find("tx_checksum")->kname, "tx-checksum-*");
}

/* RTM_NEWLINK's MTU bounds (net/core/rtnetlink.c rtnl_fill_ifinfo) */
static void test_link_mtu(void **state)
{
	struct w w;
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWLINK, .nlmsg_seq = 1 };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 7 };
	struct mlx_link_mtu m;
	uint32_t len;

	(void)state;
	memcpy(w.b, &h, sizeof(h));
	memcpy(w.b + NLMSG_HDRLEN, &ifi, sizeof(ifi));
	w.n = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifi));
	str(&w, IFLA_IFNAME, "va");
	u32a(&w, IFLA_MTU, 1500);
	u32a(&w, IFLA_MIN_MTU, 68);
	u32a(&w, IFLA_MAX_MTU, 65535);
	len = (uint32_t)w.n;
	memcpy(w.b, &len, 4);
	assert_int_equal(mlx_link_mtu_decode((struct nlmsghdr *)w.b, w.n, &m), 0);
	assert_string_equal(m.ifname, "va");
	assert_true(m.have_mtu && m.have_min && m.have_max);
	assert_int_equal(m.mtu, 1500);
	assert_int_equal(m.min, 68);
	assert_int_equal(m.max, 65535);
	/* an old kernel without the bounds */
	w.n = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifi));
	str(&w, IFLA_IFNAME, "eth0");
	len = (uint32_t)w.n;
	memcpy(w.b, &len, 4);
	assert_int_equal(mlx_link_mtu_decode((struct nlmsghdr *)w.b, w.n, &m), 0);
	assert_false(m.have_min || m.have_max);
	/* a bound of the wrong size is malformed; another message type none */
	u16a(&w, IFLA_MAX_MTU, 9000);
	len = (uint32_t)w.n;
	memcpy(w.b, &len, 4);
	assert_int_equal(mlx_link_mtu_decode((struct nlmsghdr *)w.b, w.n, &m), -EBADMSG);
	((struct nlmsghdr *)w.b)->nlmsg_type = RTM_NEWADDR;
	assert_int_equal(mlx_link_mtu_decode((struct nlmsghdr *)w.b, w.n, &m), -ENOMSG);
	/* shorter than its ifinfomsg */
	((struct nlmsghdr *)w.b)->nlmsg_type = RTM_NEWLINK;
	assert_true(mlx_link_mtu_decode((struct nlmsghdr *)w.b, NLMSG_HDRLEN + 4, &m) < 0);
}

/* The range and the default of a knob on its device (issue 25): mlx5's on
 * mlx5, the device's own bounds where it reports them, else the kernel's */
static void test_device_range(void **state)
{
	struct mlx_params p;
	struct mlx_knob_value v;
	uint64_t lo, hi;

	(void)state;
	memset(&p, 0, sizeof(p));
	memset(&v, 0, sizeof(v));
	v.k = mlx_knob_find("mtu");
	/* mlx5 without bounds (a capture): the catalogue's */
	snprintf(p.driver, sizeof(p.driver), "mlx5_core");
	assert_true(mlx_params_range(&p, &v, &lo, &hi));
	assert_true(lo == 68 && hi == 9978);
	assert_string_equal(mlx_params_default(&p, &v), "1500");
	/* a veth: its own bounds; the Ethernet default holds */
	p.driver[0] = '\0';
	snprintf(v.minimum, sizeof(v.minimum), "68");
	snprintf(v.maximum, sizeof(v.maximum), "65535");
	assert_true(mlx_params_range(&p, &v, &lo, &hi));
	assert_true(lo == 68 && hi == 65535);
	assert_string_equal(mlx_params_default(&p, &v), "1500");
	/* another driver without bounds: the kernel decides */
	v.minimum[0] = v.maximum[0] = '\0';
	assert_true(mlx_params_range(&p, &v, &lo, &hi));
	assert_true(lo == 0 && hi == UINT32_MAX);
	/* a ring: mlx5's minimum on mlx5 only, the device's maximum always */
	v.k = mlx_knob_find("rx_ring");
	snprintf(v.maximum, sizeof(v.maximum), "4096");
	assert_true(mlx_params_range(&p, &v, &lo, &hi));
	assert_true(lo == 0 && hi == 4096);
	assert_null(mlx_params_default(&p, &v));
	snprintf(p.driver, sizeof(p.driver), "mlx5_core");
	assert_true(mlx_params_range(&p, &v, &lo, &hi));
	assert_true(lo == 64 && hi == 4096);
	assert_string_equal(mlx_params_default(&p, &v), "1024");
	/* GRO's default is mlx5's: no veth's */
	v.k = mlx_knob_find("gro");
	assert_false(mlx_params_range(&p, &v, &lo, &hi));
	assert_string_equal(mlx_params_default(&p, &v), "on");
	p.driver[0] = '\0';
	assert_null(mlx_params_default(&p, &v));
	/* coalescing stays the catalogue's (the device reports no bounds) */
	v.k = mlx_knob_find("rx_usecs");
	v.maximum[0] = '\0';
	assert_true(mlx_params_range(&p, &v, &lo, &hi));
	assert_true(lo == 0 && hi == 4095);
	/* rdma_cm's defaults are the kernel's */
	v.k = mlx_knob_find("roce_tos");
	assert_string_equal(mlx_params_default(&p, &v), "0");
}

/* ---- rings, channels, coalesce --------------------------------------------- */

static void test_flat_capture(void **state)
{
	NEED(text, "ethtool/cx4lx-25g-pve6.8-ethtool-settings-g-k-i-c-l.txt");
	struct w w;
	struct mlx_eth_attrs a;
	unsigned rxmax, rx, txmax, tx, cmax, cnt, rxu, rxf, txu, txf;
	char arx[4], atx[4], crx[4], ctx[4];
	const char *p;

	(void)state;
	p = strstr(text, "Pre-set maximums:");
	assert_int_equal(sscanf(strstr(p, "RX:"), "RX: %u", &rxmax), 1);
	assert_int_equal(sscanf(strstr(p, "TX:"), "TX: %u", &txmax), 1);
	p = strstr(p, "Current hardware settings:");
	assert_int_equal(sscanf(strstr(p, "RX:"), "RX: %u", &rx), 1);
	assert_int_equal(sscanf(strstr(p, "TX:"), "TX: %u", &tx), 1);
	p = strstr(text, "Channel parameters");
	assert_int_equal(sscanf(strstr(p, "Combined:"), "Combined: %u", &cmax), 1);
	assert_int_equal(sscanf(strstr(strstr(p, "Current"), "Combined:"), "Combined: %u", &cnt), 1);
	p = strstr(text, "Coalesce parameters");
	assert_int_equal(sscanf(strstr(p, "Adaptive RX:"), "Adaptive RX: %3s TX: %3s", arx, atx), 2);
	assert_int_equal(sscanf(strstr(p, "rx-usecs:"), "rx-usecs: %u", &rxu), 1);
	assert_int_equal(sscanf(strstr(p, "rx-frames:"), "rx-frames: %u", &rxf), 1);
	assert_int_equal(sscanf(strstr(p, "tx-usecs:"), "tx-usecs: %u", &txu), 1);
	assert_int_equal(sscanf(strstr(p, "tx-frames:"), "tx-frames: %u", &txf), 1);
	assert_int_equal(sscanf(strstr(p, "CQE mode RX:"), "CQE mode RX: %3s TX: %3s", crx, ctx), 2);

	/* rings: RX_MINI/JUMBO absent (ethtool's n/a), TX_PUSH a u8 */
	msg_start(&w, ETHTOOL_MSG_RINGS_GET_REPLY);
	eth_header(&w, "enp1s0f0np0", 4);
	u32a(&w, ETHTOOL_A_RINGS_RX_MAX, rxmax);
	u32a(&w, ETHTOOL_A_RINGS_TX_MAX, txmax);
	u32a(&w, ETHTOOL_A_RINGS_RX, rx);
	u32a(&w, ETHTOOL_A_RINGS_TX, tx);
	u8a(&w, ETHTOOL_A_RINGS_TCP_DATA_SPLIT, 0);
	u8a(&w, ETHTOOL_A_RINGS_TX_PUSH, 0);
	msg_end(&w);
	assert_int_equal(mlx_ethtool_attrs_decode((struct nlmsghdr *)w.b, w.n,
						  ETHTOOL_MSG_RINGS_GET_REPLY, &a), 0);
	assert_string_equal(a.ifname, "enp1s0f0np0");
	assert_int_equal(a.v[ETHTOOL_A_RINGS_RX], 1024);
	assert_int_equal(a.v[ETHTOOL_A_RINGS_RX_MAX], 8192);
	assert_false(a.present & (1ull << ETHTOOL_A_RINGS_RX_MINI));
	assert_true(a.present & (1ull << ETHTOOL_A_RINGS_TX_PUSH));
	/* the catalogue's ring defaults are en.h's and this capture's */
	assert_string_equal(mlx_knob_find("rx_ring")->dflt, "1024");
	assert_int_equal(atoi(mlx_knob_find("tx_ring")->dflt), tx);
	assert_int_equal(mlx_ethtool_attrs_decode((struct nlmsghdr *)w.b, w.n,
						  ETHTOOL_MSG_CHANNELS_GET_REPLY, &a), -ENOMSG);

	msg_start(&w, ETHTOOL_MSG_CHANNELS_GET_REPLY);
	eth_header(&w, "enp1s0f0np0", 4);
	u32a(&w, ETHTOOL_A_CHANNELS_COMBINED_MAX, cmax);
	u32a(&w, ETHTOOL_A_CHANNELS_COMBINED_COUNT, cnt);
	msg_end(&w);
	assert_int_equal(mlx_ethtool_attrs_decode((struct nlmsghdr *)w.b, w.n,
						  ETHTOOL_MSG_CHANNELS_GET_REPLY, &a), 0);
	assert_int_equal(a.v[mlx_knob_find("combined_channels")->attr], 12);
	assert_int_equal(a.v[mlx_knob_find("combined_channels")->max_attr], 12);

	msg_start(&w, ETHTOOL_MSG_COALESCE_GET_REPLY);
	eth_header(&w, "enp1s0f0np0", 4);
	u32a(&w, ETHTOOL_A_COALESCE_RX_USECS, rxu);
	u32a(&w, ETHTOOL_A_COALESCE_RX_MAX_FRAMES, rxf);
	u32a(&w, ETHTOOL_A_COALESCE_TX_USECS, txu);
	u32a(&w, ETHTOOL_A_COALESCE_TX_MAX_FRAMES, txf);
	u8a(&w, ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, !strcmp(arx, "on"));
	u8a(&w, ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, !strcmp(atx, "on"));
	u8a(&w, ETHTOOL_A_COALESCE_USE_CQE_MODE_TX, !strcmp(ctx, "on"));
	u8a(&w, ETHTOOL_A_COALESCE_USE_CQE_MODE_RX, !strcmp(crx, "on"));
	{       /* a profile nest (newer kernels): skipped, not a knob */
		size_t pn = nest(&w, 27);

		u32a(&w, 1, 5);
		nest_end(&w, pn);
	}
	msg_end(&w);
	assert_int_equal(mlx_ethtool_attrs_decode((struct nlmsghdr *)w.b, w.n,
						  ETHTOOL_MSG_COALESCE_GET_REPLY, &a), 0);
	assert_int_equal(a.v[mlx_knob_find("rx_usecs")->attr], 8);
	assert_int_equal(a.v[mlx_knob_find("tx_frames")->attr], 128);
	assert_int_equal(a.v[mlx_knob_find("adaptive_rx")->attr], 1);
	assert_int_equal(a.v[mlx_knob_find("cqe_mode_rx")->attr], 1);
	assert_int_equal(a.v[mlx_knob_find("cqe_mode_tx")->attr], 0);
	/* captured values equal the catalogue's defaults where it has one */
	assert_string_equal(mlx_knob_find("adaptive_rx")->dflt, arx);
	assert_string_equal(mlx_knob_find("cqe_mode_rx")->dflt, crx);
	assert_string_equal(mlx_knob_find("cqe_mode_tx")->dflt, ctx);
	/* truncated: the last attribute runs past the message */
	assert_int_equal(mlx_ethtool_attrs_decode((struct nlmsghdr *)w.b, w.n - 2,
						  ETHTOOL_MSG_COALESCE_GET_REPLY, &a), -EBADMSG);
	free(text);
}

/* ---- devlink parameters ---------------------------------------------------- */

static const struct nlmsghdr *dl_param(struct w *w, const char *name, bool generic, uint8_t type,
				       const uint8_t *cmodes, const void *const *vals, size_t n)
{
	size_t p, list;

	msg_start(w, DEVLINK_CMD_PARAM_GET);
	str(w, DEVLINK_ATTR_BUS_NAME, "pci");
	str(w, DEVLINK_ATTR_DEV_NAME, "0000:06:00.0");
	p = nest(w, DEVLINK_ATTR_PARAM);
	str(w, DEVLINK_ATTR_PARAM_NAME, name);
	if (generic)
		flag(w, DEVLINK_ATTR_PARAM_GENERIC);
	u8a(w, DEVLINK_ATTR_PARAM_TYPE, type);
	list = nest(w, DEVLINK_ATTR_PARAM_VALUES_LIST);
	for (size_t i = 0; i < n; i++) {
		size_t v = nest(w, DEVLINK_ATTR_PARAM_VALUE);

		u8a(w, DEVLINK_ATTR_PARAM_VALUE_CMODE, cmodes[i]);
		switch (type) {
		case MLX_DL_U8: u8a(w, DEVLINK_ATTR_PARAM_VALUE_DATA, *(const uint8_t *)vals[i]); break;
		case MLX_DL_U16: u16a(w, DEVLINK_ATTR_PARAM_VALUE_DATA, *(const uint16_t *)vals[i]); break;
		case MLX_DL_U32: u32a(w, DEVLINK_ATTR_PARAM_VALUE_DATA, *(const uint32_t *)vals[i]); break;
		case MLX_DL_U64: u64a(w, DEVLINK_ATTR_PARAM_VALUE_DATA, *(const uint64_t *)vals[i]); break;
		case MLX_DL_STRING: str(w, DEVLINK_ATTR_PARAM_VALUE_DATA, vals[i]); break;
		case MLX_DL_BOOL:
			if (*(const bool *)vals[i])
				flag(w, DEVLINK_ATTR_PARAM_VALUE_DATA);
			break;
		}
		nest_end(w, v);
	}
	nest_end(w, list);
	nest_end(w, p);
	return msg_end(w);
}

static uint8_t cmode_of(const char *s)
{
	return !strcmp(s, "runtime") ? DEVLINK_PARAM_CMODE_RUNTIME :
	       !strcmp(s, "driverinit") ? DEVLINK_PARAM_CMODE_DRIVERINIT :
	       DEVLINK_PARAM_CMODE_PERMANENT;
}

static void test_devlink_kerneldoc(void **state)
{
	NEED(text, "devlink/KERNELDOC-mlx5-devlink-dev-param-show-examples.txt");
	const char *p = text;
	size_t seen = 0;

	(void)state;
	/* each example: "name N type T" then "cmode C value V" */
	while ((p = strstr(p, "name "))) {
		char name[64], kind[32], cmode[32], value[64], out[128];
		struct mlx_devlink_param d;
		struct w w;
		uint8_t cm, type;
		uint32_t u;
		bool b;
		const void *vals[1];

		if (sscanf(p, "name %63s type %31s", name, kind) != 2) {
			p++;
			continue;
		}
		assert_int_equal(sscanf(strstr(p, "cmode"), "cmode %31s value %63s", cmode, value), 2);
		cm = cmode_of(cmode);
		if (!strcmp(value, "true") || !strcmp(value, "false")) {
			type = MLX_DL_BOOL;
			b = !strcmp(value, "true");
			vals[0] = &b;
		} else if (sscanf(value, "%u", &u) == 1) {
			type = MLX_DL_U32;
			vals[0] = &u;
		} else {
			type = MLX_DL_STRING;
			vals[0] = value;
		}
		dl_param(&w, name, !strcmp(kind, "generic"), type, &cm, vals, 1);
		assert_int_equal(mlx_devlink_param_decode((struct nlmsghdr *)w.b, w.n, &d), 0);
		assert_string_equal(d.bus, "pci");
		assert_string_equal(d.dev, "0000:06:00.0");
		assert_string_equal(d.name, name);
		assert_int_equal(d.generic, !strcmp(kind, "generic"));
		assert_int_equal(d.ncmodes, 1);
		assert_string_equal(mlx_devlink_cmode_name(d.val[0].cmode), cmode);
		assert_string_equal(mlx_devlink_param_str(&d, 0, out, sizeof(out)), value);
		/* every mlx5 parameter of the documentation is catalogued */
		assert_non_null(mlx_knob_by_kname(MLX_KS_DEVLINK, name));
		seen++;
		p++;
	}
	assert_int_equal(seen, 5);
	free(text);
}

static void test_devlink_types(void **state)
{
	struct w w;
	struct mlx_devlink_param d;
	char out[128];
	uint8_t u8 = 200, two[2] = { DEVLINK_PARAM_CMODE_RUNTIME, DEVLINK_PARAM_CMODE_PERMANENT };
	uint16_t u16 = 65000;
	uint64_t u64 = 1ull << 40;
	bool f = false, t = true;
	const void *v8[] = { &u8 }, *v16[] = { &u16 }, *v64[] = { &u64 }, *vb[] = { &f, &t };

	(void)state;
	dl_param(&w, "x8", false, MLX_DL_U8, two, v8, 1);
	assert_int_equal(mlx_devlink_param_decode((struct nlmsghdr *)w.b, w.n, &d), 0);
	assert_string_equal(mlx_devlink_param_str(&d, 0, out, sizeof(out)), "200");
	assert_string_equal(mlx_devlink_ptype_name(d.type), "u8");
	dl_param(&w, "x16", false, MLX_DL_U16, two, v16, 1);
	assert_int_equal(mlx_devlink_param_decode((struct nlmsghdr *)w.b, w.n, &d), 0);
	assert_string_equal(mlx_devlink_param_str(&d, 0, out, sizeof(out)), "65000");
	dl_param(&w, "x64", false, MLX_DL_U64, two, v64, 1);
	assert_int_equal(mlx_devlink_param_decode((struct nlmsghdr *)w.b, w.n, &d), 0);
	assert_string_equal(mlx_devlink_param_str(&d, 0, out, sizeof(out)), "1099511627776");
	/* a bool false has no DATA; two cmodes in one parameter */
	dl_param(&w, "enable_sriov", true, MLX_DL_BOOL, two, vb, 2);
	assert_int_equal(mlx_devlink_param_decode((struct nlmsghdr *)w.b, w.n, &d), 0);
	assert_int_equal(d.ncmodes, 2);
	assert_string_equal(mlx_devlink_param_str(&d, 0, out, sizeof(out)), "false");
	assert_string_equal(mlx_devlink_param_str(&d, 1, out, sizeof(out)), "true");
	assert_string_equal(mlx_devlink_cmode_name(d.val[1].cmode), "permanent");
	assert_null(mlx_devlink_param_str(&d, 2, out, sizeof(out)));
	/* a type that says u32 over one byte of DATA: malformed */
	dl_param(&w, "bad", false, MLX_DL_U8, two, v8, 1);
	for (size_t i = NLMSG_HDRLEN + GENL_HDRLEN; i + 5 <= w.n; i += 4) {
		struct nlattr a;

		memcpy(&a, w.b + i, 4);
		if (a.nla_type == DEVLINK_ATTR_PARAM_TYPE && a.nla_len == 5) {
			w.b[i + 4] = MLX_DL_U32;
			break;
		}
	}
	assert_int_equal(mlx_devlink_param_decode((struct nlmsghdr *)w.b, w.n, &d), -EBADMSG);
	/* an unknown cmode */
	{
		uint8_t bad = 7;

		dl_param(&w, "x", false, MLX_DL_U8, &bad, v8, 1);
		assert_int_equal(mlx_devlink_param_decode((struct nlmsghdr *)w.b, w.n, &d), -EBADMSG);
	}
	/* four values: more cmodes than there are */
	{
		uint8_t four[4] = { 0, 1, 2, 0 };
		const void *v4[] = { &u8, &u8, &u8, &u8 };

		dl_param(&w, "x", false, MLX_DL_U8, four, v4, 4);
		assert_int_equal(mlx_devlink_param_decode((struct nlmsghdr *)w.b, w.n, &d), -EBADMSG);
	}
	/* not a PARAM_GET reply */
	dl_param(&w, "x8", false, MLX_DL_U8, two, v8, 1);
	w.b[NLMSG_HDRLEN] = DEVLINK_CMD_INFO_GET;
	assert_int_equal(mlx_devlink_param_decode((struct nlmsghdr *)w.b, w.n, &d), -ENOMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogue),
		cmocka_unit_test(test_privflags_capture),
		cmocka_unit_test(test_tclass_capture),
		cmocka_unit_test(test_bitset_compact),
		cmocka_unit_test(test_features_capture),
		cmocka_unit_test(test_feature_match),
		cmocka_unit_test(test_link_mtu),
		cmocka_unit_test(test_device_range),
		cmocka_unit_test(test_flat_capture),
		cmocka_unit_test(test_devlink_kerneldoc),
		cmocka_unit_test(test_devlink_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
