/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli dump-me-now [list | show PATH]` and `mlxcli dbg dump-me-now BUS
 * DEV FUNC`: the Linux counterpart of WinOF's Dump Me Now (reference
 * seeds-mlxtool-dmn-counters.md §2): one incident folder per device per
 * call, cyclic retention with a preserved head.
 *
 * An incident is built under a temporary name in the dump root and renamed
 * into place only when complete (lib/dmn.c); any write failure (ENOSPC)
 * or an interruption (SIGINT/SIGTERM, checked between items) removes the
 * temporary folder and leaves the older incidents alone: retention runs
 * only after the new folder is in place.
 *
 * Test hook: MLXCLI_FAULT_DMN_FILE=k makes the k-th file this command
 * writes fail with ENOSPC (read here in cmd/ only, never in lib/).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dmn.h"
#include "health-json.h"
#include "sha256.h"
#include "snapshot.h"
#include "tree.h"
#include "vsec.h"

#define DMN_CONF "/etc/mlxcli.conf"

/* Set by the signal handler, read between items: the one piece of
 * process-wide state here (a handler has no argument to carry it). */
static volatile sig_atomic_t dmn_stop;

static void on_signal(int sig)
{
	dmn_stop = sig;
}

struct dmn_settings {
	char dir[4096];
	unsigned total, preserved;
	const char *conf;              /* file the settings came from, or NULL */
};

struct dmn_run {
	struct cli *cli;
	struct mlx_dmn_incident inc;
	json_t *items;
	unsigned files;                /* files written so far (fault hook) */
	long fault_at;                 /* MLXCLI_FAULT_DMN_FILE, 0 none */
	int fatal;                     /* -errno that aborts the incident */
	char fatal_what[128];
};

/* ---- settings: defaults < /etc/mlxcli.conf < options ---- */

static int parse_count(const char *s, unsigned *v)
{
	uint64_t x;

	if (mlx_parse_u64(s, &x) < 0 || x > MLX_DMN_COUNT_MAX)
		return -EINVAL;
	*v = (unsigned)x;
	return 0;
}

static int conf_cb(const char *key, const char *value, void *arg)
{
	struct dmn_settings *s = arg;

	if (!strcmp(key, "dmn_dir")) {
		if (value[0] != '/' || strlen(value) >= sizeof(s->dir))
			return -EINVAL;
		snprintf(s->dir, sizeof(s->dir), "%s", value);
	} else if (!strcmp(key, "dmn_total_count")) {
		return parse_count(value, &s->total);
	} else if (!strcmp(key, "dmn_preserved_count")) {
		return parse_count(value, &s->preserved);
	}
	/* other keys belong to other features */
	return 0;
}

static int load_settings(struct cli *cli, struct dmn_settings *s)
{
	const char *conf = getenv("MLXCLI_CONFIG");
	const char *v;
	char err[128], *text = NULL;
	size_t len = 0, bad;
	FILE *f;
	int r;

	snprintf(s->dir, sizeof(s->dir), "%s", MLX_DMN_DIR_DEFAULT);
	s->total = MLX_DMN_TOTAL_DEFAULT;
	s->preserved = MLX_DMN_PRESERVED_DEFAULT;
	s->conf = NULL;
	if (!conf)
		conf = DMN_CONF;
	f = fopen(conf, "re");
	if (f) {
		char buf[65536];

		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		text = buf;
		r = mlx_conf_parse(text, len, conf_cb, s, &bad, err, sizeof(err));
		if (r < 0) {
			cli_error(cli, "%s:%zu: %s", conf, bad, err);
			return EXIT_USAGE;
		}
		s->conf = conf;
	} else if (errno != ENOENT) {
		cli_warn(cli, "cannot read '%s': %s; using the defaults", conf, strerror(errno));
	}
	if ((v = cli_opt(cli, "dir"))) {
		if (!*v) {
			cli_error(cli, "--dir needs a directory");
			return EXIT_USAGE;
		}
		snprintf(s->dir, sizeof(s->dir), "%s", v);
	}
	if ((v = cli_opt(cli, "total-count")) && parse_count(v, &s->total) < 0) {
		cli_error(cli, "invalid value '%s' for '--total-count': give 0 - %u", v, MLX_DMN_COUNT_MAX);
		return EXIT_USAGE;
	}
	if ((v = cli_opt(cli, "preserved-count")) && parse_count(v, &s->preserved) < 0) {
		cli_error(cli, "invalid value '%s' for '--preserved-count': give 0 - %u", v,
			  MLX_DMN_COUNT_MAX);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* ---- items ---- */

static void add_item(struct dmn_run *run, const char *name, const char *status, const char *reason,
		     int64_t size, const char *sha)
{
	json_t *it = json_object();

	json_object_set_new(it, "name", json_string(name));
	json_object_set_new(it, "status", json_string(status));
	json_object_set_new(it, "reason", reason ? json_string(reason) : json_null());
	json_object_set_new(it, "size", size >= 0 ? json_integer(size) : json_null());
	json_object_set_new(it, "sha256", sha ? json_string(sha) : json_null());
	json_array_append_new(run->items, it);
}

/* Write @len bytes to a new file of the incident; a failure is fatal for
 * the incident (ENOSPC, EIO...).  Returns 0 or -errno. */
static int write_file(struct dmn_run *run, const char *name, const void *data, size_t len,
		      char sha[65])
{
	const char *p = data;
	struct mlx_sha256 s;
	uint8_t d[32];
	size_t left = len;
	int fd, r = 0;

	run->files++;
	fd = mlx_dmn_create(&run->inc, name);
	if (fd < 0) {
		r = fd;
		goto out;
	}
	if (run->fault_at && run->files == (unsigned long)run->fault_at) {
		r = -ENOSPC;            /* the test hook: as a full disk would */
		close(fd);
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
	int r = write_file(run, name, data, len, sha);

	if (r == 0)
		add_item(run, name, "ok", NULL, (int64_t)len, sha);
	return r;
}

/* Run an mlxcli read command in-process on the same system; its stdout
 * is the item.  Exit 4/5: unavailable; other failures: failed. */
static int item_cli(struct dmn_run *run, const char *name, const char *const *words)
{
	struct cli *cli = run->cli;
	char *argv[16], *obuf = NULL, *ebuf = NULL, root[4200];
	size_t olen = 0, elen = 0;
	FILE *o, *e;
	int argc = 0, rc, r = 0;

	argv[argc++] = (char *)"mlxcli";
	if (!mlx_is_live(cli->ctx)) {
		snprintf(root, sizeof(root), "--sysroot=%s", mlx_root(cli->ctx));
		argv[argc++] = root;
	}
	argv[argc++] = (char *)"-j";
	for (; *words && argc < 15; words++)
		argv[argc++] = (char *)*words;
	argv[argc] = NULL;
	o = open_memstream(&obuf, &olen);
	e = open_memstream(&ebuf, &elen);
	if (!o || !e) {
		if (o)
			fclose(o);
		if (e)
			fclose(e);
		return -ENOMEM;
	}
	rc = mlx_cli_main(argc, argv, o, e);
	fclose(o);
	fclose(e);
	if (rc == EXIT_OK && olen) {
		r = item_data(run, name, obuf, olen);
	} else {
		/* the command's first error line, without our prefix */
		char *msg = ebuf ? strstr(ebuf, "error: ") : NULL;
		char *nl;

		msg = msg ? msg + 7 : ebuf && *ebuf ? ebuf : (char *)"no output";
		if ((nl = strchr(msg, '\n')))
			*nl = '\0';
		if (rc == EXIT_PERM) {
			char buf[600];

			snprintf(buf, sizeof(buf), "permission: %s", msg);
			add_item(run, name, "unavailable", buf, -1, NULL);
		} else {
			add_item(run, name, rc == EXIT_NOTSUP || rc == EXIT_NODEV ? "unavailable" : "failed",
				 msg, -1, NULL);
		}
	}
	free(obuf);
	free(ebuf);
	return r;
}

static int emit_line(void *arg, uint32_t addr, uint32_t val)
{
	return fprintf(arg, "0x%8.8x 0x%8.8x\n", addr, val) < 0 ? -EIO : 0;
}

static int item_crspace(struct dmn_run *run, const struct mlx_function *fn)
{
	const struct mlx_cr_ranges_db *db = mlx_cr_ranges_for(fn->device);
	struct cli *cli = run->cli;
	char *buf = NULL, reason[600];
	size_t len = 0;
	FILE *m;
	int r;

	if (cli_opt(cli, "no-crdump")) {
		add_item(run, "crspace.txt", "unavailable", "skipped: --no-crdump", -1, NULL);
		return 0;
	}
	if (geteuid() != 0) {
		add_item(run, "crspace.txt", "unavailable",
			 "permission: reading the CR space needs root (config-space writes)", -1, NULL);
		return 0;
	}
	if (!mlx_is_live(cli->ctx)) {
		add_item(run, "crspace.txt", "unavailable",
			 "the CR space needs the live device; this is a captured system", -1, NULL);
		return 0;
	}
	if (!db) {
		snprintf(reason, sizeof(reason),
			 "no safe CR-space block list for device ID 0x%04x (lists: ConnectX5, ConnectX6DX)",
			 fn->device);
		add_item(run, "crspace.txt", "unavailable", reason, -1, NULL);
		return 0;
	}
	m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	r = mlx_crdump(cli->ctx, fn, db->r, db->n, emit_line, m, NULL);
	fclose(m);
	if (r < 0) {
		snprintf(reason, sizeof(reason), "%s", mlx_errmsg(cli->ctx));
		add_item(run, "crspace.txt",
			 r == -EOPNOTSUPP || r == -EACCES || r == -EBUSY ? "unavailable" : "failed", reason,
			 -1, NULL);
		r = 0;
	} else {
		r = item_data(run, "crspace.txt", buf, len);
	}
	free(buf);
	return r;
}

/* devlink-health.json: the reporters (HEALTH_REPORTER_GET) with each one's
 * diagnose output; then devlink-health-dump-<reporter>.json per reporter
 * that dumps (HEALTH_REPORTER_DUMP_GET: the held dump, or one taken now). */
static int item_devlink_health(struct dmn_run *run, const struct mlx_function *fn)
{
	struct mlx_ctx *ctx = run->cli->ctx;
	struct mlx_health *h = calloc(1, sizeof(*h));
	json_t *doc, *reps;
	char reason[600], *text;
	int r;

	if (!h)
		return -ENOMEM;
	r = mlx_health_get(ctx, fn, h);
	if (r < 0) {
		snprintf(reason, sizeof(reason), "%s",
			 r == -ENODATA ? "the capture has no devlink health reply" :
			 *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-r));
		add_item(run, "devlink-health.json", r == -EACCES || r == -EPERM ? "unavailable" :
			 r == -ENODATA || r == -EOPNOTSUPP || r == -ENOENT || r == -ENODEV ? "unavailable" :
			 "failed", reason, -1, NULL);
		mlx_err_clear(ctx);
		free(h);
		return 0;
	}
	doc = json_object();
	json_object_set_new(doc, "pci_address", json_string(fn->bdf));
	reps = json_array();
	for (size_t i = 0; i < h->n; i++) {
		json_t *j = cli_reporter_json(&h->r[i]);
		struct mlx_fmsg_node *d = NULL;

		r = mlx_health_diagnose(ctx, fn, &h->r[i], &d);
		json_object_set_new(j, "diagnose", r == 0 ? cli_fmsg_json(d) : json_null());
		json_object_set_new(j, "diagnose_error", r == 0 ? json_null() :
				    json_string(r == -EOPNOTSUPP ? "the reporter has no diagnose" :
						r == -ENODATA ? "the capture has no diagnose reply" :
						mlx_errmsg(ctx)));
		mlx_fmsg_free(d);
		mlx_err_clear(ctx);
		json_array_append_new(reps, j);
	}
	json_object_set_new(doc, "reporters", reps);
	text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	r = text ? item_data(run, "devlink-health.json", text, strlen(text)) : -ENOMEM;
	free(text);
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
		if (!mlx_is_live(ctx)) {
			add_item(run, name, "unavailable", "a captured system holds no health dumps "
				 "(DUMP_GET would make one: it needs the live device)", -1, NULL);
			continue;
		}
		q = mlx_health_dump(ctx, fn, p, &d);
		if (q < 0) {
			snprintf(reason, sizeof(reason), "%s%s", q == -EPERM || q == -EACCES ? "permission: " : "",
				 *mlx_errmsg(ctx) ? mlx_errmsg(ctx) : strerror(-q));
			add_item(run, name, q == -EOPNOTSUPP || q == -EPERM || q == -EACCES || q == -ENODATA ?
				 "unavailable" : "failed", reason, -1, NULL);
			mlx_err_clear(ctx);
			continue;
		}
		doc = cli_fmsg_json(d);
		mlx_fmsg_free(d);
		text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(doc);
		r = text ? item_data(run, name, text, strlen(text)) : -ENOMEM;
		free(text);
	}
	free(h);
	return r;
}

/* The raw PCI state: config space bytes and the AER counter files. */
static int item_pci_raw(struct dmn_run *run, const struct mlx_function *fn)
{
	static const char *const aer[] = { "aer_dev_correctable", "aer_dev_nonfatal", "aer_dev_fatal" };
	struct mlx_ctx *ctx = run->cli->ctx;
	char path[200], *data;
	uint8_t cfg[4096];
	ssize_t n;
	size_t len;
	int r;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", fn->bdf);
	n = mlx_read_bin(ctx, path, cfg, sizeof(cfg));
	if (n > 0) {
		r = item_data(run, "pci-config.bin", cfg, (size_t)n);
		if (r < 0)
			return r;
	} else {
		add_item(run, "pci-config.bin", n == -EACCES ? "unavailable" : "failed",
			 strerror(n < 0 ? (int)-n : EIO), -1, NULL);
	}
	for (size_t i = 0; i < 3; i++) {
		char name[64];

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", fn->bdf, aer[i]);
		snprintf(name, sizeof(name), "%s.txt", aer[i]);
		r = mlx_read_file(ctx, path, &data, &len);
		if (r < 0) {
			add_item(run, name, "unavailable",
				 r == -ENOENT ? "the kernel has no AER for this function (no AER capability, "
						"or CONFIG_PCIEAER off)" : strerror(-r), -1, NULL);
			continue;
		}
		r = item_data(run, name, data, len);
		free(data);
		if (r < 0)
			return r;
	}
	return 0;
}

static bool line_matches(const char *line, size_t len, const char *const *keys, size_t nkeys)
{
	for (size_t k = 0; k < nkeys; k++) {
		size_t kl = strlen(keys[k]);

		for (size_t i = 0; kl && i + kl <= len; i++)
			if (!memcmp(line + i, keys[k], kl))
				return true;
	}
	return false;
}

/* Keep the lines of [text, text+len) that name the device. */
static void filter_lines(FILE *out, const char *text, size_t len, const char *const *keys, size_t n)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));

		if (!e)
			e = end;
		if (line_matches(p, (size_t)(e - p), keys, n))
			fprintf(out, "%.*s\n", (int)(e - p), p);
		p = e + 1;
	}
}

static int item_kernel_log(struct dmn_run *run, const struct mlx_function *fn)
{
	struct mlx_ctx *ctx = run->cli->ctx;
	const char *keys[24];
	char *buf = NULL, *text = NULL, reason[300];
	size_t nkeys = 0, len = 0, tlen;
	FILE *m;
	int fd, r;

	keys[nkeys++] = fn->bdf;
	for (size_t i = 0; i < fn->nports && nkeys < 16; i++)
		if (fn->ports[i].ifname[0])
			keys[nkeys++] = fn->ports[i].ifname;
	for (size_t i = 0; i < fn->nrdma && nkeys < 24; i++)
		keys[nkeys++] = fn->rdma[i].name;
	m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	if (mlx_is_live(ctx)) {
		/* /dev/kmsg: one record per read(2); non-blocking, so EAGAIN
		 * ends the backlog (Documentation/ABI/testing/dev-kmsg). */
		fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			char rec[8192];

			fprintf(m, "# source: /dev/kmsg (priority,sequence,usec;message)\n");
			for (;;) {
				ssize_t n = read(fd, rec, sizeof(rec) - 1);

				if (n < 0 && errno == EPIPE)
					continue;       /* overwritten record */
				if (n <= 0)
					break;
				filter_lines(m, rec, (size_t)n, keys, nkeys);
			}
			close(fd);
			goto done;
		}
		snprintf(reason, sizeof(reason), "%s/dev/kmsg: %s",
			 errno == EPERM || errno == EACCES ? "permission: " : "", strerror(errno));
	} else {
		snprintf(reason, sizeof(reason), "the captured system has no kernel log (/var/log/kern.log)");
	}
	/* The syslog copy (Debian/Ubuntu), of the target system. */
	r = mlx_read_file(ctx, "/var/log/kern.log", &text, &tlen);
	if (r < 0) {
		fclose(m);
		free(buf);
		if (r != -ENOENT && mlx_is_live(ctx)) {
			size_t l = strlen(reason);

			snprintf(reason + l, sizeof(reason) - l, "; /var/log/kern.log: %s", strerror(-r));
		}
		add_item(run, "kernel-log.txt", "unavailable", reason, -1, NULL);
		return 0;
	}
	fprintf(m, "# source: /var/log/kern.log\n");
	filter_lines(m, text, tlen, keys, nkeys);
	free(text);
done:
	fclose(m);
	r = item_data(run, "kernel-log.txt", buf, len);
	free(buf);
	return r;
}

static int item_snapshot(struct dmn_run *run, const struct mlx_devices *devs)
{
	struct mlx_snapshot_meta meta = { .tool_version = PACKAGE_VERSION };
	struct mlx_snapshot_stats st;
	char path[8192];
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
		add_item(run, "snapshot", "failed", mlx_errmsg(run->cli->ctx), -1, NULL);
	else
		add_item(run, "snapshot", "ok", NULL, (int64_t)st.bytes, NULL);
	return 0;
}

/* ---- one incident ---- */

static int check_stop(struct dmn_run *run)
{
	if (!dmn_stop)
		return 0;
	run->fatal = -EINTR;
	snprintf(run->fatal_what, sizeof(run->fatal_what), "interrupted by signal %d", (int)dmn_stop);
	return -EINTR;
}

static int apply_retention(struct cli *cli, const struct dmn_settings *s, json_t *removed)
{
	struct mlx_dmn_entry *e;
	size_t n, first, count;
	int r = mlx_dmn_list(s->dir, &e, &n);

	if (r < 0)
		return r;
	mlx_dmn_plan(n, s->total, s->preserved, &first, &count);
	for (size_t i = first; i < first + count; i++) {
		char path[8192];

		snprintf(path, sizeof(path), "%s/%s", s->dir, e[i].name);
		r = mlx_tree_remove(path);
		if (r < 0)
			cli_warn(cli, "retention: cannot remove '%s': %s", path, strerror(-r));
		else
			json_array_append_new(removed, json_string(e[i].name));
	}
	free(e);
	return 0;
}

static int make_incident(struct cli *cli, const struct dmn_settings *s, const struct mlx_function *fn,
			 unsigned counter, json_t **manifest_out)
{
	struct mlx_devices *devs;
	struct dmn_run run;
	struct mlx_dmn_entry *ex;
	struct timespec ts;
	char name[MLX_DMN_NAME_MAX + 1], stamp[40], path[8192];
	const char *reason = cli_opt(cli, "reason");
	const char *fault = getenv("MLXCLI_FAULT_DMN_FILE");
	json_t *m = NULL, *removed;
	size_t nex;
	char *text;
	struct tm tm;
	int r, code = EXIT_OK;

	*manifest_out = NULL;
	memset(&run, 0, sizeof(run));
	run.cli = cli;
	run.fault_at = fault ? strtol(fault, NULL, 10) : 0;
	run.inc.root_fd = run.inc.dir_fd = -1;
	r = cli_devices(cli, &devs);
	if (r)
		return r;

	/* Room for one more?  Decided before anything is written. */
	r = mlx_dmn_list(s->dir, &ex, &nex);
	if (r < 0)
		goto fail_root;
	free(ex);
	r = mlx_dmn_may_create(nex, s->total, s->preserved);
	if (r == -ECANCELED) {
		cli_error(cli, "dump-me-now is disabled: the total count is 0");
		return EXIT_FAIL;
	}
	if (r == -ENOSPC) {
		cli_error(cli, "'%s' holds %zu incidents and the first %u are preserved (total count %u): "
			  "no incident may be replaced", s->dir, nex, s->preserved, s->total);
		cli_hint(cli, "raise --total-count, lower --preserved-count, or remove incidents by hand");
		return EXIT_FAIL;
	}

	clock_gettime(CLOCK_REALTIME, &ts);
	r = mlx_dmn_name(name, sizeof(name), fn->bdf, "GENERAL", "USER", reason, &ts, getpid(), counter);
	if (r < 0) {
		cli_error(cli, "cannot name the incident: %s", strerror(-r));
		return EXIT_FAIL;
	}
	r = mlx_dmn_begin(&run.inc, s->dir, name);
	if (r < 0)
		goto fail_root;
	run.items = json_array();

	r = item_crspace(&run, fn);
	if (!r)
		r = check_stop(&run);
	if (!r)
		r = item_devlink_health(&run, fn);
	if (!r)
		r = item_cli(&run, "dcqcn.json",
			     (const char *const[]){ "-d", fn->bdf, "qosconfig", "dcqcn", "get", NULL });
	if (!r)
		r = check_stop(&run);
	if (!r)
		r = item_cli(&run, "pci.json", (const char *const[]){ "-d", fn->bdf, "pci", NULL });
	if (!r)
		r = item_pci_raw(&run, fn);
	if (!r)
		r = check_stop(&run);
	if (!r)
		r = item_kernel_log(&run, fn);
	if (!r)
		r = check_stop(&run);
	if (!r)
		r = item_snapshot(&run, devs);
	if (!r)
		r = check_stop(&run);
	if (r < 0 && !run.fatal) {
		run.fatal = r;
		snprintf(run.fatal_what, sizeof(run.fatal_what), "cannot collect the incident");
	}

	if (!run.fatal) {
		gmtime_r(&ts.tv_sec, &tm);
		snprintf(stamp, sizeof(stamp), "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
		m = json_object();
		json_object_set_new(m, "schema_version", json_integer(OUT_SCHEMA_VERSION));
		json_object_set_new(m, "format", json_string("mlxcli-dmn"));
		json_object_set_new(m, "name", json_string(name));
		snprintf(path, sizeof(path), "%s/%s", s->dir, name);
		json_object_set_new(m, "path", json_string(path));
		json_object_set_new(m, "pci_address", json_string(fn->bdf));
		json_object_set_new(m, "product", fn->id ? json_string(fn->id->product) : json_null());
		json_object_set_new(m, "type", json_string("GENERAL"));
		json_object_set_new(m, "source", json_string("USER"));
		json_object_set_new(m, "reason", reason ? json_string(reason) : json_null());
		json_object_set_new(m, "created_at", json_string(stamp));
		json_object_set_new(m, "mlxcli_version", json_string(PACKAGE_VERSION));
		json_object_set_new(m, "system", json_string(mlx_is_live(cli->ctx) ? "live" : mlx_root(cli->ctx)));
		json_object_set_new(m, "items", run.items);
		run.items = NULL;
		text = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (!text || write_file(&run, "manifest.json", text, strlen(text), NULL) < 0) {
			if (!run.fatal) {
				run.fatal = -ENOMEM;
				snprintf(run.fatal_what, sizeof(run.fatal_what), "cannot write the manifest");
			}
		}
		free(text);
	}
	if (!run.fatal) {
		r = mlx_dmn_commit(&run.inc);
		if (r < 0) {
			run.fatal = r;
			snprintf(run.fatal_what, sizeof(run.fatal_what), "cannot rename the incident into place");
		}
	}
	mlx_dmn_end(&run.inc);
	json_decref(run.items);
	if (run.fatal) {
		json_decref(m);
		cli_error(cli, "dump-me-now of %s failed: %s in '%s': %s; nothing was kept, older incidents "
			  "are untouched", fn->bdf, run.fatal_what, s->dir, strerror(-run.fatal));
		return run.fatal == -EINTR ? EXIT_FAIL : cli_exit_code(run.fatal);
	}
	/* In place: now, and only now, make room. */
	removed = json_array();
	if (apply_retention(cli, s, removed) < 0)
		cli_warn(cli, "retention: cannot list '%s'", s->dir);
	json_object_set_new(m, "removed_by_retention", removed);
	*manifest_out = m;
	return code;

fail_root:
	mlx_dmn_end(&run.inc);
	cli_error(cli, "cannot use the dump root '%s': %s", s->dir, strerror(-r));
	if (cli_exit_code(r) == EXIT_PERM)
		cli_hint(cli, "give a directory this user may write with --dir, or run as root");
	return cli_exit_code(r) == EXIT_PERM ? EXIT_PERM : EXIT_FAIL;
}

/* JSON values through the output layer, so -j is one document. */
static void out_json(struct out *o, const char *key, json_t *v)
{
	const char *k;
	json_t *x;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		out_obj_begin(o, key, NULL);
		json_object_foreach(v, k, x)
			if (strcmp(k, "schema_version"))
				out_json(o, k, x);
		out_obj_end(o);
		break;
	case JSON_ARRAY:
		out_list_begin(o, key, NULL);
		json_array_foreach(v, i, x)
			out_json(o, NULL, x);
		out_list_end(o);
		break;
	case JSON_STRING:
		out_str(o, key, NULL, json_string_value(v));
		break;
	case JSON_INTEGER:
		out_s64(o, key, NULL, json_integer_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		out_bool(o, key, NULL, json_is_true(v));
		break;
	default:
		out_null(o, key, NULL);
	}
}

static int dmn_create(struct cli *cli)
{
	struct dmn_settings s;
	struct mlx_function *sel = NULL;
	struct mlx_devices *devs;
	struct sigaction sa, old_int, old_term;
	size_t made = 0;
	int r, worst = EXIT_OK;

	r = load_settings(cli, &s);
	if (r)
		return r;
	r = cli_select(cli, &sel, NULL);
	if (r)
		return r;
	r = cli_devices(cli, &devs);
	if (r)
		return r;
	if (sel && sel->role == MLX_FN_VF) {
		cli_error(cli, "'%s' (%s) is a virtual function: \"DMN is unsupported on VFs\"; give its PF%s%s",
			  cli->device, sel->bdf, sel->pf ? " " : "", sel->pf ? sel->pf->bdf : "");
		return EXIT_NOTSUP;
	}
	if (!sel) {
		bool any = false;

		for (size_t i = 0; i < devs->nfn; i++)
			any |= devs->fn[i].role == MLX_FN_PF;
		if (!any) {
			cli_error(cli, "no ConnectX physical function was found: nothing to dump");
			cli_hint(cli, "'mlxcli devices' lists the ConnectX functions");
			return EXIT_NODEV;
		}
	}
	r = mlx_dmn_root_prepare(s.dir);
	if (r < 0) {
		cli_error(cli, "cannot create the dump root '%s': %s", s.dir, strerror(-r));
		if (cli_exit_code(r) == EXIT_PERM)
			cli_hint(cli, "give a directory this user may write with --dir, or run as root");
		return cli_exit_code(r) == EXIT_PERM ? EXIT_PERM : EXIT_FAIL;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	dmn_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (out_is_json(cli->out))
		out_list_begin(cli->out, "incidents", NULL);
	for (size_t i = 0; i < devs->nfn && !dmn_stop; i++) {
		struct mlx_function *fn = &devs->fn[i];
		json_t *m = NULL;

		if (sel ? fn != sel : fn->role != MLX_FN_PF)
			continue;
		r = make_incident(cli, &s, fn, (unsigned)made, &m);
		made++;
		if (r) {
			worst = r;
			continue;
		}
		if (out_is_json(cli->out))
			out_json(cli->out, NULL, m);
		else
			fprintf(cli->out_fp, "%s\n", json_string_value(json_object_get(m, "path")));
		json_decref(m);
	}
	if (out_is_json(cli->out))
		out_list_end(cli->out);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (dmn_stop && worst == EXIT_OK)
		worst = EXIT_FAIL;
	return worst;
}

static int dmn_list(struct cli *cli)
{
	struct dmn_settings s;
	struct mlx_dmn_entry *e;
	struct out *o = cli->out;
	size_t n;
	int r;

	r = load_settings(cli, &s);
	if (r)
		return r;
	r = mlx_dmn_list(s.dir, &e, &n);
	if (r == -ENOENT) {
		n = 0;
		e = NULL;
	} else if (r < 0) {
		cli_error(cli, "cannot list '%s': %s", s.dir, strerror(-r));
		return cli_exit_code(r);
	}
	out_str(o, "dir", NULL, s.dir);
	out_u64(o, "total_count", NULL, s.total);
	out_u64(o, "preserved_count", NULL, s.preserved);
	out_table_begin(o, "incidents");
	for (size_t i = 0; i < n; i++) {
		out_row_begin(o);
		out_str(o, "name", "INCIDENT", e[i].name);
		/* the folder name spells the address with '_' (a path can
		 * hold no ':' on every file system); the key is the address */
		char bdf[sizeof(e[i].device)];

		snprintf(bdf, sizeof(bdf), "%s", e[i].device);
		for (char *c = bdf; *c; c++)
			if (*c == '_')
				*c = ':';
		out_str(o, "pci_address", "DEVICE", bdf);
		out_str(o, "reason", "REASON", e[i].reason);
		out_bool(o, "preserved", "PRESERVED", i < s.preserved);
		out_row_end(o);
	}
	out_table_end(o);
	free(e);
	return EXIT_OK;
}

static int dmn_show(struct cli *cli, const char *arg)
{
	struct dmn_settings s;
	struct out *o = cli->out;
	char path[8192];
	json_error_t jerr;
	json_t *m, *items, *it;
	size_t i;
	int r;

	r = load_settings(cli, &s);
	if (r)
		return r;
	/* A bare incident name is looked up in the dump root. */
	if (!strchr(arg, '/')) {
		if (!mlx_name_is_safe(arg)) {
			cli_error(cli, "invalid incident name '%s'", arg);
			return EXIT_USAGE;
		}
		snprintf(path, sizeof(path), "%s/%s/manifest.json", s.dir, arg);
	} else {
		snprintf(path, sizeof(path), "%s/manifest.json", arg);
	}
	m = json_load_file(path, 0, &jerr);
	if (!m) {
		cli_error(cli, "cannot read '%s': %s", path, jerr.text);
		return access(path, F_OK) ? EXIT_USAGE : EXIT_FAIL;
	}
	if (out_is_json(o)) {
		const char *k;
		json_t *x;

		json_object_foreach(m, k, x)
			if (strcmp(k, "schema_version"))
				out_json(o, k, x);
		json_decref(m);
		return EXIT_OK;
	}
	fprintf(cli->out_fp, "incident: %s\n", json_string_value(json_object_get(m, "name")));
	fprintf(cli->out_fp, "device: %s\n", json_string_value(json_object_get(m, "pci_address")));
	fprintf(cli->out_fp, "created: %s\n", json_string_value(json_object_get(m, "created_at")));
	items = json_object_get(m, "items");
	out_table_begin(o, "items");
	json_array_foreach(items, i, it) {
		json_t *sz = json_object_get(it, "size");

		out_row_begin(o);
		out_str(o, "name", "ITEM", json_string_value(json_object_get(it, "name")));
		out_str(o, "status", "STATUS", json_string_value(json_object_get(it, "status")));
		if (json_is_integer(sz))
			out_s64(o, "size", "SIZE", json_integer_value(sz));
		else
			out_null(o, "size", "SIZE");
		out_str(o, "reason", "REASON", json_string_value(json_object_get(it, "reason")));
		out_row_end(o);
	}
	out_table_end(o);
	json_decref(m);
	return EXIT_OK;
}

int cmd_dump_me_now(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return dmn_create(cli);
}

static int cmd_dmn_list(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return dmn_list(cli);
}

static int cmd_dmn_show(struct cli *cli, int argc, char **argv)
{
	(void)argc;
	return dmn_show(cli, argv[0]);
}

int cli_dmn_root(struct cli *cli, char *buf, size_t len)
{
	struct dmn_settings s;
	int r = load_settings(cli, &s);

	if (!r)
		snprintf(buf, len, "%s", s.dir);
	return r;
}

/* mlxtool's form: dbg dump-me-now BUS DEV FUNC (decimal). */
int cmd_dbg_dump_me_now(struct cli *cli, int argc, char **argv)
{
	char triple[64];
	int r;

	if (argc == 3) {
		if (cli->device) {
			cli_error(cli, "give the device once: either -d or BUS DEV FUNC");
			return EXIT_USAGE;
		}
		snprintf(triple, sizeof(triple), "%s %s %s", argv[0], argv[1], argv[2]);
		cli->device = triple;
		r = dmn_create(cli);
		cli->device = NULL;
		return r;
	}
	if (argc != 0) {
		cli_error(cli, "'mlxcli dbg dump-me-now' takes BUS DEV FUNC (decimal, as mlxtool)");
		return EXIT_USAGE;
	}
	return dmn_create(cli);
}

const struct cmd_opt dmn_opts[] = {
	{ "reason", 0, "TEXT", "why the dump was taken (part of the folder name)", NULL },
	{ "no-crdump", 0, NULL, "skip the CR-space dump", NULL },
	/* From here on the settings `list` and `show` read too (DMN_READ_OPTS). */
	{ "dir", 0, "DIR", "the dump root (default /var/lib/mlxcli/dmn, or dmn_dir= in /etc/mlxcli.conf)", NULL },
	{ "total-count", 0, "N", "DumpMeNowTotalCount: incidents kept at most (default 128)", NULL },
	{ "preserved-count", 0, "N", "DumpMeNowPreservedCountMin: first incidents never removed (default 8)", NULL },
	{ NULL, 0, NULL, NULL, NULL },
};
#define DMN_READ_OPTS (&dmn_opts[2])

static const struct cmd_arg dmn_show_args[] = {
	{ "PATH", NULL, SRC_INCIDENTS, 0 },
	CMD_ARG_END,
};

/* `mlxcli dump-me-now` makes an incident; these read them. */
static const struct cmd dmn_cmds[] = {
	{ "list", "", "the incidents in the dump root, oldest first, and the retention settings",
	  cmd_dmn_list, 0, 0, 0, NULL, DMN_READ_OPTS, NULL },
	{ "show", "", "what one incident holds, item by item (PATH: its name in the dump root, or its folder)",
	  cmd_dmn_show, 1, 1, 0, NULL, DMN_READ_OPTS, NULL, NULL, dmn_show_args },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL },
};

const struct cmd_group dmn_group = { "dump-me-now", "incident folders", "mlxcli-dump-me-now(8)",
				     dmn_cmds };
