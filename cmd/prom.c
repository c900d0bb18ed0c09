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

struct sample {
	char name[128];
	char labels[512];
	char value[40];
	const struct mlx_cat_match *m;
	bool counter;
	size_t order;
};

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void value_str(const struct mlx_counter *c, char *buf, size_t len)
{
	const char *u = c->m->unit;
	double div = !strcmp(u, "microseconds") ? 1e6 : !strcmp(u, "milliseconds") ? 1e3 :
		     !strcmp(u, "nanoseconds") ? 1e9 : 0;

	if (div)
		snprintf(buf, len, "%.6f", (double)c->value / div);
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

int prom_write(FILE *fp, const struct mlx_counters *cs, prom_filter_fn keep, void *arg)
{
	struct sample *v = NULL;
	size_t n = 0, cap = 0, written = 0;

	for (size_t i = 0; i < cs->nports; i++) {
		const struct mlx_counter_port *p = &cs->ports[i];
		char dev[64], nd[64];

		if (p->gone)
			continue;
		prom_escape_label(dev, sizeof(dev), p->bdf);
		prom_escape_label(nd, sizeof(nd), p->ifname);
		for (size_t k = 0; k < p->n; k++) {
			const struct mlx_counter *c = &p->c[k];
			struct sample *s;
			size_t o;

			if (!c->valid || (keep && !keep(c, arg)))
				continue;
			if (n == cap) {
				struct sample *nv;

				cap = cap ? cap * 2 : 1024;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
			}
			s = &v[n];
			s->m = c->m;
			s->order = n;
			prom_metric_name(c->m, s->name, sizeof(s->name), &s->counter);
			o = (size_t)snprintf(s->labels, sizeof(s->labels),
					     "pci_address=\"%s\",netdev=\"%s\",port=\"%d\"", dev, nd,
					     p->port_label);
			for (unsigned l = 0; l < c->m->nlabels && o < sizeof(s->labels); l++) {
				char esc[96];

				prom_escape_label(esc, sizeof(esc), c->m->labels[l].value);
				o += (size_t)snprintf(s->labels + o, sizeof(s->labels) - o, ",%s=\"%s\"",
						      c->m->labels[l].name, esc);
			}
			if (o >= sizeof(s->labels))
				continue;
			value_str(c, s->value, sizeof(s->value));
			n++;
		}
	}
	qsort(v, n, sizeof(*v), cmp_sample);
	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		if (i == 0 || strcmp(v[i].name, v[i - 1].name)) {
			char help[512];

			help_text(v[i].m, help, sizeof(help));
			fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", v[i].name, help, v[i].name,
				v[i].counter ? "counter" : v[i].m->e ? "gauge" : "untyped");
		} else {
			/* The same series twice would make the file invalid. */
			for (size_t k = i; k-- > 0 && !strcmp(v[k].name, v[i].name);)
				if (!strcmp(v[k].labels, v[i].labels)) {
					dup = true;
					break;
				}
		}
		if (dup)
			continue;
		fprintf(fp, "%s{%s} %s\n", v[i].name, v[i].labels, v[i].value);
		written++;
	}
	free(v);
	return (int)written;
}
