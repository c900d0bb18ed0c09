/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `mlxcli dump-me-now list` and `show PATH`, and the one renderer of an
 * incident's manifest: the manifest.json file, the JSON a dump prints and
 * `show` all come from dmn_manifest_out().  jansson is used here only to
 * parse a manifest back (show): nothing is written with it.
 */
#include "config.h"

#include <sys/stat.h>
#include <fcntl.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmn-cmd.h"

int dmn_manifest_add(struct dmn_manifest *m, const char *name, const char *status, const char *reason,
		     int64_t size, const char *sha)
{
	struct dmn_item *it;

	if (m->nitems == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;

		it = realloc(m->items, cap * sizeof(*it));
		if (!it)
			return -ENOMEM;
		m->items = it;
		m->cap = cap;
	}
	it = &m->items[m->nitems];
	memset(it, 0, sizeof(*it));
	snprintf(it->name, sizeof(it->name), "%s", name);
	it->status = status;
	it->reason = reason ? strdup(reason) : NULL;
	it->size = size;
	snprintf(it->sha256, sizeof(it->sha256), "%s", sha ? sha : "");
	if (reason && !it->reason)
		return -ENOMEM;
	m->nitems++;
	return 0;
}

void dmn_manifest_free(struct dmn_manifest *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nitems; i++)
		free(m->items[i].reason);
	free(m->items);
	free(m->reason);
	free(m);
}

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

void dmn_manifest_out(struct out *o, const struct dmn_manifest *m, bool labels)
{
#define L(text) (labels ? (text) : NULL)
	out_str(o, "format", NULL, "mlxcli-dmn");
	out_str(o, "name", L("incident"), m->name);
	out_str(o, "path", NULL, m->path);
	out_str(o, "pci_address", L("device"), m->pci_address);
	out_str(o, "product", NULL, or_null(m->product));
	out_str(o, "type", NULL, m->type);
	out_str(o, "source", NULL, m->source);
	out_str(o, "reason", NULL, m->reason);
	out_str(o, "created_at", L("created"), m->created_at);
	out_str(o, "mlxcli_version", NULL, m->version);
	out_str(o, "system", NULL, m->system);
	out_table_begin(o, "items");
	for (size_t i = 0; i < m->nitems; i++) {
		const struct dmn_item *it = &m->items[i];

		out_row_begin(o);
		out_str(o, "name", L("ITEM"), it->name);
		out_str(o, "result", L("RESULT"), it->status);
		/* JSON keeps the manifest's order; the text's last column is
		 * the reason, the long one */
		out_str(o, "reason", NULL, it->reason);
		if (it->size >= 0)
			out_s64(o, "size", L("SIZE"), it->size);
		else
			out_null(o, "size", L("SIZE"));
		out_str(o, "sha256", NULL, or_null(it->sha256));
		if (labels)
			out_text(o, "REASON", it->reason);
		out_row_end(o);
	}
	out_table_end(o);
#undef L
}

int dmn_list(struct cli *cli)
{
	struct dmn_settings s;
	struct mlx_dmn_entry *e;
	struct out *o = cli->out;
	size_t n, first, count;
	int r;

	r = dmn_load_settings(cli, &s);
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
	/* The retention in force (defaults < file < options), applied as the
	 * next dump would: which are preserved, which one it would remove. */
	first = count = 0;
	if (mlx_dmn_may_create(n, s.total, s.preserved) == 0)
		mlx_dmn_plan(n + 1, s.total, s.preserved, &first, &count);
	out_str(o, "dir", "dump root", s.dir);
	out_u64(o, "total_count", "total count", s.total);
	out_u64(o, "preserved_count", "preserved count", s.preserved);
	out_str(o, "config_file", "configuration file", s.conf);
	out_table_begin(o, "incidents");
	for (size_t i = 0; i < n; i++) {
		out_row_begin(o);
		out_str(o, "name", "INCIDENT", e[i].name);
		out_str(o, "pci_address", "DEVICE", e[i].pci_address[0] ? e[i].pci_address : NULL);
		out_str(o, "reason", "REASON", e[i].reason);
		out_bool(o, "preserved", "PRESERVED", i < s.preserved || s.preserved >= s.total);
		out_bool(o, "removed_by_next_dump", "NEXT_DUMP_REMOVES", i >= first && i < first + count);
		out_row_end(o);
	}
	out_table_end(o);
	free(e);
	return EXIT_OK;
}

static void copy_str(char *dst, size_t len, json_t *v)
{
	snprintf(dst, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

/* A manifest's bytes parsed (pure: the fuzz harness's entry); NULL (and
 * @err) when they are not one. */
struct dmn_manifest *dmn_manifest_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	struct dmn_manifest *m;
	json_error_t jerr;
	json_t *j, *items, *it, *reason;
	size_t i;

	j = json_loadb(buf, len, 0, &jerr);
	if (!j) {
		snprintf(err, errlen, "%s", jerr.text);
		return NULL;
	}
	items = json_object_get(j, "items");
	if (!json_is_object(j) || !json_is_array(items) ||
	    !json_is_string(json_object_get(j, "name"))) {
		snprintf(err, errlen, "not a dump-me-now manifest");
		json_decref(j);
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		json_decref(j);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	copy_str(m->name, sizeof(m->name), json_object_get(j, "name"));
	copy_str(m->path, sizeof(m->path), json_object_get(j, "path"));
	copy_str(m->pci_address, sizeof(m->pci_address), json_object_get(j, "pci_address"));
	copy_str(m->product, sizeof(m->product), json_object_get(j, "product"));
	copy_str(m->type, sizeof(m->type), json_object_get(j, "type"));
	copy_str(m->source, sizeof(m->source), json_object_get(j, "source"));
	reason = json_object_get(j, "reason");
	m->reason = json_is_string(reason) ? strdup(json_string_value(reason)) : NULL;
	copy_str(m->created_at, sizeof(m->created_at), json_object_get(j, "created_at"));
	copy_str(m->version, sizeof(m->version), json_object_get(j, "mlxcli_version"));
	copy_str(m->system, sizeof(m->system), json_object_get(j, "system"));
	json_array_foreach(items, i, it) {
		static const char *const statuses[] = { "ok", "unavailable", "failed" };
		const char *st = json_string_value(json_object_get(it, "result"));
		const char *status = "failed";
		json_t *sz = json_object_get(it, "size");

		/* "status" in the manifests of earlier mlxcli versions (an
		 * incident is evidence: read as it is, never rewritten) */
		if (!st)
			st = json_string_value(json_object_get(it, "status"));

		for (size_t k = 0; st && k < 3; k++)
			if (!strcmp(st, statuses[k]))
				status = statuses[k];
		if (dmn_manifest_add(m, json_is_string(json_object_get(it, "name")) ?
				     json_string_value(json_object_get(it, "name")) : "",
				     status, json_string_value(json_object_get(it, "reason")),
				     json_is_integer(sz) ? (int64_t)json_integer_value(sz) : -1,
				     json_string_value(json_object_get(it, "sha256"))) < 0) {
			snprintf(err, errlen, "out of memory");
			dmn_manifest_free(m);
			json_decref(j);
			return NULL;
		}
	}
	json_decref(j);
	return m;
}

/* A manifest.json read back: a regular file (an incident someone sent may
 * hold a FIFO there: O_NONBLOCK, refused), at most 4 MiB. */
struct dmn_manifest *dmn_manifest_load(const char *path, char *err, size_t errlen)
{
	struct dmn_manifest *m = NULL;
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (4 << 20)) {
		snprintf(err, errlen, "not a regular file of at most 4 MiB");
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && n < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m = dmn_manifest_parse(buf, n, err, errlen);
	free(buf);
	return m;
}

int dmn_show(struct cli *cli, const char *arg)
{
	struct dmn_settings s;
	struct dmn_manifest *m;
	char path[8192], err[200];
	int r;

	r = dmn_load_settings(cli, &s);
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
	m = dmn_manifest_load(path, err, sizeof(err));
	if (!m) {
		cli_error(cli, "cannot read '%s': %s", path, err);
		return access(path, F_OK) ? EXIT_USAGE : EXIT_FAIL;
	}
	dmn_manifest_out(cli->out, m, true);
	dmn_manifest_free(m);
	return EXIT_OK;
}
