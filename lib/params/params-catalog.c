/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The catalogue of mlx5's knobs on Linux (issue 17): one row per knob.
 *
 * Defaults and where they come from:
 *  - en.h / en/params.h: MLX5E_PARAMS_DEFAULT_LOG_{RQ,SQ}_SIZE 0xa (1024
 *    entries), MLX5E_PARAMS_MAXIMUM_LOG_{RQ,SQ}_SIZE 0xd (8192),
 *    MLX5E_PARAMS_MINIMUM_LOG_{RQ,SQ}_SIZE 0x6 (64); CQ moderation
 *    MLX5E_PARAMS_DEFAULT_{RX,TX}_CQ_MODERATION_{USEC 0x10, PKTS 0x20},
 *    RX usec 0x3 when counted from the CQE;
 *  - en_main.c mlx5e_build_nic_params(): skb_tx_mpwqe and xdp_tx_mpwqe on
 *    where mlx5e_tx_mpwqe_supported(), rx_cqe_compress_def false (the
 *    slow-PCIe heuristic turns it on), rx_no_csum_complete false, rx/tx
 *    DIM (adaptive moderation) on with the cq_moderation capability;
 *  - Documentation/networking/devlink/mlx5.rst: the devlink parameters,
 *    their cmodes and ranges (fdb_large_groups default 15);
 *  - the captures in ../shared/fixtures/ethtool (ConnectX-4 Lx on 6.8:
 *    ethtool -k -g -c -l; ConnectX-5 Ex upstream 6.4: private flags;
 *    MLNX_OFED 4.9 modinfo -p mlx5_core).
 * Where the driver computes the default from the host (channels: the
 * number of CPUs) or DIM overwrites it at run time, the default is NULL
 * ("unknown") and dflt_from says why: a --diff must not flag it.
 *
 * Windows keys: reference/seeds-mlxtool-dmn-counters.md §7.2 and
 * reference/seeds-winof2-dumps-events.md (WinOF-2 registry keys).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <linux/ethtool_netlink.h>

#include "params.h"

static const char *const onoff[] = { "on", "off", NULL };
static const char *const truefalse[] = { "true", "false", NULL };
static const char *const fs_modes[] = { "dmfs", "smfs", "hmfs", NULL };
/* lib/nv_param.c cqe_compress_str[]: the validate takes these two only */
static const char *const cqe_compress_types[] = { "balanced", "aggressive", NULL };
/* cma_configfs.c default_roce_mode_store() takes what
 * ib_cache_gid_parse_type_str() (cache.c) finds in gid_type_str[]: these
 * two names, exactly; anything else is -EINVAL from the kernel */
static const char *const roce_modes[] = { "IB/RoCE v1", "RoCE v2", NULL };

#define EN_H "drivers/net/ethernet/mellanox/mlx5/core/en.h"
#define NICP "en_main.c mlx5e_build_nic_params()"
#define KDOC "Documentation/networking/devlink/mlx5.rst"
#define CAP_K "capture: fixtures/ethtool/cx4lx-25g-pve6.8 ethtool -k"
#define CAP_P "capture: fixtures/ethtool/cx5ex-upstream-6.4rc2 show-priv-flags"
#define CAP_M "capture: fixtures/ethtool/mlx5-ofed4.9 modinfo -p"
#define OFED_P "MLNX_OFED (not upstream): off in a real MLNX_OFED host's ethtool " \
	"--show-priv-flags (13 flags); not checked in a source"

#define PRIV(n, d, from, win, text) \
	{ n, MLX_KS_PRIVFLAG, n, 0, 0, MLX_KT_BOOL, NULL, d, from, 0, 1, onoff, \
	  MLX_KA_RUNTIME, win, text }
#define FEAT(n, kn, d, win, text) \
	{ n, MLX_KS_FEATURE, kn, 0, 0, MLX_KT_BOOL, NULL, d, CAP_K, 0, 1, onoff, \
	  MLX_KA_RUNTIME, win, text }
#define ATTR(n, s, a, ma, unit, d, from, lo, hi, win, text) \
	{ n, s, NULL, a, ma, MLX_KT_U32, unit, d, from, lo, hi, NULL, MLX_KA_RUNTIME, win, text }
/* a ring or a channel count: the device reports its maximum; min..max are mlx5's */
#define DATTR(n, s, a, ma, unit, d, from, lo, hi, win, text) \
	{ n, s, NULL, a, ma, MLX_KT_U32, unit, d, from, lo, hi, NULL, MLX_KA_RUNTIME, win, text, \
	  MLX_KF_RANGE_MLX5 }
#define AFLAG(n, s, a, d, from, win, text) \
	{ n, s, NULL, a, 0, MLX_KT_BOOL, NULL, d, from, 0, 1, onoff, MLX_KA_RUNTIME, win, text }
#define DL(n, t, unit, d, from, lo, hi, ch, apply, win, text) \
	{ n, MLX_KS_DEVLINK, n, 0, 0, t, unit, d, from, lo, hi, ch, apply, win, text }
#define MOD(n, t, d, from, lo, hi, text) \
	{ n, MLX_KS_MODULE, n, 0, 0, t, NULL, d, from, lo, hi, NULL, MLX_KA_RELOAD, NULL, text }

const struct mlx_knob mlx_knobs[] = {
	/* private flags (en_ethtool.c mlx5e_priv_flags[]) */
	PRIV("rx_cqe_moder", "on", NICP " (cq_period_start_from_cqe cap); " CAP_P, NULL,
	     "RX completion moderation counts from the first CQE (else from the EQE)"),
	PRIV("tx_cqe_moder", "off", NICP "; " CAP_P, NULL,
	     "TX completion moderation counts from the first CQE"),
	PRIV("rx_cqe_compress", "off", NICP " (rx_cqe_compress_def false; on for slow PCIe); "
	     CAP_P, NULL, "RX CQE compression: saves PCIe bandwidth at a CPU cost"),
	PRIV("rx_striding_rq", "on", NICP " (when the device supports striding RQ); " CAP_P, NULL,
	     "multi-packet (striding) receive queues"),
	PRIV("rx_no_csum_complete", "off", NICP "; " CAP_P, NULL,
	     "report CHECKSUM_UNNECESSARY instead of CHECKSUM_COMPLETE"),
	PRIV("xdp_tx_mpwqe", "on", NICP " (mlx5e_tx_mpwqe_supported); " CAP_P, NULL,
	     "multi-packet WQEs on XDP transmit queues"),
	PRIV("skb_tx_mpwqe", "on", NICP " (mlx5e_tx_mpwqe_supported); " CAP_P, NULL,
	     "multi-packet WQEs on the regular transmit queues"),
	PRIV("tx_port_ts", "off", NICP "; " CAP_P, NULL,
	     "TX timestamps taken at the port (PTP accuracy) instead of the CQE"),
	PRIV("dropless_rq", "off", "MLNX_OFED documentation (driver default off); not checked in a source or capture", "DelayDropTimeout",
	     "MLNX_OFED: dropless receive queues: when no receive buffer is free the "
	     "device waits (back-pressure) instead of dropping (Windows: dropless mode)"),
	PRIV("per_channel_stats", "on", "MLNX_OFED documentation (driver default on); not checked in a source or capture", NULL,
	     "MLNX_OFED: per-channel counters in ethtool -S"),
	/* MLNX_OFED 5.x's other three (not upstream): off in a real MLNX_OFED
	 * host's --show-priv-flags of 13 flags (the listing issue 25 names);
	 * the meaning is MLNX_OFED's release notes' and ethtool page's */
	PRIV("tx_cqe_compress", "off", OFED_P, NULL,
	     "MLNX_OFED: TX CQE compression: send completions coalesced into fewer PCIe "
	     "writes (the tx_cqe_compress_* counters), at a CPU cost"),
	PRIV("tx_xdp_hw_checksum", "off", OFED_P, NULL,
	     "MLNX_OFED: the device computes the checksum of packets an XDP program "
	     "transmits (XDP_TX), which XDP cannot ask per packet"),
	PRIV("skb_xmit_more", "off", OFED_P, NULL,
	     "MLNX_OFED: honour the stack's xmit_more hint: ring the doorbell once for "
	     "a burst of packets instead of once each"),

	/* rings (ethtool -g; en/params.c, en.h log sizes) */
	DATTR("rx_ring", MLX_KS_RING, ETHTOOL_A_RINGS_RX, ETHTOOL_A_RINGS_RX_MAX, "entries", "1024",
	     EN_H " MLX5E_PARAMS_DEFAULT_LOG_RQ_SIZE 0xa", 64, 0,
	     "*ReceiveBuffers; RfdReservationFactor (packet burst)",
	     "receive ring size: a bigger ring absorbs a longer packet burst"),
	DATTR("tx_ring", MLX_KS_RING, ETHTOOL_A_RINGS_TX, ETHTOOL_A_RINGS_TX_MAX, "entries", "1024",
	     EN_H " MLX5E_PARAMS_DEFAULT_LOG_SQ_SIZE 0xa", 64, 0, "*TransmitBuffers",
	     "transmit ring size"),

	/* channels (ethtool -l) */
	DATTR("combined_channels", MLX_KS_CHANNEL, ETHTOOL_A_CHANNELS_COMBINED_COUNT,
	     ETHTOOL_A_CHANNELS_COMBINED_MAX, "queues", NULL,
	     "unknown: the driver picks it from the host's CPUs (netif_get_num_default_rss_queues)",
	     1, 0, "*NumRSSQueues", "combined RX/TX queue pairs (RSS queues)"),

	/* separate RX and TX queues: mlx5 has combined ones only (the kernel
	 * leaves out a kind whose maximum is 0: net/ethtool/channels.c) */
	DATTR("rx_channels", MLX_KS_CHANNEL, ETHTOOL_A_CHANNELS_RX_COUNT, ETHTOOL_A_CHANNELS_RX_MAX,
	     "queues", NULL, "unknown: not an mlx5 knob (other drivers, veth)", 0, 0, NULL,
	     "receive-only queues"),
	DATTR("tx_channels", MLX_KS_CHANNEL, ETHTOOL_A_CHANNELS_TX_COUNT, ETHTOOL_A_CHANNELS_TX_MAX,
	     "queues", NULL, "unknown: not an mlx5 knob (other drivers, veth)", 0, 0, NULL,
	     "transmit-only queues"),

	/* coalescing (ethtool -c) */
	AFLAG("adaptive_rx", MLX_KS_COALESCE, ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, "on",
	      NICP " (rx_dim_enabled = cq_moderation cap); " CAP_K,
	      "RxIntModeration (2 adaptive)", "adaptive RX interrupt moderation (DIM)"),
	AFLAG("adaptive_tx", MLX_KS_COALESCE, ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, "on",
	      NICP " (tx_dim_enabled = cq_moderation cap); " CAP_K,
	      "TxIntModerationProfile", "adaptive TX interrupt moderation (DIM)"),
	ATTR("rx_usecs", MLX_KS_COALESCE, ETHTOOL_A_COALESCE_RX_USECS, 0, "microseconds", NULL,
	     "unknown: adaptive moderation sets it at run time; static default 16 us, 3 us from "
	     "the CQE (" EN_H ")", 0, 4095, "RxIntModerationProfile",
	     "RX interrupt delay"),
	ATTR("rx_frames", MLX_KS_COALESCE, ETHTOOL_A_COALESCE_RX_MAX_FRAMES, 0, "packets", NULL,
	     "unknown: adaptive moderation sets it at run time; static default 32 (" EN_H ")",
	     0, 65535, "RxIntModerationProfile", "RX completions per interrupt"),
	ATTR("tx_usecs", MLX_KS_COALESCE, ETHTOOL_A_COALESCE_TX_USECS, 0, "microseconds", NULL,
	     "unknown: adaptive moderation sets it at run time; static default 16 us (" EN_H ")",
	     0, 4095, "TxIntModerationProfile", "TX interrupt delay"),
	ATTR("tx_frames", MLX_KS_COALESCE, ETHTOOL_A_COALESCE_TX_MAX_FRAMES, 0, "packets", NULL,
	     "unknown: adaptive moderation sets it at run time; static default 32 (" EN_H ")",
	     0, 65535, "TxIntModerationProfile", "TX completions per interrupt"),
	AFLAG("cqe_mode_rx", MLX_KS_COALESCE, ETHTOOL_A_COALESCE_USE_CQE_MODE_RX, "on",
	      "follows rx_cqe_moder; " CAP_K, NULL, "RX moderation timer starts at the CQE"),
	AFLAG("cqe_mode_tx", MLX_KS_COALESCE, ETHTOOL_A_COALESCE_USE_CQE_MODE_TX, "off",
	      "follows tx_cqe_moder; " CAP_K, NULL, "TX moderation timer starts at the CQE"),

	/* features (ethtool -k; kernel names of net/ethtool/common.c).  The
	 * ones ethtool -K names (ethtool's common.c off_flag_def: rx, tx, sg,
	 * tso, gso, gro, lro, rxvlan, txvlan, ntuple, rxhash) carry ethtool's
	 * pattern and set every feature it matches, as ethtool does: tso is
	 * tx-tcp-segmentation, tx-tcp-ecn-segmentation,
	 * tx-tcp-mangleid-segmentation and tx-tcp6-segmentation */
	FEAT("rx_checksum", "rx-checksum", "on", "*TCPUDPChecksumOffloadIPv4/IPv6 (Rx)",
	     "receive checksum offload (ethtool -K rx)"),
	FEAT("tx_checksum", "tx-checksum-*", "on", "*TCPUDPChecksumOffloadIPv4/IPv6 (Tx)",
	     "transmit checksum offload, every tx-checksum-* feature (ethtool -K tx)"),
	FEAT("scatter_gather", "tx-scatter-gather*", "on", NULL,
	     "transmit scatter-gather, every tx-scatter-gather* feature (ethtool -K sg)"),
	FEAT("tso", "tx-tcp*-segmentation", "on", "*LsoV2IPv4",
	     "TCP segmentation offload, every tx-tcp*-segmentation feature: IPv4, IPv6, ECN, "
	     "mangle-ID (ethtool -K tso)"),
	FEAT("tso6", "tx-tcp6-segmentation", "on", "*LsoV2IPv6",
	     "TCP segmentation offload of IPv6 alone (a member of tso)"),
	FEAT("gso", "tx-generic-segmentation", "on", NULL,
	     "generic segmentation offload (ethtool -K gso)"),
	FEAT("gro", "rx-gro", "on", NULL, "generic receive offload (ethtool -K gro)"),
	FEAT("lro", "rx-lro", "off", "*RscIPv4/*RscIPv6", "large receive offload (Windows RSC)"),
	FEAT("gro_hw", "rx-gro-hw", "off", "*RscIPv4/*RscIPv6", "hardware GRO (SHAMPO)"),
	FEAT("rx_vlan_offload", "rx-vlan-hw-parse", "on", "*PriorityVLANTag",
	     "strip VLAN tags on receive (ethtool -K rxvlan)"),
	FEAT("tx_vlan_offload", "tx-vlan-hw-insert", "on", "*PriorityVLANTag",
	     "insert VLAN tags on transmit (ethtool -K txvlan)"),
	FEAT("rx_vlan_filter", "rx-vlan-filter", "on", NULL, "VLAN filtering in hardware"),
	FEAT("ntuple", "rx-ntuple-filter", "off", NULL, "n-tuple receive filters (ethtool -N)"),
	FEAT("rxhash", "rx-hashing", "on", "*RSS", "receive hashing (RSS)"),
	FEAT("rx_fcs", "rx-fcs", "off", NULL, "keep the FCS on received frames"),
	FEAT("rx_all", "rx-all", "off", NULL, "receive frames with errors"),
	FEAT("tx_udp_segmentation", "tx-udp-segmentation", "on", NULL, "UDP segmentation offload"),
	FEAT("hw_tc_offload", "hw-tc-offload", "off", NULL, "tc flower offload"),

	/* MTU */
	/* MTU: the range is the device's (IFLA_MIN_MTU, IFLA_MAX_MTU); 68..9978
	 * is mlx5's where a capture has no such reply (en_main.c: the port's
	 * maximum MTU, 9978 on ConnectX-4 and later) */
	{ "mtu", MLX_KS_MTU, NULL, 0, 0, MLX_KT_U32, "bytes", "1500",
	  "the Ethernet default (ether_setup)", 68, 9978, NULL, MLX_KA_RUNTIME,
	  "*JumboPacket (the frame: MTU + 14)", "the netdev's MTU",
	  MLX_KF_DFLT_ANY | MLX_KF_RANGE_MLX5 },

	/* devlink parameters (Documentation/networking/devlink/mlx5.rst) */
	DL("flow_steering_mode", MLX_KT_STRING, NULL, "dmfs", KDOC, 0, 0, fs_modes, MLX_KA_RUNTIME,
	   NULL, "flow steering: dmfs (firmware managed), smfs (software), hmfs (hardware)"),
	DL("enable_roce", MLX_KT_BOOL, NULL, "true", KDOC " (KERNELDOC example)", 0, 1, truefalse,
	   MLX_KA_RELOAD, "roce_mode (4 = No RoCE)", "RoCE on this function"),
	DL("enable_eth", MLX_KT_BOOL, NULL, "true", "net/devlink generic parameter, registered true by mlx5 devlink.c; not checked in a capture", 0, 1,
	   truefalse, MLX_KA_RELOAD, NULL, "the Ethernet auxiliary device"),
	DL("enable_rdma", MLX_KT_BOOL, NULL, "true", "net/devlink generic parameter, registered true by mlx5 devlink.c; not checked in a capture", 0, 1,
	   truefalse, MLX_KA_RELOAD, NULL, "the RDMA auxiliary device"),
	DL("enable_vnet", MLX_KT_BOOL, NULL, "true", "net/devlink generic parameter, registered true by mlx5 devlink.c; not checked in a capture", 0, 1,
	   truefalse, MLX_KA_RELOAD, NULL, "the vDPA auxiliary device"),
	DL("io_eq_size", MLX_KT_U32, "entries", NULL, "unknown (" KDOC " gives the range only)",
	   64, 4096, NULL, MLX_KA_RELOAD, NULL, "completion event queue size"),
	DL("event_eq_size", MLX_KT_U32, "entries", NULL, "unknown (" KDOC " gives the range only)",
	   64, 4096, NULL, MLX_KA_RELOAD, NULL, "asynchronous event queue size"),
	DL("max_macs", MLX_KT_U32, NULL, NULL, "unknown (" KDOC " gives the range only)", 1,
	   2147483648u, NULL, MLX_KA_RELOAD, "MaxNumOfMCList (nearest)",
	   "MAC addresses per function (a power of 2)"),
	DL("fdb_large_groups", MLX_KT_U32, NULL, "15", KDOC, 1, 1024, NULL, MLX_KA_RELOAD, NULL,
	   "large groups in the eswitch FDB table"),
	DL("esw_port_metadata", MLX_KT_BOOL, NULL, "true", KDOC " (KERNELDOC example)", 0, 1,
	   truefalse, MLX_KA_RUNTIME, NULL, "eswitch port metadata (switchdev)"),
	DL("esw_multiport", MLX_KT_BOOL, NULL, "false", KDOC, 0, 1, truefalse, MLX_KA_RUNTIME, NULL,
	   "multiport eswitch (shared FDB)"),
	DL("hairpin_num_queues", MLX_KT_U32, "queues", NULL,
	   "unknown (the KERNELDOC example shows 2)", 1, 0, NULL, MLX_KA_RELOAD, NULL,
	   "hairpin queues"),
	DL("hairpin_queue_size", MLX_KT_U32, "entries", NULL,
	   "unknown (the KERNELDOC example shows 1024)", 1, 0, NULL, MLX_KA_RELOAD, NULL,
	   "hairpin queue size"),
	DL("enable_remote_dev_reset", MLX_KT_BOOL, NULL, "true",
	   "net/devlink generic parameter, registered true by mlx5 devlink.c; not checked in a capture", 0, 1, truefalse, MLX_KA_RUNTIME, NULL,
	   "allow a firmware reset requested by another PF"),
	/* firmware NV settings (devlink cmode permanent, issue 27): mlx5
	 * registers them on a PF from Linux 6.17 (lib/nv_param.c, the MNVDA
	 * register: mlxconfig's SRIOV_EN and NUM_OF_VFS); written to NV at
	 * once, in effect after a firmware reset.  total_vfs: mlx5's validate
	 * compares the value as a u16 with the firmware's max_vfs_per_pf
	 * (when the firmware reports one; else the write may still fail):
	 * mlxcli's range is the u16's, the device's maximum is the kernel's
	 * to refuse (its extack says it) */
	DL("enable_sriov", MLX_KT_BOOL, NULL, NULL, "unknown: firmware configuration", 0, 1,
	   truefalse, MLX_KA_FIRMWARE, "SR-IOV (Set-NetAdapterSriov)", "SR-IOV in firmware"),
	DL("total_vfs", MLX_KT_U32, "count", NULL, "unknown: firmware configuration", 0, 65535,
	   NULL, MLX_KA_FIRMWARE, NULL, "VFs the firmware offers"),
	DL("cqe_compress_type", MLX_KT_STRING, NULL, NULL, "unknown: firmware configuration", 0, 0,
	   cqe_compress_types, MLX_KA_FIRMWARE, NULL,
	   "RX CQE compression in firmware NV: balanced or aggressive"),

	/* module parameters of mlx5_core (modinfo -p mlx5_core) */
	/* debug_mask is mode 0644 in main.c: written at run time */
	{ "debug_mask", MLX_KS_MODULE, "debug_mask", 0, 0, MLX_KT_U32, NULL, "0",
	  "main.c module_param debug_mask; " CAP_M " (Default=0)", 0, 3, NULL, MLX_KA_RUNTIME,
	  NULL, "1 dump command data, 2 command execution time, 3 both" },
	MOD("prof_sel", MLX_KT_U32, "2", "main.c prof_sel = MLX5_DEFAULT_PROF (2); " CAP_M " (range)",
	    0, 3, "resource profile"),
	MOD("probe_vf", MLX_KT_BOOL, "1", CAP_M " (Default = 1)", 0, 1,
	    "MLNX_OFED: probe VFs on the host"),
	MOD("num_of_groups", MLX_KT_U32, "4", CAP_M " (Default 4)", 1, 1024,
	    "MLNX_OFED: eswitch offloads big groups in the FDB"),

	/* RDMA: rdma_cm's default RoCE mode (configfs) */
	{ "roce_mode", MLX_KS_RDMA, "default_roce_mode", 0, 0, MLX_KT_STRING, NULL, "RoCE v2",
	  "drivers/infiniband/core/cma_configfs.c (the GID type of the highest RoCE version)",
	  0, 0, roce_modes, MLX_KA_RUNTIME, "roce_mode (2 = RoCE v2)", "RoCE mode of rdma_cm",
	  MLX_KF_DFLT_ANY },
	{ "roce_tos", MLX_KS_RDMA, "default_roce_tos", 0, 0, MLX_KT_U32, NULL, "0",
	  "drivers/infiniband/core/cma_configfs.c", 0, 255, NULL, MLX_KA_RUNTIME, NULL,
	  "ToS of rdma_cm's RoCE connections", MLX_KF_DFLT_ANY },
	/* MLNX_OFED's mlx5_ib: /sys/class/infiniband/<dev>/tc/<port>/traffic_class
	 * reads "Global tclass=N" once written, empty before (then each QP's
	 * own traffic class applies): the value "unset" */
	{ "traffic_class", MLX_KS_RDMA, "traffic_class", 0, 0, MLX_KT_U32, NULL, "unset",
	  "MLNX_OFED mlx5_ib tc sysfs: empty until written; capture: fixtures/dcqcn/"
	  "mlx5-sysfs-tc1-traffic_class-global-tclass.txt (\"Global tclass=106\" after echo 106)",
	  0, 255, NULL, MLX_KA_RUNTIME, "PriorityToDscpMappingTable_<ID> (nearest: the RoCE DSCP)",
	  "MLNX_OFED: the traffic class (DSCP << 2 | ECN) of every RoCE QP of the port" },

	/* issue 27 (pfctout): the ethtool tunable and threaded NAPI
	 * (lib/params/params-tunable.c).  The PFC storm prevention timeout:
	 * 0 off, 80..8000 ms or auto (65535, which mlx5 stores as 100 ms);
	 * its default is the firmware's PFCC stall watermark, which no source
	 * gives.  threaded: off unless a driver turns it on at probe (mlx5
	 * does not: no dev_set_threaded in drivers/net/ethernet/mellanox). */
	{ "pfc_prevention_tout_msec", MLX_KS_TUNABLE, "pfc-prevention-tout", 0, 0, MLX_KT_U32,
	  "milliseconds", NULL, "unknown: the firmware's PFCC stall watermark (port.c "
	  "mlx5_query_port_stall_watermark reads it; no source or capture gives its default)",
	  0, 65535, NULL, MLX_KA_RUNTIME, "DeviceRxStallTimeout",
	  "PFC storm prevention: after this many ms of a stalled receive the port stops "
	  "sending pause frames (0 off, 80-8000, auto: 65535, which mlx5 takes as 100)" },
	{ "threaded", MLX_KS_NAPI, "threaded", 0, 0, MLX_KT_BOOL, NULL, "off",
	  "net/core/dev.c (threaded NAPI starts off; mlx5 never turns it on)", 0, 1, onoff,
	  MLX_KA_RUNTIME, "ThreadDpcEnable; AsyncReceiveIndicate (1: threaded DPC)",
	  "threaded NAPI: the receive path runs in a kernel thread per NAPI instance "
	  "instead of softirq (Windows: threaded DPC)" },
};
const size_t mlx_nknobs = sizeof(mlx_knobs) / sizeof(mlx_knobs[0]);

static const char *const source_names[MLX_KS_NSOURCES] = {
	"privflag", "ring", "channel", "coalesce", "feature", "mtu", "devlink", "module", "rdma",
	"tunable", "napi",
};

const char *mlx_knob_source_name(enum mlx_knob_source s)
{
	return (unsigned)s < MLX_KS_NSOURCES ? source_names[s] : "?";
}

int mlx_knob_source_parse(const char *s, enum mlx_knob_source *out)
{
	for (unsigned i = 0; i < MLX_KS_NSOURCES; i++)
		if (!strcmp(s, source_names[i])) {
			*out = (enum mlx_knob_source)i;
			return 0;
		}
	return -EINVAL;
}

const char *mlx_knob_apply_name(enum mlx_knob_apply a)
{
	switch (a) {
	case MLX_KA_RUNTIME: return "runtime";
	case MLX_KA_RELOAD: return "driver-reload";
	case MLX_KA_REBOOT: return "reboot";
	case MLX_KA_FIRMWARE: return "firmware-reset";
	}
	return "?";
}

const struct mlx_knob *mlx_knob_find(const char *name)
{
	for (size_t i = 0; i < mlx_nknobs; i++)
		if (!strcmp(mlx_knobs[i].name, name))
			return &mlx_knobs[i];
	return NULL;
}

const struct mlx_knob *mlx_knob_by_kname(enum mlx_knob_source src, const char *kname)
{
	for (size_t i = 0; i < mlx_nknobs; i++)
		if (mlx_knobs[i].src == src && mlx_knobs[i].kname && !strcmp(mlx_knobs[i].kname, kname))
			return &mlx_knobs[i];
	return NULL;
}

/* ethtool's netlink/features.c flag_pattern_match: the pattern holds at
 * most one '*', which matches any (possibly empty) middle. */
bool mlx_feature_match(const char *name, const char *pattern)
{
	const char *ast = strchr(pattern, '*');
	size_t nl, pre, suf;

	if (!ast)
		return !strcmp(name, pattern);
	nl = strlen(name);
	pre = (size_t)(ast - pattern);
	suf = strlen(ast + 1);
	return nl >= pre + suf && !strncmp(name, pattern, pre) &&
	       !strcmp(name + nl - suf, ast + 1);
}

bool mlx_privflag_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= MLX_BIT_NAME)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

const struct mlx_knob mlx_knob_any_privflag = {
	"private_flag", MLX_KS_PRIVFLAG, NULL, 0, 0, MLX_KT_BOOL, NULL, NULL,
	"unknown: a private flag of the driver that the catalogue does not list", 0, 1, onoff,
	MLX_KA_RUNTIME, NULL, "a private flag of the driver (not in mlxcli's catalogue)",
};

/* firmware NV settings the catalogue does not know (issue 27): whatever
 * permanent parameter the running kernel lists, typed by its devlink type */
const struct mlx_knob mlx_knob_any_devlink = {
	"devlink_param", MLX_KS_DEVLINK, NULL, 0, 0, MLX_KT_STRING, NULL, NULL,
	"unknown: a firmware NV setting (devlink cmode permanent) the catalogue does not list",
	0, 0, NULL, MLX_KA_FIRMWARE, NULL,
	"a devlink parameter in cmode permanent (not in mlxcli's catalogue)",
};
