/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The items of a dump-me-now incident (cmd/dmn.c makes the folder): the
 * CR-space dump, devlink health, the DCQCN and PCI views, the raw PCI
 * state, the kernel log lines of the device, a snapshot.
 *
 * Each comes from lib, rendered by the same functions the commands use
 * into the item's file: the views run their command's handler on this
 * function with the output going to the item, never argv words parsed
 * again or a child's stderr read back.  The raw evidence (config space,
 * AER files, kernel log) is read by lib/debug/evidence.c through the
 * root-prefixed file access, so an incident of a captured system works.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmn-cmd.h"
#include "evidence.h"
#include "netview.h"
#include "progress.h"
#include "health-json.h"
#include "incident.h"
#include "rdma.h"
#include "sha256.h"
#include "snapshot.h"
#include "txn.h"
#include "vsec.h"

static int add_item(struct dmn_run *run, const char *name, const char *status, const char *reason,
		    int64_t size, const char *sha)
{
	int r = dmn_manifest_add(run->m, name, status, reason, size, sha);

	if (r < 0) {
		run->fatal = r;
		snprintf(run->fatal_what, sizeof(run->fatal_what), "cannot list '%s'", name);
	}
	return r;
}

/* Write @len bytes to a new file of the incident; a failure is fatal for
 * the incident (ENOSPC, EIO...).  Returns 0 or -errno. */
int dmn_write_file(struct dmn_run *run, const char *name, const void *data, size_t len,
		   char sha[65])
{
	const char *p = data;
	struct mlx_sha256 s;
	uint8_t d[32];
	size_t left = len;
	int fd, r = 0;

	fd = mlx_dmn_create(&run->inc, name);
	if (fd < 0) {
		r = fd;
		goto out;
	}
	while (left) {
		ssize_t w = write(fd, p, left);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r = w < 0 ? -errno : -EIO;
			break;
		}
		p += w;
		left -= (size_t)w;
	}
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && sha) {
		mlx_sha256_init(&s);
		mlx_sha256_update(&s, data, len);
		mlx_sha256_final(&s, d);
		mlx_sha256_hex(d, sha);
	}
out:
	if (r < 0) {
		run->fatal = r;
		snprintf(run->fatal_what, sizeof(run->fatal_what), "cannot write '%s'", name);
	}
	return r;
}

/* An item whose content is in memory: written, then listed as ok. */
static int item_data(struct dmn_run *run, const char *name, const void *data, size_t len)
{
	char sha[65];
	int r = dmn_write_file(run, name, data, len, sha);

	return r ? r : add_item(run, name, "ok", NULL, (int64_t)len, sha);
}

/* The status of an item whose source failed with @err. */
static const char *why_missing(int err)
{
	return err == -EACCES || err == -EPERM || err == -EOPNOTSUPP || err == -ENOENT ||
	       err == -ENODEV || err == -ENODATA ? "unavailable" : "failed";
}

/* The reason of an item whose source failed: lib's story, else errno's. */
static const char *lib_reason(struct mlx_ctx *ctx, int err, char *buf, size_t len)
{
	const char *msg = *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-err);

	snprintf(buf, len, "%s%s", err == -EPERM || err == -EACCES ? "permission: " : "", msg);
	mlx_err_clear(ctx);
	return buf;
}

/* ---- the views: a command's handler, its output into the item ---- */

/*
 * Run the read command @c (its handler and renderers) on @fn with its JSON
 * going to the item @name.  The command sees a copy of the dump's own cli:
 * the same context, device model and system, -d set to @fn, no options of
 * its own; its messages go nowhere (the item's status and lib's story say
 * what went wrong, in the manifest).
 */
static int item_cmd(struct dmn_run *run, const char *name, const struct cmd *c,
		    const struct mlx_function *fn)
{
	struct cli sub = *run->cli;
	char *obuf = NULL, *ebuf = NULL, reason[600];
	size_t olen = 0, elen = 0;
	FILE *o = open_memstream(&obuf, &olen), *e = open_memstream(&ebuf, &elen);
	int rc, r;

	if (!o || !e || !c || !c->fn) {
		if (o)
			fclose(o);
		if (e)
			fclose(e);
		free(obuf);
		free(ebuf);
		return c && c->fn ? -ENOMEM : -EINVAL;
	}
	sub.device = fn->bdf;
	sub.json = true;
	sub.pretty = false;
	sub.cmd = c;
	sub.optval = NULL;      /* none of the command's own options */
	sub.out_fp = o;
	sub.err_fp = e;
	sub.out = out_new(true, false, o);
	mlx_err_clear(run->cli->ctx);
	rc = sub.out ? c->fn(&sub, 0, NULL) : EXIT_FAIL;
	if (rc == EXIT_OK && out_finish(sub.out) < 0)
		rc = EXIT_FAIL;
	out_free(sub.out);
	fclose(o);
	fclose(e);
	if (rc == EXIT_OK && olen) {
		r = item_data(run, name, obuf, olen);
	} else {
		/* lib's story, else the command's own error line (dbg cmd-stats
		 * says why debugfs has nothing), else the exit code's meaning */
		const char *pfx = "mlxcli: error: ", *own = ebuf ? strstr(ebuf, pfx) : NULL;
		char line[600] = "";

		if (own) {
			snprintf(line, sizeof(line), "%s", own + strlen(pfx));
			line[strcspn(line, "\n")] = '\0';
		}
		const char *msg = *mlx_errmsg(run->cli->ctx) ? mlx_errmsg(run->cli->ctx) :
				  line[0] ? line :
				  rc == EXIT_NOTSUP ? "not supported by this driver or firmware" :
				  rc == EXIT_NODEV ? "no such device" :
				  rc == EXIT_PERM ? "permission denied" : "the read failed";

		snprintf(reason, sizeof(reason), "%s%s", rc == EXIT_PERM ? "permission: " : "", msg);
		mlx_err_clear(run->cli->ctx);
		r = add_item(run, name, rc == EXIT_NOTSUP || rc == EXIT_NODEV || rc == EXIT_PERM ?
			     "unavailable" : "failed", reason, -1, NULL);
	}
	free(obuf);
	free(ebuf);
	return r;
}

/* dcqcn.json: `qosconfig dcqcn get` (its handler, from the group's table). */
int dmn_item_dcqcn(struct dmn_run *run, const struct mlx_function *fn)
{
	const struct cmd *g = cli_find_cmd(qosconfig_group.cmds, "dcqcn");

	return item_cmd(run, "dcqcn.json", g && g->sub ? cli_find_cmd(g->sub->cmds, "get") : NULL, fn);
}

/* pci.json: `pci`. */
int dmn_item_pci(struct dmn_run *run, const struct mlx_function *fn)
{
	static const struct cmd pci = { "pci", "", "", cmd_pci, 0, 0, 0, NULL, NULL, NULL };

	return item_cmd(run, "pci.json", &pci, fn);
}

/* fw-commands.json: `dbg cmd-stats` (WinOF's firmware commands dump). */
int dmn_item_fw_commands(struct dmn_run *run, const struct mlx_function *fn)
{
	return item_cmd(run, "fw-commands.json", cli_find_cmd(dbg_group.cmds, "cmd-stats"), fn);
}

/* sriov.json: `sriov show` of a PF with VFs (WinOF's IOV objects). */
int dmn_item_sriov(struct dmn_run *run, const struct mlx_function *fn)
{
	const struct cmd *g = cli_find_cmd(cli_top.cmds, "sriov");

	if (fn->role != MLX_FN_PF || fn->sriov_numvfs <= 0)
		return add_item(run, "sriov.json", "unavailable", fn->role != MLX_FN_PF ?
				"a VF has no VFs" : "SR-IOV is off (numvfs 0): no VF to list", -1, NULL);
	return item_cmd(run, "sriov.json", g && g->sub ? cli_find_cmd(g->sub->cmds, "show") : NULL, fn);
}

/* ---- mlx5 debugfs EQ, CQ and QP lists ---- */

/* At most this many objects of a kind: each field read is a firmware
 * query, and a host with 100,000 QPs must not hold an incident for minutes. */
#define RSC_MAX 4096

struct rsc_doc {
	struct mlx_ctx *ctx;
	const struct mlx_function *fn;
	int err;                       /* the first failure, for the manifest */
	size_t n;                      /* objects written */
};

/* A field's value in its JSON type: "0x1f" an integer, a word a string. */
static void out_field(struct out *o, const char *name, const char *val)
{
	uint64_t v;

	if (!*val)
		out_null(o, name, NULL);
	else if (mlx_parse_u64(val, &v) == 0)
		out_u64(o, name, NULL, v);
	else
		out_str(o, name, NULL, val);
}

static void render_rsc(struct out *o, const void *arg)
{
	struct rsc_doc *d = (struct rsc_doc *)arg;
	static const char *const num_key[MLX_RSC_NKINDS] = { "eqn", "cqn", "qpn" };
	char key[32];

	out_str(o, "pci_address", NULL, d->fn->bdf);
	for (int k = 0; k < MLX_RSC_NKINDS; k++) {
		struct mlx_rsc *v = NULL;
		size_t n = 0;
		bool trunc = false;
		int r = mlx_rsc_list(d->ctx, d->fn->bdf, (enum mlx_rsc_kind)k, RSC_MAX, &v, &n, &trunc);

		out_list_begin(o, mlx_rsc_kind_name((enum mlx_rsc_kind)k), NULL);
		for (size_t i = 0; i < n; i++) {
			out_obj_begin(o, NULL, NULL);
			out_u64(o, num_key[k], NULL, v[i].number);
			for (size_t f = 0; f < v[i].n; f++)
				out_field(o, v[i].f[f].name, v[i].f[f].value);
			out_obj_end(o);
		}
		out_list_end(o);
		snprintf(key, sizeof(key), "%s_truncated", mlx_rsc_kind_name((enum mlx_rsc_kind)k));
		out_bool(o, key, NULL, trunc);
		snprintf(key, sizeof(key), "%s_error", mlx_rsc_kind_name((enum mlx_rsc_kind)k));
		out_str(o, key, NULL, r < 0 ? mlx_errmsg(d->ctx) : NULL);
		if (r < 0 && !d->err)
			d->err = r;
		mlx_err_clear(d->ctx);
		d->n += n;
		free(v);
	}
}

/* mlx5-resources.json: the EQs, CQs and QPs mlx5_core lists in debugfs
 * (WinOF's EQ dump), with the fields each object's directory holds. */
int dmn_item_mlx5_resources(struct dmn_run *run, const struct mlx_function *fn)
{
	struct rsc_doc doc = { run->cli->ctx, fn, 0, 0 };
	char *buf = NULL, reason[600];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o = f ? out_new(true, true, f) : NULL;
	int r = -ENOMEM;

	if (o) {
		render_rsc(o, &doc);
		r = out_finish(o);
		out_free(o);
	}
	if (f && fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	if (r == 0 && doc.n)
		r = item_data(run, "mlx5-resources.json", buf, len);
	else if (r == 0)
		r = add_item(run, "mlx5-resources.json", why_missing(doc.err ? doc.err : -ENOENT),
			     doc.err == -EACCES ? "permission: mlx5 debugfs needs root" :
			     doc.err == -ENOENT || !doc.err ?
			     "no EQs/, CQs/ or QPs/ in mlx5 debugfs (not mounted, or none in this capture)" :
			     lib_reason(run->cli->ctx, doc.err, reason, sizeof(reason)), -1, NULL);
	free(buf);
	return r;
}

/* ---- RDMA (issue 24) ---- */

struct rdma_doc {
	struct mlx_ctx *ctx;
	const struct mlx_function *fn;
	const struct mlx_rdma_devs *devs;
	int err;                       /* the first failure, for the manifest */
	size_t n;
};

/* rdma-raw.json: the raw vendor contexts (RES_{QP,CQ,MR,SRQ}_GET_RAW) of
 * the function's RDMA devices: opaque firmware resource dumps, in hex. */
static void render_rdma_raw(struct out *o, const void *arg)
{
	struct rdma_doc *d = (struct rdma_doc *)arg;

	out_str(o, "pci_address", NULL, d->fn->bdf);
	out_list_begin(o, "contexts", NULL);
	for (size_t i = 0; i < d->fn->nrdma; i++) {
		const struct mlx_rdma_dev *dev = mlx_rdma_dev_find(d->devs, d->fn->rdma[i].name);

		for (int k = 0; dev && k < MLX_RDMA_NKINDS; k++) {
			struct mlx_rdma_raw_list l = { 0 };
			int r;

			if (!mlx_rdma_kind_has_raw((enum mlx_rdma_kind)k))
				continue;
			r = mlx_rdma_raw_get(d->ctx, dev, (enum mlx_rdma_kind)k, &l);
			if (r < 0 && !d->err)
				d->err = r;
			mlx_err_clear(d->ctx);
			for (size_t j = 0; j < l.n; j++) {
				char *hex = malloc(l.v[j].len * 2 + 1);

				if (!hex)
					break;
				for (size_t b = 0; b < l.v[j].len; b++)
					snprintf(hex + 2 * b, 3, "%02x", l.v[j].data[b]);
				hex[l.v[j].len * 2] = '\0';
				out_obj_begin(o, NULL, NULL);
				out_str(o, "rdma_device", NULL, dev->name);
				out_str(o, "kind", NULL, mlx_rdma_kind_name((enum mlx_rdma_kind)k));
				if (l.v[j].has_id)
					out_u64(o, "object_id", NULL, l.v[j].id);
				else
					out_null(o, "object_id", NULL);
				out_str(o, "data_hex", NULL, hex);
				out_obj_end(o);
				free(hex);
				d->n++;
			}
			mlx_rdma_raw_list_free(&l);
		}
	}
	out_list_end(o);
}

int dmn_item_rdma(struct dmn_run *run, const struct mlx_function *fn)
{
	static const struct cmd qp = { "qp", "", "", cmd_rdma_qp, 0, 0, 0, NULL, NULL, NULL };
	static const struct cmd cm = { "cm-id", "", "", cmd_rdma_cm_id, 0, 0, 0, NULL, NULL, NULL };
	struct mlx_ctx *ctx = run->cli->ctx;
	struct mlx_rdma_devs devs;
	struct rdma_doc doc = { ctx, fn, &devs, 0, 0 };
	char reason[600];
	int r;

	if (!fn->nrdma)
		return add_item(run, "rdma-qp.json", "unavailable", "the function has no RDMA device",
				-1, NULL);
	r = item_cmd(run, "rdma-qp.json", &qp, fn);
	if (r == 0)
		r = item_cmd(run, "rdma-cm-id.json", &cm, fn);
	if (r < 0)
		return r;
	if (mlx_rdma_devs_get(ctx, &devs) < 0)
		return add_item(run, "rdma-raw.json", "unavailable", lib_reason(ctx, -ENODATA, reason,
				sizeof(reason)), -1, NULL);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct out *o = f ? out_new(true, true, f) : NULL;

		if (o) {
			render_rdma_raw(o, &doc);
			r = out_finish(o);
			out_free(o);
		} else {
			r = -ENOMEM;
		}
		if (f && fclose(f) != 0 && r == 0)
			r = -ENOMEM;
		if (r == 0 && doc.n)
			r = item_data(run, "rdma-raw.json", buf, len);
		else if (r == 0)
			r = add_item(run, "rdma-raw.json", "unavailable", doc.err == -EPERM ||
				     doc.err == -EACCES ? "permission: the raw contexts need "
				     "CAP_NET_ADMIN (root)" : doc.err == -ENODATA ?
				     "the capture has no raw contexts" : doc.err ?
				     "the kernel or driver offers no raw contexts" :
				     "no QP, CQ, MR or SRQ had a raw context", -1, NULL);
		free(buf);
	}
	mlx_rdma_devs_free(&devs);
	return r;
}

/* ---- CR space ---- */

struct cr_emit {
	FILE *fp;
	struct progress pr;
	uint64_t n;
};

static int emit_line(void *arg, uint32_t addr, uint32_t val)
{
	struct cr_emit *e = arg;

	progress_step(&e->pr, ++e->n);
	return fprintf(e->fp, "0x%8.8x 0x%8.8x\n", addr, val) < 0 ? -EIO : 0;
}

/*
 * The CR space three times in a row (WinOF's state-dump set: "3 consecutive
 * mstdump files", reference seeds-winof2-dumps-events.md §2.3): what moved
 * between them is what the firmware was doing.  crspace.txt, crspace.2.txt,
 * crspace.3.txt; each says why when it cannot be taken.
 */
#define CR_DUMPS 3

static const char *cr_name(int i)
{
	static const char *const names[CR_DUMPS] = { "crspace.txt", "crspace.2.txt", "crspace.3.txt" };

	return names[i];
}

static int cr_unavailable(struct dmn_run *run, const char *reason)
{
	int r = 0;

	for (int i = 0; i < CR_DUMPS && r == 0; i++)
		r = add_item(run, cr_name(i), "unavailable", reason, -1, NULL);
	return r;
}

int dmn_item_crspace(struct dmn_run *run, const struct mlx_function *fn)
{
	const struct mlx_cr_ranges_db *db = mlx_cr_ranges_for(fn->device);
	struct cli *cli = run->cli;
	char *buf = NULL, reason[600], what[96];
	uint64_t total = 0;
	size_t len = 0;
	int r = 0;

	if (cli_opt(cli, "no-crdump"))
		return cr_unavailable(run, "skipped: --no-crdump");
	if (geteuid() != 0)
		return cr_unavailable(run, "permission: reading the CR space needs root (config-space writes)");
	if (!db) {
		snprintf(reason, sizeof(reason),
			 "no safe CR-space block list for device ID 0x%04x (lists: ConnectX5, ConnectX6DX)",
			 fn->device);
		return cr_unavailable(run, reason);
	}
	for (size_t i = 0; i < db->n; i++)
		total += db->r[i].dwords;
	for (int i = 0; i < CR_DUMPS && r == 0; i++) {
		struct cr_emit e = { NULL, { 0 }, 0 };
		int q;

		e.fp = open_memstream(&buf, &len);
		if (!e.fp)
			return -ENOMEM;
		snprintf(what, sizeof(what), "CR-space dump %d of %d of %s", i + 1, CR_DUMPS, fn->bdf);
		progress_begin(&e.pr, cli, what, total);
		q = mlx_crdump(cli->ctx, fn, db->r, db->n, emit_line, &e, NULL);
		progress_end(&e.pr);
		fclose(e.fp);
		if (q == 0)
			r = item_data(run, cr_name(i), buf, len);
		free(buf);
		buf = NULL;
		len = 0;
		if (q < 0) {
			/* lib says why (a captured system, a VF, no gateway, a
			 * busy semaphore); the dumps after it are not tried */
			const char *status = q == -EOPNOTSUPP || q == -EACCES || q == -EBUSY ?
					     "unavailable" : "failed";

			snprintf(reason, sizeof(reason), "%s", mlx_errmsg(cli->ctx));
			for (int k = i; k < CR_DUMPS && r == 0; k++)
				r = add_item(run, cr_name(k), status, reason, -1, NULL);
			return r;
		}
	}
	return r;
}

/* ---- devlink health ---- */

/* A JSON item written by @render through the output layer (pretty). */
static int item_out(struct dmn_run *run, const char *name,
		    void (*render)(struct out *o, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o;
	int r = -ENOMEM;

	if (!f)
		return -ENOMEM;
	o = out_new(true, true, f);
	if (o) {
		render(o, arg);
		r = out_finish(o);
		out_free(o);
	}
	if (fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	if (r == 0)
		r = item_data(run, name, buf, len);
	free(buf);
	return r;
}

struct health_doc {
	struct mlx_ctx *ctx;
	const struct mlx_function *fn;
	const struct mlx_health *h;
};

/* devlink-health.json: the reporters (HEALTH_REPORTER_GET) with each
 * one's diagnose output. */
static void render_health(struct out *o, const void *arg)
{
	const struct health_doc *d = arg;

	out_str(o, "pci_address", NULL, d->fn->bdf);
	out_list_begin(o, "reporters", NULL);
	for (size_t i = 0; i < d->h->n; i++) {
		struct mlx_fmsg_node *diag = NULL;
		int r = mlx_health_diagnose(d->ctx, d->fn, &d->h->r[i], &diag);

		out_obj_begin(o, NULL, NULL);
		cli_out_reporter(o, &d->h->r[i], false);
		if (r == 0)
			cli_out_fmsg(o, "diagnose", diag);
		else
			out_null(o, "diagnose", NULL);
		out_str(o, "diagnose_error", NULL, r == 0 ? NULL :
			r == -EOPNOTSUPP ? "the reporter has no diagnose" :
			r == -ENODATA ? "the capture has no diagnose reply" : mlx_errmsg(d->ctx));
		out_obj_end(o);
		mlx_fmsg_free(diag);
		mlx_err_clear(d->ctx);
	}
	out_list_end(o);
}

static void render_fmsg(struct out *o, const void *arg)
{
	const struct mlx_fmsg_node *n = arg;

	/* the dump object's members, in the document's top-level object */
	if (n->kind == MLX_FMSG_OBJ) {
		for (size_t i = 0; i < n->n; i++)
			cli_out_fmsg(o, n->child[i]->name ? n->child[i]->name : "", n->child[i]);
	} else {
		cli_out_fmsg(o, "dump", n);
	}
}

/* Then devlink-health-dump-<reporter>.json per reporter that dumps
 * (HEALTH_REPORTER_DUMP_GET: the held dump, or one taken now). */
/*
 * Forget reporter @r's dump: a write of the device, so through the write
 * engine as every write (lib/txn.h: the device's lock, signals held and
 * given back to dump-me-now's handler when it ends).  0 or -errno with
 * the story.
 */
static int clear_dump(struct mlx_ctx *ctx, const struct mlx_function *fn,
		      const struct mlx_health_reporter *r)
{
	struct mlx_port_ref ref;
	struct mlx_txn *t;
	int e;

	mlx_port_ref_init(&ref, fn, NULL, NULL);
	e = mlx_txn_new(ctx, &t);
	if (e == 0)
		e = mlx_txn_add_action(t, MLX_ACT_DUMP_CLEAR, &ref, r);
	if (e >= 0)
		e = mlx_txn_run(t, MLX_TXN_REDELIVER);
	mlx_txn_free(t);
	return e < 0 ? e : 0;
}

int dmn_item_devlink_health(struct dmn_run *run, const struct mlx_function *fn)
{
	struct mlx_ctx *ctx = run->cli->ctx;
	struct mlx_health *h = calloc(1, sizeof(*h));
	struct health_doc doc = { ctx, fn, h };
	char reason[600];
	int r;

	if (!h)
		return -ENOMEM;
	r = mlx_health_get(ctx, fn, h);
	if (r < 0) {
		if (r == -ENODATA)
			snprintf(reason, sizeof(reason), "the capture has no devlink health reply");
		else
			lib_reason(ctx, r, reason, sizeof(reason));
		mlx_err_clear(ctx);
		free(h);
		return add_item(run, "devlink-health.json", why_missing(r), reason, -1, NULL);
	}
	r = item_out(run, "devlink-health.json", render_health, &doc);
	for (size_t i = 0; r == 0 && i < h->n; i++) {
		const struct mlx_health_reporter *p = &h->r[i];
		struct mlx_fmsg_node *d = NULL;
		char name[160];
		int q;

		if (!p->has_auto_dump)
			continue;       /* no dump op: nothing to ask for */
		if (p->port_index >= 0)
			snprintf(name, sizeof(name), "devlink-health-dump-%s-port%lld.json", p->name,
				 (long long)p->port_index);
		else
			snprintf(name, sizeof(name), "devlink-health-dump-%s.json", p->name);
		q = mlx_health_dump(ctx, fn, p, &d);
		if (q < 0) {
			lib_reason(ctx, q, reason, sizeof(reason));
			r = add_item(run, name, why_missing(q), reason, -1, NULL);
			continue;
		}
		r = item_out(run, name, render_fmsg, d);
		mlx_fmsg_free(d);
		/* kept: clear it, so the next event's dump is its own.  A
		 * failure leaves the old dump held, which the next incident
		 * would show again: it says so in the manifest. */
		if (r == 0 && run->clear_health_dumps && clear_dump(ctx, fn, p) < 0) {
			char cname[192];

			snprintf(cname, sizeof(cname), "%s (DUMP_CLEAR)", name);
			r = add_item(run, cname, "failed", lib_reason(ctx, -EIO, reason, sizeof(reason)), -1,
				     NULL);
		}
	}
	free(h);
	return r;
}

/* ---- raw evidence (lib/debug/evidence.c) ---- */

/* pci-config.bin and the AER counter files. */
int dmn_item_pci_raw(struct dmn_run *run, const struct mlx_function *fn)
{
	struct mlx_ctx *ctx = run->cli->ctx;
	uint8_t cfg[4096];
	char reason[600], *data;
	ssize_t n;
	size_t len;
	int r;

	if (!mlx_fn_is_pci(fn)) {      /* --any-device: a device of another bus */
		snprintf(reason, sizeof(reason), "%s/%s is not a PCI function", mlx_fn_bus(fn), fn->bdf);
		r = add_item(run, "pci-config.bin", "unavailable", reason, -1, NULL);
		for (unsigned i = 0; r == 0 && i < MLX_EVIDENCE_NAER; i++) {
			char name[64];

			snprintf(name, sizeof(name), "%s.txt", mlx_evidence_aer_names[i]);
			r = add_item(run, name, "unavailable", reason, -1, NULL);
		}
		return r;
	}
	n = mlx_evidence_pci_config(ctx, fn, cfg, sizeof(cfg));
	if (n > 0)
		r = item_data(run, "pci-config.bin", cfg, (size_t)n);
	else
		r = add_item(run, "pci-config.bin", n == -EACCES ? "unavailable" : "failed",
			     lib_reason(ctx, (int)n, reason, sizeof(reason)), -1, NULL);
	for (unsigned i = 0; r == 0 && i < MLX_EVIDENCE_NAER; i++) {
		char name[64];
		int q;

		snprintf(name, sizeof(name), "%s.txt", mlx_evidence_aer_names[i]);
		q = mlx_evidence_aer(ctx, fn, i, &data, &len);
		if (q < 0) {
			r = add_item(run, name, "unavailable", lib_reason(ctx, q, reason, sizeof(reason)),
				     -1, NULL);
			continue;
		}
		r = item_data(run, name, data, len);
		free(data);
	}
	return r;
}

int dmn_item_kernel_log(struct dmn_run *run, const struct mlx_function *fn)
{
	struct mlx_ctx *ctx = run->cli->ctx;
	char *text = NULL, reason[600];
	size_t len;
	int r = mlx_evidence_kernel_log(ctx, fn, &text, &len);

	/* a log that cannot be read again (a FIFO a monitor replays): the
	 * records the monitor read */
	if (r < 0 && run->why && run->why->kernel_log) {
		mlx_err_clear(ctx);
		r = mlx_evidence_kernel_log_of(fn, run->why->kernel_log, run->why->kernel_log_len,
					       "the records the monitor read", &text, &len);
	}
	if (r < 0)
		return add_item(run, "kernel-log.txt", "unavailable",
				lib_reason(ctx, r, reason, sizeof(reason)), -1, NULL);
	r = item_data(run, "kernel-log.txt", text, len);
	free(text);
	return r;
}

int dmn_item_snapshot(struct dmn_run *run, const struct mlx_devices *devs)
{
	/* the RDMA raw vendor contexts too: the incident is the moment to have them */
	struct mlx_snapshot_meta meta = { .tool_version = PACKAGE_VERSION, .rdma_raw = true };
	struct mlx_snapshot_stats st;
	char path[8192], sha[65];
	int r;

	r = mlx_dmn_tmp_path(&run->inc, "snapshot", path, sizeof(path));
	if (r < 0)
		return r;
	r = mlx_snapshot(run->cli->ctx, devs, path, &meta, &st);
	if (r == -ENOSPC || r == -EDQUOT || r == -EIO || r == -EROFS) {
		run->fatal = r;
		snprintf(run->fatal_what, sizeof(run->fatal_what), "cannot write the snapshot");
		return r;
	}
	if (r < 0)
		return add_item(run, "snapshot", "failed", mlx_errmsg(run->cli->ctx), -1, NULL);
	/* the tree's hash (lib/incident.h): `dump-me-now verify` finds a change */
	if (mlx_tree_sha256(path, sha) < 0)
		sha[0] = '\0';
	return add_item(run, "snapshot", "ok", NULL, (int64_t)st.bytes, sha[0] ? sha : NULL);
}
