/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters: the catalogue against every name in the real captured lists
 * ($FIXTURES/ethtool-S, $FIXTURES/hw_counters; skipped with a message when
 * absent), the delta/rate/wrap arithmetic, the ethtool message codecs, and
 * the Prometheus writer (names, label escaping, HELP/TYPE once per family).
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <cmocka.h>

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "counters.h"
#include "counters-cache.h"
#include "nl.h"
#include "prom.h"

/* ---- catalogue against the captures --------------------------------------- */

/* The captured data, or NULL when it is not beside this checkout (the
 * harness always sets FIXTURES; in a dist tarball it names nothing). */
static const char *fixtures(void)
{
	const char *f = getenv("FIXTURES");
	struct stat st;

	return f && *f && stat(f, &st) == 0 && S_ISDIR(st.st_mode) ? f : NULL;
}

/* Check one name: catalogued with a group and unit, or listed. */
static void check_name(enum mlx_csrc src, const char *name, const char *file, unsigned *total,
		       unsigned *uncat)
{
	struct mlx_cat_match m;

	(*total)++;
	if (mlx_cat_lookup(src, name, &m)) {
		assert_non_null(m.group);
		assert_non_null(m.unit);
		assert_string_not_equal(m.group, "uncatalogued");
		assert_true(m.width == 64 || m.width == 32 || m.width == 16 || m.width == 8 ||
			    m.width == 4);
		assert_true(m.metric[0]);
		return;
	}
	(*uncat)++;
	printf("  uncatalogued (%s) %s  [%s]\n", mlx_csrc_name(src), name, file);
}

static bool is_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/* Every word of @line that is a counter name (letters, digits, '_', with
 * at least one '_' or a known lowercase shape), skipping numbers and the
 * tool's own words. */
static void scan_words(enum mlx_csrc src, char *line, const char *file, unsigned *total,
		       unsigned *uncat)
{
	static const char *const skip[] = { "link", "supported", "optional", "counters", "Port",
					    "hw", "NIC", "statistics", NULL };
	char *p = line;

	while (*p) {
		char word[128];
		size_t n = 0;
		bool digits = true;

		while (*p && !is_name_char(*p))
			p++;
		while (*p && is_name_char(*p) && n + 1 < sizeof(word)) {
			digits &= (*p >= '0' && *p <= '9');
			word[n++] = *p++;
		}
		word[n] = '\0';
		if (!n || digits)
			continue;
		if (*p == '/') {        /* "mlx5_0/1", "rocep8s0f0/1": a link name */
			while (*p && *p != ' ')
				p++;
			continue;
		}
		bool sk = false;

		for (size_t i = 0; skip[i]; i++)
			sk |= !strcmp(word, skip[i]);
		if (!sk)
			check_name(src, word, file, total, uncat);
	}
}

static void scan_dir(const char *sub, enum mlx_csrc src, unsigned *total, unsigned *uncat,
		     unsigned *files)
{
	char dir[1024];
	DIR *d;
	struct dirent *e;

	snprintf(dir, sizeof(dir), "%s/%s", fixtures(), sub);
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[2048], line[4096];
		FILE *fp;
		size_t len = strlen(e->d_name);

		if (len < 5 || strcmp(e->d_name + len - 4, ".txt"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		fp = fopen(path, "r");
		assert_non_null(fp);
		(*files)++;
		while (fgets(line, sizeof(line), fp)) {
			char *colon;

			if (line[0] == '#')
				continue;         /* the shell prompt of a grep capture */
			colon = strchr(line, ':');
			if (src == MLX_CSRC_ETHTOOL) {
				/* "     name: value" */
				if (!colon)
					continue;
				*colon = '\0';
				scan_words(src, line, e->d_name, total, uncat);
			} else if (colon && !strstr(line, "link ")) {
				/* show_counters: "name: value" */
				*colon = '\0';
				scan_words(src, line, e->d_name, total, uncat);
			} else {
				/* rdma statistic: "link X/1 name value name value ..." and
				 * "supported optional-counters a,b,c" */
				scan_words(src, line, e->d_name, total, uncat);
			}
		}
		fclose(fp);
	}
	closedir(d);
}

static void test_fixture_names(void **state)
{
	unsigned total = 0, uncat = 0, files = 0;

	(void)state;
	if (!fixtures()) {
		printf("SKIP: no captured data in FIXTURES; the captured counter lists are not here\n");
		skip();
	}
	scan_dir("ethtool-S", MLX_CSRC_ETHTOOL, &total, &uncat, &files);
	scan_dir("hw_counters", MLX_CSRC_HW, &total, &uncat, &files);
	printf("  %u names in %u captured lists, %u uncatalogued\n", total, files, uncat);
	assert_true(files >= 7);
	assert_true(total >= 400);
	/* The captures are mlx5 lists the catalogue was written for: every
	 * name resolves.  (An uncatalogued one is printed above.) */
	assert_int_equal(uncat, 0);
}

/* Families: the index becomes a label. */
static void test_families(void **state)
{
	struct mlx_cat_match m;

	(void)state;
	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_prio3_bytes", &m));
	assert_string_equal(m.group, "prio");
	assert_string_equal(m.unit, "bytes");
	assert_int_equal(m.index, 3);
	assert_string_equal(m.labels[0].name, "priority");
	assert_string_equal(m.labels[0].value, "3");
	assert_string_equal(m.metric, "prio_rx_bytes");

	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx12_packets", &m));
	assert_string_equal(m.group, "queue");
	assert_int_equal(m.index, 12);
	assert_string_equal(m.dir, "rx");
	assert_string_equal(m.metric, "queue_packets");
	assert_string_equal(m.labels[0].value, "12");
	assert_string_equal(m.labels[1].name, "direction");

	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "tx0_stopped", &m));
	assert_string_equal(m.e->pattern, "tx_queue_stopped");
	assert_true(m.flags & MLX_CF_DROP);

	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_bytes_phy", &m));
	assert_string_equal(m.metric, "port_rx_bytes");
	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_err_lane_2_phy", &m));
	assert_int_equal(m.index, 2);

	/* same name, two sources, two meanings */
	assert_true(mlx_cat_lookup(MLX_CSRC_NETDEV, "rx_bytes", &m));
	assert_string_equal(m.group, "netdev");
	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_bytes", &m));
	assert_string_equal(m.group, "driver");

	/* IB data is in 4-byte words; q counters are 32-bit */
	assert_true(mlx_cat_lookup(MLX_CSRC_IB, "port_xmit_data", &m));
	assert_int_equal(m.scale, 4);
	assert_string_equal(m.unit, "bytes");
	assert_true(mlx_cat_lookup(MLX_CSRC_HW, "out_of_sequence", &m));
	assert_int_equal(m.width, 32);
	assert_true(mlx_cat_lookup(MLX_CSRC_HW, "np_cnp_sent", &m));
	assert_int_equal(m.width, 64);
	assert_true(m.flags & MLX_CF_CC);

	assert_true(mlx_cat_lookup(MLX_CSRC_AER, "correctable_RxErr", &m));
	assert_string_equal(m.labels[0].value, "correctable");
	assert_string_equal(m.labels[1].value, "RxErr");

	/* not a family member: digits in the wrong place, trailing junk */
	assert_false(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_prio_bytes", &m));
	assert_false(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_prio3_bytesX", &m));
	assert_string_equal(m.group, "uncatalogued");
	assert_false(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx3_no_such_thing", &m));
}

/* ---- arithmetic ------------------------------------------------------------- */

static void test_delta_wrap(void **state)
{
	bool reset;

	(void)state;
	assert_int_equal(mlx_counter_delta(100, 250, 64, &reset), 150);
	assert_false(reset);
	assert_int_equal(mlx_counter_delta(5, 5, 64, &reset), 0);
	assert_false(reset);
	/* u32 sysfs counter (mlx5 q counters) wrapped */
	assert_int_equal(mlx_counter_delta(0xfffffff0u, 0x10, 32, &reset), 0x20);
	assert_false(reset);
	assert_int_equal(mlx_counter_delta(0x80000001u, 0, 32, &reset), 0x7fffffff);
	assert_false(reset);
}

/* A counter that went backwards was reset (driver reload, counters
 * cleared), unless the catalogue knows it is 32 bits wide and the step
 * is a plausible wrap: the increase across a reset is unknown (0 and
 * *reset), never 2^width minus the drop (issue 15: 12 -> 5 showed
 * 10.7 G packets/s). */
static void test_delta_reset(void **state)
{
	bool reset;

	(void)state;
	/* 32 bits: 12 -> 5 would be a wrap of 2^32 - 7 events */
	assert_int_equal(mlx_counter_delta(12, 5, 32, &reset), 0);
	assert_true(reset);
	/* 32 bits, a value the width cannot hold: the width is wrong */
	assert_int_equal(mlx_counter_delta(0x100000010ull, 5, 32, &reset), 0);
	assert_true(reset);
	/* 64 bits never wrap in practice: backwards is a reset */
	assert_int_equal(mlx_counter_delta(12, 5, 64, &reset), 0);
	assert_true(reset);
	assert_int_equal(mlx_counter_delta(UINT64_MAX - 9, 5, 64, &reset), 0);
	assert_true(reset);
	assert_int_equal(mlx_counter_delta(1000000, 7, 64, &reset), 0);
	assert_true(reset);
	/* width unknown (0): backwards is a reset, forwards a delta */
	assert_int_equal(mlx_counter_delta(12, 5, 0, &reset), 0);
	assert_true(reset);
	assert_int_equal(mlx_counter_delta(5, 12, 0, &reset), 7);
	assert_false(reset);
	/* 16-bit PMA error counters saturate (IBA PortCounters): backwards
	 * means cleared */
	assert_int_equal(mlx_counter_delta(65530, 4, 16, &reset), 0);
	assert_true(reset);
	assert_int_equal(mlx_counter_delta(65530, 65535, 16, &reset), 5);
	assert_false(reset);
	/* the NULL out-parameter is allowed */
	assert_int_equal(mlx_counter_delta(12, 5, 64, NULL), 0);
}

/* The one change computation `counters watch` and `top` share
 * (mlx_counter_change): delta times the catalogue's scale, the rate over
 * the interval, a reset without a rate, nothing for a gauge, a missing or
 * invalid previous value, or a port that was gone. */
static void test_change(void **state)
{
	struct mlx_cat_match mb, mw, mg;
	struct mlx_counter pc[3], cc[3];
	struct mlx_counter_port prev = { .c = pc, .n = 3 };
	struct mlx_crate r;

	(void)state;
	assert_true(mlx_cat_lookup(MLX_CSRC_NETDEV, "rx_bytes", &mb));
	/* IB PMA port_rcv_data: 4-octet words, scale 4 */
	assert_true(mlx_cat_lookup(MLX_CSRC_IB, "port_rcv_data", &mw));
	assert_int_equal(mw.scale, 4);
	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "outbound_pci_stalled_rd", &mg));
	assert_true(mg.flags & MLX_CF_GAUGE);
	pc[0] = (struct mlx_counter){ "rx_bytes", &mb, MLX_CSRC_NETDEV, true, 1000, 1000 };
	pc[1] = (struct mlx_counter){ "port_rcv_data", &mw, MLX_CSRC_IB, true, 10, 40 };
	pc[2] = (struct mlx_counter){ "outbound_pci_stalled_rd", &mg, MLX_CSRC_ETHTOOL, true, 5, 5 };
	/* the current sample lists them in another order: found by name */
	cc[0] = (struct mlx_counter){ "port_rcv_data", &mw, MLX_CSRC_IB, true, 60, 240 };
	cc[1] = (struct mlx_counter){ "rx_bytes", &mb, MLX_CSRC_NETDEV, true, 3000, 3000 };
	cc[2] = (struct mlx_counter){ "outbound_pci_stalled_rd", &mg, MLX_CSRC_ETHTOOL, true, 9, 9 };
	assert_true(mlx_counter_change(&prev, 1, &cc[1], 0.5, &r));
	assert_false(r.reset);
	assert_int_equal(r.delta, 2000);
	assert_true(r.per_second > 3999.9 && r.per_second < 4000.1);
	assert_true(mlx_counter_change(&prev, 0, &cc[0], 2.0, &r));
	assert_int_equal(r.delta, 200);             /* 50 words of 4 octets */
	assert_true(r.per_second > 99.9 && r.per_second < 100.1);
	assert_false(mlx_counter_change(&prev, 2, &cc[2], 1.0, &r));    /* a gauge */
	/* cleared: a reset, no rate */
	cc[1].raw = cc[1].value = 10;
	assert_true(mlx_counter_change(&prev, 1, &cc[1], 1.0, &r));
	assert_true(r.reset);
	assert_int_equal(r.delta, 0);
	assert_true(r.per_second == 0.0);
	/* nothing to compare with */
	pc[0].valid = false;
	assert_false(mlx_counter_change(&prev, 1, &cc[1], 1.0, &r));
	pc[0].valid = true;
	prev.gone = true;
	assert_false(mlx_counter_change(&prev, 1, &cc[1], 1.0, &r));
	assert_false(mlx_counter_change(NULL, 1, &cc[1], 1.0, &r));
}

/* The widths the catalogue claims: 32 for the mlx5 q counters (ethtool
 * qcnt and vnic_env's internal_rq_out_of_buffer are read as u32 by
 * en_stats.c; hw_counters q counters likewise), 64 for PPCNT counters. */
static void test_widths(void **state)
{
	struct mlx_cat_match m;

	(void)state;
	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_out_of_buffer", &m));
	assert_int_equal(m.width, 32);
	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_if_down_packets", &m));
	assert_int_equal(m.width, 32);
	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "dev_internal_queue_oob", &m));
	assert_int_equal(m.width, 32);
	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_steer_missed_packets", &m));
	assert_int_equal(m.width, 64);
	assert_true(mlx_cat_lookup(MLX_CSRC_HW, "out_of_sequence", &m));
	assert_int_equal(m.width, 32);
	assert_true(mlx_cat_lookup(MLX_CSRC_ETHTOOL, "rx_bytes_phy", &m));
	assert_int_equal(m.width, 64);
}

static void test_rate(void **state)
{
	(void)state;
	assert_true(mlx_counter_rate(1000, 2.0) == 500.0);
	assert_true(mlx_counter_rate(1000, 0) == 0.0);
	assert_true(mlx_counter_rate(1, 0.25) == 4.0);
}

/* ---- codecs ------------------------------------------------------------------ */

static void test_codecs(void **state)
{
	const char *names[] = { "rx_packets", "tx_packets", "rx_prio3_pause" };
	uint64_t vals[3] = { 1, 2, UINT64_MAX }, back[3];
	struct mlx_ethtool_names en;
	uint8_t *buf;
	size_t len, n = 3;

	(void)state;
	assert_int_equal(mlx_encode_strset_msg(names, 3, &buf, &len), 0);
	assert_int_equal(mlx_decode_strset_msg(buf, len, &en), 0);
	assert_int_equal(en.n, 3);
	assert_string_equal(en.names[2], "rx_prio3_pause");
	mlx_ethtool_names_free(&en);
	/* truncated: never a partial list */
	assert_true(mlx_decode_strset_msg(buf, len - 8, &en) < 0);
	free(buf);

	assert_int_equal(mlx_encode_stats_msg("eth0", vals, 3, &buf, &len), 0);
	assert_int_equal(mlx_decode_stats_msg(buf, len, back, &n), 0);
	assert_int_equal(n, 3);
	assert_true(back[2] == UINT64_MAX);
	n = 2;                      /* no room: refused, not overrun */
	assert_true(mlx_decode_stats_msg(buf, len, back, &n) < 0);
	free(buf);
}

/* More names than fit one 64 KiB nest: split, and read back whole. */
static void test_codec_large(void **state)
{
	enum { N = 7000 };
	char **names = calloc(N, sizeof(*names));
	uint64_t *vals = calloc(N, sizeof(*vals)), *back = calloc(N, sizeof(*back));
	struct mlx_ethtool_names en;
	uint8_t *buf;
	size_t len, n = N;

	(void)state;
	for (int i = 0; i < N; i++) {
		names[i] = malloc(32);
		snprintf(names[i], 32, "rx%d_packets", i);
		vals[i] = (uint64_t)i * 1000003u;
	}
	assert_int_equal(mlx_encode_strset_msg((const char *const *)names, N, &buf, &len), 0);
	assert_int_equal(mlx_decode_strset_msg(buf, len, &en), 0);
	assert_int_equal(en.n, N);
	assert_string_equal(en.names[N - 1], "rx6999_packets");
	mlx_ethtool_names_free(&en);
	free(buf);
	assert_int_equal(mlx_encode_stats_msg("eth0", vals, N, &buf, &len), 0);
	assert_int_equal(mlx_decode_stats_msg(buf, len, back, &n), 0);
	assert_memory_equal(vals, back, N * sizeof(*vals));
	free(buf);
	for (int i = 0; i < N; i++)
		free(names[i]);
	free(names);
	free(vals);
	free(back);
}

/* ---- Prometheus ---------------------------------------------------------------- */

static void test_prom_escape(void **state)
{
	char out[64];

	(void)state;
	prom_escape_label(out, sizeof(out), "a\"b\\c\nd");
	assert_string_equal(out, "a\\\"b\\\\c\\nd");
	prom_escape_label(out, 4, "abcdef");
	assert_true(strlen(out) <= 3);
}

static size_t count_lines(const char *text, const char *prefix)
{
	size_t n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
	return n;
}

static void test_prom_writer(void **state)
{
	static const char *const names[] = {
		"rx_prio0_bytes", "rx_prio3_bytes", "rx_bytes_phy", "rx0_packets", "tx0_packets",
		"rx_prio3_pause_duration", "weird\"name", "tx_prio3_bytes",
	};
	struct mlx_cat_match m[8];
	struct mlx_counter c[8];
	struct mlx_counter_port p;
	struct mlx_counters cs;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;
	int n;

	(void)state;
	memset(&p, 0, sizeof(p));
	strcpy(p.bdf, "0000:5e:00.0");
	strcpy(p.ifname, "enp94s0f0np0");
	p.port_label = 1;
	for (int i = 0; i < 8; i++) {
		mlx_cat_lookup(MLX_CSRC_ETHTOOL, names[i], &m[i]);
		c[i] = (struct mlx_counter){ .name = names[i], .m = &m[i], .src = MLX_CSRC_ETHTOOL,
					     .valid = true, .raw = 1000u + (unsigned)i,
					     .value = 1000u + (unsigned)i };
	}
	p.c = c;
	p.n = 8;
	cs = (struct mlx_counters){ .ports = &p, .nports = 1 };
	fp = open_memstream(&text, &len);
	n = prom_write(fp, &cs, NULL, NULL);
	fclose(fp);
	assert_int_equal(n, 8);
	/* families, not names */
	assert_non_null(strstr(text, "mlxcli_prio_rx_bytes_total{pci_address=\"0000:5e:00.0\","
				     "netdev=\"enp94s0f0np0\",port=\"1\",priority=\"3\"} 1001\n"));
	assert_non_null(strstr(text, "mlxcli_port_rx_bytes_total{"));
	assert_non_null(strstr(text, "mlxcli_queue_packets_total{pci_address=\"0000:5e:00.0\","
				     "netdev=\"enp94s0f0np0\",port=\"1\",queue=\"0\",direction=\"tx\"} 1004\n"));
	/* microseconds become seconds */
	assert_non_null(strstr(text, "mlxcli_prio_rx_pause_duration_seconds_total{"));
	assert_non_null(strstr(text, "} 0.001005\n"));
	/* the uncatalogued name is a label value, escaped */
	assert_non_null(strstr(text, "name=\"weird\\\"name\""));
	assert_non_null(strstr(text, "# TYPE mlxcli_uncatalogued untyped\n"));
	/* HELP and TYPE once per family: 7 families for 8 samples */
	assert_int_equal(count_lines(text, "# HELP mlxcli_prio_rx_bytes_total "), 1);
	assert_int_equal(count_lines(text, "# TYPE mlxcli_prio_rx_bytes_total counter"), 1);
	assert_int_equal(count_lines(text, "# TYPE mlxcli_queue_packets_total counter"), 1);
	assert_int_equal(count_lines(text, "# TYPE "), 6);
	assert_int_equal(count_lines(text, "# HELP "), 6);
	assert_int_equal(count_lines(text, "mlxcli_"), 8);
	free(text);
}

/* ---- the name cache: keys by hash, listings shared ---- */

static char **strv(const char *const *v, size_t n)
{
	char **out = calloc(n + 1, sizeof(*out));

	assert_non_null(out);
	for (size_t i = 0; i < n; i++)
		assert_non_null(out[i] = strdup(v[i]));
	return out;
}

static void test_cache(void **state)
{
	static const char *const veth[] = { "peer_ifindex", "rx_queue_0_xdp_packets", "rx_bytes" };
	static const char *const other[] = { "rx_bytes", "peer_ifindex" };
	struct mlx_cstate *st = mlx_cstate_new();
	struct cnames *first = NULL, *c, *again;
	char key[32];

	(void)state;
	assert_non_null(st);
	/* 500 netdevs with one name list (enough to grow the tables a few
	 * times): one listing, catalogued once, for all of them. */
	for (int i = 0; i < 500; i++) {
		snprintf(key, sizeof(key), "va%d", i);
		c = cn_add(st, MLX_CSRC_ETHTOOL, key, strv(veth, 3), 3, 0);
		assert_non_null(c);
		if (!first)
			first = c;
		assert_ptr_equal(c->names, first->names);
		assert_ptr_equal(c->m, first->m);
	}
	for (int i = 0; i < 500; i++) {
		snprintf(key, sizeof(key), "va%d", i);
		c = cn_find(st, MLX_CSRC_ETHTOOL, key);
		assert_non_null(c);
		assert_string_equal(c->key, key);
		assert_int_equal(c->n, 3);
	}
	assert_null(cn_find(st, MLX_CSRC_ETHTOOL, "va500"));
	assert_null(cn_find(st, MLX_CSRC_HW, "va1"));      /* the source is part of the key */
	/* Same names, another source: its own listing (other catalogue). */
	c = cn_add(st, MLX_CSRC_NETDEV, "va1", strv(veth, 3), 3, 0);
	assert_ptr_not_equal(c->m, first->m);
	/* A new listing of a key: the old entry turns stale but stays valid
	 * (an earlier sample points into it); lookups see the new one. */
	c = cn_find(st, MLX_CSRC_ETHTOOL, "va7");
	assert_true(cn_same(c, (char *const *)veth, 3));
	assert_false(cn_same(c, (char *const *)other, 2));
	again = cn_add(st, MLX_CSRC_ETHTOOL, "va7", strv(other, 2), 2, 0);
	assert_true(c->stale);
	assert_string_equal(c->names[2], "rx_bytes");
	assert_ptr_equal(cn_find(st, MLX_CSRC_ETHTOOL, "va7"), again);
	assert_int_equal(again->n, 2);
	assert_ptr_not_equal(again->names, first->names);
	/* A failed listing is remembered with its error and no names. */
	c = cn_add(st, MLX_CSRC_ETHTOOL, "lo", NULL, 0, -EOPNOTSUPP);
	assert_int_equal(c->err, -EOPNOTSUPP);
	assert_int_equal(c->n, 0);
	assert_ptr_equal(cn_find(st, MLX_CSRC_ETHTOOL, "lo"), c);
	mlx_cstate_free(st);       /* ASan and valgrind: nothing leaks */
}

/* Issue 28: a listing that repeats a name numbers its later copies (a
 * document keyed by name calls them "name#2", "name#3"); the first, and
 * a name said once, has 0. */
static void test_cache_dups(void **state)
{
	static const char *const names[] = { "rx_bytes", "tx_bytes", "rx_bytes", "peer_ifindex",
					     "rx_bytes", "tx_bytes" };
	struct mlx_cstate *st = mlx_cstate_new();
	struct cnames *c;

	(void)state;
	assert_non_null(st);
	c = cn_add(st, MLX_CSRC_ETHTOOL, "va0", strv(names, 6), 6, 0);
	assert_non_null(c);
	assert_int_equal(c->m[0].dup, 0);
	assert_int_equal(c->m[1].dup, 0);
	assert_int_equal(c->m[2].dup, 1);
	assert_int_equal(c->m[3].dup, 0);
	assert_int_equal(c->m[4].dup, 2);
	assert_int_equal(c->m[5].dup, 1);
	mlx_cstate_free(st);
}

/* Issue 28: --group reads only the sources whose counters the group can
 * select (-g netdev: the link dump alone). */
static void test_group_sources(void **state)
{
	const unsigned et = 1u << MLX_CSRC_ETHTOOL, nd = 1u << MLX_CSRC_NETDEV,
		       hw = 1u << MLX_CSRC_HW, ib = 1u << MLX_CSRC_IB, aer = 1u << MLX_CSRC_AER;

	(void)state;
	assert_int_equal(mlx_counter_group_sources("netdev"), nd);
	assert_int_equal(mlx_counter_group_sources("phy"), 0);
	assert_int_equal(mlx_counter_group_sources("queue"), et);
	assert_int_equal(mlx_counter_group_sources("channel"), et);
	assert_int_equal(mlx_counter_group_sources("prio"), et);
	assert_true(mlx_counter_group_sources("pcie") & aer);
	assert_int_equal(mlx_counter_group_sources("uncatalogued"), MLX_CSRC_ALL);
	/* errors and congestion select by flag, across sources */
	assert_int_equal(mlx_counter_group_sources("errors") & (et | nd | hw | ib | aer),
			 et | nd | hw | ib | aer);
	assert_true((mlx_counter_group_sources("congestion") & (et | hw)) == (et | hw));
	assert_true((mlx_counter_group_sources("rdma") & (hw | ib)) == (hw | ib));
	/* every catalogue entry's source is read for its group */
	{
		size_t n;
		const struct mlx_cat *t = mlx_cat_table(&n);

		for (size_t i = 0; i < n; i++)
			assert_true((mlx_counter_group_sources(t[i].group) & t[i].srcs) == t[i].srcs);
	}
}

/* The same series twice (two ports with the same labels, a name a driver
 * repeats) is written once, the first; the samples of a family keep the
 * order of ports and counters. */
static void test_prom_dups(void **state)
{
	static const char *const names[] = { "rx_prio3_bytes", "rx_prio3_bytes", "tx_prio3_bytes" };
	struct mlx_cat_match m[3];
	struct mlx_counter c[2][3];
	struct mlx_counter_port p[2];
	struct mlx_counters cs;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;
	int n;

	(void)state;
	for (int i = 0; i < 3; i++)
		mlx_cat_lookup(MLX_CSRC_ETHTOOL, names[i], &m[i]);
	for (int k = 0; k < 2; k++) {
		memset(&p[k], 0, sizeof(p[k]));
		strcpy(p[k].bdf, "0000:5e:00.0");
		strcpy(p[k].ifname, k ? "b" : "a");
		p[k].port_label = 1;
		for (int i = 0; i < 3; i++)
			c[k][i] = (struct mlx_counter){ .name = names[i], .m = &m[i],
							.src = MLX_CSRC_ETHTOOL, .valid = true,
							.raw = 10u * (unsigned)k + (unsigned)i,
							.value = 10u * (unsigned)k + (unsigned)i };
		p[k].c = c[k];
		p[k].n = 3;
	}
	cs = (struct mlx_counters){ .ports = p, .nports = 2 };
	fp = open_memstream(&text, &len);
	n = prom_write(fp, &cs, NULL, NULL);
	fclose(fp);
	/* per port one rx and one tx sample: the repeated rx_prio3_bytes is dropped */
	assert_int_equal(n, 4);
	assert_non_null(strstr(text, "mlxcli_prio_rx_bytes_total{pci_address=\"0000:5e:00.0\",netdev=\"a\","
				     "port=\"1\",priority=\"3\"} 0\n"
				     "mlxcli_prio_rx_bytes_total{pci_address=\"0000:5e:00.0\",netdev=\"b\","
				     "port=\"1\",priority=\"3\"} 10\n"));
	free(text);
	/* two ports the same labels name: the second port's series go */
	strcpy(p[1].ifname, "a");
	text = NULL;
	fp = open_memstream(&text, &len);
	n = prom_write(fp, &cs, NULL, NULL);
	fclose(fp);
	assert_int_equal(n, 2);
	assert_null(strstr(text, "} 10\n"));
	free(text);
}

/* A STRSET_GET reply names its device in the header nest (dumps rely on
 * it); one without a header names none. */
static void test_strset_dev(void **state)
{
	struct genlmsghdr g = { .cmd = ETHTOOL_MSG_STRSET_GET_REPLY, .version = 1 };
	uint8_t buf[256];
	struct mlx_nlbuf b;
	char dev[16];
	size_t nest;
	int len;

	(void)state;
	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_nlb_msg(&b, 20, 0);
	mlx_nlb_put(&b, &g, sizeof(g));
	nest = mlx_nlb_nest_start(&b, NLA_F_NESTED | ETHTOOL_A_STRSET_HEADER);
	mlx_nlb_u32(&b, ETHTOOL_A_HEADER_DEV_INDEX, 7);
	mlx_nlb_str(&b, ETHTOOL_A_HEADER_DEV_NAME, "enp94s0f0np0");
	mlx_nlb_nest_end(&b, nest);
	len = mlx_nlb_finish(&b);
	assert_true(len > 0);
	assert_int_equal(mlx_decode_strset_dev(buf, (size_t)len, dev, sizeof(dev)), 0);
	assert_string_equal(dev, "enp94s0f0np0");
	/* cut to the buffer, never past it */
	assert_int_equal(mlx_decode_strset_dev(buf, (size_t)len, dev, 4), 0);
	assert_string_equal(dev, "enp");
	/* truncated inside the nest */
	assert_true(mlx_decode_strset_dev(buf, (size_t)len - 6, dev, sizeof(dev)) < 0);

	mlx_nlb_init(&b, buf, sizeof(buf));
	mlx_nlb_msg(&b, 20, 0);
	mlx_nlb_put(&b, &g, sizeof(g));
	len = mlx_nlb_finish(&b);
	assert_int_equal(mlx_decode_strset_dev(buf, (size_t)len, dev, sizeof(dev)), -ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_names),
		cmocka_unit_test(test_families),
		cmocka_unit_test(test_delta_wrap),
		cmocka_unit_test(test_delta_reset),
		cmocka_unit_test(test_change),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_codecs),
		cmocka_unit_test(test_codec_large),
		cmocka_unit_test(test_prom_escape),
		cmocka_unit_test(test_prom_writer),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_dups),
		cmocka_unit_test(test_group_sources),
		cmocka_unit_test(test_prom_dups),
		cmocka_unit_test(test_strset_dev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
