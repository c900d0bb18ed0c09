/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pure parsers of the placement files: CPU lists and masks, mlx5 IRQ
 * names, PKey values, IPoIB addresses and the ipoib debugfs blocks.
 *
 *  CPU lists: "0-3,8,10-11" (lib/bitmap.c bitmap_print_to_pagebuf with
 *    list=true: smp_affinity_list, local_cpulist, cpu/online); masks: hex
 *    32-bit words, most significant first, separated by ',' (the same
 *    function with list=false: xps_cpus, rps_cpus).
 *  mlx5 IRQ names: "mlx5_comp%d", "mlx5_async%d", "mlx5_ctrl" followed by
 *    "@pci:<BDF>" (drivers/net/ethernet/mellanox/mlx5/core/pci_irq.c).
 *  IPoIB: the 20-byte hardware address is a flags byte, the 24-bit QPN and
 *    the port GID (drivers/infiniband/ulp/ipoib/ipoib_main.c); ipoib_fs.c
 *    prints a block per multicast group or path: "GID: <gid>" then
 *    indented "key: value" lines.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netview.h"

static void set_cpu(struct mlx_cpuset *c, unsigned cpu)
{
	c->w[cpu / 64] |= 1ull << (cpu % 64);
}

static int num(const char **p, unsigned *v)
{
	unsigned long x = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		x = x * 10 + (unsigned long)(*s++ - '0');
		if (x >= MLX_CPUS_MAX)
			return -ERANGE;
	}
	*v = (unsigned)x;
	*p = s;
	return 0;
}

int mlx_cpulist_parse(const char *s, struct mlx_cpuset *out)
{
	memset(out, 0, sizeof(*out));
	while (*s == ' ')
		s++;
	if (!*s || *s == '\n')
		return 0;
	for (;;) {
		unsigned a, b;
		int r = num(&s, &a);

		if (r < 0)
			return r;
		b = a;
		if (*s == '-') {
			s++;
			r = num(&s, &b);
			if (r < 0)
				return r;
			if (b < a)
				return -EINVAL;
		}
		for (unsigned c = a; c <= b; c++)
			set_cpu(out, c);
		if (*s == ',') {
			s++;
			continue;
		}
		while (*s == '\n' || *s == ' ')
			s++;
		return *s ? -EINVAL : 0;
	}
}

int mlx_cpumask_parse(const char *s, struct mlx_cpuset *out)
{
	size_t words = 1, len, w = 0;
	const char *e;

	memset(out, 0, sizeof(*out));
	len = strcspn(s, "\n");
	while (len && s[len - 1] == ' ')
		len--;
	if (!len)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if (s[i] == ',')
			words++;
	if (words * 32 > MLX_CPUS_MAX)
		return -ERANGE;
	/* the last word holds CPUs 0-31 */
	e = s + len;
	while (e > s) {
		const char *b = e;
		uint32_t v = 0;
		size_t digits = 0;

		while (b > s && b[-1] != ',')
			b--;
		for (const char *p = b; p < e; p++, digits++) {
			int d = isdigit((unsigned char)*p) ? *p - '0' :
				(*p >= 'a' && *p <= 'f') ? *p - 'a' + 10 :
				(*p >= 'A' && *p <= 'F') ? *p - 'A' + 10 : -1;

			if (d < 0 || digits >= 8)
				return -EINVAL;
			v = (v << 4) | (uint32_t)d;
		}
		if (!digits)
			return -EINVAL;
		for (unsigned bit = 0; bit < 32; bit++)
			if (v & (1u << bit))
				set_cpu(out, (unsigned)(w * 32 + bit));
		w++;
		e = b > s ? b - 1 : s;
		if (b == s)
			break;
	}
	return 0;
}

bool mlx_cpuset_empty(const struct mlx_cpuset *c)
{
	for (size_t i = 0; i < MLX_CPUS_MAX / 64; i++)
		if (c->w[i])
			return false;
	return true;
}

bool mlx_cpuset_subset(const struct mlx_cpuset *a, const struct mlx_cpuset *b)
{
	for (size_t i = 0; i < MLX_CPUS_MAX / 64; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}

unsigned mlx_cpuset_count(const struct mlx_cpuset *c)
{
	unsigned n = 0;

	for (size_t i = 0; i < MLX_CPUS_MAX / 64; i++)
		n += (unsigned)__builtin_popcountll(c->w[i]);
	return n;
}

static bool has(const struct mlx_cpuset *c, unsigned cpu)
{
	return cpu < MLX_CPUS_MAX && (c->w[cpu / 64] >> (cpu % 64)) & 1;
}

const char *mlx_cpulist_format(const struct mlx_cpuset *c, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (unsigned cpu = 0; cpu < MLX_CPUS_MAX; cpu++) {
		unsigned end = cpu;
		int w;

		if (!has(c, cpu))
			continue;
		while (end + 1 < MLX_CPUS_MAX && has(c, end + 1))
			end++;
		w = end == cpu ? snprintf(buf + o, len - o, "%s%u", o ? "," : "", cpu) :
			snprintf(buf + o, len - o, "%s%u-%u", o ? "," : "", cpu, end);
		if (w < 0 || (size_t)w >= len - o) {
			/* too long for @buf: end it with "..." where it fits */
			if (len >= 4)
				snprintf(buf + (len - 4), 4, "...");
			return buf;
		}
		o += (size_t)w;
		cpu = end;
	}
	return buf;
}

const char *mlx_irq_kind_name(enum mlx_irq_kind k)
{
	static const char *const names[] = { "completion", "async", "control", "other" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "other";
}

enum mlx_irq_kind mlx_irq_name_parse(const char *name, int *index, char *bdf, size_t len)
{
	static const struct { const char *prefix; enum mlx_irq_kind kind; } k[] = {
		{ "mlx5_comp", MLX_IRQ_COMP }, { "mlx5_async", MLX_IRQ_ASYNC },
		{ "mlx5_ctrl", MLX_IRQ_CTRL },
	};
	const char *at = strstr(name, "@pci:");
	size_t stem = at ? (size_t)(at - name) : strlen(name);

	*index = -1;
	if (bdf && len)
		snprintf(bdf, len, "%s", at ? at + 5 : "");
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		size_t pl = strlen(k[i].prefix);
		unsigned long v = 0;
		size_t j;

		if (stem < pl || strncmp(name, k[i].prefix, pl))
			continue;
		for (j = pl; j < stem && isdigit((unsigned char)name[j]) && v < 100000; j++)
			v = v * 10 + (unsigned long)(name[j] - '0');
		if (j != stem)
			continue;       /* "mlx5_compX": not ours */
		if (j > pl)
			*index = (int)v;
		return k[i].kind;
	}
	return MLX_IRQ_OTHER;
}

int mlx_pkey_parse(const char *s, uint16_t *pkey)
{
	char *end;
	unsigned long v;

	if (strncmp(s, "0x", 2) || !isxdigit((unsigned char)s[2]))
		return -EINVAL;
	v = strtoul(s + 2, &end, 16);
	while (*end == '\n' || *end == ' ')
		end++;
	if (*end || v > 0xffff)
		return -EINVAL;
	*pkey = (uint16_t)v;
	return 0;
}

int mlx_ipoib_addr(const uint8_t *a, size_t n, uint32_t *qpn, char *gid, size_t gidlen)
{
	size_t o = 0;

	if (n != 20)
		return -EINVAL;
	*qpn = (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
	if (gidlen)
		gid[0] = '\0';
	for (size_t i = 0; i < 16 && o + 6 <= gidlen; i += 2)
		o += (size_t)snprintf(gid + o, gidlen - o, "%s%02x%02x", i ? ":" : "", a[4 + i],
				      a[5 + i]);
	return 0;
}

/* "  key: value" -> key and value, trimmed; false when not of that form. */
static bool kv(char *line, char **key, char **val)
{
	char *c = strchr(line, ':');

	if (!c)
		return false;
	*c = '\0';
	*key = line;
	while (**key == ' ' || **key == '\t')
		(*key)++;
	*val = c + 1;
	while (**val == ' ' || **val == '\t')
		(*val)++;
	return **key != '\0';
}

static int64_t intval(const char *v)
{
	char *end;
	long long x = strtoll(v, &end, 0);

	return end != v && *end == '\0' && x >= 0 ? x : -1;
}

int mlx_ipoib_debugfs_parse(const char *text, size_t len, struct mlx_ipoib_ep **out, size_t *n)
{
	const char *p = text, *end = text + len;
	struct mlx_ipoib_ep *v = NULL, *cur = NULL;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		char line[256], *key, *val;

		if (ll >= sizeof(line))
			goto bad;
		memcpy(line, p, ll);
		line[ll] = '\0';
		p += ll + (nl ? 1 : 0);
		if (!ll)
			continue;
		if (!kv(line, &key, &val))
			goto bad;
		if (!strcmp(key, "GID") && line[0] == 'G') {
			if (*n == cap) {
				struct mlx_ipoib_ep *nv;

				cap = cap ? cap * 2 : 8;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
			}
			cur = &v[(*n)++];
			memset(cur, 0, sizeof(*cur));
			cur->created = cur->queuelen = cur->dlid = cur->sl = -1;
			cur->send_only = -1;
			/* the value is the rest of the line: a GID holds ':' too */
			snprintf(cur->gid, sizeof(cur->gid), "%s", val);
			if (strlen(val) >= sizeof(cur->gid))
				goto bad;
			/* kv() cut the line at the first ':' after "GID" */
			continue;
		}
		if (!cur)
			goto bad;
		if (!strcmp(key, "complete"))
			cur->complete = !strcmp(val, "yes");
		else if (!strcmp(key, "created"))
			cur->created = intval(val);
		else if (!strcmp(key, "queuelen"))
			cur->queuelen = intval(val);
		else if (!strcmp(key, "send_only"))
			cur->send_only = !strcmp(val, "yes") ? 1 : !strcmp(val, "no") ? 0 : -1;
		else if (!strcmp(key, "DLID"))
			cur->dlid = intval(val);
		else if (!strcmp(key, "SL"))
			cur->sl = intval(val);
		else if (!strcmp(key, "rate"))
			snprintf(cur->rate, sizeof(cur->rate), "%.15s", val);
		/* other keys: kept out (the kernel may add more) */
	}
	*out = v;
	return 0;
bad:
	free(v);
	*n = 0;
	return -EBADMSG;
}
