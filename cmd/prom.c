/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Prometheus text exposition format (version 0.0.4, as the node_exporter
 * textfile collector reads it).  Names: mlxcli_<group>_<counter stem>, the
 * base unit appended (_bytes, _seconds: microsecond pause durations are
 * converted), _total on counters.  Families group a %d index, a ring, a
 * direction or a size bucket into labels, so a 64-ring port adds a label
 * value, not 6,500 metric names (node_exporter#1832).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"

void prom_escape_label(char *out, size_t len, const char *in)
{
	size_t o = 0;

	if (!len)
		return;
	for (; *in && o + 2 < len; in++) {
		if (*in == '\\' || *in == '"') {
			out[o++] = '\\';
			out[o++] = *in;
		} else if (*in == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else {
			out[o++] = *in;
		}
	}
	out[o] = '\0';
}

static void escape_help(char *out, size_t len, const char *in)
{
	size_t o = 0;

	for (; *in && o + 2 < len; in++) {
		if (*in == '\\') {
			out[o++] = '\\';
			out[o++] = '\\';
		} else if (*in == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else {
			out[o++] = *in;
		}
	}
	out[o] = '\0';
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

void prom_metric_name(const struct mlx_cat_match *m, char *out, size_t len, bool *is_counter)
{
	const char *unit = "";

	*is_counter = m->e && !(m->flags & MLX_CF_GAUGE);
	if (!strcmp(m->unit, "bytes") && !ends_with(m->metric, "bytes"))
		unit = "_bytes";
	else if (!strcmp(m->unit, "microseconds") || !strcmp(m->unit, "milliseconds") ||
		 !strcmp(m->unit, "nanoseconds"))
		unit = "_seconds";
	/* bits: not a Prometheus base unit, and the stems say "errors" */
	else if (!strcmp(m->unit, "percent"))
		unit = "_percent";
	snprintf(out, len, "mlxcli_%s%s%s", m->metric, unit, *is_counter ? "_total" : "");
}

/*
 * What a counter's samples share, computed once per catalogue match (the
 * ports of one model, 2,000 veths, share their listings' matches): the
 * metric name, its rank among the names (equal names, equal ranks), the
 * label suffix (",priority=\"3\"") and its length.
 */
struct minfo {
	const struct mlx_cat_match *m;
	char name[128];
	char suffix[512];
	size_t nlen, slen;         /* slen as long as it would be: may pass 511 */
	bool counter;
	unsigned rank;
};

struct sample {
	unsigned mi;               /* its struct minfo */
	unsigned port;             /* its port's label prefix */
	const struct mlx_counter *c;
	size_t order;
};

struct pw {
	struct minfo *mi;
	size_t nmi, capmi;
	size_t *bym;               /* open addressing: minfo index + 1 by match pointer */
	size_t nbm;
	char (*prefix)[200];       /* per port: pci_address, netdev, port labels */
	size_t *plen;
};

static int cmp_mi_name(const void *a, const void *b, void *arg)
{
	const struct pw *w = arg;

	return strcmp(w->mi[*(const size_t *)a].name, w->mi[*(const size_t *)b].name);
}

static size_t m_home(const struct mlx_cat_match *m, size_t nb)
{
	return (size_t)(((uintptr_t)m >> 4) * 0x9e3779b97f4a7c15ULL) & (nb - 1);
}

/* The minfo of @m, made when new; SIZE_MAX out of memory. */
static size_t minfo_of(struct pw *w, const struct mlx_cat_match *m)
{
	struct minfo *e;
	size_t k, o = 0;

	if ((w->nmi + 1) * 2 > w->nbm) {
		size_t nb = w->nbm ? w->nbm * 2 : 256;
		size_t *b = calloc(nb, sizeof(*b));

		if (!b)
			return SIZE_MAX;
		for (size_t i = 0; i < w->nmi; i++) {
			for (k = m_home(w->mi[i].m, nb); b[k]; k = (k + 1) & (nb - 1))
				;
			b[k] = i + 1;
		}
		free(w->bym);
		w->bym = b;
		w->nbm = nb;
	}
	for (k = m_home(m, w->nbm); w->bym[k]; k = (k + 1) & (w->nbm - 1))
		if (w->mi[w->bym[k] - 1].m == m)
			return w->bym[k] - 1;
	if (w->nmi == w->capmi) {
		size_t cap = w->capmi ? w->capmi * 2 : 64;
		struct minfo *nv = realloc(w->mi, cap * sizeof(*nv));

		if (!nv)
			return SIZE_MAX;
		w->mi = nv;
		w->capmi = cap;
	}
	e = &w->mi[w->nmi];
	e->m = m;
	prom_metric_name(m, e->name, sizeof(e->name), &e->counter);
	e->nlen = strlen(e->name);
	e->suffix[0] = '\0';
	for (unsigned l = 0; l < m->nlabels; l++) {
		char esc[96];
		int n;

		prom_escape_label(esc, sizeof(esc), m->labels[l].value);
		n = snprintf(e->suffix + (o < sizeof(e->suffix) ? o : sizeof(e->suffix) - 1),
			     o < sizeof(e->suffix) ? sizeof(e->suffix) - o : 1, ",%s=\"%s\"",
			     m->labels[l].name, esc);
		o += (size_t)n;
	}
	e->slen = o;          /* as long as it would be: may exceed the buffer */
	w->bym[k] = ++w->nmi;
	return w->nmi - 1;
}

static void pw_free(struct pw *w)
{
	free(w->mi);
	free(w->bym);
	free(w->prefix);
	free(w->plen);
}

/* Decimal digits of @v into @buf (24 bytes); its length. */
static size_t u64_str(char *buf, uint64_t v)
{
	char tmp[24], *p = tmp + sizeof(tmp);
	size_t n;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}

static void value_str(const struct mlx_counter *c, char *buf, size_t len)
{
	const char *u = c->m->unit;
	double div = !strcmp(u, "microseconds") ? 1e6 : !strcmp(u, "milliseconds") ? 1e3 :
		     !strcmp(u, "nanoseconds") ? 1e9 : 0;

	if (div)
		snprintf(buf, len, "%.6f", (double)c->value / div);
	else if (len >= 24)
		u64_str(buf, c->value);
	else
		snprintf(buf, len, "%" PRIu64, c->value);
}

static void help_text(const struct mlx_cat_match *m, char *buf, size_t len)
{
	char raw[400];

	if (!m->e)
		snprintf(raw, sizeof(raw), "counters mlxcli has no catalogue entry for "
			 "(labels source and name); type and unit unknown");
	else if (m->e->lvalue)
		snprintf(raw, sizeof(raw), "frames received on the wire, by size in bytes (label size)");
	else
		snprintf(raw, sizeof(raw), "%s%s (unit: %s%s)", m->prefix, m->e->desc,
			 !strcmp(m->unit, "microseconds") || !strcmp(m->unit, "milliseconds") ?
			 "seconds, converted from " : "", m->unit);
	escape_help(buf, len, raw);
}

/* A series is its port's labels and its counter's label suffix. */
static uint64_t series_hash(const struct pw *w, const struct sample *x)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *c = w->prefix[x->port]; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	for (const char *c = w->mi[x->mi].suffix; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static bool same_series(const struct pw *w, const struct sample *x, const struct sample *y)
{
	return (x->port == y->port || !strcmp(w->prefix[x->port], w->prefix[y->port])) &&
	       (x->mi == y->mi || !strcmp(w->mi[x->mi].suffix, w->mi[y->mi].suffix));
}

/*
 * Every valid counter @keep accepts, grouped into families: HELP and TYPE
 * once a family, its samples in the order of the ports and counters.  A
 * sample whose labels would pass 511 bytes is left out, and the same
 * series twice (same name, same labels) is written once: either would
 * make the file invalid.  Names, label suffixes and the names' order are
 * computed once per catalogue match, the port labels once per port, and
 * a repeated series is found through a hash of the family's own samples
 * (2,001 veths made 80,000 samples, each compared with every earlier one
 * of its family: 2.8 s).
 */
int prom_write(FILE *fp, const struct mlx_counters *cs, prom_filter_fn keep, void *arg)
{
	struct pw w = { 0 };
	struct sample *v = NULL;
	struct sample *sorted = NULL;
	size_t n = 0, cap = 0, written = 0, *ranks = NULL, *seen = NULL, nseen = 0;
	int r = -ENOMEM;

	w.prefix = calloc(cs->nports ? cs->nports : 1, sizeof(*w.prefix));
	w.plen = calloc(cs->nports ? cs->nports : 1, sizeof(*w.plen));
	if (!w.prefix || !w.plen)
		goto out;
	for (size_t i = 0; i < cs->nports; i++) {
		const struct mlx_counter_port *p = &cs->ports[i];
		char dev[64], nd[64];

		if (p->gone)
			continue;
		prom_escape_label(dev, sizeof(dev), p->bdf);
		prom_escape_label(nd, sizeof(nd), p->ifname);
		w.plen[i] = (size_t)snprintf(w.prefix[i], sizeof(w.prefix[i]),
					     "pci_address=\"%s\",netdev=\"%s\",port=\"%d\"",
					     dev, nd, p->port_label);
		for (size_t k = 0; k < p->n; k++) {
			const struct mlx_counter *c = &p->c[k];
			size_t mi;

			if (!c->valid || (keep && !keep(c, arg)))
				continue;
			mi = minfo_of(&w, c->m);
			if (mi == SIZE_MAX)
				goto out;
			/* labels of 512 bytes or more do not fit a line */
			if (w.plen[i] + w.mi[mi].slen >= 512)
				continue;
			if (n == cap) {
				struct sample *nv;

				cap = cap ? cap * 2 : 1024;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv)
					goto out;
				v = nv;
			}
			v[n] = (struct sample){ (unsigned)mi, (unsigned)i, c, n };
			n++;
		}
	}
	/* rank the names, then group the samples by rank, in order (a
	 * counting sort: stable, one pass) */
	ranks = malloc((w.nmi ? w.nmi : 1) * sizeof(*ranks));
	if (!ranks)
		goto out;
	for (size_t i = 0; i < w.nmi; i++)
		ranks[i] = i;
	qsort_r(ranks, w.nmi, sizeof(*ranks), cmp_mi_name, &w);
	for (size_t i = 0; i < w.nmi; i++)
		w.mi[ranks[i]].rank = i && !strcmp(w.mi[ranks[i]].name, w.mi[ranks[i - 1]].name) ?
				      w.mi[ranks[i - 1]].rank : (unsigned)i;
	if (n) {
		size_t *at = calloc(w.nmi + 1, sizeof(*at));

		sorted = malloc(n * sizeof(*sorted));
		if (!at || !sorted) {
			free(at);
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			at[w.mi[v[i].mi].rank + 1]++;
		for (size_t i = 1; i <= w.nmi; i++)
			at[i] += at[i - 1];
		for (size_t i = 0; i < n; i++)
			sorted[at[w.mi[v[i].mi].rank]++] = v[i];
		free(at);
		free(v);
		v = sorted;
		sorted = NULL;
	}
	for (size_t i = 0, end; i < n; i = end) {
		const struct minfo *first = &w.mi[v[i].mi];
		char help[512];
		size_t nb = 16;

		for (end = i + 1; end < n && w.mi[v[end].mi].rank == first->rank; end++)
			;
		help_text(first->m, help, sizeof(help));
		fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", first->name, help, first->name,
			first->counter ? "counter" : first->m->e ? "gauge" : "untyped");
		while (nb < 2 * (end - i))
			nb *= 2;
		if (nb > nseen) {
			free(seen);
			seen = malloc(nb * sizeof(*seen));
			if (!seen)
				goto out;
			nseen = nb;
		}
		memset(seen, 0, nb * sizeof(*seen));
		for (size_t j = i; j < end; j++) {
			const struct minfo *mi = &w.mi[v[j].mi];
			char line[1024], val[48];
			size_t k, len, vlen, plen;
			bool dup = false;

			for (k = series_hash(&w, &v[j]) & (nb - 1); seen[k]; k = (k + 1) & (nb - 1))
				if (same_series(&w, &v[seen[k] - 1], &v[j])) {
					dup = true;
					break;
				}
			if (dup)
				continue;
			seen[k] = j + 1;
			value_str(v[j].c, val, sizeof(val));
			vlen = strlen(val);
			plen = w.plen[v[j].port];
			len = mi->nlen + 1 + plen + mi->slen + 2 + vlen + 1;
			if (len <= sizeof(line)) {
				/* name{labels} value: pieces of known length */
				char *q = line;

				memcpy(q, mi->name, mi->nlen);
				q += mi->nlen;
				*q++ = '{';
				memcpy(q, w.prefix[v[j].port], plen);
				q += plen;
				memcpy(q, mi->suffix, mi->slen);
				q += mi->slen;
				*q++ = '}';
				*q++ = ' ';
				memcpy(q, val, vlen);
				q += vlen;
				*q++ = '\n';
				fwrite(line, 1, (size_t)(q - line), fp);
			} else {
				fprintf(fp, "%s{%s%s} %s\n", mi->name, w.prefix[v[j].port], mi->suffix,
					val);
			}
			written++;
		}
	}
	r = (int)written;
out:
	free(sorted);
	free(seen);
	free(ranks);
	free(v);
	pw_free(&w);
	return r;
}
