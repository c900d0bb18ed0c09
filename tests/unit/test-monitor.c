/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event monitor's pure parts (issue 16): the kernel-log classifier on
 * the real mlx5 kernel logs in $FIXTURES/dmesg (every mlx5_core line is
 * classified or counted as unclassified, and the expected counts per kind
 * say which), the facility rule, the dictionary's device, sequence gaps,
 * rtnetlink link messages and devlink health notifications built from the
 * uapi, and the catalogue's invariants.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/dcbnl.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <cmocka.h>

#include "monitor.h"
#include "nl-writer.h"

/* ---- the fixtures -------------------------------------------------------- */

/* The kernel's text of a fixture line: dmesg's "[  12.345678] ", a
 * journal's "Mon DD HH:MM:SS host kernel: " and indentation removed;
 * NULL for a line that is not a kernel record (a prompt, a user-space
 * program's journal line, a separator). */
static const char *kernel_text(char *line, unsigned long long *usec)
{
	char *p = line, *k;
	unsigned long s, us;
	bool journal;
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	*usec = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (sscanf(p, "[%lu.%lu] %n", &s, &us, &n) == 2 && n > 0) {
		*usec = (unsigned long long)s * 1000000 + us;
		return p + n;
	}
	journal = p[0] >= 'A' && p[0] <= 'Z' && p[3] == ' ' && p[6] == ' ' && p[9] == ':';
	if (journal)
		return (k = strstr(p, " kernel: ")) ? k + 9 : NULL;
	if (!strncmp(p, "//", 2) || !strncmp(p, "-- ", 3) || strstr(p, "$ ") || strstr(p, "]# "))
		return NULL;
	return p;
}

/* A /dev/kmsg record as the kernel writes it for @text (the device's
 * dictionary when the text names an mlx5 PCI function). */
static size_t make_record(char *buf, size_t cap, int prio, unsigned long long seq,
			  unsigned long long usec, const char *text)
{
	char bdf[32] = "";
	int n;

	if (sscanf(text, "mlx5_core %31[0-9a-f:.]", bdf) == 1 && bdf[strlen(bdf) - 1] == ':')
		bdf[strlen(bdf) - 1] = '\0';
	n = snprintf(buf, cap, "%d,%llu,%llu,-;%s\n", prio, seq, usec, text);
	if (bdf[0])
		n += snprintf(buf + n, cap - (size_t)n, " SUBSYSTEM=pci\n DEVICE=+pci:%s\n", bdf);
	return (size_t)n;
}

struct expect {
	const char *file;
	unsigned mlx5_lines, unclassified;
	struct { enum mlx_ev_kind kind; unsigned n; } k[12];
	/* the kinds line by line, "id" or "id*N" for N in a row: a line
	 * classified wrongly fails even where the counts balance */
	const char *order;
};

/* The next kind of @order (advancing *order past "id*N" after N calls)
 * must be @id. */
static void next_in_order(const char *file, const char *line, const char **order, unsigned *run,
			  const char *id)
{
	const char *p = *order;
	size_t n;
	unsigned times = 1;

	while (*p == ' ')
		p++;
	n = strcspn(p, " *");
	if (p[n] == '*')
		times = (unsigned)strtoul(p + n + 1, NULL, 10);
	if (n != strlen(id) || strncmp(p, id, n))
		fail_msg("%s: '%s' is %s, expected %.*s", file, line, id, (int)n, p);
	if (++*run == times) {
		*run = 0;
		*order = p + strcspn(p, " ");
	} else {
		*order = p;
	}
}

static void check_file(const struct expect *x)
{
	const char *dir = getenv("FIXTURES");
	char path[4096], line[2048], rec[4096];
	unsigned counts[MLX_EV_NKINDS] = { 0 }, mlx5 = 0, classified_other = 0;
	unsigned long long seq = 100, usec;
	bool verbose = getenv("MONITOR_TEST_VERBOSE") != NULL;
	const char *order = x->order;
	unsigned run = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/dmesg/%s", dir ? dir : "", x->file);
	f = dir ? fopen(path, "r") : NULL;
	if (!f) {
		print_message("skip: %s absent (FIXTURES)\n", path);
		skip();
	}
	while (fgets(line, sizeof(line), f)) {
		const char *t = kernel_text(line, &usec);
		struct mlx_event ev;
		size_t len;
		int r;

		if (!t || !*t)
			continue;
		len = make_record(rec, sizeof(rec), 6, seq++, usec, t);
		r = mlx_kmsg_classify(rec, len, 0, &ev);
		assert_true(r == 0 || r == 1);
		if (!strncmp(t, "mlx5_core", 9)) {
			mlx5++;
			assert_int_equal(r, 1);
			counts[ev.kind]++;
			if (!verbose)
				next_in_order(x->file, t, &order, &run, mlx_ev_kind_info(ev.kind)->id);
			/* the device is the one the line names */
			if (t[9] == ' ')
				assert_int_equal(strncmp(t + 10, ev.pci_address, strlen(ev.pci_address)), 0);
		} else if (r == 1) {
			classified_other++;
		}
		if (verbose)
			print_message("%-22s %s\n", r == 1 ? mlx_ev_kind_info(ev.kind)->id : "-", t);
	}
	fclose(f);
	if (verbose)
		return;
	assert_int_equal(classified_other, 0);
	assert_int_equal(mlx5, x->mlx5_lines);
	assert_int_equal(order[strspn(order, " ")], '\0');
	assert_int_equal(counts[MLX_EV_MLX5_LOG], x->unclassified);
	for (size_t i = 0; i < sizeof(x->k) / sizeof(x->k[0]) && x->k[i].kind; i++) {
		if (counts[x->k[i].kind] != x->k[i].n)
			fail_msg("%s: %s: %u, expected %u", x->file, mlx_ev_kind_info(x->k[i].kind)->id,
				 counts[x->k[i].kind], x->k[i].n);
		counts[x->k[i].kind] = 0;
	}
	counts[MLX_EV_MLX5_LOG] = 0;
	for (int k = 0; k < MLX_EV_NKINDS; k++)
		if (counts[k])
			fail_msg("%s: %u unexpected %s", x->file, counts[k], mlx_ev_kind_info(k)->id);
}

/* Counted by hand from the captures (each line's kind checked against the
 * kernel format in the catalogue); mlx5 lines, of which unclassified. */
static const struct expect expected[] = {
	{ "cx4lx-fw14.22-probe-pcie-bw-module-event-eexist-5.14rc6.txt", 9, 3,
	  { { MLX_EV_FIRMWARE_VERSION, 1 }, { MLX_EV_MODULE_PLUGGED, 1 },
	    { MLX_EV_PCIE_BANDWIDTH, 1 }, { MLX_EV_PROBE_FAILED, 3 } },
	  "mlx5_log firmware_version pcie_bandwidth mlx5_log module_plugged probe_failed "
	  "mlx5_log probe_failed*2 " },
	{ "cx4lx-fw14.32-probe-fail-log_max_qp-handle_hca_cap-EINVAL.txt", 6, 2,
	  { { MLX_EV_FIRMWARE_VERSION, 1 }, { MLX_EV_PROBE_FAILED, 3 } },
	  "mlx5_log firmware_version mlx5_log probe_failed*3 " },
	{ "cx4lx-tx-error-cqe-syndrome1-vendor68-wqe-dump-2021.txt", 2, 0,
	  { { MLX_EV_CQE_ERROR, 1 }, { MLX_EV_SQ_ERR_CQE, 1 } },
	  "cqe_error sq_error_cqe " },
	{ "cx5-fw16.27-arm64-probe-slot-power-75W-module-event-partial.txt", 14, 8,
	  { { MLX_EV_FIRMWARE_VERSION, 2 }, { MLX_EV_MODULE_PLUGGED, 1 },
	    { MLX_EV_PCIE_BANDWIDTH, 2 }, { MLX_EV_PCIE_POWER_OK, 1 } },
	  "mlx5_log*2 firmware_version pcie_bandwidth mlx5_log*2 module_plugged "
	  "pcie_power_sufficient mlx5_log*2 firmware_version pcie_bandwidth mlx5_log*2 " },
	{ "cx6-hdr-fw20.36-journal-probe-fwtracer-ipoib-ib0.txt", 6, 3,
	  { { MLX_EV_FIRMWARE_VERSION, 1 }, { MLX_EV_MODULE_PLUGGED, 1 }, { MLX_EV_PCIE_BANDWIDTH, 1 } },
	  "firmware_version pcie_bandwidth module_plugged mlx5_log*3 " },
	{ "cx6dx-fw22.44-health-compromised-fw-internal-error-severity-format.txt", 42, 0,
	  { { MLX_EV_HEALTH_BUFFER, 34 }, { MLX_EV_HEALTH_COMPROMISED, 6 }, { MLX_EV_HEALTH_ISSUE, 2 } },
	  "health_compromised health_issue health_buffer*17 health_compromised*4 "
	  "health_issue health_buffer*17 health_compromised " },
	{ "cx6dx-fw22.99-high-temp-health-compromised-fatal-error-recovery.txt", 84, 2,
	  { { MLX_EV_ERROR_STATE, 12 }, { MLX_EV_FATAL_ERROR, 2 }, { MLX_EV_HEALTH_BUFFER, 52 },
	    { MLX_EV_HEALTH_COMPROMISED, 2 }, { MLX_EV_HEALTH_RECOVERY, 4 },
	    { MLX_EV_HEALTH_RECOVERY_FAILED, 2 }, { MLX_EV_HIGH_TEMPERATURE, 2 },
	    { MLX_EV_LINK_DOWN, 2 }, { MLX_EV_LINK_UP, 2 }, { MLX_EV_PCIE_POWER_UNKNOWN, 2 } },
	  "link_down link_up link_down link_up high_temperature*2 health_compromised "
	  "health_buffer*13 health_compromised health_buffer*13 fatal_error "
	  "health_buffer*13 health_recovery error_state*4 pcie_power_not_advertised "
	  "fatal_error health_buffer*13 health_recovery error_state*4 "
	  "pcie_power_not_advertised error_state*4 mlx5_log*2 health_recovery*2 "
	  "health_recovery_failed*2 " },
	{ "mlx5-s390-hot-unplug-fatal-error-all-ff-health-buffer-hung-task-5.8rc4.txt", 15, 1,
	  { { MLX_EV_FATAL_ERROR, 1 }, { MLX_EV_HEALTH_BUFFER, 13 } },
	  "fatal_error health_buffer*13 mlx5_log " },
	{ "mlx5e-rx-error-cqe-shampo-hwgro-64k-syndrome4-vendor32-2025.txt", 2, 0,
	  { { MLX_EV_CQE_ERROR, 1 }, { MLX_EV_RQ_ERR_CQE, 1 } },
	  "cqe_error rq_error_cqe " },
	{ "mlx5e-vf-tx-timeout-detected-sq-cons-0-eq-2025.txt", 3, 0,
	  { { MLX_EV_EQ_RECOVER, 1 }, { MLX_EV_TX_TIMEOUT, 2 } },
	  "tx_timeout*2 eq_recover " },
};

static void test_fixtures(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
		check_file(&expected[i]);
}

/* ---- fields, from the kernel's formats ---------------------------------- */

static int classify_line(const char *text, struct mlx_event *ev)
{
	char rec[1024];
	size_t n = make_record(rec, sizeof(rec), 3, 7, 1000, text);

	return mlx_kmsg_classify(rec, n, 0, ev);
}

static void test_fields(void **state)
{
	struct mlx_event ev;

	(void)state;
	/* $FIXTURES/dmesg/cx4lx-tx-error-cqe-syndrome1-vendor68-wqe-dump-2021.txt */
	assert_int_equal(classify_line("mlx5_core 0000:3b:00.1 eth1: Error cqe on cqn 0x817, ci 0x8, "
				       "qn 0x1dbb, opcode 0xd, syndrome 0x1, vendor syndrome 0x68", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_CQE_ERROR);
	assert_string_equal(ev.pci_address, "0000:3b:00.1");
	assert_string_equal(ev.netdev, "eth1");
	assert_int_equal(ev.v[MLX_EVF_CQN], 0x817);
	assert_int_equal(ev.v[MLX_EVF_CI], 0x8);
	assert_int_equal(ev.v[MLX_EVF_QPN], 0x1dbb);
	assert_int_equal(ev.v[MLX_EVF_OPCODE], 0xd);
	assert_int_equal(ev.v[MLX_EVF_SYNDROME], 0x1);
	assert_int_equal(ev.v[MLX_EVF_VENDOR_SYNDROME], 0x68);
	assert_int_equal(ev.seq, 7);
	assert_int_equal(ev.usec, 1000);
	/* every whole-message format of the queue table, each number in its field */
	assert_int_equal(classify_line("mlx5_core 0000:3b:00.1 eth1: ERR CQE on SQ: 0x1dbb", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_SQ_ERR_CQE);
	assert_int_equal(ev.v[MLX_EVF_SQN], 0x1dbb);
	assert_int_equal(classify_line("mlx5_core 0000:00:08.0 eth2: ERR CQE on RQ: 0x1133", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_RQ_ERR_CQE);
	assert_int_equal(ev.v[MLX_EVF_RQN], 0x1133);
	assert_int_equal(classify_line("mlx5_core 0000:3b:00.0: EQ 0x13: Cons = 0x3a, irqn = 0x80", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_EQ_RECOVER);
	assert_int_equal(ev.v[MLX_EVF_EQN], 0x13);
	assert_int_equal(ev.v[MLX_EVF_CI], 0x3a);
	assert_int_equal(ev.v[MLX_EVF_IRQN], 0x80);
	assert_int_equal(classify_line("mlx5_core 0000:3b:00.0: Recovered 2 eqes on EQ 0x13", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_EQ_RECOVERED);
	assert_int_equal(ev.v[MLX_EVF_EQES], 2);
	assert_int_equal(ev.v[MLX_EVF_EQN], 0x13);
	assert_int_equal(classify_line("mlx5_core 0000:3b:00.0 eth1: TX timeout on queue: 5, SQ: 0x1ea, "
				       "CQ: 0x48b, SQ Cons: 0x0 SQ Prod: 0x3, usecs since last trans: "
				       "10320000", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_TX_TIMEOUT);
	assert_int_equal(ev.v[MLX_EVF_QUEUE], 5);
	assert_int_equal(ev.v[MLX_EVF_PI], 3);
	assert_int_equal(ev.v[MLX_EVF_TIME_SINCE_TX_US], 10320000);
	/* one number short of the format is no such event */
	assert_int_equal(classify_line("mlx5_core 0000:3b:00.0: EQ 0x13: Cons = 0x3a", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_MLX5_LOG);

	assert_int_equal(classify_line("mlx5_core 0000:af:00.2 ens4f2: TX timeout on queue: 0, SQ: "
				       "0xe31ee, CQ: 0x484, SQ Cons: 0x0 SQ Prod: 0x7, usecs since last "
				       "trans: 18439000", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_TX_TIMEOUT);
	assert_int_equal(ev.v[MLX_EVF_QUEUE], 0);
	assert_int_equal(ev.v[MLX_EVF_SQN], 0xe31ee);
	assert_int_equal(ev.v[MLX_EVF_CQN], 0x484);
	assert_int_equal(ev.v[MLX_EVF_PI], 7);
	assert_int_equal(ev.v[MLX_EVF_TIME_SINCE_TX_US], 18439000);
	assert_int_equal(mlx_ev_kind_info(ev.kind)->dump, MLX_DUMP_TXCQ_STUCK);

	/* mlx5/core/cmd.c formats, with a real line from the netdev list */
	assert_int_equal(classify_line("mlx5_core 0000:56:00.0: wait_func_handle_exec_timeout:1159:"
				       "(pid 72061): cmd[0]: ACCESS_REG(0x805) No done completion", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_CMD_TIMEOUT);
	assert_string_equal(ev.fw_command, "ACCESS_REG");
	assert_int_equal(ev.v[MLX_EVF_FW_OPCODE], 0x805);
	assert_int_equal(ev.v[MLX_EVF_CMD_INDEX], 0);
	assert_int_equal(mlx_ev_kind_info(ev.kind)->dump, MLX_DUMP_CMD_ERR);
	assert_int_equal(classify_line("mlx5_core 0000:08:00.0: mlx5_cmd_out_err:838:(pid 1234): "
				       "CREATE_MKEY(0x200) op_mod(0x0) failed, status bad parameter(0x3), "
				       "syndrome (0x6c6f09), err(-22)", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_CMD_FAILED);
	assert_string_equal(ev.fw_command, "CREATE_MKEY");
	assert_string_equal(ev.detail, "bad parameter");
	assert_int_equal(ev.v[MLX_EVF_FW_STATUS], 3);
	assert_int_equal(ev.v[MLX_EVF_FW_SYNDROME], 0x6c6f09);
	assert_int_equal((int64_t)ev.v[MLX_EVF_ERRNO], -22);

	assert_int_equal(classify_line("mlx5_core 0000:41:00.0: print_health_info:421:(pid 0): "
				       "synd 0x10: High temperature", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_HEALTH_BUFFER);
	assert_int_equal(ev.v[MLX_EVF_HEALTH_SYNDROME], 0x10);
	assert_string_equal(ev.detail, "High temperature");

	assert_int_equal(classify_line("mlx5_core 0000:05:00.0: Port module event[error]: module 0, "
				       "Cable error, Bus stuck (I2C or data shorted)", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_MODULE_ERROR);
	assert_string_equal(ev.detail, "Cable error, Bus stuck (I2C or data shorted)");

	assert_int_equal(classify_line("mlx5_core 0002:01:00.0: mlx5_pcie_event:326:(pid 3202): "
				       "Detected insufficient power on the PCIe slot (27W).", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_PCIE_POWER_INSUFFICIENT);
	assert_int_equal(ev.v[MLX_EVF_POWER_W], 27);
	assert_int_equal(classify_line("mlx5_core 0000:5e:00.0: 31.504 Gb/s available PCIe bandwidth, "
				       "limited by 8.0 GT/s PCIe x4 link at 0000:5d:00.0 (capable of "
				       "126.016 Gb/s with 8.0 GT/s PCIe x16 link)", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_PCIE_BANDWIDTH_LIMITED);
	assert_int_equal(ev.v[MLX_EVF_BANDWIDTH_MBPS], 31504);
	assert_int_equal(ev.v[MLX_EVF_LINK_WIDTH], 4);
	/* mlx5/core/en/reporter_rx.c: mlx5e_reporter_rx_timeout */
	assert_int_equal(classify_line("mlx5_core 0000:08:00.0 eth1: RX timeout on channel: 3, ICOSQ: "
				       "0x1a2 RQ: 0x1b3, CQ: 0x4c5", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_RX_TIMEOUT);
	assert_int_equal(ev.v[MLX_EVF_QUEUE], 3);
	assert_int_equal(ev.v[MLX_EVF_SQN], 0x1a2);
	assert_int_equal(ev.v[MLX_EVF_RQN], 0x1b3);
	assert_int_equal(ev.v[MLX_EVF_CQN], 0x4c5);
	assert_int_equal(classify_line("mlx5_core 0000:08:00.0 eth1: RX timeout on channel: 3, RQ: "
				       "0x1b3, CQ: 0x4c5", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_RX_TIMEOUT);
	/* temp_warn since 6.10: %#llx and a full stop */
	assert_int_equal(classify_line("mlx5_core 0000:61:00.0: temp_warn:171:(pid 0): High temperature "
				       "on sensors with bit set 0 0x8000000000000001.", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_HIGH_TEMPERATURE);
	assert_int_equal(ev.v[MLX_EVF_SENSOR_BITS_LOW], 0x8000000000000001ull);
	/* a near miss is no event of that kind: unclassified, no fields */
	assert_int_equal(classify_line("mlx5_core 0000:3b:00.1 eth1: Error cqe on cqn 0x817, garbage", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_MLX5_LOG);
	assert_int_equal(ev.have, 0);
	assert_int_equal(ev.severity, MLX_EVSEV_ERROR);     /* the record's level 3 */
	/* the watchdog of kernels before 6.8, which has no device prefix */
	assert_int_equal(classify_line("NETDEV WATCHDOG: ens1f0 (mlx5_core): transmit queue 5 timed out", &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_NETDEV_WATCHDOG);
	assert_string_equal(ev.netdev, "ens1f0");
	assert_int_equal(ev.v[MLX_EVF_QUEUE], 5);
	assert_int_equal(classify_line("NETDEV WATCHDOG: eth0 (e1000e): transmit queue 0 timed out", &ev), 0);
	assert_int_equal(classify_line("ixgbe 0000:01:00.0 eth3: Link up", &ev), 0);
}

/* ---- records: facility, dictionary, malformed, sequence ----------------- */

static void test_records(void **state)
{
	const char *link = "mlx5_core 0000:01:00.0 enp1s0f0: Link down";
	char rec[512];
	struct mlx_event ev;
	struct mlx_kmsg_seq sq = { 0 };
	size_t n;

	(void)state;
	/* what `echo ... >/dev/kmsg` makes: facility user (1), no dictionary */
	n = (size_t)snprintf(rec, sizeof(rec), "14,500,99,-;%s\n", link);
	assert_int_equal(mlx_kmsg_classify(rec, n, 0, &ev), -EPERM);
	assert_int_equal(mlx_kmsg_classify(rec, n, MLX_KMSG_ACCEPT_USER, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_LINK_DOWN);
	assert_int_equal(mlx_ev_kind_info(ev.kind)->dump, MLX_DUMP_PORT_STATE);
	/* a kernel record: the device is the dictionary's, not the text's */
	n = (size_t)snprintf(rec, sizeof(rec), "6,501,100,-;%s\n SUBSYSTEM=pci\n DEVICE=+pci:0000:02:00.1\n",
			     link);
	assert_int_equal(mlx_kmsg_classify(rec, n, 0, &ev), 1);
	assert_string_equal(ev.pci_address, "0000:02:00.1");
	assert_string_equal(ev.netdev, "enp1s0f0");
	/* continuation flag 'c', more fields after FLAGS */
	n = (size_t)snprintf(rec, sizeof(rec), "6,502,100,c,extra;%s\n", link);
	assert_int_equal(mlx_kmsg_classify(rec, n, 0, &ev), 1);
	/* fuzz-kmsg found it: a DEVICE= value cut at the end of the record
	 * was read past the record's length (a record is not NUL-terminated).
	 * The record ends at a page the test cannot read: an over-read is a
	 * crash here, without a sanitizer. */
	{
		static const char cut[] = "6,50,1000,-;mlx5_core 0000:41:00.0: Link up\n"
					  " DEVICE=+pci:0000:41:";
		long pg = sysconf(_SC_PAGESIZE);
		char *map = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *rec2;

		assert_true(map != MAP_FAILED);
		assert_int_equal(mprotect(map + pg, (size_t)pg, PROT_NONE), 0);
		rec2 = map + pg - (sizeof(cut) - 1);
		memcpy(rec2, cut, sizeof(cut) - 1);
		assert_int_equal(mlx_kmsg_classify(rec2, sizeof(cut) - 1, 0, &ev), 1);
		assert_string_equal(ev.pci_address, "0000:41:00.0");
		munmap(map, (size_t)pg * 2);
	}
	/* malformed */
	assert_int_equal(mlx_kmsg_classify("6,1,2;x\n", 8, 0, &ev), -EBADMSG);
	assert_int_equal(mlx_kmsg_classify("no header", 9, 0, &ev), -EBADMSG);
	assert_int_equal(mlx_kmsg_classify("6,1,2,x;x\n", 10, 0, &ev), -EBADMSG);
	assert_int_equal(mlx_kmsg_classify("", 0, 0, &ev), -EBADMSG);
	/* not mlx5: 0, with the sequence number still read */
	assert_int_equal(mlx_kmsg_classify("6,77,2,-;igb_uio: Use MSIX\n", 27, 0, &ev), 0);
	assert_int_equal(ev.seq, 77);

	assert_int_equal(mlx_kmsg_seq_gap(&sq, 10), 0);
	assert_int_equal(mlx_kmsg_seq_gap(&sq, 11), 0);
	assert_int_equal(mlx_kmsg_seq_gap(&sq, 15), 3);
	assert_int_equal(mlx_kmsg_seq_gap(&sq, 16), 0);
	mlx_ev_records_lost(&ev, 3, 15);
	assert_int_equal(ev.kind, MLX_EV_RECORDS_LOST);
	assert_string_equal(ev.text, "3 kernel log records lost");
	assert_int_equal(ev.v[MLX_EVF_LOST], 3);
}

/* ---- rtnetlink link messages, built from the uapi ------------------------ */

static size_t newlink(struct w *w, int ifindex, const char *name, unsigned flags, int carrier,
		      int changes)
{
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWLINK };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex, .ifi_flags = flags };
	uint8_t c = (uint8_t)carrier;
	uint32_t ch = (uint32_t)changes;

	w->n = 0;
	memcpy(w->b, &h, sizeof(h));
	memcpy(w->b + sizeof(h), &ifi, sizeof(ifi));
	w->n = NLMSG_LENGTH(sizeof(ifi));
	attr(w, IFLA_IFNAME, name, strlen(name) + 1);
	if (carrier >= 0)
		attr(w, IFLA_CARRIER, &c, 1);
	if (changes >= 0)
		attr(w, IFLA_CARRIER_CHANGES, &ch, 4);
	((struct nlmsghdr *)w->b)->nlmsg_len = (uint32_t)w->n;
	return w->n;
}

static void test_rtnl(void **state)
{
	static struct w w;
	struct mlx_link_state st[2];
	struct mlx_event ev[4];
	size_t n;

	(void)state;
	memset(st, 0, sizeof(st));
	n = newlink(&w, 5, "veth0", IFF_UP | IFF_LOWER_UP, 1, 1);
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 4), 0);   /* first: state only */
	n = newlink(&w, 5, "veth0", 0, 0, 2);
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 4), 2);
	assert_int_equal(ev[0].kind, MLX_EV_ADMIN_DOWN);
	assert_int_equal(ev[1].kind, MLX_EV_CARRIER_DOWN);
	assert_string_equal(ev[1].netdev, "veth0");
	assert_int_equal(ev[1].v[MLX_EVF_CARRIER_CHANGES], 2);
	assert_int_equal(ev[1].source, MLX_EVS_RTNL);
	/* the same state again (link_watch's operstate message): nothing */
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 4), 0);
	n = newlink(&w, 5, "veth0", IFF_UP, 0, 2);
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 4), 1);
	assert_int_equal(ev[0].kind, MLX_EV_ADMIN_UP);
	/* down and up between two messages: the count moved by 2 */
	n = newlink(&w, 5, "veth0", IFF_UP, 0, 4);
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 4), 1);
	assert_int_equal(ev[0].kind, MLX_EV_CARRIER_FLAPPED);
	/* up, with one hidden flap: carrier_up and flapped */
	n = newlink(&w, 5, "veth0", IFF_UP | IFF_LOWER_UP, 1, 7);
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 4), 2);
	assert_int_equal(ev[0].kind, MLX_EV_CARRIER_UP);
	assert_int_equal(ev[1].kind, MLX_EV_CARRIER_FLAPPED);
	/* max bounds the output */
	n = newlink(&w, 5, "veth0", 0, 0, 8);
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 1), 1);
	/* more interfaces than slots: no crash, a new one only recorded */
	n = newlink(&w, 6, "veth1", IFF_UP, 1, 1);
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 4), 0);
	n = newlink(&w, 7, "veth2", IFF_UP, 1, 1);
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 4), 0);
	/* truncated */
	n = newlink(&w, 5, "veth0", 0, 0, 8);
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, 10, st, 2, ev, 4), -EBADMSG);
	((struct nlmsghdr *)w.b)->nlmsg_len = (uint32_t)n - 2;
	assert_int_equal(mlx_rtnl_link_events((void *)w.b, n, st, 2, ev, 4), -EBADMSG);
}

/* ---- devlink health notifications, built from the uapi ------------------- */

static size_t recover_msg(struct w *w, uint8_t cmd, uint8_t state, uint64_t errs, uint64_t recs)
{
	struct nlmsghdr h = { .nlmsg_type = 0x14 };    /* the family id the kernel gave devlink */
	struct genlmsghdr g = { .cmd = cmd, .version = DEVLINK_GENL_VERSION };
	size_t nest;

	w->n = NLMSG_LENGTH(sizeof(g));
	memcpy(w->b, &h, sizeof(h));
	memcpy(w->b + NLMSG_HDRLEN, &g, sizeof(g));
	attr(w, DEVLINK_ATTR_BUS_NAME, "pci", 4);
	attr(w, DEVLINK_ATTR_DEV_NAME, "0000:08:00.0", 13);
	nest = attr(w, DEVLINK_ATTR_HEALTH_REPORTER | NLA_F_NESTED, NULL, 0);
	attr(w, DEVLINK_ATTR_HEALTH_REPORTER_NAME, "tx", 3);
	attr(w, DEVLINK_ATTR_HEALTH_REPORTER_STATE, &state, 1);
	attr(w, DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, &errs, 8);
	attr(w, DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, &recs, 8);
	nest_end(w, nest);
	((struct nlmsghdr *)w->b)->nlmsg_len = (uint32_t)w->n;
	return w->n;
}

static void test_devlink(void **state)
{
	static struct w w;
	struct mlx_event ev;
	size_t n;

	(void)state;
	n = recover_msg(&w, DEVLINK_CMD_HEALTH_REPORTER_RECOVER, 1, 3, 2);
	assert_int_equal(mlx_devlink_notify_event((void *)w.b, n, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_HEALTH_REPORTER_ERROR);
	assert_int_equal(ev.source, MLX_EVS_DEVLINK);
	assert_string_equal(ev.reporter, "tx");
	assert_string_equal(ev.pci_address, "0000:08:00.0");
	assert_int_equal(ev.v[MLX_EVF_ERR_COUNT], 3);
	assert_int_equal(ev.v[MLX_EVF_RECOVER_COUNT], 2);
	n = recover_msg(&w, DEVLINK_CMD_HEALTH_REPORTER_RECOVER, 0, 3, 3);
	assert_int_equal(mlx_devlink_notify_event((void *)w.b, n, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_HEALTH_REPORTER_HEALTHY);
	/* another command of the group (a new port, a param change) */
	n = recover_msg(&w, DEVLINK_CMD_PORT_NEW, 0, 0, 0);
	assert_int_equal(mlx_devlink_notify_event((void *)w.b, n, &ev), 0);
	/* an unknown state, a truncation */
	n = recover_msg(&w, DEVLINK_CMD_HEALTH_REPORTER_RECOVER, 7, 0, 0);
	assert_int_equal(mlx_devlink_notify_event((void *)w.b, n, &ev), -EBADMSG);
	n = recover_msg(&w, DEVLINK_CMD_HEALTH_REPORTER_RECOVER, 1, 0, 0);
	((struct nlmsghdr *)w.b)->nlmsg_len = (uint32_t)n - 6;
	assert_int_equal(mlx_devlink_notify_event((void *)w.b, n, &ev), -EBADMSG);
}

/* ---- the catalogue -------------------------------------------------------- */

static void test_catalogue(void **state)
{
	size_t n;
	const struct mlx_ev_kind_info *c = mlx_ev_catalogue(&n);

	(void)state;
	assert_int_equal(n, MLX_EV_NKINDS - 1);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(c[i].kind, (int)i + 1);       /* every kind has its entry */
		assert_non_null(c[i].id);
		assert_non_null(c[i].meaning);
		assert_non_null(c[i].action);
		assert_non_null(c[i].kernel_source);
		/* a kernel-log kind names its format */
		assert_true(c[i].source != MLX_EVS_KMSG || c[i].kernel_format);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(c[i].id, c[j].id);
		for (const char *p = c[i].id; *p; p++)
			assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_');
	}
	/* Table 19: tags ASCII, PORT_STATE off by default */
	assert_int_equal(mlx_dump_type_info(MLX_DUMP_CMD_ERR)->tag, 'c');
	assert_int_equal(mlx_dump_type_info(MLX_DUMP_ON_OID)->tag, 'o');
	assert_false(mlx_dump_type_info(MLX_DUMP_PORT_STATE)->on_by_default);
	assert_true(mlx_dump_type_info(MLX_DUMP_EQ_STUCK)->on_by_default);
	assert_null(mlx_dump_type_info(MLX_DUMP_NONE));
	for (int f = 0; f < MLX_EVF_N; f++)
		assert_non_null(mlx_ev_field_key(f));
}

/* ---- automatic incidents: Table 19 defaults, budget, bursts -------------- */

static void ev_of(struct mlx_event *ev, enum mlx_ev_kind k, const char *pci)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = k;
	snprintf(ev->pci_address, sizeof(ev->pci_address), "%s", pci);
}

#define S(sec) ((uint64_t)(sec) * 1000000)       /* the policy's clock is µs */

static void test_dump_policy(void **state)
{
	struct mlx_dump_policy p;
	struct mlx_event ev;
	char dev[16];

	(void)state;
	mlx_dump_policy_init(&p);
	ev_of(&ev, MLX_EV_LINK_UP, "0000:08:00.0");
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(0)), MLX_DUMP_NO_TYPE);
	/* PORT_STATE is off by default (Table 19), on when asked */
	ev_of(&ev, MLX_EV_LINK_DOWN, "0000:08:00.0");
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(0)), MLX_DUMP_DISABLED);
	assert_int_equal(mlx_dump_policy_set(&p, "p", true), 0);
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(0)), MLX_DUMP_MAKE);
	/* a flapping link: one incident per burst and device, a burst the
	 * events each within 60 s of the one before, in µs */
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(5)), MLX_DUMP_BURST);
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(59) + 999999), MLX_DUMP_BURST);
	assert_int_equal(p.folded[MLX_DUMP_PORT_STATE], 2);
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(119)), MLX_DUMP_BURST);
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(179)), MLX_DUMP_MAKE);  /* 60 s of silence */
	ev_of(&ev, MLX_EV_CARRIER_DOWN, "0000:08:00.1");           /* another device */
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(180)), MLX_DUMP_MAKE);
	assert_int_equal(mlx_dump_policy_set(&p, "PORT_STATE", false), 0);
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(500)), MLX_DUMP_DISABLED);
	assert_int_equal(mlx_dump_policy_set(&p, "NO_SUCH", true), -EINVAL);
	/* the worst event: FATAL_ERROR, on by default, named in any case */
	ev_of(&ev, MLX_EV_FATAL_ERROR, "0000:08:00.0");
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(600)), MLX_DUMP_MAKE);
	ev_of(&ev, MLX_EV_HEALTH_COMPROMISED, "0000:08:00.0");
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(601)), MLX_DUMP_BURST);
	assert_int_equal(mlx_dump_policy_set(&p, "fatal_error", false), 0);
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(900)), MLX_DUMP_DISABLED);
	/* a storm of command timeouts on 30 devices: DumpEventsNum incidents */
	for (int i = 0; i < 30; i++) {
		snprintf(dev, sizeof(dev), "0000:%02x:00.0", i);
		ev_of(&ev, MLX_EV_CMD_TIMEOUT, dev);
		assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(1000)),
				 i < MLX_DUMP_EVENTS_NUM ? MLX_DUMP_MAKE : MLX_DUMP_BUDGET);
	}
	assert_int_equal(p.made[MLX_DUMP_CMD_ERR], 20);
	/* the budget is per type: EQ_STUCK still has its own */
	ev_of(&ev, MLX_EV_EQ_RECOVER, "0000:01:00.0");
	assert_int_equal(mlx_dump_policy_decide(&p, &ev, S(1000)), MLX_DUMP_MAKE);
}

/* An RTNLGRP_DCB notification as net/dcb/dcbnl.c builds it (the uapi's
 * numbers: RTM_SETDCB, struct dcbmsg, DCB_ATTR_IFNAME, the DCB_ATTR_IEEE
 * nest with DCB_ATTR_IEEE_PFC = struct ieee_pfc, DCB_ATTR_DCBX). */
static size_t dcb_notification(uint8_t *buf, uint16_t type, uint8_t cmd, const char *ifname)
{
	struct nlmsghdr *h = (void *)buf;
	struct dcbmsg *d = (void *)(buf + NLMSG_HDRLEN);
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*d)), nest;
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 0x08 };
	struct nlattr *a;

	memset(buf, 0, 512);
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	a = (void *)(buf + off);
	a->nla_type = DCB_ATTR_IFNAME;
	a->nla_len = (uint16_t)(NLA_HDRLEN + strlen(ifname) + 1);
	memcpy(buf + off + NLA_HDRLEN, ifname, strlen(ifname));
	off += NLA_ALIGN(a->nla_len);
	nest = off;
	a = (void *)(buf + off);
	a->nla_type = DCB_ATTR_IEEE | NLA_F_NESTED;
	off += NLA_HDRLEN;
	a = (void *)(buf + off);
	a->nla_type = DCB_ATTR_IEEE_PFC;
	a->nla_len = NLA_HDRLEN + sizeof(pfc);
	memcpy(buf + off + NLA_HDRLEN, &pfc, sizeof(pfc));
	off += NLA_ALIGN(a->nla_len);
	((struct nlattr *)(buf + nest))->nla_len = (uint16_t)(off - nest);
	a = (void *)(buf + off);
	a->nla_type = DCB_ATTR_DCBX;
	a->nla_len = NLA_HDRLEN + 1;
	buf[off + NLA_HDRLEN] = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	off += NLA_ALIGN(a->nla_len);
	h->nlmsg_len = (uint32_t)off;
	h->nlmsg_type = type;
	return off;
}

static void test_dcb_notify(void **state)
{
	uint8_t buf[512];
	struct mlx_event ev;
	size_t n;

	(void)state;
	n = dcb_notification(buf, RTM_SETDCB, DCB_CMD_IEEE_SET, "enp94s0f0np0");
	assert_int_equal(mlx_dcb_notify_event((void *)buf, n, &ev), 1);
	assert_int_equal(ev.kind, MLX_EV_QOS_CHANGED);
	assert_int_equal(ev.source, MLX_EVS_RTNL);
	assert_string_equal(ev.netdev, "enp94s0f0np0");
	assert_string_equal(ev.detail, "IEEE_SET");
	assert_string_equal(ev.text, "IEEE_SET enp94s0f0np0: pfc_enabled=0x08 app_entries=0 dcbx=0x09");
	/* the driver's own report (the DCBX peer) */
	n = dcb_notification(buf, RTM_GETDCB, DCB_CMD_IEEE_GET, "eth1");
	assert_int_equal(mlx_dcb_notify_event((void *)buf, n, &ev), 1);
	assert_string_equal(ev.detail, "IEEE_GET");
	/* a GDCBX reply is no notification; a link message is not DCB */
	n = dcb_notification(buf, RTM_GETDCB, DCB_CMD_GDCBX, "eth1");
	assert_int_equal(mlx_dcb_notify_event((void *)buf, n, &ev), 0);
	((struct nlmsghdr *)buf)->nlmsg_type = RTM_NEWLINK;
	assert_int_equal(mlx_dcb_notify_event((void *)buf, n, &ev), 0);
	/* truncated inside the nest; no interface name */
	n = dcb_notification(buf, RTM_SETDCB, DCB_CMD_IEEE_SET, "eth1");
	((struct nlmsghdr *)buf)->nlmsg_len = (uint32_t)(n - 12);
	assert_int_equal(mlx_dcb_notify_event((void *)buf, n - 12, &ev), -EBADMSG);
	n = dcb_notification(buf, RTM_SETDCB, DCB_CMD_IEEE_SET, "");
	assert_int_equal(mlx_dcb_notify_event((void *)buf, n, &ev), -EBADMSG);
}

/* The AER counter files as drivers/pci/pcie/aer.c prints them (the
 * sample's aer_dev_correctable), and what is no total. */
static void test_aer_total(void **state)
{
	static const char cor[] = "RxErr 0\nBadTLP 2\nBadDLLP 0\nRollover 0\nTimeout 0\n"
				  "NonFatalErr 0\nCorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR 17\n";
	static const char fatal[] = "Undefined 0\nDLP 0\nSDES 0\nTOTAL_ERR_FATAL 18446744073709551614";
	struct mlx_event ev;
	uint64_t v = 0;

	(void)state;
	assert_int_equal(mlx_aer_total_parse(cor, sizeof(cor) - 1, &v), 0);
	assert_int_equal(v, 17);
	assert_int_equal(mlx_aer_total_parse(fatal, sizeof(fatal) - 1, &v), 0);
	assert_true(v == 18446744073709551614ull);
	assert_int_equal(mlx_aer_total_parse("RxErr 0\n", 8, &v), -ENOENT);
	assert_int_equal(mlx_aer_total_parse("TOTAL_ERR_COR x\n", 16, &v), -EBADMSG);
	assert_int_equal(mlx_aer_total_parse("TOTAL_ERR_COR\n", 14, &v), -EBADMSG);
	mlx_ev_aer_moved(&ev, "0000:5e:00.0", 1, 3, 5);
	assert_int_equal(ev.kind, MLX_EV_AER_COUNTER_MOVED);
	assert_int_equal(ev.severity, MLX_EVSEV_ERROR);
	assert_int_equal(ev.v[MLX_EVF_ERR_COUNT], 5);
	assert_false(mlx_ev_has(&ev, MLX_EVF_RECOVER_COUNT));
	assert_string_equal(ev.text, "non-fatal AER errors: 3 -> 5 (+2)");
}

/* --dump-types / monitor_dump_types: exactly the listed types on. */
static void test_dump_policy_list(void **state)
{
	struct mlx_dump_policy p;

	(void)state;
	mlx_dump_policy_init(&p);
	assert_int_equal(mlx_dump_policy_set_list(&p, "PORT_STATE,t"), 0);
	assert_true(p.enabled[MLX_DUMP_PORT_STATE]);
	assert_true(p.enabled[MLX_DUMP_TXCQ_STUCK]);
	assert_false(p.enabled[MLX_DUMP_CMD_ERR]);
	assert_false(p.enabled[MLX_DUMP_EQ_STUCK]);
	/* a bad list changes nothing */
	assert_int_equal(mlx_dump_policy_set_list(&p, "CMD_ERR,bogus"), -EINVAL);
	assert_false(p.enabled[MLX_DUMP_CMD_ERR]);
	assert_int_equal(mlx_dump_policy_set_list(&p, "CMD_ERR,"), -EINVAL);
	assert_int_equal(mlx_dump_policy_set_list(&p, ""), -EINVAL);
	assert_int_equal(mlx_dump_policy_set_list(&p, "none"), 0);
	for (int t = MLX_DUMP_CMD_ERR; t < MLX_DUMP_NTYPES; t++)
		assert_false(p.enabled[t]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_rtnl),
		cmocka_unit_test(test_devlink),
		cmocka_unit_test(test_catalogue),
		cmocka_unit_test(test_dump_policy),
		cmocka_unit_test(test_dump_policy_list),
		cmocka_unit_test(test_dcb_notify),
		cmocka_unit_test(test_aer_total),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
