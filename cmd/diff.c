/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli diff A B`: the settings that differ between two states (issue
 * 19).  A and B are each a `state -j` file, or a captured system: a
 * --sysroot directory, a snapshot, or a dump-me-now incident (its
 * snapshot/).  Either becomes the settings model (lib/settings.h): a file
 * through the one reader of state documents (cmd/settings-json.c, the
 * validators apply uses), a captured system read as `mlxcli state` reads
 * it; no JSON is written to be read back.
 *
 * Each port's model is flattened by lib (mlx_settings_flatten) into
 * settings named by the text form's paths (pfc.cable_length_m,
 * dcqcn.rp.rpg_ai_rate, tcs.3.tsa, sriov.vfs.2.vlan): lists keyed by their
 * identifying key (a TC, a VF, a DCQCN parameter's name, a DSCP), the set
 * of PFC priorities priority by priority.  So every difference is one
 * scalar, old and new, as a change record has it.  Ports are matched by PCI address, or with
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
#include "settings-cmd.h"
#include "state-cmd.h"

/* ---- states ---- */

int state_ports_add(struct state_ports *sp, struct mlx_port_settings *p)
{
	if (sp->n == sp->cap) {
		size_t cap = sp->cap ? 2 * sp->cap : 8;
		struct mlx_port_settings **v = realloc(sp->p, cap * sizeof(*v));

		if (!v) {
			mlx_port_settings_free(p);
			return -ENOMEM;
		}
		sp->p = v;
		sp->cap = cap;
	}
	sp->p[sp->n++] = p;
	return 0;
}

void state_ports_free(struct state_ports *sp)
{
	for (size_t i = 0; i < sp->n; i++)
		mlx_port_settings_free(sp->p[i]);
	free(sp->p);
	memset(sp, 0, sizeof(*sp));
}

struct collect {
	struct state_ports *sp;
	int err;
};

static void collect(void *arg, struct mlx_port_settings *p)
{
	struct collect *c = arg;

	if (state_ports_add(c->sp, p) < 0)
		c->err = -ENOMEM;
}

int state_read(struct cli *cli, const char *const *netdevs, size_t nnetdev, struct state_ports *sp)
{
	struct collect c = { sp, 0 };
	int r = state_for_ports(cli, NULL, true, netdevs, nnetdev, collect, &c);

	if (r == EXIT_OK && c.err)
		r = cli_fail(cli, c.err, "cannot allocate memory");
	return r;
}

/* The state of the captured system at @root, read as `state` reads it. */
static int read_root(struct cli *cli, const char *root, struct state_ports *sp)
{
	struct cli sub;
	char *err = NULL;
	int r;

	memset(&sub, 0, sizeof(sub));
	sub.err_fp = cli->err_fp;
	sub.out_fp = cli->out_fp;
	sub.json = true;
	r = mlx_ctx_new(root, &sub.ctx, &err);
	if (r < 0) {
		cli_error(cli, "cannot read the captured system %s: %s", root,
			  err ? err : strerror(-r));
		free(err);
		return EXIT_USAGE;
	}
	r = state_read(&sub, NULL, 0, sp);
	if (sub.scanned)
		mlx_devices_free(&sub.devs);
	mlx_ctx_free(sub.ctx);
	return r;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A or B, whatever it is, as the ports of a state. */
static int load(struct cli *cli, const char *arg, struct state_ports *sp)
{
	struct doc d = { 0 };
	json_error_t je;
	char sub[4096];
	json_t *root;
	int r;

	if (is_dir(arg)) {
		/* a dump-me-now incident holds its system in snapshot/ */
		snprintf(sub, sizeof(sub), "%s/snapshot", arg);
		return read_root(cli, is_dir(sub) ? sub : arg, sp);
	}
	root = json_load_file(arg, 0, &je);
	if (!root) {
		cli_error(cli, "cannot read %s: %s%s", arg, je.text,
			  errno == ENOENT ? "" : " (give a 'mlxcli state -j' file or a captured "
			  "system's directory)");
		return EXIT_USAGE;
	}
	if (!json_is_array(json_object_get(root, "ports"))) {
		cli_error(cli, "%s is not a state: it has no \"ports\" list (make one with "
			  "'mlxcli state -j')", arg);
		json_decref(root);
		return EXIT_USAGE;
	}
	r = doc_parse(cli, arg, root, "", &d);
	for (size_t i = 0; r == EXIT_OK && i < d.n; i++) {
		if (state_ports_add(sp, d.p[i].want) < 0)
			r = cli_fail(cli, -ENOMEM, "cannot allocate memory");
		d.p[i].want = NULL;
	}
	doc_free(&d);
	return r;
}

/* ---- a port's settings ---- */

struct setting {
	char *path;
	struct mlx_val v;
};

struct fport {
	const char *key;
	const char *pci, *netdev;         /* NULL: none */
	struct setting *s;
	size_t n, cap;
	size_t *hash;                     /* open addressing: index + 1, 0 free */
	size_t hcap;
};

static void on_setting(void *arg, const char *path, const struct mlx_val *v)
{
	struct fport *f = arg;

	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		struct setting *s = realloc(f->s, cap * sizeof(*s));

		if (!s)
			return;
		f->s = s;
		f->cap = cap;
	}
	f->s[f->n].path = strdup(path);
	if (!f->s[f->n].path)
		return;
	f->s[f->n++].v = *v;
}

static size_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return (size_t)h;
}

/* An index of the settings by path (a later one of a path wins, as a
 * JSON object's key would). */
static void index_port(struct fport *f)
{
	f->hcap = 16;
	while (f->hcap < 2 * f->n)
		f->hcap *= 2;
	f->hash = calloc(f->hcap, sizeof(*f->hash));
	for (size_t i = 0; f->hash && i < f->n; i++) {
		size_t h = fnv(f->s[i].path) & (f->hcap - 1);

		while (f->hash[h] && strcmp(f->s[f->hash[h] - 1].path, f->s[i].path))
			h = (h + 1) & (f->hcap - 1);
		f->hash[h] = i + 1;
	}
}

static const struct setting *find(const struct fport *f, size_t hint, const char *path)
{
	size_t h;

	if (!f)
		return NULL;
	/* the same host's ports list the same settings in the same order */
	if (hint < f->n && !strcmp(f->s[hint].path, path))
		return &f->s[hint];
	if (!f->hash)
		return NULL;
	for (h = fnv(path) & (f->hcap - 1); f->hash[h]; h = (h + 1) & (f->hcap - 1))
		if (!strcmp(f->s[f->hash[h] - 1].path, path))
			return &f->s[f->hash[h] - 1];
	return NULL;
}

static void fport_free(struct fport *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->s[i].path);
	free(f->s);
	free(f->hash);
}

/* How the ports of A are paired with those of B (--match). */
enum match { MATCH_PCI, MATCH_NETDEV, MATCH_POSITION };

static const char *const match_names[] = { "pci", "netdev", "position", NULL };

const struct cmd_opt diff_opts[] = {
	{ "match", 0, "HOW", "pair the ports of A and B by pci (address, the default), netdev, "
	  "or position (the Nth port of each: two hosts port by port)", match_names },
	{ NULL, 0, NULL, NULL, NULL },
};

struct fports {
	struct fport *p;
	size_t n;
	char (*keys)[32];
};

/* The ports of a state keyed as @m pairs them.  A port without a netdev
 * keeps its address as the key under --match netdev (it pairs only with
 * the same address); one with neither is left out. */
static void ports_by(const struct state_ports *sp, enum match m, struct fports *out)
{
	out->p = calloc(sp->n + 1, sizeof(*out->p));
	out->keys = calloc(sp->n + 1, sizeof(*out->keys));
	out->n = 0;
	if (!out->p || !out->keys)
		return;
	for (size_t i = 0; i < sp->n; i++) {
		const struct mlx_port_settings *p = sp->p[i];
		const char *addr = p->pci_address[0] ? p->pci_address : NULL;
		const char *nd = p->netdev[0] ? p->netdev : NULL;
		struct fport *f = NULL;
		char key[32];

		/* a netdev that is no PCI function (state --any-netdev): its name
		 * (no address has one: an ifname holds no ':') */
		if (!addr && !nd)
			continue;
		if (m == MATCH_POSITION)
			snprintf(key, sizeof(key), "%zu", i);
		else
			snprintf(key, sizeof(key), "%s", (m == MATCH_NETDEV || !addr) && nd ? nd : addr);
		/* a key twice: the later port, in the place of the first */
		for (size_t k = 0; k < out->n && !f; k++)
			if (!strcmp(out->keys[k], key))
				f = &out->p[k];
		if (f)
			fport_free(f);
		else
			f = &out->p[out->n++];
		memset(f, 0, sizeof(*f));
		snprintf(out->keys[f - out->p], sizeof(out->keys[0]), "%s", key);
		f->key = out->keys[f - out->p];
		f->pci = addr;
		f->netdev = nd;
		mlx_settings_flatten(p, on_setting, f);
		index_port(f);
	}
}

static void fports_free(struct fports *fp)
{
	for (size_t i = 0; i < fp->n; i++)
		fport_free(&fp->p[i]);
	free(fp->p);
	free(fp->keys);
}

static const struct fport *port_of(const struct fports *fp, const char *key)
{
	for (size_t i = 0; i < fp->n; i++)
		if (!strcmp(fp->p[i].key, key))
			return &fp->p[i];
	return NULL;
}

/* ---- output ---- */

static bool same(const struct setting *a, const struct setting *b)
{
	if (!a || !b)
		return !a && !b;
	return mlx_val_eq(&a->v, &b->v);
}

struct diffrun {
	struct cli *cli;
	struct out *o;
	const char *a, *b;      /* the inputs as given */
	size_t n;               /* differences so far */
	bool by_selector;       /* --match netdev or position: B's port may be another */
};

static void out_value(struct diffrun *d, const char *key, const char *fmt, const struct setting *s)
{
	struct mlx_val null = mlx_val_null();

	cli_out_fmt_val(d->o, OUT_ANY, key, fmt, s ? &s->v : &null);
}

/* One port's differences (@pa or @pb NULL: the port is in one only): named
 * by A's port (B's when only in B), and with --match by B's too. */
static void diff_port(struct diffrun *d, const struct fport *pa, const struct fport *pb)
{
	const char *addr = (pa ? pa : pb)->pci, *netdev = (pa ? pa : pb)->netdev;
	const char *baddr = pb ? pb->pci : NULL, *bnetdev = pb ? pb->netdev : NULL;
	/* paired with another port: the hunk names both, as -A +B */
	bool two = d->by_selector && pa && pb &&
		   (strcmp(addr ?: "", baddr ?: "") || strcmp(netdev ?: "", bnetdev ?: ""));
	size_t before = d->n;
	struct out *o = d->o;

	/* A's settings in A's order, then those only B has */
	for (int pass = 0; pass < 2; pass++) {
		const struct fport *from = pass ? pb : pa;

		for (size_t i = 0; from && i < from->n; i++) {
			const char *k = from->s[i].path;
			const struct setting *va, *vb;
			char fmt[300];

			if (pass && find(pa, i, k))
				continue;
			va = find(pa, i, k);
			vb = find(pb, i, k);
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
					   !pa ? " (only in B)" : !pb ? " (only in A)" : "");
			out_obj_begin(o, NULL, NULL);
			out_fmt_str(o, OUT_JSON, "pci_address", NULL, addr);
			out_fmt_str(o, OUT_JSON, "netdev", NULL, netdev);
			if (d->by_selector) {
				out_fmt_str(o, OUT_JSON, "new_pci_address", NULL, baddr);
				out_fmt_str(o, OUT_JSON, "new_netdev", NULL, bnetdev);
			}
			out_fmt_str(o, OUT_JSON, "setting", NULL, k);
			snprintf(fmt, sizeof(fmt), "-%s = %%s\n", k);
			if (pa)
				out_value(d, "old", fmt, va);
			else
				out_fmt_null(o, OUT_JSON, "old", NULL);
			snprintf(fmt, sizeof(fmt), "+%s = %%s\n", k);
			if (pb)
				out_value(d, "new", fmt, vb);
			else
				out_fmt_null(o, OUT_JSON, "new", NULL);
			out_obj_end(o);
		}
	}
}

static size_t diff_states(struct cli *cli, const char *a_name, const char *b_name,
			  const struct state_ports *a, const struct state_ports *b, enum match m)
{
	struct diffrun d = { cli, cli->out, a_name, b_name, 0, m != MATCH_PCI };
	struct fports pa, pb;

	ports_by(a, m, &pa);
	ports_by(b, m, &pb);
	out_list_begin(cli->out, "differences", NULL);
	for (size_t i = 0; i < pa.n; i++)
		diff_port(&d, &pa.p[i], port_of(&pb, pa.p[i].key));
	for (size_t i = 0; i < pb.n; i++)
		if (!port_of(&pa, pb.p[i].key))
			diff_port(&d, NULL, &pb.p[i]);
	out_list_end(cli->out);
	fports_free(&pa);
	fports_free(&pb);
	return d.n;
}

size_t state_diff(struct cli *cli, const char *a_name, const char *b_name,
		  const struct state_ports *a, const struct state_ports *b)
{
	return diff_states(cli, a_name, b_name, a, b, MATCH_PCI);
}

int cmd_diff(struct cli *cli, int argc, char **argv)
{
	const char *how = cli_opt(cli, "match");
	struct state_ports a = { 0 }, b = { 0 };
	enum match m = MATCH_PCI;
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
		state_ports_free(&a);
		state_ports_free(&b);
		return r;
	}
	n = diff_states(cli, argv[0], argv[1], &a, &b, m);
	state_ports_free(&a);
	state_ports_free(&b);
	if (!n)
		return EXIT_OK;
	/* as diff(1): different is 1, and the differences are the output */
	r = out_finish(cli->out);
	return r < 0 ? cli_fail(cli, r, "cannot write the output") : EXIT_FAIL;
}
