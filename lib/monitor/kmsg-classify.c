/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel-log classifier (issue 16): one /dev/kmsg record in, one event
 * out.  Pure: no I/O, bounded by the record's length.
 *
 * Record format (Documentation/ABI/testing/dev-kmsg): "PRIO,SEQ,USEC,FLAGS
 * [,more];TEXT\n" followed by dictionary lines " KEY=VALUE\n"; PRIO is
 * (facility << 3) | level, facility 0 for the kernel's own records.  A
 * device's printk (dev_printk, netdev_printk: the parent PCI device) adds
 * "SUBSYSTEM=pci" and "DEVICE=+pci:<BDF>", which is where the PCI address
 * is taken from when present: the text can be imitated, the dictionary of
 * a kernel record cannot.
 *
 * The text of an mlx5_core line is "mlx5_core <BDF>: MSG" (dev_printk) or
 * "mlx5_core <BDF> <netdev>: MSG" (netdev_printk); mlx5_core_{err,warn,
 * info} put "<function>:<line>:(pid <n>): " in front of MSG (kernels before
 * 5.4 also repeat "<BDF>:" first).  MSG is then matched against the formats
 * in the catalogue (lib/monitor/catalogue.c), which names the kernel file
 * and function of each.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor-private.h"

#define MSG_MAX 512

/* Bytes of a PCI address "DDDD:BB:DD.F" at s (domain of 4 or more hex
 * digits), 0 when s does not start with one. */
static size_t bdf_len(const char *s)
{
	size_t i = 0, d = 0;

	while (isxdigit((unsigned char)s[i]))
		i++;
	if (i < 4 || i > 8 || s[i] != ':')
		return 0;
	d = ++i;
	if (!isxdigit((unsigned char)s[d]) || !isxdigit((unsigned char)s[d + 1]) || s[d + 2] != ':')
		return 0;
	d += 3;
	if (!isxdigit((unsigned char)s[d]) || !isxdigit((unsigned char)s[d + 1]) || s[d + 2] != '.' ||
	    !isxdigit((unsigned char)s[d + 3]))
		return 0;
	return d + 4;
}

static void copy(char *dst, size_t cap, const char *src, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* sscanf matched the whole message: what is left is empty or a period. */
static bool whole(const char *msg, int n)
{
	return n > 0 && (msg[n] == '\0' || (msg[n] == '.' && msg[n + 1] == '\0'));
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void set_kind(struct mlx_event *ev, enum mlx_ev_kind k)
{
	ev->kind = k;
	ev->severity = mlx_ev_kind_info(k)->severity;
}

/*
 * A message that is one format of unsigned numbers (%u, %x) from start to
 * end: each number becomes a field of the event.  The format ends in %n.
 */
struct whole_fmt {
	const char *fmt;
	enum mlx_ev_kind kind;
	unsigned nf;                    /* numbers, at most 6 */
	enum mlx_ev_field f[6];
};

static bool scan_whole(const char *msg, const struct whole_fmt *w, size_t nw, struct mlx_event *ev)
{
	for (size_t k = 0; k < nw; k++) {
		unsigned v[7] = { 0 };

		/* the format's %n takes the argument after its numbers: v[nf] */
		if (sscanf(msg, w[k].fmt, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) !=
		    (int)w[k].nf || !whole(msg, (int)v[w[k].nf]))
			continue;
		set_kind(ev, w[k].kind);
		for (unsigned i = 0; i < w[k].nf; i++)
			mlx_ev_set(ev, w[k].f[i], v[i]);
		return true;
	}
	return false;
}

/* "SYMBOL(0x%x)" of a firmware command: the name into fw_command, the
 * opcode as a field.  Returns the bytes read, 0 when not there. */
static int fw_cmd(const char *s, struct mlx_event *ev)
{
	char name[48];
	unsigned op;
	int n = 0;

	if (sscanf(s, "%47[A-Z0-9_](0x%x)%n", name, &op, &n) != 2 || n == 0)
		return 0;
	copy(ev->fw_command, sizeof(ev->fw_command), name, strlen(name));
	mlx_ev_set(ev, MLX_EVF_FW_OPCODE, op);
	return n;
}

static bool classify_cmd_fields(const char *msg, struct mlx_event *ev);

/* A firmware command line; on no match, no field of a partial one stays. */
static bool classify_cmd(const char *msg, struct mlx_event *ev)
{
	if (classify_cmd_fields(msg, ev))
		return true;
	ev->have = 0;
	ev->fw_command[0] = '\0';
	return false;
}

static bool classify_cmd_fields(const char *msg, struct mlx_event *ev)
{
	unsigned idx, opmod, status, synd;
	int err, n = 0, k;
	char st[48];

	if (sscanf(msg, "cmd[%u]: %n", &idx, &n) == 1 && n > 0) {
		k = fw_cmd(msg + n, ev);
		if (!k)
			return false;
		mlx_ev_set(ev, MLX_EVF_CMD_INDEX, idx);
		if (!strcmp(msg + n + k, " No done completion") ||
		    !strcmp(msg + n + k, " Async, timeout. Will cause a leak of a command resource")) {
			set_kind(ev, MLX_EV_CMD_TIMEOUT);
			return true;
		}
		return false;
	}
	k = fw_cmd(msg, ev);
	if (!k)
		return false;
	if (!strcmp(msg + k, " timeout. Will cause a leak of a command resource")) {
		set_kind(ev, MLX_EV_CMD_TIMEOUT);
		return true;
	}
	n = 0;
	if (sscanf(msg + k, " op_mod(0x%x) failed, status %47[^(](0x%x), syndrome (0x%x)%n", &opmod,
		   st, &status, &synd, &n) == 4 && n > 0) {
		const char *rest = msg + k + n;

		if (*rest && !(sscanf(rest, ", err(%d)%n", &err, &n) == 1 && whole(rest, n)))
			return false;
		if (*rest)
			mlx_ev_set(ev, MLX_EVF_ERRNO, (uint64_t)(int64_t)err);
		set_kind(ev, MLX_EV_CMD_FAILED);
		mlx_ev_set(ev, MLX_EVF_FW_OP_MOD, opmod);
		mlx_ev_set(ev, MLX_EVF_FW_STATUS, status);
		mlx_ev_set(ev, MLX_EVF_FW_SYNDROME, synd);
		copy(ev->detail, sizeof(ev->detail), st, strlen(st));
		return true;
	}
	return false;
}

static bool classify_health(const char *msg, const char *func, struct mlx_event *ev)
{
	static const char *const buffer_keys[] = {
		"assert_var[", "assert_exit_ptr ", "assert_callra ", "fw_ver ", "time ", "hw_id ",
		"rfr ", "severity ", "irisc_index ", "synd 0x", "ext_synd 0x", "raw fw_ver 0x",
	};
	unsigned v, w;
	int n = 0;

	if (!strcmp(msg, "device's health compromised - reached miss count")) {
		set_kind(ev, MLX_EV_HEALTH_COMPROMISED);
		return true;
	}
	if (starts(msg, "Health issue observed, ")) {
		const char *p = strstr(msg, "severity(");

		set_kind(ev, MLX_EV_HEALTH_ISSUE);
		copy(ev->detail, sizeof(ev->detail), msg + 23,
		     p && p >= msg + 25 ? (size_t)(p - msg - 25) : strlen(msg + 23));
		/* severity(N): the firmware's syslog-style level, 0 emergency ... */
		if (p && sscanf(p, "severity(%u)", &v) == 1)
			ev->severity = v <= 2 ? MLX_EVSEV_CRITICAL : v == 3 ? MLX_EVSEV_ERROR :
				       v == 4 ? MLX_EVSEV_WARNING : MLX_EVSEV_NOTICE;
		return true;
	}
	if (sscanf(msg, "Fatal error %u detected%n", &v, &n) == 1 && whole(msg, n)) {
		set_kind(ev, MLX_EV_FATAL_ERROR);
		mlx_ev_set(ev, MLX_EVF_FATAL_ERROR, v);
		return true;
	}
	if (!strcmp(msg, "handling bad device here") || !strcmp(msg, "starting health recovery flow")) {
		set_kind(ev, MLX_EV_HEALTH_RECOVERY);
		return true;
	}
	if (sscanf(msg, "Scheduling recovery work with %ums delay%n", &v, &n) == 1 && whole(msg, n)) {
		set_kind(ev, MLX_EV_HEALTH_RECOVERY);
		mlx_ev_set(ev, MLX_EVF_DELAY_MS, v);
		return true;
	}
	if (starts(msg, "health recovery flow aborted")) {
		set_kind(ev, MLX_EV_HEALTH_RECOVERY_FAILED);
		msg += strlen("health recovery flow aborted");
		if (*msg == ',')
			msg++;
		while (*msg == ' ')
			msg++;
		copy(ev->detail, sizeof(ev->detail), msg, strlen(msg));
		return true;
	}
	if (func && (!strcmp(func, "mlx5_enter_error_state") || !strcmp(func, "mlx5_error_sw_reset")) &&
	    (!strcmp(msg, "start") || !strcmp(msg, "end"))) {
		set_kind(ev, MLX_EV_ERROR_STATE);
		copy(ev->detail, sizeof(ev->detail), msg, strlen(msg));
		return true;
	}
	if ((sscanf(msg, "NIC mode: %u%n", &v, &n) == 1 && whole(msg, n)) ||
	    (n = 0, sscanf(msg, "Expected to see disabled NIC but it is has invalid value %u%n", &v,
			   &n) == 1 && whole(msg, n))) {
		set_kind(ev, MLX_EV_ERROR_STATE);
		mlx_ev_set(ev, MLX_EVF_NIC_MODE, v);
		return true;
	}
	n = 0;
	if (sscanf(msg, "NIC IFC still %u after %ums%n", &v, &w, &n) == 2 && whole(msg, n)) {
		set_kind(ev, MLX_EV_ERROR_STATE);
		mlx_ev_set(ev, MLX_EVF_NIC_MODE, v);
		mlx_ev_set(ev, MLX_EVF_TIMEOUT_MS, w);
		return true;
	}
	if (starts(msg, "mlx5_pci_err_detected ")) {
		set_kind(ev, MLX_EV_ERROR_STATE);
		return true;
	}
	if (!func || strcmp(func, "print_health_info"))
		return false;
	for (size_t i = 0; i < sizeof(buffer_keys) / sizeof(buffer_keys[0]); i++) {
		if (!starts(msg, buffer_keys[i]))
			continue;
		set_kind(ev, MLX_EV_HEALTH_BUFFER);
		n = 0;
		if (sscanf(msg, "synd 0x%x: %n", &v, &n) == 1 && n > 0) {
			mlx_ev_set(ev, MLX_EVF_HEALTH_SYNDROME, v);
			copy(ev->detail, sizeof(ev->detail), msg + n, strlen(msg + n));
		} else if (sscanf(msg, "ext_synd 0x%x%n", &v, &n) == 1 && whole(msg, n)) {
			mlx_ev_set(ev, MLX_EVF_HEALTH_EXT_SYNDROME, v);
		}
		return true;
	}
	return false;
}

static const struct whole_fmt queue_fmts[] = {
	{ "TX timeout on queue: %u, SQ: 0x%x, CQ: 0x%x, SQ Cons: 0x%x SQ Prod: 0x%x, "
	  "usecs since last trans: %u%n", MLX_EV_TX_TIMEOUT, 6,
	  { MLX_EVF_QUEUE, MLX_EVF_SQN, MLX_EVF_CQN, MLX_EVF_CI, MLX_EVF_PI,
	    MLX_EVF_TIME_SINCE_TX_US } },
	{ "NETDEV WATCHDOG: CPU: %u: transmit queue %u timed out %u ms%n", MLX_EV_NETDEV_WATCHDOG,
	  3, { MLX_EVF_CPU, MLX_EVF_QUEUE, MLX_EVF_TIMEOUT_MS } },
	{ "EQ 0x%x: Cons = 0x%x, irqn = 0x%x%n", MLX_EV_EQ_RECOVER, 3,
	  { MLX_EVF_EQN, MLX_EVF_CI, MLX_EVF_IRQN } },
	{ "Recovered %u eqes on EQ 0x%x%n", MLX_EV_EQ_RECOVERED, 2, { MLX_EVF_EQES, MLX_EVF_EQN } },
	{ "Error cqe on cqn 0x%x, ci 0x%x, qn 0x%x, opcode 0x%x, syndrome 0x%x, "
	  "vendor syndrome 0x%x%n", MLX_EV_CQE_ERROR, 6,
	  { MLX_EVF_CQN, MLX_EVF_CI, MLX_EVF_QPN, MLX_EVF_OPCODE, MLX_EVF_SYNDROME,
	    MLX_EVF_VENDOR_SYNDROME } },
	{ "ERR CQE on SQ: 0x%x%n", MLX_EV_SQ_ERR_CQE, 1, { MLX_EVF_SQN } },
	/* eq.c cq_err_event_notifier */
	{ "CQ error on CQN 0x%x, syndrome 0x%x%n", MLX_EV_CQ_ERROR, 2, { MLX_EVF_CQN, MLX_EVF_SYNDROME } },
	{ "Async event for bogus CQ 0x%x%n", MLX_EV_CQ_ERROR, 1, { MLX_EVF_CQN } },
	{ "ERR CQE on RQ: 0x%x%n", MLX_EV_RQ_ERR_CQE, 1, { MLX_EVF_RQN } },
};

static bool classify_queue(const char *msg, struct mlx_event *ev)
{
	unsigned a, b, c, d;
	int n = 0;

	if (!strcmp(msg, "TX timeout detected")) {
		set_kind(ev, MLX_EV_TX_TIMEOUT);
		return true;
	}
	if (sscanf(msg, "RX timeout on channel: %u, %n", &a, &n) == 1 && n > 0) {
		/* "ICOSQ: 0x%x " before the RQ where the channel has one */
		const char *p = msg + n;
		int k = 0;

		if (sscanf(p, "ICOSQ: 0x%x%n", &d, &k) == 1 && k > 0) {
			mlx_ev_set(ev, MLX_EVF_SQN, d);
			p += k;
			p += *p == ',';
			p += *p == ' ';
		}
		k = 0;
		if (sscanf(p, "RQ: 0x%x, CQ: 0x%x%n", &b, &c, &k) != 2 || !whole(p, k))
			return false;
		set_kind(ev, MLX_EV_RX_TIMEOUT);
		mlx_ev_set(ev, MLX_EVF_QUEUE, a);
		mlx_ev_set(ev, MLX_EVF_RQN, b);
		mlx_ev_set(ev, MLX_EVF_CQN, c);
		return true;
	}
	return scan_whole(msg, queue_fmts, sizeof(queue_fmts) / sizeof(queue_fmts[0]), ev);
}

static bool classify_port(const char *msg, struct mlx_event *ev)
{
	unsigned a, b;
	unsigned long long hi, lo;
	int n = 0;
	const char *p;

	if (!strcmp(msg, "Link up") || !strcmp(msg, "Link down")) {
		set_kind(ev, msg[5] == 'u' ? MLX_EV_LINK_UP : MLX_EV_LINK_DOWN);
		return true;
	}
	if (sscanf(msg, "Port module event: module %u, %n", &a, &n) == 1 && n > 0) {
		if (!strcmp(msg + n, "Cable plugged"))
			set_kind(ev, MLX_EV_MODULE_PLUGGED);
		else if (!strcmp(msg + n, "Cable unplugged"))
			set_kind(ev, MLX_EV_MODULE_UNPLUGGED);
		else
			return false;
		mlx_ev_set(ev, MLX_EVF_MODULE, a);
		copy(ev->detail, sizeof(ev->detail), msg + n, strlen(msg + n));
		return true;
	}
	n = 0;
	if (sscanf(msg, "Port module event[error]: module %u, %n", &a, &n) == 1 && n > 0) {
		set_kind(ev, MLX_EV_MODULE_ERROR);
		mlx_ev_set(ev, MLX_EVF_MODULE, a);
		copy(ev->detail, sizeof(ev->detail), msg + n, strlen(msg + n));
		return true;
	}
	n = 0;
	if (sscanf(msg, "High temperature on sensors with bit set %llx %llx%n", &hi, &lo, &n) == 2 &&
	    whole(msg, n)) {
		set_kind(ev, MLX_EV_HIGH_TEMPERATURE);
		mlx_ev_set(ev, MLX_EVF_SENSOR_BITS_HIGH, hi);
		mlx_ev_set(ev, MLX_EVF_SENSOR_BITS_LOW, lo);
		return true;
	}
	n = 0;
	if (sscanf(msg, "PCIe slot advertised sufficient power (%uW)%n", &a, &n) == 1 && whole(msg, n)) {
		set_kind(ev, MLX_EV_PCIE_POWER_OK);
		mlx_ev_set(ev, MLX_EVF_POWER_W, a);
		return true;
	}
	n = 0;
	if (sscanf(msg, "Detected insufficient power on the PCIe slot (%uW)%n", &a, &n) == 1 &&
	    whole(msg, n)) {
		set_kind(ev, MLX_EV_PCIE_POWER_INSUFFICIENT);
		mlx_ev_set(ev, MLX_EVF_POWER_W, a);
		return true;
	}
	if (!strcmp(msg, "PCIe slot power capability was not advertised.")) {
		set_kind(ev, MLX_EV_PCIE_POWER_UNKNOWN);
		return true;
	}
	n = 0;
	if (sscanf(msg, "%u.%3u Gb/s available PCIe bandwidth%n", &a, &b, &n) == 2 && n > 0) {
		p = msg + n;
		if (starts(p, " ("))
			set_kind(ev, MLX_EV_PCIE_BANDWIDTH);
		else if (starts(p, ", limited by "))
			set_kind(ev, MLX_EV_PCIE_BANDWIDTH_LIMITED);
		else
			return false;
		mlx_ev_set(ev, MLX_EVF_BANDWIDTH_MBPS, (uint64_t)a * 1000 + b);
		/* the (first) link width: " x16 link" */
		for (p = strstr(p, " x"); p; p = strstr(p + 2, " x")) {
			if (sscanf(p, " x%u link%n", &a, &n) == 1 && n > 0) {
				mlx_ev_set(ev, MLX_EVF_LINK_WIDTH, a);
				break;
			}
		}
		return true;
	}
	return false;
}

static bool classify_misc(const char *msg, struct mlx_event *ev)
{
	unsigned a, b, c;
	int e, n = 0;
	char drv[32];

	if (sscanf(msg, "firmware version: %u.%u.%u%n", &a, &b, &c, &n) == 3 && whole(msg, n)) {
		set_kind(ev, MLX_EV_FIRMWARE_VERSION);
		snprintf(ev->detail, sizeof(ev->detail), "%u.%u.%u", a, b, c);
		return true;
	}
	n = 0;
	if ((sscanf(msg, "mlx5_init_one failed with error code %d%n", &e, &n) == 1 && whole(msg, n)) ||
	    (n = 0, sscanf(msg, "mlx5_load_one failed with error code %d%n", &e, &n) == 1 &&
	     whole(msg, n)) ||
	    (n = 0, sscanf(msg, "probe with driver %31s failed with error %d%n", drv, &e, &n) == 2 &&
	     whole(msg, n))) {
		set_kind(ev, MLX_EV_PROBE_FAILED);
		mlx_ev_set(ev, MLX_EVF_ERRNO, (uint64_t)(int64_t)e);
		return true;
	}
	n = 0;
	if (!strcmp(msg, "handle_hca_cap failed") ||
	    (sscanf(msg, "Device[%u] (%31[^)]) failed to load%n", &a, drv, &n) == 2 && whole(msg, n))) {
		set_kind(ev, MLX_EV_PROBE_FAILED);
		return true;
	}
	if (strstr(msg, "failed to allocate page") || strstr(msg, "page allocation failure")) {
		set_kind(ev, MLX_EV_PAGE_ALLOC_FAILED);
		return true;
	}
	if (starts(msg, "PCIe Bus Error: severity=")) {
		const char *s = msg + strlen("PCIe Bus Error: severity=");

		if (starts(s, "Corrected,"))
			set_kind(ev, MLX_EV_AER_CORRECTED);
		else if (starts(s, "Uncorrected (Non-Fatal),") || starts(s, "Uncorrectable (Non-Fatal),"))
			set_kind(ev, MLX_EV_AER_NONFATAL);
		else if (starts(s, "Uncorrected (Fatal),") || starts(s, "Uncorrectable (Fatal),"))
			set_kind(ev, MLX_EV_AER_FATAL);
		else
			return false;
		return true;
	}
	return false;
}

/* Syslog level of an unclassified line. */
static enum mlx_ev_severity level_severity(int level)
{
	return level <= 2 ? MLX_EVSEV_CRITICAL : level == 3 ? MLX_EVSEV_ERROR :
	       level == 4 ? MLX_EVSEV_WARNING : level == 5 ? MLX_EVSEV_NOTICE : MLX_EVSEV_INFO;
}

/*
 * Classify the text @t (NUL-terminated, at most MSG_MAX - 1 bytes); @level
 * is the record's log level (6 when unknown).  1 an event, 0 not mlx5.
 */
static int classify(const char *t, int level, struct mlx_event *ev)
{
	char func[64] = "";
	const char *msg;
	unsigned line, pid;
	size_t b;
	int n;

	copy(ev->text, sizeof(ev->text), t, strlen(t));
	if (starts(t, "mlx5_core: ")) {
		/* the driver core about the driver: "probe of <BDF> failed with error %d" */
		char dev[32];
		int e;

		n = 0;
		if (sscanf(t + 11, "probe of %31s failed with error %d%n", dev, &e, &n) == 2 &&
		    whole(t + 11, n) && bdf_len(dev) == strlen(dev)) {
			if (!ev->pci_address[0])
				copy(ev->pci_address, sizeof(ev->pci_address), dev, strlen(dev));
			set_kind(ev, MLX_EV_PROBE_FAILED);
			mlx_ev_set(ev, MLX_EVF_ERRNO, (uint64_t)(int64_t)e);
			return 1;
		}
		set_kind(ev, MLX_EV_MLX5_LOG);
		ev->severity = level_severity(level);
		return 1;
	}
	if (!starts(t, "mlx5_core ")) {
		/* mlx5_ib and ib_core, about an RDMA device */
		if (mlx_kmsg_classify_rdma(t, level, ev) == 1)
			return 1;
		/* The watchdog of kernels before 6.8: a WARN with no device
		 * prefix; "(mlx5_core)" is the driver of the netdev named. */
		char dev[16], drv[32];
		unsigned q;

		n = 0;
		if (sscanf(t, "NETDEV WATCHDOG: %15s (%31[^)]): transmit queue %u timed out%n", dev, drv,
			   &q, &n) == 3 && n > 0 && !strcmp(drv, "mlx5_core") &&
		    (t[n] == '\0' || t[n] == ' ')) {
			copy(ev->netdev, sizeof(ev->netdev), dev, strlen(dev));
			set_kind(ev, MLX_EV_NETDEV_WATCHDOG);
			mlx_ev_set(ev, MLX_EVF_QUEUE, q);
			return 1;
		}
		return 0;
	}
	t += 10;
	b = bdf_len(t);
	if (!b)
		return 0;
	if (!ev->pci_address[0])
		copy(ev->pci_address, sizeof(ev->pci_address), t, b);
	t += b;
	if (*t == ' ') {
		/* netdev_printk: "<netdev>[ (unregistering)]: " */
		const char *end = strstr(t + 1, ": ");
		size_t nl = strcspn(t + 1, " :");

		if (!end || nl == 0)
			return 0;
		copy(ev->netdev, sizeof(ev->netdev), t + 1, nl);
		t = end;
	}
	if (strncmp(t, ": ", 2))
		return 0;
	msg = t + 2;
	/* kernels before 5.4: the device name again, "<BDF>:" */
	b = bdf_len(msg);
	if (b && msg[b] == ':')
		msg += b + 1;
	/* mlx5_core_{err,warn,info}: "<function>:<line>:(pid <n>): " */
	n = 0;
	if (sscanf(msg, "%63[A-Za-z0-9_]:%u:(pid %u): %n", func, &line, &pid, &n) == 3 && n > 0)
		msg += n;
	else
		func[0] = '\0';

	if (classify_port(msg, ev) || classify_health(msg, func[0] ? func : NULL, ev) ||
	    classify_cmd(msg, ev) || classify_queue(msg, ev) || classify_misc(msg, ev))
		return 1;
	/* a partial match may have set fields: an unclassified line has none */
	ev->have = 0;
	ev->fw_command[0] = ev->detail[0] = '\0';
	set_kind(ev, MLX_EV_MLX5_LOG);
	ev->severity = level_severity(level);
	return 1;
}

static void ev_init(struct mlx_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->source = MLX_EVS_KMSG;
}

int mlx_kmsg_classify_text(const char *text, size_t len, struct mlx_event *ev)
{
	char t[MSG_MAX];

	ev_init(ev);
	len = strnlen(text, len);
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	copy(t, sizeof(t), text, len);
	return classify(t, 6, ev);
}

int mlx_kmsg_classify(const char *rec, size_t len, unsigned flags, struct mlx_event *ev)
{
	unsigned long long prio, seq, usec;
	const char *semi, *nl, *end, *p;
	char head[96], t[MSG_MAX];
	int n = 0;

	ev_init(ev);
	len = strnlen(rec, len);
	end = rec + len;
	semi = memchr(rec, ';', len);
	if (!semi || (size_t)(semi - rec) >= sizeof(head))
		return -EBADMSG;
	copy(head, sizeof(head), rec, (size_t)(semi - rec));
	if (sscanf(head, "%llu,%llu,%llu,%n", &prio, &seq, &usec, &n) != 3 || n == 0 ||
	    !strchr("-c+", head[n]) || prio > 1023)
		return -EBADMSG;
	ev->seq = seq;
	ev->usec = usec;
	/* facility 0 is the kernel; a user process writing /dev/kmsg gets
	 * LOG_USER or what it asked for, never 0 (kernel/printk/printk.c:
	 * devkmsg_write) */
	if ((prio >> 3) != 0 && !(flags & MLX_KMSG_ACCEPT_USER))
		return -EPERM;
	nl = memchr(semi + 1, '\n', (size_t)(end - semi - 1));
	if (!nl)
		nl = end;
	copy(t, sizeof(t), semi + 1, (size_t)(nl - semi - 1));
	/* the dictionary: the device is DEVICE=+pci:<BDF> */
	for (p = nl; p < end && *p == '\n' && p + 1 < end && p[1] == ' ';) {
		const char *k = p + 2, *e = memchr(k, '\n', (size_t)(end - k));

		if (!e)
			e = end;
		/* the value copied out first: the record is not NUL-terminated */
		if ((size_t)(e - k) > 12 && (size_t)(e - k) < 12 + sizeof(ev->pci_address) &&
		    !strncmp(k, "DEVICE=+pci:", 12)) {
			char v[sizeof(ev->pci_address)];

			copy(v, sizeof(v), k + 12, (size_t)(e - k - 12));
			if (bdf_len(v) == strlen(v))
				memcpy(ev->pci_address, v, sizeof(v));
		}
		/* an ib_device's printk: DEVICE=+infiniband:<name> */
		if ((size_t)(e - k) > 19 && (size_t)(e - k) < 19 + sizeof(ev->rdma_device) &&
		    !strncmp(k, "DEVICE=+infiniband:", 19)) {
			copy(ev->rdma_device, sizeof(ev->rdma_device), k + 19, (size_t)(e - k - 19));
			for (char *c = ev->rdma_device; *c; c++)
				if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' && *c != '.')
					ev->rdma_device[0] = '\0';
		}
		p = e;
	}
	return classify(t, (int)(prio & 7), ev);
}

uint64_t mlx_kmsg_seq_gap(struct mlx_kmsg_seq *s, uint64_t seq)
{
	uint64_t lost = 0;

	if (s->have && seq > s->next)
		lost = seq - s->next;
	s->have = true;
	s->next = seq + 1;
	return lost;
}

void mlx_ev_records_lost(struct mlx_event *ev, uint64_t lost, uint64_t at_seq)
{
	memset(ev, 0, sizeof(*ev));
	ev->source = MLX_EVS_MONITOR;
	set_kind(ev, MLX_EV_RECORDS_LOST);
	ev->seq = at_seq;
	mlx_ev_set(ev, MLX_EVF_LOST, lost);
	snprintf(ev->text, sizeof(ev->text), "%" PRIu64 " kernel log records lost", lost);
}
