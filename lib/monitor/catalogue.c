/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The catalogue of event kinds (issue 16): what each means, what to do,
 * the Windows event it corresponds to (the WinOF-2 event-log messages
 * E01-E40: the messages of the WinOF-2 manual's §5.5 "Reported Driver
 * Events", numbered in their order; reference/seeds-winof2-dumps-events.md
 * §7 numbers them so too but puts "has got ... FW version" at E22, where
 * the manual has it at E20, before QUERY HCA CAP (E21) and QUERY ADAPTER
 * (E22); tests/cli/windows-events.py holds every number to the manual), the
 * Table 19 dump type it triggers, and the exact kernel format it is
 * recognised by (format strings read in the upstream mlx5 driver,
 * drivers/net/ethernet/mellanox/mlx5/core, and the PCI core; see
 * lib/monitor/README for how they were checked).  A format line gives the
 * printk format after the driver's prefix; mlx5_core_{err,warn,info}
 * prefix it with "mlx5_core <BDF>: <function>:<line>:(pid <n>): " (older
 * kernels, and _rl variants: "mlx5_core <BDF>: "), netdev_{err,info} with
 * "mlx5_core <BDF> <netdev>: ".
 */
#include "config.h"

#include "monitor.h"

static const struct mlx_dump_type_info dump_types[MLX_DUMP_NTYPES] = {
	[MLX_DUMP_NONE] = { NULL, 0, false, NULL },
	[MLX_DUMP_CMD_ERR] = { "CMD_ERR", 'c', true, "Command failure or timeout on a command" },
	[MLX_DUMP_EQ_STUCK] = { "EQ_STUCK", 'e', true, "Driver decided that an event queue is stuck" },
	[MLX_DUMP_TXCQ_STUCK] = { "TXCQ_STUCK", 't', true,
				  "Driver decided that a transmit completion queue is stuck" },
	[MLX_DUMP_RXCQ_STUCK] = { "RXCQ_STUCK", 'r', true,
				  "Driver decided that a receive completion queue is stuck" },
	[MLX_DUMP_PORT_STATE] = { "PORT_STATE", 'p', false,
				  "Adapter passed to \"port down\" state or \"port unknown\" state" },
	[MLX_DUMP_ON_OID] = { "ON_OID", 'o', false, "User application asked to generate dump files" },
	[MLX_DUMP_FATAL_ERROR] = { "FATAL_ERROR", 'f', true,
				   "Linux: the device reported a fatal error, or its firmware stopped "
				   "answering the health poll (not in Table 19: Windows bugchecks)" },
};

const struct mlx_dump_type_info *mlx_dump_type_info(enum mlx_dump_type t)
{
	return (unsigned)t < MLX_DUMP_NTYPES && t != MLX_DUMP_NONE ? &dump_types[t] : NULL;
}

#define K MLX_EVS_KMSG
#define R MLX_EVS_RTNL
#define D MLX_EVS_DEVLINK
#define M MLX_EVS_MONITOR
#define T MLX_EVS_ETHTOOL
#define I MLX_EVSEV_INFO
#define N MLX_EVSEV_NOTICE
#define W MLX_EVSEV_WARNING
#define E MLX_EVSEV_ERROR
#define C MLX_EVSEV_CRITICAL
#define EN "mlx5/core/en_main.c: "
#define EV "mlx5/core/events.c: "
#define HE "mlx5/core/health.c: "
#define ET "ethtool -S, mlx5/core/en_stats.c: "
#define EM "ethtool netlink, group \"monitor\" (net/ethtool/netlink.c ethnl_default_notify): "

static const struct mlx_ev_kind_info catalogue[MLX_EV_NKINDS] = {
	[MLX_EV_LINK_UP] = { MLX_EV_LINK_UP, "link_up", K, I,
		"the port's link came up (the driver's view, from the PORT_CHANGE event)",
		"none", "E07", MLX_DUMP_NONE,
		"Link up", EN "mlx5e_update_carrier (netdev_info)" },
	[MLX_EV_LINK_DOWN] = { MLX_EV_LINK_DOWN, "link_down", K, W,
		"the port's link went down: cable, module, peer port or the switch",
		"check the cable and the peer port; `mlxcli module`, the link-down counters",
		"E08", MLX_DUMP_PORT_STATE,
		"Link down", EN "mlx5e_update_carrier (netdev_info)" },
	[MLX_EV_MODULE_PLUGGED] = { MLX_EV_MODULE_PLUGGED, "module_plugged", K, I,
		"a transceiver or cable was plugged into the port's cage", "none", NULL, MLX_DUMP_NONE,
		"Port module event: module %u, %s (status \"Cable plugged\")",
		EV "port_module (mlx5_core_info)" },
	[MLX_EV_MODULE_UNPLUGGED] = { MLX_EV_MODULE_UNPLUGGED, "module_unplugged", K, W,
		"the transceiver or cable was removed from the cage",
		"if nobody removed it, reseat it", NULL, MLX_DUMP_NONE,
		"Port module event: module %u, %s (status \"Cable unplugged\")",
		EV "port_module (mlx5_core_info)" },
	[MLX_EV_MODULE_ERROR] = { MLX_EV_MODULE_ERROR, "module_error", K, E,
		"the module reported an error (power budget exceeded, bad or shorted cable, "
		"unsupported cable, high temperature, ...): the detail says which",
		"replace the module or cable, or move it to a port/slot with the power it needs",
		NULL, MLX_DUMP_NONE,
		"Port module event[error]: module %u, %s, %s",
		EV "port_module (mlx5_core_err; mlx5_core_info before 5.2)" },
	[MLX_EV_HIGH_TEMPERATURE] = { MLX_EV_HIGH_TEMPERATURE, "high_temperature", K, E,
		"the adapter's temperature sensors crossed the warning threshold (TEMP_WARNING "
		"event); the bit masks name the sensors",
		"check the airflow and fans now: the firmware shuts the adapter down when it "
		"overheats (health syndrome 0x10)", NULL, MLX_DUMP_NONE,
		"High temperature on sensors with bit set %llx %llx|"
		"High temperature on sensors with bit set %#llx %#llx. (6.10 and later)",
		EV "temp_warn (mlx5_core_warn)" },
	[MLX_EV_PCIE_POWER_OK] = { MLX_EV_PCIE_POWER_OK, "pcie_power_sufficient", K, I,
		"the PCIe slot advertised enough power for the adapter", "none", NULL, MLX_DUMP_NONE,
		"PCIe slot advertised sufficient power (%uW).",
		EV "mlx5_pcie_event (mlx5_core_info_rl)" },
	[MLX_EV_PCIE_POWER_INSUFFICIENT] = { MLX_EV_PCIE_POWER_INSUFFICIENT,
		"pcie_power_insufficient", K, W,
		"the PCIe slot advertised less power than the adapter needs; the firmware may "
		"throttle it or power down ports",
		"move the adapter to a slot that supplies enough power, or check the BIOS slot "
		"power limit", NULL, MLX_DUMP_NONE,
		"Detected insufficient power on the PCIe slot (%uW).",
		EV "mlx5_pcie_event (mlx5_core_warn_rl)" },
	[MLX_EV_PCIE_POWER_UNKNOWN] = { MLX_EV_PCIE_POWER_UNKNOWN, "pcie_power_not_advertised", K, N,
		"the slot does not advertise its power; the adapter cannot tell whether it has enough",
		"none unless ports go down; then check the slot", NULL, MLX_DUMP_NONE,
		"PCIe slot power capability was not advertised.",
		EV "mlx5_pcie_event (mlx5_core_info_rl)" },
	[MLX_EV_PCIE_BANDWIDTH] = { MLX_EV_PCIE_BANDWIDTH, "pcie_bandwidth", K, I,
		"the PCIe bandwidth available to the function (printed at probe)", "none", NULL,
		MLX_DUMP_NONE, "%u.%03u Gb/s available PCIe bandwidth (%s x%d link)",
		"drivers/pci/pci.c: __pcie_print_link_status (pci_info)" },
	[MLX_EV_PCIE_BANDWIDTH_LIMITED] = { MLX_EV_PCIE_BANDWIDTH_LIMITED,
		"pcie_bandwidth_limited", K, W,
		"the PCIe link trained below what the adapter can do: the slot, a riser or a "
		"bridge limits it", "move the adapter to a wider/faster slot; `mlxcli pci`", NULL,
		MLX_DUMP_NONE,
		"%u.%03u Gb/s available PCIe bandwidth, limited by %s x%d link at %s (capable of "
		"%u.%03u Gb/s with %s x%d link)",
		"drivers/pci/pci.c: __pcie_print_link_status (pci_info)" },
	[MLX_EV_FIRMWARE_VERSION] = { MLX_EV_FIRMWARE_VERSION, "firmware_version", K, I,
		"the function was probed; the firmware version it runs", "none", "E20",
		MLX_DUMP_NONE, "firmware version: %d.%d.%d",
		"mlx5/core/main.c: mlx5_function_setup / mlx5_init_one (mlx5_core_info)" },
	[MLX_EV_PROBE_FAILED] = { MLX_EV_PROBE_FAILED, "probe_failed", K, E,
		"the driver failed to initialise the function (a firmware capability, a "
		"resource, a duplicate device); the function has no netdev",
		"read the lines before it; update the firmware or the driver", "E21", MLX_DUMP_NONE,
		"mlx5_init_one failed with error code %d|mlx5_load_one failed with error code %d|"
		"handle_hca_cap failed|Device[%d] (%s) failed to load|"
		"probe of %s failed with error %d|probe with driver %s failed with error %d",
		"mlx5/core/main.c: probe_one, mlx5_load_one, set_hca_cap; mlx5/core/dev.c: "
		"add_drivers; drivers/base/dd.c: really_probe" },
	[MLX_EV_HEALTH_COMPROMISED] = { MLX_EV_HEALTH_COMPROMISED, "health_compromised", K, C,
		"the firmware stopped incrementing its health counter (the poll missed it "
		"MLX5_HEALTH_MISS_COUNT times): the firmware is stuck; the health buffer follows",
		"collect a dump-me-now incident and the devlink fw reporter dump; expect a fatal "
		"error and a reset", NULL, MLX_DUMP_FATAL_ERROR,
		"device's health compromised - reached miss count", HE "poll_health (mlx5_core_err)" },
	[MLX_EV_HEALTH_ISSUE] = { MLX_EV_HEALTH_ISSUE, "health_issue", K, E,
		"the firmware raised a health syndrome, with its severity (the health buffer follows)",
		"see the syndrome; collect an incident", NULL, MLX_DUMP_NONE,
		"Health issue observed, %s, severity(%d) %s:",
		HE "print_health_info (mlx5_log at the buffer's severity)" },
	[MLX_EV_HEALTH_BUFFER] = { MLX_EV_HEALTH_BUFFER, "health_buffer", K, N,
		"one line of the firmware health buffer (assert values, syndrome, firmware version)",
		"keep it for support: it identifies the firmware assert", NULL, MLX_DUMP_NONE,
		"assert_var[%d] 0x%08x|assert_exit_ptr 0x%08x|assert_callra 0x%08x|fw_ver %d.%d.%d|"
		"time %u|hw_id 0x%08x|rfr %d|severity %d (%s)|irisc_index %d|synd 0x%x: %s|"
		"ext_synd 0x%04x|raw fw_ver 0x%08x",
		HE "print_health_info" },
	[MLX_EV_FATAL_ERROR] = { MLX_EV_FATAL_ERROR, "fatal_error", K, C,
		"the device is in a fatal state (firmware assert, PCI reads all ones: a device that "
		"fell off the bus); the driver enters the error state and tries to recover",
		"collect an incident; if the health buffer is all ff, the device is gone from PCI "
		"(hot unplug, AER fatal, power)", "E39", MLX_DUMP_FATAL_ERROR,
		"Fatal error %u detected", HE "poll_health (mlx5_core_err)" },
	[MLX_EV_HEALTH_RECOVERY] = { MLX_EV_HEALTH_RECOVERY, "health_recovery", K, W,
		"the driver started recovering the device after a fatal error", "wait for it; "
		"then check the function is back (`mlxcli devices`)", "E17", MLX_DUMP_NONE,
		"handling bad device here|starting health recovery flow|"
		"Scheduling recovery work with %lums delay",
		HE "mlx5_health_try_recover / health_care, health_recover" },
	[MLX_EV_HEALTH_RECOVERY_FAILED] = { MLX_EV_HEALTH_RECOVERY_FAILED,
		"health_recovery_failed", K, C,
		"the recovery gave up: the device does not answer on PCI",
		"the function is dead until a reset or a reboot: power-cycle or reseat the adapter",
		"E38", MLX_DUMP_NONE, "health recovery flow aborted, %s",
		HE "mlx5_health_try_recover (mlx5_core_err)" },
	[MLX_EV_ERROR_STATE] = { MLX_EV_ERROR_STATE, "error_state", K, E,
		"a step of the driver's error flow (entering the error state, the NIC interface "
		"mode, the PCI error handler)", "read with the fatal error before it", NULL,
		MLX_DUMP_NONE,
		"start|end (function mlx5_enter_error_state or mlx5_error_sw_reset)|NIC mode: %d|"
		"Expected to see disabled NIC but it is has invalid value %d|"
		"NIC IFC still %d after %lums.|mlx5_pci_err_detected was called|"
		"mlx5_pci_err_detected Device state = %d ...",
		HE "mlx5_enter_error_state, mlx5_error_sw_reset, mlx5_handle_bad_state; "
		"mlx5/core/main.c: mlx5_pci_err_detected" },
	[MLX_EV_CMD_TIMEOUT] = { MLX_EV_CMD_TIMEOUT, "cmd_timeout", K, E,
		"a firmware command got no completion in time: the firmware is stuck or the "
		"command interface lost an interrupt",
		"collect an incident; repeated timeouts precede a health error", "E24",
		MLX_DUMP_CMD_ERR,
		"cmd[%d]: %s(0x%x) No done completion|%s(0x%x) timeout. Will cause a leak of a "
		"command resource|cmd[%d]: %s(0x%x) Async, timeout. Will cause a leak of a command "
		"resource",
		"mlx5/core/cmd.c: wait_func_handle_exec_timeout, wait_func (mlx5_core_warn/err)" },
	[MLX_EV_CMD_FAILED] = { MLX_EV_CMD_FAILED, "cmd_failed", K, E,
		"the firmware refused a command: status and syndrome say why (bad parameter, "
		"resources, ...)", "if it repeats, collect an incident and check `mlxcli dbg "
		"cmd-stats`", "E24", MLX_DUMP_CMD_ERR,
		"%s(0x%x) op_mod(0x%x) failed, status %s(0x%x), syndrome (0x%x)|"
		"%s(0x%x) op_mod(0x%x) failed, status %s(0x%x), syndrome (0x%x), err(%d)",
		"mlx5/core/cmd.c: mlx5_cmd_check / mlx5_cmd_out_err (mlx5_core_err_rl)" },
	[MLX_EV_TX_TIMEOUT] = { MLX_EV_TX_TIMEOUT, "tx_timeout", K, E,
		"a send queue made no progress (the stack's TX watchdog fired); the tx reporter "
		"recovers it", "collect an incident; check the EQ line that follows",
		"E13", MLX_DUMP_TXCQ_STUCK,
		"TX timeout detected|TX timeout on queue: %d, SQ: 0x%x, CQ: 0x%x, SQ Cons: 0x%x "
		"SQ Prod: 0x%x, usecs since last trans: %u",
		EN "mlx5e_tx_timeout_work; mlx5/core/en/reporter_tx.c: mlx5e_reporter_tx_timeout "
		"(netdev_err)" },
	[MLX_EV_RX_TIMEOUT] = { MLX_EV_RX_TIMEOUT, "rx_timeout", K, E,
		"a receive queue did not get its buffers posted in time; the rx reporter recovers it",
		"collect an incident", "E14", MLX_DUMP_RXCQ_STUCK,
		"RX timeout on channel: %d, ICOSQ: 0x%x RQ: 0x%x, CQ: 0x%x|"
		"RX timeout on channel: %d, RQ: 0x%x, CQ: 0x%x",
		"mlx5/core/en/reporter_rx.c: mlx5e_reporter_rx_timeout (netdev_err)" },
	[MLX_EV_NETDEV_WATCHDOG] = { MLX_EV_NETDEV_WATCHDOG, "netdev_watchdog", K, E,
		"the networking core's transmit watchdog found a queue stopped too long",
		"the driver's tx_timeout follows; collect an incident", "E13", MLX_DUMP_NONE,
		"NETDEV WATCHDOG: %s (%s): transmit queue %u timed out|"
		"NETDEV WATCHDOG: CPU: %d: transmit queue %u timed out %u ms",
		"net/sched/sch_generic.c: dev_watchdog (WARN_ONCE; netdev_crit since 6.8)" },
	[MLX_EV_EQ_RECOVER] = { MLX_EV_EQ_RECOVER, "eq_recover", K, E,
		"the driver polls an event queue that seems stuck (lost interrupt), as part of a "
		"queue recovery", "collect an incident; check interrupts (irqbalance, MSI-X)",
		"E12", MLX_DUMP_EQ_STUCK, "EQ 0x%x: Cons = 0x%x, irqn = 0x%x",
		"mlx5/core/en/health.c: mlx5e_health_channel_eq_recover (netdev_err)" },
	[MLX_EV_EQ_RECOVERED] = { MLX_EV_EQ_RECOVERED, "eq_recovered", K, W,
		"the stuck event queue held events the driver has now handled (an interrupt was lost)",
		"if it repeats, check the interrupt setup", "E12", MLX_DUMP_NONE,
		"Recovered %d eqes on EQ 0x%x",
		"mlx5/core/en/health.c: mlx5e_health_channel_eq_recover (netdev_err)" },
	[MLX_EV_CQE_ERROR] = { MLX_EV_CQE_ERROR, "cqe_error", K, E,
		"a completion with an error: the work request failed (syndrome: local length, "
		"protection, ...; vendor syndrome for support); the CQE and WQE dumps follow",
		"collect an incident; the queue is recovered by its reporter", "E11", MLX_DUMP_NONE,
		"Error cqe on cqn 0x%x, ci 0x%x, qn 0x%x, opcode 0x%x, syndrome 0x%x, vendor "
		"syndrome 0x%x",
		"mlx5/core/en/txrx.h (en.h before 5.4): mlx5e_dump_error_cqe (netdev_err)" },
	[MLX_EV_SQ_ERR_CQE] = { MLX_EV_SQ_ERR_CQE, "sq_error_cqe", K, E,
		"a send queue went to the error state on an error completion; the tx reporter "
		"recovers it (as Windows resets a stuck TX CQ)", "collect an incident", "E11",
		MLX_DUMP_TXCQ_STUCK, "ERR CQE on SQ: 0x%x",
		"mlx5/core/en/reporter_tx.c: mlx5e_reporter_tx_err_cqe (netdev_err via "
		"mlx5e_health_report)" },
	[MLX_EV_RQ_ERR_CQE] = { MLX_EV_RQ_ERR_CQE, "rq_error_cqe", K, E,
		"a receive queue went to the error state on an error completion; the rx reporter "
		"recovers it", "collect an incident", "E11", MLX_DUMP_RXCQ_STUCK,
		"ERR CQE on RQ: 0x%x",
		"mlx5/core/en/reporter_rx.c: mlx5e_reporter_rq_cqe_err (netdev_err via "
		"mlx5e_health_report)" },
	[MLX_EV_PAGE_ALLOC_FAILED] = { MLX_EV_PAGE_ALLOC_FAILED, "page_alloc_failed", K, E,
		"the driver could not give the firmware the memory pages it asked for",
		"check host memory pressure", NULL, MLX_DUMP_NONE,
		"failed to allocate page|page allocation failure",
		"mlx5/core/pagealloc.c: alloc_system_page, give_pages (mlx5_core_warn)" },
	[MLX_EV_AER_CORRECTED] = { MLX_EV_AER_CORRECTED, "aer_corrected", K, W,
		"the PCIe link corrected an error (bad TLP/DLLP, receiver error): a marginal link",
		"if it repeats, reseat the adapter or try another slot", NULL, MLX_DUMP_NONE,
		"PCIe Bus Error: severity=Corrected, type=%s, (%s)",
		"drivers/pci/pcie/aer.c: aer_print_error" },
	[MLX_EV_AER_NONFATAL] = { MLX_EV_AER_NONFATAL, "aer_nonfatal", K, E,
		"an uncorrected, non-fatal PCIe error: a transaction was lost",
		"collect an incident; check the slot", NULL, MLX_DUMP_NONE,
		"PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=%s, (%s)|"
		"PCIe Bus Error: severity=Uncorrectable (Non-Fatal), type=%s, (%s)",
		"drivers/pci/pcie/aer.c: aer_print_error" },
	[MLX_EV_AER_FATAL] = { MLX_EV_AER_FATAL, "aer_fatal", K, C,
		"a fatal PCIe error: the link is reset, the driver's error handler runs",
		"collect an incident; check the slot and the adapter", NULL, MLX_DUMP_NONE,
		"PCIe Bus Error: severity=Uncorrected (Fatal), type=%s, (%s)|"
		"PCIe Bus Error: severity=Uncorrectable (Fatal), type=%s, (%s)",
		"drivers/pci/pcie/aer.c: aer_print_error" },
	[MLX_EV_CQ_ERROR] = { MLX_EV_CQ_ERROR, "cq_error", K, E,
		"the device reported an error on a completion queue (a CQ overrun, or a CQ in an "
		"access error): the CQ's consumer (an RDMA QP's, or the netdev's) goes to the error "
		"state", "collect an incident; an overrun means the application polls its CQ too "
		"slowly or sized it too small", "E10", MLX_DUMP_NONE,
		"CQ error on CQN 0x%x, syndrome 0x%x|Async event for bogus CQ 0x%x",
		"mlx5/core/eq.c: cq_err_event_notifier (mlx5_core_warn)" },
	[MLX_EV_MLX5_LOG] = { MLX_EV_MLX5_LOG, "mlx5_log", K, I,
		"a line of mlx5_core that no other kind describes (probe details, E-Switch, ...); "
		"its severity is the record's log level", "none", NULL, MLX_DUMP_NONE,
		"mlx5_core %s: ...", "any mlx5_core dev_printk/netdev_printk" },
	/* mlx5_ib and ib_core (lib/monitor/kmsg-rdma.c): "infiniband <dev>: ",
	 * with "<function>:<line>:(pid <n>): " for mlx5_ib's own macros */
	[MLX_EV_RDMA_QP_ERROR] = { MLX_EV_RDMA_QP_ERROR, "rdma_qp_error", K, E,
		"an RDMA queue pair went to the error state (a fatal or access error event): its "
		"connection is broken; the firmware's syndrome says why",
		"find the process behind the QP (`mlxcli rdma qp`, `rdma resource show qp`); see the "
		"CQE error and the peer's side", NULL, MLX_DUMP_NONE,
		"%s/%d: QP %d error: %s (0x%x 0x%x 0x%x)",
		"infiniband/hw/mlx5/qp.c: mlx5_ib_qp_err_syndrome (pr_err, 6.4 and later)" },
	[MLX_EV_RDMA_QP_RESET_FAILED] = { MLX_EV_RDMA_QP_RESET_FAILED, "rdma_qp_reset_failed", K, E,
		"the driver could not move an RDMA queue pair to RESET while destroying it: the "
		"firmware command failed or timed out (the command timeout or failure line is next "
		"to it); the QP's resources may leak", "collect an incident; repeated, the firmware "
		"is stuck (a health error follows)", NULL, MLX_DUMP_NONE,
		"mlx5_ib: modify QP 0x%06x to RESET failed",
		"infiniband/hw/mlx5/qp.c: destroy_qp_common (mlx5_ib_warn)" },
	[MLX_EV_RDMA_QP_CREATE_FAILED] = { MLX_EV_RDMA_QP_CREATE_FAILED, "rdma_qp_create_failed", K, W,
		"an application's or a kernel user's RDMA queue pair of the given type could not be "
		"created (resources, limits, an unsupported attribute)",
		"see the application's error; check the device's limits (`ibv_devinfo -v`) and the "
		"resource counts (`mlxcli rdma`)", NULL, MLX_DUMP_NONE, "Create QP type %d failed",
		"infiniband/hw/mlx5/qp.c: create_qp (mlx5_ib_err)" },
	[MLX_EV_RDMA_CQE_ERROR] = { MLX_EV_RDMA_CQE_ERROR, "rdma_cqe_error", K, E,
		"an RDMA work request completed with an error: wc_status (ib_wc_status) and its text "
		"say which (remote access, retry exceeded, local length, ...); the CQE dump follows",
		"look at the peer and the connection; a retry-exceeded error points at the fabric "
		"(PFC, congestion, a down port)", "E11", MLX_DUMP_NONE,
		"WC error: %d, Message: %s|dump error cqe",
		"infiniband/hw/mlx5/cq.c: dump_cqe (mlx5_ib_warn, mlx5_ib_log)" },
	[MLX_EV_RDMA_PORT_FAILED] = { MLX_EV_RDMA_PORT_FAILED, "rdma_port_failed", K, E,
		"the RDMA core could not start a port's management datagram agents (MAD): the port "
		"cannot join the fabric's management (SM, CM connections)",
		"read the lines before it (errno, a receive queue); an SELinux denial stops it too", NULL,
		MLX_DUMP_NONE,
		"Couldn't open port %d|Couldn't open port %d for agents|Couldn't start port|"
		"Couldn't post receive WRs|ib_post_recv failed: %d",
		"infiniband/core/mad.c: ib_mad_init_device, ib_mad_port_start, ib_mad_post_receive_mads; "
		"agent.c: ib_agent_port_open (dev_err)" },
	[MLX_EV_GID_ADD_FAILED] = { MLX_EV_GID_ADD_FAILED, "gid_add_failed", K, W,
		"a GID (an IP address of the netdev, for RoCE) could not be added to the RDMA device's "
		"GID table (full, or the driver refused it): RoCE cannot use that address",
		"fewer addresses or VLANs on the netdev; `mlxcli rdma gids` shows the table", NULL,
		MLX_DUMP_NONE,
		"add_roce_gid GID add failed port=%u index=%u|add_roce_gid NULL netdev port=%u index=%u|"
		"GID entry ref leak for index %d ref=%u|__ib_cache_gid_add: unable to add gid %pI6 error=%d",
		"infiniband/core/cache.c: add_roce_gid (dev_err), release_gid_table, __ib_cache_gid_add "
		"(pr_warn, no device)" },
	/* mlx5_ib logs no line when a delay-drop timeout fires (main.c
	 * handle_general_event, MLX5_GENERAL_SUBTYPE_DELAY_DROP_TIMEOUT: it
	 * counts it in debugfs delay_drop/events_cnt and re-arms); it logs
	 * only a re-arm that failed, after which dropless is off */
	[MLX_EV_DELAY_DROP_DISABLED] = { MLX_EV_DELAY_DROP_DISABLED, "delay_drop_disabled", K, W,
		"a delay-drop (dropless receive) timeout fired on the RDMA device and the driver could "
		"not re-arm it: packets that find no receive buffer are dropped again, until a new "
		"receive queue with delay drop is created (WinOF-2's event 75 says the same: "
		"\"Dropless mode feature is now disabled\"); timeout_usec is the timeout it tried",
		"see the firmware command failure next to it; the application's receive queues are "
		"starved (slow consumer or CPU): more receive buffers, then recreate the QPs",
		NULL, MLX_DUMP_NONE, "Failed to set delay drop, timeout=%u",
		"infiniband/hw/mlx5/main.c: delay_drop_handler (mlx5_ib_warn)" },
	[MLX_EV_RDMA_LOG] = { MLX_EV_RDMA_LOG, "rdma_log", K, I,
		"a line of mlx5_ib or the RDMA core about an mlx5 RDMA device that no other kind "
		"describes; its severity is the record's log level", "none", NULL, MLX_DUMP_NONE,
		"infiniband %s: ...|mlx5_ib: ...", "any dev_printk on an mlx5 ib_device; mlx5_ib pr_warn" },
	[MLX_EV_ADMIN_UP] = { MLX_EV_ADMIN_UP, "admin_up", R, I,
		"the interface was set up (IFF_UP)", "none", NULL, MLX_DUMP_NONE, NULL,
		"rtnetlink RTM_NEWLINK, group RTNLGRP_LINK: ifi_flags IFF_UP" },
	[MLX_EV_ADMIN_DOWN] = { MLX_EV_ADMIN_DOWN, "admin_down", R, N,
		"the interface was set down (IFF_UP cleared) by a user or a tool", "none", NULL,
		MLX_DUMP_NONE, NULL, "rtnetlink RTM_NEWLINK, group RTNLGRP_LINK: ifi_flags IFF_UP" },
	[MLX_EV_CARRIER_UP] = { MLX_EV_CARRIER_UP, "carrier_up", R, I,
		"the interface has carrier (the link is up)", "none", "E07", MLX_DUMP_NONE, NULL,
		"rtnetlink RTM_NEWLINK, group RTNLGRP_LINK: IFLA_CARRIER, IFLA_CARRIER_CHANGES" },
	[MLX_EV_CARRIER_DOWN] = { MLX_EV_CARRIER_DOWN, "carrier_down", R, W,
		"the interface lost carrier (the link is down)",
		"check the cable and the peer port", "E08", MLX_DUMP_PORT_STATE, NULL,
		"rtnetlink RTM_NEWLINK, group RTNLGRP_LINK: IFLA_CARRIER, IFLA_CARRIER_CHANGES" },
	[MLX_EV_CARRIER_FLAPPED] = { MLX_EV_CARRIER_FLAPPED, "carrier_flapped", R, W,
		"the carrier changed between two messages and came back: IFLA_CARRIER_CHANGES "
		"grew more than the state change shows (a flap too short to see)",
		"check the cable, the module and the peer port", "E08", MLX_DUMP_PORT_STATE, NULL,
		"rtnetlink RTM_NEWLINK, group RTNLGRP_LINK: IFLA_CARRIER_CHANGES" },
	/* issue 25 item 11: the settings an operator cares about */
	[MLX_EV_MTU_CHANGED] = { MLX_EV_MTU_CHANGED, "mtu_changed", R, N,
		"the interface's MTU was set (the message says from what): RoCE's path MTU and every "
		"peer's must fit it", "none if it was planned; a smaller MTU than the peers' drops their "
		"large frames", NULL, MLX_DUMP_NONE, NULL, "rtnetlink RTM_NEWLINK, group RTNLGRP_LINK: IFLA_MTU" },
	[MLX_EV_ADDRESS_CHANGED] = { MLX_EV_ADDRESS_CHANGED, "address_changed", R, N,
		"the interface's hardware address was set (detail: the new one)",
		"none if it was planned; RoCE GIDs and neighbours that held the old address follow it",
		NULL, MLX_DUMP_NONE, NULL, "rtnetlink RTM_NEWLINK, group RTNLGRP_LINK: IFLA_ADDRESS" },
	[MLX_EV_MASTER_CHANGED] = { MLX_EV_MASTER_CHANGED, "master_changed", R, N,
		"the interface was enslaved to a bond, a bridge or a VRF (detail: which), or released "
		"from it", "none if it was planned; a port in a bond carries RoCE through the bond's "
		"RDMA device (mlx5_bond_0)", NULL, MLX_DUMP_NONE, NULL,
		"rtnetlink RTM_NEWLINK, group RTNLGRP_LINK: IFLA_MASTER" },
	[MLX_EV_VF_COUNT_CHANGED] = { MLX_EV_VF_COUNT_CHANGED, "vf_count_changed", R, N,
		"the number of VFs of the PF changed (sriov_numvfs)", "none if it was planned; the VFs "
		"that went were taken from their VMs", NULL, MLX_DUMP_NONE, NULL,
		"rtnetlink RTM_NEWLINK with RTEXT_FILTER_VF, asked after a change of the PF: IFLA_NUM_VF" },
	[MLX_EV_VF_CHANGED] = { MLX_EV_VF_CHANGED, "vf_changed", R, N,
		"a VF's settings were set (MAC, VLAN and QoS, rate, spoofchk, trust, link state): the "
		"message has the new ones", "none if it was planned; a VF's MAC or VLAN changed under a "
		"running VM breaks its traffic", NULL, MLX_DUMP_NONE, NULL,
		"rtnetlink RTM_NEWLINK with RTEXT_FILTER_VF, asked after the PF's notification "
		"(do_setlink: netdev_state_change): IFLA_VFINFO_LIST" },
	[MLX_EV_QOS_CHANGED] = { MLX_EV_QOS_CHANGED, "qos_changed", R, N,
		"the port's DCB settings (PFC, ETS, trust and DSCP map, buffers, DCBX) were set "
		"(IEEE_SET, IEEE_DEL, SET_ALL: a user's tool) or changed by the driver or the DCBX "
		"peer (IEEE_GET, CEE_GET); the kernel does not say which process.  The message shows the "
		"state the notification carries, decoded (pfc_enabled, ets prio_tc, tc_bw, tc_tsa, "
		"app_entries, dcbx)",
		"compare with the intended settings (`mlxcli show qos`); an unexpected change "
		"is another tool or an LLDP agent", NULL, MLX_DUMP_NONE, NULL,
		"rtnetlink RTM_SETDCB/RTM_GETDCB, group RTNLGRP_DCB: DCB_ATTR_IFNAME, DCB_ATTR_IEEE" },
	[MLX_EV_HEALTH_REPORTER_ERROR] = { MLX_EV_HEALTH_REPORTER_ERROR, "health_reporter_error",
		D, E, "a devlink health reporter (fw, fw_fatal, tx, rx, vnic) reported an error; "
		"its message text is in the kernel log line next to it",
		"`mlxcli dbg health`; the reporter's dump is in the incident", NULL, MLX_DUMP_NONE,
		NULL, "devlink genl group \"config\": DEVLINK_CMD_HEALTH_REPORTER_RECOVER, "
		"DEVLINK_ATTR_HEALTH_REPORTER_STATE error (net/devlink/health.c: "
		"devlink_recover_notify)" },
	[MLX_EV_HEALTH_REPORTER_HEALTHY] = { MLX_EV_HEALTH_REPORTER_HEALTHY,
		"health_reporter_healthy", D, I, "a devlink health reporter recovered", "none",
		NULL, MLX_DUMP_NONE, NULL,
		"devlink genl group \"config\": DEVLINK_CMD_HEALTH_REPORTER_RECOVER, "
		"DEVLINK_ATTR_HEALTH_REPORTER_STATE healthy" },
	[MLX_EV_AER_COUNTER_MOVED] = { MLX_EV_AER_COUNTER_MOVED, "aer_counter_moved", M, W,
		"a PCIe AER total of the function grew between two polls (--poll): errors the "
		"kernel counted, logged or not", "see the AER files (`mlxcli pci`); correctable "
		"errors that keep growing point at the slot, the riser or the link", NULL,
		MLX_DUMP_NONE, NULL, "sysfs aer_dev_correctable, aer_dev_nonfatal, aer_dev_fatal: "
		"TOTAL_ERR_COR, TOTAL_ERR_NONFATAL, TOTAL_ERR_FATAL (drivers/pci/pcie/aer.c)",
		"error for non-fatal, critical for fatal errors" },
	[MLX_EV_RECORDS_LOST] = { MLX_EV_RECORDS_LOST, "records_lost", M, W,
		"kernel log records were overwritten before the monitor read them (a gap in the "
		"record sequence): events may be missing", "none; a storm was going on", NULL,
		MLX_DUMP_NONE, NULL, "/dev/kmsg sequence numbers; read(2) -EPIPE" },
	/* ethtool -S event counters, polled (lib/monitor/counter-events.c);
	 * "what it counts" after the kernel's mlx5 counters.rst */
	[MLX_EV_PAUSE_STORM_WARNING] = { MLX_EV_PAUSE_STORM_WARNING, "pause_storm_warning", M, W,
		"the port kept sending pause frames longer than the stall warning watermark "
		"(device_stall_minor_watermark): the host is not draining its receive buffer",
		"find the slow receiver (CPU, interrupts, a stuck application); `mlxcli counters "
		"--group pause`; PFC storm prevention stops the pauses at the critical watermark",
		NULL, MLX_DUMP_NONE, NULL, ET "tx_pause_storm_warning_events (PPCNT per-priority "
		"device_stall_minor_watermark_cnt)" },
	[MLX_EV_PAUSE_STORM_ERROR] = { MLX_EV_PAUSE_STORM_ERROR, "pause_storm_error", M, E,
		"a pause storm reached the critical watermark: the port stopped sending pause "
		"frames (PFC storm prevention); while they are off, lossless traffic can drop",
		"find the stalled receiver now; the pauses resume when the stall ends "
		"(pfc_stall_prevention in /sys/class/net/IF/settings)", NULL, MLX_DUMP_NONE, NULL,
		ET "tx_pause_storm_error_events (device_stall_critical_watermark_cnt)" },
	[MLX_EV_MODULE_UNPLUG_COUNTED] = { MLX_EV_MODULE_UNPLUG_COUNTED, "module_unplug_counted", M, W,
		"the port's module was ejected (the driver's count; the kernel log line may be "
		"rate-limited or gone)", "if nobody removed it, reseat it", NULL, MLX_DUMP_NONE, NULL,
		ET "module_unplug (mlx5e_port_module_event)" },
	[MLX_EV_MODULE_BUS_STUCK] = { MLX_EV_MODULE_BUS_STUCK, "module_bus_stuck", M, E,
		"the module's I2C bus (data or clock) was found shorted",
		"replace the cable or transceiver", NULL, MLX_DUMP_NONE, NULL,
		ET "module_bus_stuck (mlx5e_port_module_event)" },
	[MLX_EV_MODULE_HIGH_TEMP] = { MLX_EV_MODULE_HIGH_TEMP, "module_high_temp", M, E,
		"the module's temperature was too high", "check the airflow and the ambient "
		"temperature; if it goes on, replace the module (`mlxcli module` shows its sensors)",
		NULL, MLX_DUMP_NONE, NULL, ET "module_high_temp (mlx5e_port_module_event)" },
	[MLX_EV_MODULE_BAD_SHORTED] = { MLX_EV_MODULE_BAD_SHORTED, "module_bad_shorted", M, E,
		"the module's cable was shorted", "replace the cable or transceiver", NULL,
		MLX_DUMP_NONE, NULL, ET "module_bad_shorted (mlx5e_port_module_event)" },
	[MLX_EV_LINK_DOWN_COUNTED] = { MLX_EV_LINK_DOWN_COUNTED, "link_down_counted", M, W,
		"the port's operative state went down (the firmware's count: also a flap too short "
		"for the carrier to show)", "a count that keeps growing is a flapping port: check "
		"the cable, the module and the peer port", "E08", MLX_DUMP_PORT_STATE, NULL,
		ET "link_down_events_phy (PPCNT physical layer counters)" },
	[MLX_EV_PHY_RECOVERY] = { MLX_EV_PHY_RECOVERY, "phy_recovery", M, W,
		"the port's physical layer recovered (any kind of recovery during a port reset "
		"cycle): the link had trouble and fixed itself", "if it repeats, check the cable "
		"and the signal (`mlxcli link`, the FEC counters)", NULL, MLX_DUMP_NONE, NULL,
		ET "total_success_recovery_phy (PPCNT physical layer recovery counters)" },
	[MLX_EV_PCI_STALLED] = { MLX_EV_PCI_STALLED, "pci_stalled", M, W,
		"the adapter's outbound PCIe reads or writes were stalled (back-pressure from the "
		"host: the name says which)", "check the slot's link (`mlxcli pci`), the host's "
		"memory bandwidth and IOMMU settings", NULL, MLX_DUMP_NONE, NULL,
		ET "outbound_pci_stalled_rd_events, outbound_pci_stalled_wr_events (MPCNT)" },
	[MLX_EV_RX_BUFFER_ALMOST_FULL] = { MLX_EV_RX_BUFFER_ALMOST_FULL, "rx_buffer_almost_full", M, N,
		"the port's receive buffer was over 85% full", "none alone; with drops or pauses, "
		"the host is too slow for the traffic", NULL, MLX_DUMP_NONE, NULL,
		ET "rx_buffer_passed_thres_phy (PPCNT Ethernet extended counters)" },
	[MLX_EV_SQ_RECOVERED] = { MLX_EV_SQ_RECOVERED, "sq_recovered", M, W,
		"the driver recovered send queues of the netdev after an error (the tx health "
		"reporter's recoveries, error CQE or timeout)", "see the kernel log and `mlxcli "
		"dbg health`; repeated, collect a dump-me-now incident", NULL, MLX_DUMP_NONE, NULL,
		ET "tx_recover (software stats, the sum over the send queues)" },
	[MLX_EV_RQ_RECOVERED] = { MLX_EV_RQ_RECOVERED, "rq_recovered", M, W,
		"the driver recovered receive queues of the netdev after an error (the rx health "
		"reporter's recoveries)", "see the kernel log and `mlxcli dbg health`", NULL,
		MLX_DUMP_NONE, NULL, ET "rx_recover (software stats, the sum over the receive queues)" },
	[MLX_EV_VF_RESOURCE_THRESHOLD] = { MLX_EV_VF_RESOURCE_THRESHOLD, "vf_resource_threshold", M, W,
		"a function (a VF, or a representor's VF) used too many resources: one of its vnic "
		"counters (failed commands, quota exceeded, overruns, error queues, steering "
		"discards) grew by more than its --vf-thresholds in one poll period",
		"find the VM or application behind the VF (`mlxcli sriov`); a driver or firmware "
		"mismatch in the guest, or an abusive tenant", NULL, MLX_DUMP_NONE, NULL,
		"devlink health diagnose REPORTER vnic: \"vNIC env counters\" "
		"(mlx5/core/diag/reporter_vnic.c)" },
	/* a module's lane flags, polled (lib/monitor/counter-poll.c) */
	[MLX_EV_MODULE_LANE_FLAG] = { MLX_EV_MODULE_LANE_FLAG, "module_lane_flag", M, E,
		"a module lane raised a status flag since the last poll: Rx loss of signal (no light "
		"from the peer), Tx loss of signal (no electrical signal from the host), Tx fault "
		"(the laser), Rx or Tx CDR loss of lock (name: rx_los, tx_los, tx_fault, rx_lol, "
		"tx_lol)", "rx_los, rx_lol: the fibre, its connectors or the peer's laser (`mlxcli "
		"module` shows the Rx power); tx_fault: replace the module; tx_los, tx_lol: the "
		"port's host side (reseat the module, `mlxcli link`)", NULL, MLX_DUMP_NONE, NULL,
		"the module EEPROM: SFF-8636 lower page bytes 3-5, SFF-8472 A2h byte 110, CMIS page "
		"11h bytes 135-137 and 147-148 (ETHTOOL_MSG_MODULE_EEPROM_GET)" },
	[MLX_EV_MODULE_LANE_FLAG_CLEARED] = { MLX_EV_MODULE_LANE_FLAG_CLEARED,
		"module_lane_flag_cleared", M, I,
		"a module lane's status flag that was raised at the last poll is clear", "none",
		NULL, MLX_DUMP_NONE, NULL,
		"the module EEPROM: SFF-8636 lower page bytes 3-5, SFF-8472 A2h byte 110, CMIS page "
		"11h bytes 135-137 and 147-148 (ETHTOOL_MSG_MODULE_EEPROM_GET)" },
	/* ethtool netlink, group "monitor" (lib/monitor/ethtool-notify.c) */
	[MLX_EV_LINK_INFO_CHANGED] = { MLX_EV_LINK_INFO_CHANGED, "link_info_changed", T, N,
		"the port's link settings (port type, PHY address, MDI-X, transceiver) were set",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool -s` (port, mdix, phyad))", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_LINKINFO_NTF" },
	[MLX_EV_LINK_MODES_CHANGED] = { MLX_EV_LINK_MODES_CHANGED, "link_modes_changed", T, W,
		"the port's speed, duplex, autonegotiation or advertised link modes were set (or the link partner's changed)",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool -s` (speed, duplex, autoneg, advertise))", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_LINKMODES_NTF" },
	[MLX_EV_MSGLEVEL_CHANGED] = { MLX_EV_MSGLEVEL_CHANGED, "msglevel_changed", T, N,
		"the driver's message level (netif_msg) was set: what it logs",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool -s msglvl`)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_DEBUG_NTF" },
	[MLX_EV_WOL_CHANGED] = { MLX_EV_WOL_CHANGED, "wol_changed", T, N,
		"the wake-on-LAN settings were set",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool -s wol`)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_WOL_NTF" },
	[MLX_EV_FEATURES_CHANGED] = { MLX_EV_FEATURES_CHANGED, "features_changed", T, W,
		"the netdev's offload features changed (a user's request, or the driver or the stack changing them, e.g. a bond, XDP or a feature dependency)",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool -K`; `ethtool -k` shows the result)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_FEATURES_NTF" },
	[MLX_EV_PRIVFLAGS_CHANGED] = { MLX_EV_PRIVFLAGS_CHANGED, "privflags_changed", T, W,
		"the driver's private flags were set (mlx5: rx_cqe_compress, tx_cqe_moder, rx_striding_rq, ...)",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool --set-priv-flags`; `mlxcli params` shows them)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_PRIVFLAGS_NTF" },
	[MLX_EV_RINGS_CHANGED] = { MLX_EV_RINGS_CHANGED, "rings_changed", T, W,
		"the ring sizes were set (the queues were re-created: a short traffic stop)",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool -G`)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_RINGS_NTF" },
	[MLX_EV_CHANNELS_CHANGED] = { MLX_EV_CHANNELS_CHANGED, "channels_changed", T, W,
		"the number of channels (queues) was set (the queues were re-created; RSS spreads over the new count)",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool -L`)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_CHANNELS_NTF" },
	[MLX_EV_COALESCE_CHANGED] = { MLX_EV_COALESCE_CHANGED, "coalesce_changed", T, N,
		"the interrupt coalescing (adaptive moderation, usecs, frames) was set",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool -C`)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_COALESCE_NTF" },
	[MLX_EV_PAUSE_CHANGED] = { MLX_EV_PAUSE_CHANGED, "pause_changed", T, W,
		"the port's global pause (flow control) was set: RoCE without PFC needs it on both ends",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool -A`; with PFC, `mlxcli show qos`)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_PAUSE_NTF" },
	[MLX_EV_EEE_CHANGED] = { MLX_EV_EEE_CHANGED, "eee_changed", T, N,
		"Energy-Efficient Ethernet settings were set",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool --set-eee`)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_EEE_NTF" },
	[MLX_EV_FEC_CHANGED] = { MLX_EV_FEC_CHANGED, "fec_changed", T, W,
		"the port's forward error correction mode was set (it must match the peer's, or the link stays down)",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool --set-fec`; `mlxcli link` shows the active mode)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_FEC_NTF" },
	[MLX_EV_MODULE_POWER_CHANGED] = { MLX_EV_MODULE_POWER_CHANGED, "module_power_changed", T, N,
		"the module's power mode policy was set",
		"none if it was planned; the kernel does not say who did it: match the time with "
		"the administrators' actions (the change: `ethtool --set-module power-mode-policy`)", NULL, MLX_DUMP_NONE, NULL,
		EM "ETHTOOL_MSG_MODULE_NTF" },
};

const struct mlx_ev_kind_info *mlx_ev_catalogue(size_t *n)
{
	*n = MLX_EV_NKINDS - 1;
	return &catalogue[1];
}

const struct mlx_ev_kind_info *mlx_ev_kind_info(enum mlx_ev_kind k)
{
	return k > MLX_EV_NONE && k < MLX_EV_NKINDS ? &catalogue[k] : NULL;
}

const char *mlx_ev_source_str(enum mlx_ev_source s)
{
	static const char *const names[] = { "kmsg", "rtnetlink", "devlink", "monitor", "ethtool" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

const char *mlx_ev_severity_str(enum mlx_ev_severity s)
{
	static const char *const names[] = { "info", "notice", "warning", "error", "critical" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

static const char *const field_keys[MLX_EVF_N] = {
	[MLX_EVF_QUEUE] = "queue_index", [MLX_EVF_CQN] = "cqn", [MLX_EVF_QPN] = "qpn",
	[MLX_EVF_SQN] = "sqn", [MLX_EVF_RQN] = "rqn", [MLX_EVF_EQN] = "eqn",
	[MLX_EVF_CI] = "consumer_index", [MLX_EVF_PI] = "producer_index",
	[MLX_EVF_OPCODE] = "opcode", [MLX_EVF_SYNDROME] = "syndrome",
	[MLX_EVF_VENDOR_SYNDROME] = "vendor_syndrome", [MLX_EVF_FW_OPCODE] = "fw_opcode",
	[MLX_EVF_FW_OP_MOD] = "fw_op_mod", [MLX_EVF_FW_STATUS] = "fw_status",
	[MLX_EVF_FW_SYNDROME] = "fw_syndrome", [MLX_EVF_CMD_INDEX] = "cmd_index",
	[MLX_EVF_ERRNO] = "errno", [MLX_EVF_MODULE] = "module", [MLX_EVF_POWER_W] = "power_w",
	[MLX_EVF_BANDWIDTH_MBPS] = "bandwidth_mbps", [MLX_EVF_LINK_WIDTH] = "link_width",
	[MLX_EVF_SENSOR_BITS_HIGH] = "sensor_bits_high",
	[MLX_EVF_SENSOR_BITS_LOW] = "sensor_bits_low",
	[MLX_EVF_HEALTH_SYNDROME] = "health_syndrome",
	[MLX_EVF_HEALTH_EXT_SYNDROME] = "health_ext_syndrome",
	[MLX_EVF_FATAL_ERROR] = "fatal_error", [MLX_EVF_NIC_MODE] = "nic_mode",
	[MLX_EVF_DELAY_MS] = "delay_msec", [MLX_EVF_TIME_SINCE_TX_US] = "since_last_tx_usec",
	[MLX_EVF_EQES] = "eqes", [MLX_EVF_IRQN] = "irqn", [MLX_EVF_CPU] = "cpu",
	[MLX_EVF_TIMEOUT_MS] = "timeout_msec", [MLX_EVF_CARRIER_CHANGES] = "carrier_changes",
	[MLX_EVF_IFINDEX] = "ifindex", [MLX_EVF_ERR_COUNT] = "error_count",
	[MLX_EVF_RECOVER_COUNT] = "recover_count", [MLX_EVF_LOST] = "records_lost",
	[MLX_EVF_DELTA] = "delta", [MLX_EVF_TOTAL] = "total",
	[MLX_EVF_RDMA_PORT] = "rdma_port", [MLX_EVF_QP_TYPE] = "qp_type", [MLX_EVF_WC_STATUS] = "wc_status",
	[MLX_EVF_GID_INDEX] = "gid_index", [MLX_EVF_HW_SYNDROME_TYPE] = "hw_syndrome_type",
	[MLX_EVF_HW_ERROR_SYNDROME] = "hw_error_syndrome",
	[MLX_EVF_MTU] = "mtu", [MLX_EVF_MASTER_IFINDEX] = "master_ifindex", [MLX_EVF_NUM_VFS] = "num_vfs",
	[MLX_EVF_VF] = "vf",
	[MLX_EVF_LANE] = "lane_number",
	[MLX_EVF_TIMEOUT_USEC] = "timeout_usec",
};

const char *mlx_ev_field_key(enum mlx_ev_field f)
{
	return (unsigned)f < MLX_EVF_N ? field_keys[f] : NULL;
}

bool mlx_ev_field_is_hex(enum mlx_ev_field f)
{
	switch (f) {
	case MLX_EVF_CQN: case MLX_EVF_QPN: case MLX_EVF_SQN: case MLX_EVF_RQN:
	case MLX_EVF_EQN: case MLX_EVF_CI: case MLX_EVF_PI: case MLX_EVF_OPCODE:
	case MLX_EVF_SYNDROME: case MLX_EVF_VENDOR_SYNDROME: case MLX_EVF_FW_OPCODE:
	case MLX_EVF_FW_OP_MOD: case MLX_EVF_FW_STATUS: case MLX_EVF_FW_SYNDROME:
	case MLX_EVF_SENSOR_BITS_HIGH: case MLX_EVF_SENSOR_BITS_LOW:
	case MLX_EVF_HEALTH_SYNDROME: case MLX_EVF_HEALTH_EXT_SYNDROME: case MLX_EVF_IRQN:
	case MLX_EVF_HW_SYNDROME_TYPE: case MLX_EVF_HW_ERROR_SYNDROME:
		return true;
	default:
		return false;
	}
}
