/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli diff A B`: the settings that differ between two states (issue
 * 19).  A and B are each a `state -j` file, or a captured system: a
 * --sysroot directory, a snapshot, or a dump-me-now incident (its
 * snapshot/), whose state is rendered by the same code as `mlxcli state`
 * (cmd/state.c) and read back, so there is one schema and one reader.
 *
 * Each port's document is flattened into settings named by the text
 * form's paths (pfc.cable_length_m, dcqcn.rp.rpg_ai_rate, tcs.3.tsa,
 * sriov.vfs.2.vlan): lists of objects are keyed by their identifying key
 * (a TC, a VF, a DCQCN parameter's name, a DSCP), a list of numbers or
 * booleans is compared element by element, and the set of PFC priorities
 * priority by priority.  So every difference is one scalar, old and new,
 * as a change record has it.  Ports are matched by PCI address, or with
 * --match by netdev or by position (the Nth port of A with the Nth of B:
 * two hosts of one build, whatever slots their adapters sit in).
 *
 * Exit status as diff(1): 0 equal, 1 different, 2 an input that is not a
 * state or a captured system.
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "state-cmd.h"

/* ---- loading A and B ---- */

/* The state of the captured system at @root, rendered as `state -j`. */
static int render_root(struct cli *cli, const char *root, json_t **doc)
{
	struct cli sub;
	char *err = NULL, *buf = NULL;
	size_t len = 0;
	json_error_t je;
	FILE *mem;
	int r;

	memset(&sub, 0, sizeof(sub));
	sub.err_fp = cli->err_fp;
	sub.json = true;
	r = mlx_ctx_new(root, &sub.ctx, &err);
	if (r < 0) {
		cli_error(cli, "cannot read the captured system %s: %s", root,
			  err ? err : strerror(-r));
		free(err);
		return EXIT_USAGE;
	}
	mem = open_memstream(&buf, &len);
	if (!mem) {
		mlx_ctx_free(sub.ctx);
		return cli_fail(cli, -errno, "cannot allocate memory");
	}
	sub.out_fp = mem;
	sub.out = out_new(true, false, mem);
	r = sub.out ? state_render(&sub, NULL) : EXIT_FAIL;
	if (r == EXIT_OK && out_finish(sub.out) < 0)
		r = EXIT_FAIL;
	out_free(sub.out);
	fclose(mem);
	if (sub.scanned)
		mlx_devices_free(&sub.devs);
	mlx_ctx_free(sub.ctx);
	if (r == EXIT_OK) {
		*doc = json_loadb(buf, len, 0, &je);
		if (!*doc) {
			cli_error(cli, "the state of %s is not valid JSON: %s", root, je.text);
			r = EXIT_FAIL;
		}
	}
	free(buf);
	return r;
}

int state_doc(struct cli *cli, const char *const *netdevs, size_t nnetdev, json_t **doc)
{
	struct out *saved = cli->out;
	char *buf = NULL;
	size_t len = 0;
	json_error_t je;
	FILE *mem = open_memstream(&buf, &len);
	int r;

	*doc = NULL;
	if (!mem)
		return cli_fail(cli, -errno, "cannot allocate memory");
	cli->out = out_new(true, false, mem);
	r = cli->out ? state_render_ports(cli, NULL, true, netdevs, nnetdev) : EXIT_FAIL;
	if (r == EXIT_OK && out_finish(cli->out) < 0)
		r = EXIT_FAIL;
	out_free(cli->out);
	cli->out = saved;
	fclose(mem);
	if (r == EXIT_OK && !(*doc = json_loadb(buf, len, 0, &je))) {
		cli_error(cli, "the state is not valid JSON: %s", je.text);
		r = EXIT_FAIL;
	}
	free(buf);
	return r;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A or B, whatever it is, as a state document with a "ports" list. */
static int load(struct cli *cli, const char *arg, json_t **doc)
{
	json_error_t je;
	char sub[4096];

	*doc = NULL;
	if (is_dir(arg)) {
		/* a dump-me-now incident holds its system in snapshot/ */
		snprintf(sub, sizeof(sub), "%s/snapshot", arg);
		return render_root(cli, is_dir(sub) ? sub : arg, doc);
	}
	*doc = json_load_file(arg, 0, &je);
	if (!*doc) {
		cli_error(cli, "cannot read %s: %s%s", arg, je.text,
			  errno == ENOENT ? "" : " (give a 'mlxcli state -j' file or a captured "
			  "system's directory)");
		return EXIT_USAGE;
	}
	if (!json_is_array(json_object_get(*doc, "ports"))) {
		cli_error(cli, "%s is not a state: it has no \"ports\" list (make one with "
			  "'mlxcli state -j')", arg);
		json_decref(*doc);
		*doc = NULL;
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* ---- flattening a port into settings ---- */

/* The key that names an element of a list of objects, by the list's key. */
const char *state_element_key(const char *list)
{
	static const struct { const char *list, *key; } keys[] = {
		{ "tcs", "tc" }, { "vfs", "vf" }, { "parameters", "name" }, { "dscp2prio", "dscp" },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(list, keys[i].list))
			return keys[i].key;
	return NULL;
}

/* Facts about the port, not settings: never a difference. */
static bool not_a_setting(const char *key)
{
	return !strcmp(key, "pci_address") || !strcmp(key, "netdev") || !strcmp(key, "layout") ||
	       !strcmp(key, "source");
}

static void join(char *buf, size_t len, const char *pfx, const char *name)
{
	snprintf(buf, len, "%s%s%s", pfx, *pfx ? "." : "", name);
}

static void flatten(json_t *flat, const char *pfx, const char *key, json_t *v);

static void flatten_list(json_t *flat, const char *path, const char *key, json_t *v)
{
	const char *ek = state_element_key(key);
	char p[256], idx[32];
	size_t i;
	json_t *x;

	if (!strcmp(key, "enabled_priorities")) {
		/* a set of priorities: is each one in it? */
		bool in[8] = { false };

		json_array_foreach(v, i, x)
			if (json_is_integer(x) && json_integer_value(x) >= 0 && json_integer_value(x) < 8)
				in[json_integer_value(x)] = true;
		for (int pr = 0; pr < 8; pr++) {
			snprintf(idx, sizeof(idx), "%d", pr);
			join(p, sizeof(p), path, idx);
			json_object_set_new(flat, p, json_boolean(in[pr]));
		}
		return;
	}
	json_array_foreach(v, i, x) {
		json_t *id = ek && json_is_object(x) ? json_object_get(x, ek) : NULL;

		if (json_is_string(id))
			snprintf(idx, sizeof(idx), "%s", json_string_value(id));
		else if (json_is_integer(id))
			snprintf(idx, sizeof(idx), "%lld", (long long)json_integer_value(id));
		else
			snprintf(idx, sizeof(idx), "%zu", i);
		join(p, sizeof(p), path, idx);
		if (json_is_object(x) && ek) {
			/* {dscp, priority}, {name, value}: the element is one setting */
			const char *one = !strcmp(key, "dscp2prio") ? "priority" :
					  !strcmp(key, "parameters") ? "value" : NULL;
			const char *k;
			json_t *y;

			if (one) {
				json_object_set(flat, p, json_object_get(x, one));
				continue;
			}
			json_object_foreach(x, k, y)
				if (strcmp(k, ek))
					flatten(flat, p, k, y);
			continue;
		}
		flatten(flat, path, idx, x);
	}
}

static void flatten(json_t *flat, const char *pfx, const char *key, json_t *v)
{
	char path[256];
	const char *k;
	json_t *x;

	if (not_a_setting(key))
		return;
	join(path, sizeof(path), pfx, key);
	if (json_is_object(v)) {
		json_object_foreach(v, k, x)
			flatten(flat, path, k, x);
	} else if (json_is_array(v)) {
		/* DCQCN parameters sit beside their side's enable: dcqcn.rp.NAME */
		flatten_list(flat, !strcmp(key, "parameters") ? pfx : path, key, v);
	} else {
		json_object_set(flat, path, v);
	}
}

/* How the ports of A are paired with those of B (--match). */
enum match { MATCH_PCI, MATCH_NETDEV, MATCH_POSITION };

static const char *const match_names[] = { "pci", "netdev", "position", NULL };

const struct cmd_opt diff_opts[] = {
	{ "match", 0, "HOW", "pair the ports of A and B by pci (address, the default), netdev, "
	  "or position (the Nth port of each: two hosts port by port)", match_names },
	{ NULL, 0, NULL, NULL, NULL },
};

/* The ports of a document keyed as @m pairs them:
 * {pci_address, netdev, settings (flattened)}.  A port without a netdev
 * keeps its address as the key under --match netdev (it pairs only with
 * the same address). */
static json_t *ports_by(json_t *doc, enum match m)
{
	json_t *ports = json_object(), *p, *flat, *nd;
	const char *k, *key;
	char pos[32];
	size_t i;
	json_t *x;

	json_array_foreach(json_object_get(doc, "ports"), i, p) {
		const char *addr = json_string_value(json_object_get(p, "pci_address"));

		nd = json_object_get(p, "netdev");
		/* a netdev that is no PCI function (state --any-netdev): its name
		 * (no address has one: an ifname holds no ':') */
		if (!addr && !json_is_string(nd))
			continue;
		snprintf(pos, sizeof(pos), "%zu", i);
		key = m == MATCH_POSITION ? pos : (m == MATCH_NETDEV || !addr) && json_is_string(nd) ?
		      json_string_value(nd) : addr;
		flat = json_object();
		json_object_foreach(p, k, x)
			flatten(flat, "", k, x);
		json_object_set_new(ports, key, json_pack("{s:s?,s:O,s:o}", "pci_address", addr,
							  "netdev", nd ?: json_null(),
							  "settings", flat));
	}
	return ports;
}

/* ---- output ---- */

static void value_text(json_t *v, char *buf, size_t len)
{
	if (!v || json_is_null(v))
		snprintf(buf, len, "-");
	else if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else
		snprintf(buf, len, "%g", json_number_value(v));
}

static void out_value(struct out *o, const char *key, const char *fmt, json_t *v)
{
	char buf[128];

	value_text(v, buf, sizeof(buf));
	if (!v || json_is_null(v))
		out_fmt_null(o, OUT_ANY, key, fmt);
	else if (json_is_boolean(v))
		out_fmt_bool(o, OUT_ANY, key, fmt, json_is_true(v));
	else if (json_is_integer(v) && json_integer_value(v) >= 0)
		out_fmt_u64(o, OUT_ANY, key, fmt, (uint64_t)json_integer_value(v));
	else
		out_fmt_str(o, OUT_ANY, key, fmt, buf);
}

static bool same(json_t *a, json_t *b)
{
	if (!a || !b)
		return !a && !b;
	return json_equal(a, b);
}

struct diffrun {
	struct out *o;
	const char *a, *b;      /* the inputs as given */
	size_t n;               /* differences so far */
	bool by_selector;       /* --match netdev or position: B's port may be another */
};

static const char *str_of(json_t *port, const char *key)
{
	json_t *v = port ? json_object_get(port, key) : NULL;

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* One port's differences (@pa or @pb NULL: the port is in one only): named
 * by A's port (B's when only in B), and with --match by B's too. */
static void diff_port(struct diffrun *d, json_t *pa, json_t *pb)
{
	json_t *fa = pa ? json_object_get(pa, "settings") : NULL;
	json_t *fb = pb ? json_object_get(pb, "settings") : NULL;
	const char *addr = str_of(pa ? pa : pb, "pci_address");
	const char *netdev = str_of(pa ? pa : pb, "netdev");
	const char *baddr = str_of(pb, "pci_address"), *bnetdev = str_of(pb, "netdev");
	/* paired with another port: the hunk names both, as -A +B */
	bool two = d->by_selector && pa && pb &&
		   (strcmp(addr ?: "", baddr ?: "") || strcmp(netdev ?: "", bnetdev ?: ""));
	const char *k;
	size_t before = d->n;
	struct out *o = d->o;
	json_t *va, *vb;

	/* A's settings in A's order, then those only B has */
	for (int pass = 0; pass < 2; pass++) {
		json_t *from = pass ? fb : fa;

		if (!from)
			continue;
		json_object_foreach(from, k, va) {
			char fmt[300];

			if (pass && fa && json_object_get(fa, k))
				continue;
			va = fa ? json_object_get(fa, k) : NULL;
			vb = fb ? json_object_get(fb, k) : NULL;
			if (same(va, vb))
				continue;
			/* as diff -u: the headers only when something differs */
			if (!d->n++)
				out_printf(o, "--- %s\n+++ %s\n", d->a, d->b);
			if (d->n - 1 == before && two)
				out_printf(o, "@@ -%s %s +%s %s @@\n", addr ?: "-", netdev ?: "-",
					   baddr ?: "-", bnetdev ?: "-");
			else if (d->n - 1 == before)
				out_printf(o, "@@ %s %s%s @@\n", addr ?: "-", netdev ?: "-",
					   !fa ? " (only in B)" : !fb ? " (only in A)" : "");
			out_obj_begin(o, NULL, NULL);
			out_fmt_str(o, OUT_JSON, "pci_address", NULL, addr);
			out_fmt_str(o, OUT_JSON, "netdev", NULL, netdev);
			if (d->by_selector) {
				out_fmt_str(o, OUT_JSON, "new_pci_address", NULL, baddr);
				out_fmt_str(o, OUT_JSON, "new_netdev", NULL, bnetdev);
			}
			out_fmt_str(o, OUT_JSON, "setting", NULL, k);
			snprintf(fmt, sizeof(fmt), "-%s = %%s\n", k);
			if (fa)
				out_value(o, "old", fmt, va);
			else
				out_fmt_null(o, OUT_JSON, "old", NULL);
			snprintf(fmt, sizeof(fmt), "+%s = %%s\n", k);
			if (fb)
				out_value(o, "new", fmt, vb);
			else
				out_fmt_null(o, OUT_JSON, "new", NULL);
			out_obj_end(o);
		}
	}
}

/* state_diff_docs() with the ports paired as @m says. */
static size_t diff_docs(struct cli *cli, const char *a_name, const char *b_name, json_t *a,
			json_t *b, enum match m)
{
	struct diffrun d = { cli->out, a_name, b_name, 0, m != MATCH_PCI };
	json_t *pa = ports_by(a, m), *pb = ports_by(b, m), *p;
	const char *key;

	out_list_begin(cli->out, "differences", NULL);
	json_object_foreach(pa, key, p)
		diff_port(&d, p, json_object_get(pb, key));
	json_object_foreach(pb, key, p)
		if (!json_object_get(pa, key))
			diff_port(&d, NULL, p);
	out_list_end(cli->out);
	json_decref(pa);
	json_decref(pb);
	return d.n;
}

size_t state_diff_docs(struct cli *cli, const char *a_name, const char *b_name, json_t *a,
		       json_t *b)
{
	return diff_docs(cli, a_name, b_name, a, b, MATCH_PCI);
}

int cmd_diff(struct cli *cli, int argc, char **argv)
{
	const char *how = cli_opt(cli, "match");
	enum match m = MATCH_PCI;
	json_t *a = NULL, *b = NULL;
	size_t n;
	int r;

	if (argc != 2)
		return EXIT_USAGE;
	/* the option's choices are checked before the command runs */
	for (int i = 0; how && match_names[i]; i++)
		if (!strcmp(how, match_names[i]))
			m = (enum match)i;
	r = load(cli, argv[0], &a);
	if (!r)
		r = load(cli, argv[1], &b);
	if (r) {
		json_decref(a);
		return r;
	}
	n = diff_docs(cli, argv[0], argv[1], a, b, m);
	json_decref(a);
	json_decref(b);
	if (!n)
		return EXIT_OK;
	/* as diff(1): different is 1, and the differences are the output */
	r = out_finish(cli->out);
	return r < 0 ? cli_fail(cli, r, "cannot write the output") : EXIT_FAIL;
}
