/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The items of a dump-me-now incident (cmd/dmn.c makes the folder): the
 * CR-space dump, devlink health, the DCQCN and PCI views, the raw PCI
 * state, the kernel log lines of the device, a snapshot.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmn-cmd.h"
#include "health-json.h"
#include "sha256.h"
#include "snapshot.h"
#include "vsec.h"

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
int dmn_write_file(struct dmn_run *run, const char *name, const void *data, size_t len,
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
	int r = dmn_write_file(run, name, data, len, sha);

	if (r == 0)
		add_item(run, name, "ok", NULL, (int64_t)len, sha);
	return r;
}

/* Run an mlxcli read command in-process on the same system; its stdout
 * is the item.  Exit 4/5: unavailable; other failures: failed. */
int dmn_item_cli(struct dmn_run *run, const char *name, const char *const *words)
{
	struct cli *cli = run->cli;
	char *argv[16], *obuf = NULL, *ebuf = NULL, root[4200];
	size_t olen = 0, elen = 0;
	FILE *o, *e;
	int argc = 0, rc, r = 0;

	argv[argc++] = (char *)"mlxcli";
	if (!mlx_kernel_can(cli->ctx, MLX_KCAP_RUNNING)) {
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

int dmn_item_crspace(struct dmn_run *run, const struct mlx_function *fn)
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
	if (!mlx_kernel_can(cli->ctx, MLX_KCAP_DEVICE)) {
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
int dmn_item_devlink_health(struct dmn_run *run, const struct mlx_function *fn)
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
		if (!mlx_kernel_can(ctx, MLX_KCAP_DEVICE)) {
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
int dmn_item_pci_raw(struct dmn_run *run, const struct mlx_function *fn)
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

int dmn_item_kernel_log(struct dmn_run *run, const struct mlx_function *fn)
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
	if (mlx_kernel_can(ctx, MLX_KCAP_RUNNING)) {
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
		if (r != -ENOENT && mlx_kernel_can(ctx, MLX_KCAP_RUNNING)) {
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

int dmn_item_snapshot(struct dmn_run *run, const struct mlx_devices *devs)
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
