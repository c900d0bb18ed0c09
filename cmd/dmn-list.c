/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `mlxcli dump-me-now list` and `show PATH`: the incidents of the dump root, one manifest. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dmn-cmd.h"

void dmn_out_json(struct out *o, const char *key, json_t *v)
{
	const char *k;
	json_t *x;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		out_obj_begin(o, key, NULL);
		json_object_foreach(v, k, x)
			if (strcmp(k, "schema_version"))
				dmn_out_json(o, k, x);
		out_obj_end(o);
		break;
	case JSON_ARRAY:
		out_list_begin(o, key, NULL);
		json_array_foreach(v, i, x)
			dmn_out_json(o, NULL, x);
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

int dmn_show(struct cli *cli, const char *arg)
{
	struct dmn_settings s;
	struct out *o = cli->out;
	char path[8192];
	json_error_t jerr;
	json_t *m, *items, *it;
	size_t i;
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
				dmn_out_json(o, k, x);
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
