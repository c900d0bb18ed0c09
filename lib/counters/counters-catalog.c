/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The counter catalogue: group, unit, width and a one-line description of
 * every counter mlxcli knows, for each source.  Pure data and a pure
 * matcher; no I/O.
 *
 * Names: mlx5 `ethtool -S` (drivers/net/ethernet/mellanox/mlx5/core/
 * en_stats.c, upstream and MLNX_OFED; meanings per Documentation/networking/
 * device_drivers/ethernet/mellanox/mlx5/counters.rst), RDMA hw_counters
 * (drivers/infiniband/hw/mlx5/counters.c), IB PMA counters/ (drivers/
 * infiniband/core/sysfs.c, widths per the IBA PortCounters attribute),
 * netdev statistics/ (net/core/net-sysfs.c), AER (drivers/pci/pcie/aer.c).
 *
 * Families with an index ("rx_prio%d_bytes") are one entry; matching
 * extracts the index as a label.  Per-channel driver counters
 * ("rx3_packets", "tx0_cqes", "ch1_poll") are not listed one by one: they
 * are the per-queue split of the driver totals ("rx_packets", ...), so
 * they take the total's entry with group "queue" and labels queue and
 * direction.  A name matching nothing is uncatalogued: shown and marked,
 * never dropped.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"

#define S_ET (1u << MLX_CSRC_ETHTOOL)
#define S_HW (1u << MLX_CSRC_HW)
#define S_IB (1u << MLX_CSRC_IB)
#define S_ND (1u << MLX_CSRC_NETDEV)

#define ERR MLX_CF_ERROR
#define DRP MLX_CF_DROP
#define CC MLX_CF_CC
#define GAU MLX_CF_GAUGE
#define PAU MLX_CF_PAUSE

/* ethtool, no index */
#define ET(p, g, u, f, d) { .pattern = p, .srcs = S_ET, .group = g, .unit = u, .flags = f, .desc = d }
/* ethtool error/drop with what it usually means */
#define ETM(p, g, u, f, d, m) { .pattern = p, .srcs = S_ET, .group = g, .unit = u, .flags = f, \
				.desc = d, .meaning = m }
/* ethtool error/drop read as u32 by en_stats.c (MLX5E_READ_CTR32_*): wraps at 2^32 */
#define ETM32(p, g, u, f, d, m) { .pattern = p, .srcs = S_ET, .group = g, .unit = u, .flags = f, \
				  .width = 32, .desc = d, .meaning = m }
/* ethtool %d family with an explicit metric */
#define ETI(p, g, u, lab, met, f, d, m) { .pattern = p, .srcs = S_ET, .group = g, .unit = u, \
					  .label = lab, .metric = met, .flags = f, .desc = d, \
					  .meaning = m }
/* ethtool, fixed label value (frame size histogram) */
#define ETL(p, lv, d) { .pattern = p, .srcs = S_ET, .group = "port", .unit = "packets", \
			.metric = "port_rx_frames_by_size", .label = "size", .lvalue = lv, .desc = d }
/* RDMA hw_counters: width 32 for the q-counters, 64 for the others */
#define HW(p, g, u, w, f, d, m) { .pattern = p, .srcs = S_HW, .group = g, .unit = u, .width = w, \
				  .flags = f, .desc = d, .meaning = m }
/* IB PMA counters/ */
#define IB(p, u, w, sc, f, d, m) { .pattern = p, .srcs = S_IB, .group = "rdma", .unit = u, \
				   .width = w, .scale = sc, .flags = f, .desc = d, .meaning = m, \
				   .metric = "ib_" p }
/* netdev statistics/ */
#define ND(p, u, f, d, m) { .pattern = p, .srcs = S_ND, .group = "netdev", .unit = u, .flags = f, \
			    .desc = d, .meaning = m }

static const struct mlx_cat catalog[] = {
	/* ---- driver software counters (en_stats.c sw group) ---- */
	ET("rx_packets", "driver", "packets", 0, "packets received by the driver"),
	ET("rx_bytes", "driver", "bytes", 0, "bytes received by the driver"),
	ET("tx_packets", "driver", "packets", 0, "packets transmitted by the driver"),
	ET("tx_bytes", "driver", "bytes", 0, "bytes transmitted by the driver"),
	ET("tx_tso_packets", "driver", "packets", 0, "TSO packets transmitted"),
	ET("tx_tso_bytes", "driver", "bytes", 0, "TSO bytes transmitted"),
	ET("tx_tso_inner_packets", "driver", "packets", 0, "TSO packets with inner (tunnelled) headers transmitted"),
	ET("tx_tso_inner_bytes", "driver", "bytes", 0, "TSO bytes with inner (tunnelled) headers transmitted"),
	ET("tx_added_vlan_packets", "driver", "packets", 0, "packets transmitted with a VLAN tag inserted by hardware"),
	ET("tx_nop", "driver", "events", 0, "NOP work requests posted to send queues"),
	ET("tx_mpwqe_blks", "driver", "events", 0, "multi-packet send WQE blocks posted"),
	ET("tx_mpwqe_pkts", "driver", "packets", 0, "packets sent through multi-packet send WQEs"),
	ET("tx_tls_encrypted_packets", "driver", "packets", 0, "kTLS packets encrypted by the device"),
	ET("tx_tls_encrypted_bytes", "driver", "bytes", 0, "kTLS bytes encrypted by the device"),
	ET("tx_tls_ooo", "driver", "events", 0, "kTLS out-of-order packets needing resync"),
	ET("tx_tls_dump_packets", "driver", "packets", 0, "kTLS resync dump packets sent"),
	ET("tx_tls_dump_bytes", "driver", "bytes", 0, "kTLS resync dump bytes sent"),
	ET("tx_tls_resync_bytes", "driver", "bytes", 0, "kTLS bytes resent for resync"),
	ET("tx_tls_skip_no_sync_data", "driver", "events", 0, "kTLS resyncs skipped (no sync data)"),
	ETM("tx_tls_drop_no_sync_data", "driver", "packets", DRP, "kTLS packets dropped for lack of sync data", "kTLS record state lost; check the TLS offload"),
	ETM("tx_tls_drop_bypass_req", "driver", "packets", DRP, "kTLS packets dropped (bypass requested)", "kTLS offload bypass; usually benign"),
	ET("rx_lro_packets", "driver", "packets", 0, "LRO-aggregated packets received"),
	ET("rx_lro_bytes", "driver", "bytes", 0, "LRO-aggregated bytes received"),
	ET("rx_gro_packets", "driver", "packets", 0, "packets received through hardware GRO"),
	ET("rx_gro_bytes", "driver", "bytes", 0, "bytes received through hardware GRO"),
	ET("rx_gro_skbs", "driver", "events", 0, "skbs built by hardware GRO"),
	ET("rx_gro_large_hds", "driver", "packets", 0, "hardware GRO packets with a header too large for header-data split"),
	ET("rx_hds_nodata_packets", "driver", "packets", 0, "header-data split packets with no data part"),
	ET("rx_hds_nodata_bytes", "driver", "bytes", 0, "bytes of header-data split packets with no data part"),
	ET("rx_hds_nosplit_packets", "driver", "packets", 0, "packets received without header-data split"),
	ET("rx_hds_nosplit_bytes", "driver", "bytes", 0, "bytes received without header-data split"),
	ET("rx_ecn_mark", "congestion", "packets", CC, "received packets with the ECN CE mark"),
	ET("rx_removed_vlan_packets", "driver", "packets", 0, "packets received with the VLAN tag stripped by hardware"),
	ET("rx_csum_unnecessary", "driver", "packets", 0, "packets with a checksum verified by hardware"),
	ET("rx_csum_none", "driver", "packets", 0, "packets received with no hardware checksum"),
	ET("rx_csum_complete", "driver", "packets", 0, "packets received with CHECKSUM_COMPLETE"),
	ET("rx_csum_complete_tail", "driver", "packets", 0, "CHECKSUM_COMPLETE packets with a padding tail fixed up"),
	ET("rx_csum_complete_tail_slow", "driver", "packets", 0, "CHECKSUM_COMPLETE tail fix-ups on the slow path"),
	ET("rx_csum_unnecessary_inner", "driver", "packets", 0, "tunnelled packets with the inner checksum verified by hardware"),
	ETM("rx_xdp_drop", "driver", "packets", DRP, "packets dropped by an XDP program", "the XDP program chose XDP_DROP: by design"),
	ET("rx_xdp_redirect", "driver", "packets", 0, "packets redirected by an XDP program"),
	ET("rx_xdp_tx_xmit", "driver", "packets", 0, "XDP_TX packets transmitted"),
	ET("rx_xdp_tx_mpwqe", "driver", "events", 0, "XDP_TX multi-packet WQEs"),
	ET("rx_xdp_tx_inlnw", "driver", "events", 0, "XDP_TX inline WQEs"),
	ET("rx_xdp_tx_nops", "driver", "events", 0, "XDP_TX NOP WQEs"),
	ETM("rx_xdp_tx_full", "driver", "packets", DRP, "XDP_TX packets dropped: send queue full", "the XDP_TX queue is too small or the peer too slow"),
	ETM("rx_xdp_tx_err", "driver", "packets", ERR, "XDP_TX packets that failed", "XDP transmit errors"),
	ET("rx_xdp_tx_cqe", "driver", "events", 0, "XDP_TX completions"),
	ET("rx_xdp_tx", "driver", "packets", 0, "XDP_TX packets (older kernels)"),
	ET("tx_csum_none", "driver", "packets", 0, "packets transmitted without checksum offload"),
	ET("tx_csum_partial", "driver", "packets", 0, "packets transmitted with checksum offload"),
	ET("tx_csum_partial_inner", "driver", "packets", 0, "tunnelled packets with inner checksum offload"),
	ETM("tx_queue_stopped", "driver", "events", DRP, "times a send queue was full and stopped", "the send queue filled: traffic exceeds the ring or the link is paused"),
	ETM("tx_queue_dropped", "driver", "packets", DRP, "packets dropped because a send queue was full or down", "transmit overload, or the port went down"),
	ET("tx_xmit_more", "driver", "packets", 0, "packets sent with xmit_more (doorbell batching)"),
	ETM("tx_recover", "driver", "events", ERR, "send queue recoveries after an error", "a send queue hit an error CQE and was reset"),
	ET("tx_cqes", "driver", "events", 0, "send completions"),
	ET("tx_queue_wake", "driver", "events", 0, "times a stopped send queue was woken"),
	ETM("tx_cqe_err", "driver", "events", ERR, "send completions with an error", "a malformed WQE or a device error; see dmesg"),
	ET("tx_timestamps", "driver", "packets", 0, "packets transmitted with a hardware timestamp"),
	ET("tx_xdp_xmit", "driver", "packets", 0, "XDP_REDIRECT packets transmitted"),
	ET("tx_xdp_mpwqe", "driver", "events", 0, "XDP_REDIRECT multi-packet WQEs"),
	ET("tx_xdp_inlnw", "driver", "events", 0, "XDP_REDIRECT inline WQEs"),
	ET("tx_xdp_nops", "driver", "events", 0, "XDP_REDIRECT NOP WQEs"),
	ETM("tx_xdp_full", "driver", "packets", DRP, "XDP_REDIRECT packets dropped: queue full", "the XDP send queue is too small"),
	ETM("tx_xdp_err", "driver", "packets", ERR, "XDP_REDIRECT packets that failed", "XDP redirect transmit errors"),
	ET("tx_xdp_cqes", "driver", "events", 0, "XDP_REDIRECT completions"),
	ET("tx_cqe_compress_blks", "driver", "events", 0, "compressed send completion blocks (MLNX_OFED)"),
	ET("tx_cqe_compress_pkts", "driver", "packets", 0, "packets in compressed send completions (MLNX_OFED)"),
	ETM("rx_wqe_err", "driver", "events", ERR, "receive WQEs completed with an error", "a receive descriptor error; see dmesg"),
	ET("rx_mpwqe_filler_cqes", "driver", "events", 0, "filler completions of striding receive queues"),
	ET("rx_mpwqe_filler_strides", "driver", "count", 0, "strides consumed by filler completions"),
	ETM("rx_oversize_pkts_sw_drop", "driver", "packets", DRP, "packets dropped by the driver: larger than the MTU buffer", "a peer sends frames above the MTU"),
	ETM("rx_buff_alloc_err", "driver", "events", ERR, "receive buffer allocation failures", "memory pressure on the host"),
	ET("rx_cqe_compress_blks", "driver", "events", 0, "compressed receive completion blocks"),
	ET("rx_cqe_compress_pkts", "driver", "packets", 0, "packets in compressed receive completions"),
	ET("rx_cache_reuse", "driver", "events", 0, "receive pages reused from the driver page cache"),
	ET("rx_cache_full", "driver", "events", 0, "pages released because the page cache was full"),
	ET("rx_cache_empty", "driver", "events", 0, "page cache empty: new page allocated"),
	ET("rx_cache_busy", "driver", "events", 0, "page cache head still in use: new page allocated"),
	ET("rx_cache_waive", "driver", "events", 0, "pages removed from the cache (NUMA move)"),
	ET("rx_cache_ext", "driver", "events", 0, "page cache extensions (MLNX_OFED)"),
	ET("rx_cache_rdc", "driver", "events", 0, "page cache reductions (MLNX_OFED)"),
	ET("rx_cache_alloc", "driver", "events", 0, "pages allocated into the page cache (MLNX_OFED)"),
	ET("rx_congst_umr", "driver", "events", 0, "delayed UMR posts (striding receive queue congestion)"),
	ET("rx_arfs_add", "driver", "events", 0, "accelerated RFS rules added"),
	ET("rx_arfs_request_in", "driver", "events", 0, "accelerated RFS requests to steer into this ring"),
	ET("rx_arfs_request_out", "driver", "events", 0, "accelerated RFS requests to steer out of this ring"),
	ET("rx_arfs_expired", "driver", "events", 0, "accelerated RFS rules expired"),
	ETM("rx_arfs_err", "driver", "events", ERR, "accelerated RFS rules that failed", "the flow table is full"),
	ETM("rx_recover", "driver", "events", ERR, "receive queue recoveries after an error", "a receive queue hit an error and was reset"),
	ETM("rx_pet_hdr_lookup_drop", "driver", "packets", DRP, "packets dropped on a PET header lookup miss (MLNX_OFED)", NULL),
	ETM("rx_pet_mdata_lookup_drop", "driver", "packets", DRP, "packets dropped on a PET metadata lookup miss (MLNX_OFED)", NULL),
	ET("rx_pp_alloc_fast", "driver", "events", 0, "page_pool: pages from the fast cache"),
	ET("rx_pp_alloc_slow", "driver", "events", 0, "page_pool: slow-path allocations"),
	ET("rx_pp_alloc_slow_high_order", "driver", "events", 0, "page_pool: slow-path high-order allocations"),
	ET("rx_pp_alloc_empty", "driver", "events", 0, "page_pool: ptr ring empty"),
	ET("rx_pp_alloc_refill", "driver", "events", 0, "page_pool: cache refills"),
	ET("rx_pp_alloc_waive", "driver", "events", 0, "page_pool: pages waived (NUMA mismatch)"),
	ET("rx_pp_recycle_cached", "driver", "events", 0, "page_pool: pages recycled into the cache"),
	ET("rx_pp_recycle_cache_full", "driver", "events", 0, "page_pool: recycle cache full"),
	ET("rx_pp_recycle_ring", "driver", "events", 0, "page_pool: pages recycled into the ring"),
	ET("rx_pp_recycle_ring_full", "driver", "events", 0, "page_pool: recycle ring full"),
	ET("rx_pp_recycle_released_ref", "driver", "events", 0, "page_pool: pages released (refcount)"),
	ET("ch_events", "driver", "events", 0, "completion queue interrupts"),
	ET("ch_poll", "driver", "events", 0, "NAPI polls"),
	ET("ch_arm", "driver", "events", 0, "NAPI polls that re-armed the completion queue"),
	ET("ch_aff_change", "driver", "events", 0, "NAPI polls that moved to another CPU (IRQ affinity)"),
	ET("ch_force_irq", "driver", "events", 0, "NAPI polls forced by the driver"),
	ETM("ch_eq_rearm", "driver", "events", ERR, "event queue re-arm recoveries", "a lost interrupt was recovered"),

	/* ---- q counters, vNIC environment ---- */
	ETM32("rx_out_of_buffer", "vport", "packets", DRP, "packets dropped: no receive WQE posted (q counter out_of_buffer)", "the host did not replenish receive buffers fast enough (CPU busy, ring too small)"),
	ETM32("rx_if_down_packets", "vport", "packets", DRP, "packets dropped while the interface was down", "traffic arrived while the netdev was down"),
	ETM("rx_steer_missed_packets", "vport", "packets", DRP, "packets dropped: no steering rule matched", "unknown destination MAC/VLAN or no flow rule"),
	ETM32("dev_internal_queue_oob", "vport", "packets", DRP, "packets dropped: internal device queue out of buffers", "the device's internal queues overflowed"),
	ETM("rx_oversize_pkts_buffer", "vport", "packets", DRP, "packets dropped: larger than the receive buffer", "MTU mismatch with the peer"),

	/* ---- vport (the function's e-switch port) ---- */
	ET("rx_vport_unicast_packets", "vport", "packets", 0, "unicast packets received by the vport"),
	ET("rx_vport_unicast_bytes", "vport", "bytes", 0, "unicast bytes received by the vport"),
	ET("tx_vport_unicast_packets", "vport", "packets", 0, "unicast packets sent by the vport"),
	ET("tx_vport_unicast_bytes", "vport", "bytes", 0, "unicast bytes sent by the vport"),
	ET("rx_vport_multicast_packets", "vport", "packets", 0, "multicast packets received by the vport"),
	ET("rx_vport_multicast_bytes", "vport", "bytes", 0, "multicast bytes received by the vport"),
	ET("tx_vport_multicast_packets", "vport", "packets", 0, "multicast packets sent by the vport"),
	ET("tx_vport_multicast_bytes", "vport", "bytes", 0, "multicast bytes sent by the vport"),
	ET("rx_vport_broadcast_packets", "vport", "packets", 0, "broadcast packets received by the vport"),
	ET("rx_vport_broadcast_bytes", "vport", "bytes", 0, "broadcast bytes received by the vport"),
	ET("tx_vport_broadcast_packets", "vport", "packets", 0, "broadcast packets sent by the vport"),
	ET("tx_vport_broadcast_bytes", "vport", "bytes", 0, "broadcast bytes sent by the vport"),
	ET("rx_vport_rdma_unicast_packets", "vport", "packets", 0, "RDMA unicast packets received by the vport"),
	ET("rx_vport_rdma_unicast_bytes", "vport", "bytes", 0, "RDMA unicast bytes received by the vport"),
	ET("tx_vport_rdma_unicast_packets", "vport", "packets", 0, "RDMA unicast packets sent by the vport"),
	ET("tx_vport_rdma_unicast_bytes", "vport", "bytes", 0, "RDMA unicast bytes sent by the vport"),
	ET("rx_vport_rdma_multicast_packets", "vport", "packets", 0, "RDMA multicast packets received by the vport"),
	ET("rx_vport_rdma_multicast_bytes", "vport", "bytes", 0, "RDMA multicast bytes received by the vport"),
	ET("tx_vport_rdma_multicast_packets", "vport", "packets", 0, "RDMA multicast packets sent by the vport"),
	ET("tx_vport_rdma_multicast_bytes", "vport", "bytes", 0, "RDMA multicast bytes sent by the vport"),
	ET("vport_loopback_packets", "vport", "packets", 0, "packets looped back inside the e-switch"),
	ET("vport_loopback_bytes", "vport", "bytes", 0, "bytes looped back inside the e-switch"),

	/* ---- physical port: IEEE 802.3, RFC 2863, RFC 2819, PHY (PPCNT) ---- */
	ET("tx_packets_phy", "port", "packets", 0, "packets transmitted on the wire"),
	ET("rx_packets_phy", "port", "packets", 0, "packets received on the wire, including bad ones"),
	ETM("rx_crc_errors_phy", "port", "packets", ERR, "frames received with a bad FCS", "a bad cable, transceiver or connector; check rx_err_lane_*_phy"),
	ET("tx_bytes_phy", "port", "bytes", 0, "bytes transmitted on the wire"),
	ET("rx_bytes_phy", "port", "bytes", 0, "bytes received on the wire"),
	ET("tx_multicast_phy", "port", "packets", 0, "multicast frames transmitted"),
	ET("tx_broadcast_phy", "port", "packets", 0, "broadcast frames transmitted"),
	ET("rx_multicast_phy", "port", "packets", 0, "multicast frames received"),
	ET("rx_broadcast_phy", "port", "packets", 0, "broadcast frames received"),
	ETM("rx_in_range_len_errors_phy", "port", "packets", ERR, "frames with a length field that does not match their size", "a misbehaving peer"),
	ETM("rx_out_of_range_len_phy", "port", "packets", ERR, "frames with a length field above the maximum", "a misbehaving peer"),
	ETM("rx_oversize_pkts_phy", "port", "packets", DRP, "frames dropped: longer than the port MTU", "the peer's MTU is larger than this port's"),
	ETM("rx_symbol_err_phy", "port", "events", ERR, "symbol errors on the physical link", "signal integrity: cable, transceiver, dirty connector"),
	ET("tx_mac_control_phy", "port", "packets", PAU, "MAC control frames transmitted (pause)"),
	ET("rx_mac_control_phy", "port", "packets", PAU, "MAC control frames received (pause)"),
	ETM("rx_unsupported_op_phy", "port", "packets", ERR, "MAC control frames with an unsupported opcode", "the peer sends a control frame this port does not know"),
	ET("rx_pause_ctrl_phy", "port", "packets", PAU, "pause frames received"),
	ET("tx_pause_ctrl_phy", "port", "packets", PAU, "pause frames transmitted"),
	ETM("rx_discards_phy", "port", "packets", DRP, "packets dropped by the port: no buffer (congestion)", "the host or the PCIe link cannot keep up; enable flow control (PFC) or spread load over more rings"),
	ETM("tx_discards_phy", "port", "packets", DRP, "packets dropped on transmit (congestion or head-of-line timeout)", "the port was paused for too long"),
	ETM("tx_errors_phy", "port", "packets", ERR, "frames that could not be transmitted (errors)", "a transmit fault on the port"),
	ETM("rx_undersize_pkts_phy", "port", "packets", ERR, "well-formed frames shorter than 64 bytes", "a misbehaving peer"),
	ETM("rx_fragments_phy", "port", "packets", ERR, "frames shorter than 64 bytes with a bad FCS", "collisions or a bad link"),
	ETM("rx_jabbers_phy", "port", "packets", ERR, "frames longer than the maximum with a bad FCS", "a bad link or peer"),
	ETL("rx_64_bytes_phy", "64", "frames of 64 bytes received"),
	ETL("rx_65_to_127_bytes_phy", "65-127", "frames of 65 to 127 bytes received"),
	ETL("rx_128_to_255_bytes_phy", "128-255", "frames of 128 to 255 bytes received"),
	ETL("rx_256_to_511_bytes_phy", "256-511", "frames of 256 to 511 bytes received"),
	ETL("rx_512_to_1023_bytes_phy", "512-1023", "frames of 512 to 1023 bytes received"),
	ETL("rx_1024_to_1518_bytes_phy", "1024-1518", "frames of 1024 to 1518 bytes received"),
	ETL("rx_1519_to_2047_bytes_phy", "1519-2047", "frames of 1519 to 2047 bytes received"),
	ETL("rx_2048_to_4095_bytes_phy", "2048-4095", "frames of 2048 to 4095 bytes received"),
	ETL("rx_4096_to_8191_bytes_phy", "4096-8191", "frames of 4096 to 8191 bytes received"),
	ETL("rx_8192_to_10239_bytes_phy", "8192-10239", "frames of 8192 to 10239 bytes received"),
	ETM("link_down_events_phy", "port", "events", ERR, "times the link went down", "link flaps: cable, transceiver, or the peer reset"),
	ETM("rx_pcs_symbol_err_phy", "port", "events", ERR, "PCS symbol errors (after FEC)", "errors FEC could not correct: a bad link"),
	{ .pattern = "rx_corrected_bits_phy", .srcs = S_ET, .group = "port", .unit = "bits",
	  .metric = "port_rx_fec_corrected_bit_errors",
	  .desc = "bits corrected by FEC (normal on fast links; watch the trend)" },
	ETI("rx_err_lane_%d_phy", "port", "bits", "lane", "port_rx_lane_errors", ERR, "bit errors on one physical lane (before FEC)", "one lane much worse than the others: a damaged fibre or connector on that lane"),
	ET("total_success_recovery_phy", "port", "events", 0, "successful link recoveries"),
	ET("rx_buffer_passed_thres_phy", "port", "events", 0, "times the receive buffer passed its congestion threshold"),

	/* ---- PCIe (MPCNT) ---- */
	ETM("rx_pci_signal_integrity", "pcie", "events", ERR, "PCIe physical layer receive errors", "PCIe signal integrity: slot, riser or card seating"),
	ETM("tx_pci_signal_integrity", "pcie", "events", ERR, "PCIe physical layer transmit errors (peer reported)", "PCIe signal integrity: slot, riser or card seating"),
	ETM("outbound_pci_buffer_overflow", "pcie", "packets", DRP, "packets dropped: PCIe outbound buffer overflow", "the host cannot absorb the receive rate over PCIe"),
	{ .pattern = "outbound_pci_stalled_rd", .srcs = S_ET, .group = "pcie", .unit = "percent", .flags = GAU,
	  .desc = "percent of the last second PCIe reads were stalled for lack of credits" },
	{ .pattern = "outbound_pci_stalled_wr", .srcs = S_ET, .group = "pcie", .unit = "percent", .flags = GAU,
	  .desc = "percent of the last second PCIe writes were stalled for lack of credits" },
	ET("outbound_pci_stalled_rd_events", "pcie", "events", 0, "seconds in which PCIe reads were stalled above the threshold"),
	ET("outbound_pci_stalled_wr_events", "pcie", "events", 0, "seconds in which PCIe writes were stalled above the threshold"),

	/* ---- per priority (PPCNT per-prio, per-TC congestion) ---- */
	ETI("rx_prio%d_bytes", "prio", "bytes", "priority", "prio_rx_bytes", 0, "bytes received on this priority", NULL),
	ETI("rx_prio%d_packets", "prio", "packets", "priority", "prio_rx_packets", 0, "packets received on this priority", NULL),
	ETI("rx_prio%d_discards", "prio", "packets", "priority", "prio_rx_discards", DRP, "packets dropped on this priority for lack of buffer", "congestion on a lossy priority, or PFC not enabled where it should be"),
	ETI("tx_prio%d_bytes", "prio", "bytes", "priority", "prio_tx_bytes", 0, "bytes transmitted on this priority", NULL),
	ETI("tx_prio%d_packets", "prio", "packets", "priority", "prio_tx_packets", 0, "packets transmitted on this priority", NULL),
	ETI("rx_prio%d_pause", "prio", "packets", "priority", "prio_rx_pause", PAU, "PFC pause frames received for this priority", NULL),
	ETI("rx_prio%d_pause_duration", "prio", "microseconds", "priority", "prio_rx_pause_duration", PAU, "time the peer asked this priority to pause", NULL),
	ETI("tx_prio%d_pause", "prio", "packets", "priority", "prio_tx_pause", PAU, "PFC pause frames sent for this priority", NULL),
	ETI("tx_prio%d_pause_duration", "prio", "microseconds", "priority", "prio_tx_pause_duration", PAU, "time this port asked the peer to pause this priority", NULL),
	ETI("rx_prio%d_pause_transition", "prio", "events", "priority", "prio_rx_pause_transitions", PAU, "transitions from pause to no pause on this priority", NULL),
	ETI("rx_prio%d_buf_discard", "prio", "packets", "priority", "prio_rx_buffer_discards", DRP, "packets dropped: receive buffer of this priority full", "the buffer of a lossy priority overflowed"),
	ETI("rx_prio%d_cong_discard", "prio", "packets", "priority", "prio_rx_congestion_discards", DRP, "packets dropped by congestion control (WRED) on this priority", "congestion on this priority"),
	ETI("rx_prio%d_marked", "prio", "packets", "priority", "prio_rx_ecn_marked", CC, "packets ECN-marked by the port on this priority", NULL),
	ET("rx_global_pause", "port", "packets", PAU, "global pause frames received"),
	ET("rx_global_pause_duration", "port", "microseconds", PAU, "time the peer asked this port to pause (global pause)"),
	ET("tx_global_pause", "port", "packets", PAU, "global pause frames sent"),
	ET("tx_global_pause_duration", "port", "microseconds", PAU, "time this port asked the peer to pause (global pause)"),
	ET("rx_global_pause_transition", "port", "events", PAU, "transitions from pause to no pause (global pause)"),
	ETM("tx_pause_storm_warning_events", "port", "events", ERR | PAU, "times the port sent pause frames continuously past the warning threshold", "the host is not draining the receive queues: a pause storm is starting"),
	ETM("tx_pause_storm_error_events", "port", "events", ERR | PAU, "times the pause storm protection stopped sending pause frames", "a stuck host receive path; the device stopped pausing the fabric"),

	/* ---- module (PME) ---- */
	ETM("module_unplug", "module", "events", ERR, "transceiver module unplugged", "a module was removed or is loose"),
	ETM("module_bus_stuck", "module", "events", ERR, "transceiver I2C bus stuck", "a faulty module"),
	ETM("module_high_temp", "module", "events", ERR, "transceiver over temperature", "airflow or a faulty module"),
	ETM("module_bad_shorted", "module", "events", ERR, "transceiver shorted", "a faulty module"),

	/* ---- RDMA hw_counters (counters.c; q counters are 32-bit) ---- */
	HW("rx_write_requests", "rdma", "events", 32, 0, "RDMA WRITE requests received", NULL),
	HW("rx_read_requests", "rdma", "events", 32, 0, "RDMA READ requests received", NULL),
	HW("rx_atomic_requests", "rdma", "events", 32, 0, "RDMA atomic requests received", NULL),
	HW("rx_dct_connect", "rdma", "events", 32, 0, "DC target connect requests received", NULL),
	HW("out_of_buffer", "rdma", "packets", 32, DRP, "packets dropped: no receive WQE on an RDMA queue (RNR)", "the application does not post receives fast enough"),
	HW("out_of_sequence", "congestion", "packets", 32, CC | ERR, "out-of-sequence packets received (a drop upstream)", "packet loss in the fabric: check PFC and ECN"),
	HW("duplicate_request", "rdma", "packets", 32, ERR, "duplicate requests received (the peer retransmitted)", "the peer timed out and retransmitted"),
	HW("rnr_nak_retry_err", "rdma", "events", 32, ERR, "RNR NAKs received beyond the retry count", "the responder has no receive posted"),
	HW("packet_seq_err", "rdma", "events", 32, ERR, "sequence error NAKs received", "packet loss in the fabric"),
	HW("implied_nak_seq_err", "rdma", "events", 32, ERR, "implied NAK sequence errors (ACK with a higher PSN)", "packet loss in the fabric"),
	HW("local_ack_timeout_err", "congestion", "events", 32, CC | ERR, "ACK timeouts: the requester retransmitted", "packet loss or a dead peer; drives retransmissions"),
	HW("resp_local_length_error", "rdma", "events", 32, ERR, "responder local length errors", "a receive buffer too small for the message"),
	HW("resp_cqe_error", "rdma", "events", 32, ERR, "responder completions with an error", "often benign at application teardown (flushed WQEs)"),
	HW("req_cqe_error", "rdma", "events", 32, ERR, "requester completions with an error", "an operation failed; see the application's completion status"),
	HW("req_remote_invalid_request", "rdma", "events", 32, ERR, "remote invalid request NAKs received", "the peer rejected an opcode or length"),
	HW("req_remote_access_errors", "rdma", "events", 32, ERR, "remote access error NAKs received", "a wrong rkey or permissions on the peer"),
	HW("resp_remote_access_errors", "rdma", "events", 32, ERR, "remote access errors detected as responder", "a peer used a wrong rkey"),
	HW("resp_cqe_flush_error", "rdma", "events", 32, ERR, "responder completions flushed with error", "QPs moved to error state (usually teardown)"),
	HW("req_cqe_flush_error", "rdma", "events", 32, ERR, "requester completions flushed with error", "QPs moved to error state (usually teardown)"),
	HW("req_transport_retries_exceeded", "rdma", "events", 32, ERR, "transport retries exceeded", "a peer unreachable or heavy loss"),
	HW("req_rnr_retries_exceeded", "rdma", "events", 32, ERR, "RNR retries exceeded", "the peer never posted a receive"),
	HW("roce_adp_retrans", "congestion", "events", 32, CC, "adaptive retransmissions", NULL),
	HW("roce_adp_retrans_to", "congestion", "events", 32, CC, "adaptive retransmission timeouts", NULL),
	HW("roce_slow_restart", "congestion", "events", 32, CC, "slow restarts after a retransmission timeout", NULL),
	HW("roce_slow_restart_cnps", "congestion", "packets", 32, CC, "CNPs received during slow restart", NULL),
	HW("roce_slow_restart_trans", "congestion", "events", 32, CC, "transitions to slow restart", NULL),
	HW("rp_cnp_ignored", "congestion", "packets", 0, CC, "CNPs received and ignored by the reaction point", NULL),
	HW("rp_cnp_handled", "congestion", "packets", 0, CC, "CNPs handled by the reaction point (rate reduced)", NULL),
	HW("np_ecn_marked_roce_packets", "congestion", "packets", 0, CC, "ECN-marked RoCE packets received by the notification point", NULL),
	HW("np_cnp_sent", "congestion", "packets", 0, CC, "CNPs sent by the notification point", NULL),
	HW("rx_icrc_encapsulated", "rdma", "packets", 32, ERR, "RoCE packets with an ICRC error", "corruption in the fabric"),
	HW("cc_rx_ce_pkts", "congestion", "packets", 0, CC, "RoCE packets received with the CE mark (optional counter)", NULL),
	HW("cc_rx_cnp_pkts", "congestion", "packets", 0, CC, "CNPs received (optional counter)", NULL),
	HW("cc_tx_cnp_pkts", "congestion", "packets", 0, CC, "CNPs sent (optional counter)", NULL),
	HW("rdma_tx_packets", "rdma", "packets", 0, 0, "RDMA packets sent (optional counter)", NULL),
	HW("rdma_tx_bytes", "rdma", "bytes", 0, 0, "RDMA bytes sent (optional counter)", NULL),
	HW("rdma_rx_packets", "rdma", "packets", 0, 0, "RDMA packets received (optional counter)", NULL),
	HW("rdma_rx_bytes", "rdma", "bytes", 0, 0, "RDMA bytes received (optional counter)", NULL),
	HW("lifespan", "rdma", "milliseconds", 0, GAU, "how long the kernel caches hw_counters values (a setting)", NULL),

	/* ---- IB PMA counters/ (error counters saturate at their width) ---- */
	IB("symbol_error", "events", 16, 0, ERR, "minor link errors on the physical lanes", "signal integrity"),
	IB("link_error_recovery", "events", 8, 0, ERR, "link error recoveries", "an unstable link"),
	IB("link_downed", "events", 8, 0, ERR, "times the link went down after failing recovery", "link flaps"),
	IB("port_rcv_errors", "packets", 16, 0, ERR, "packets received with errors", "corruption on the link"),
	IB("port_rcv_remote_physical_errors", "packets", 16, 0, ERR, "packets received marked bad by the sender", "a bad link upstream"),
	IB("port_rcv_switch_relay_errors", "packets", 16, 0, ERR, "packets discarded: could not be forwarded", NULL),
	IB("port_xmit_discards", "packets", 16, 0, DRP, "outbound packets discarded (port down or congested)", "congestion or a down port"),
	IB("port_xmit_constraint_errors", "packets", 8, 0, ERR, "packets not sent: partition or raw constraints", NULL),
	IB("port_rcv_constraint_errors", "packets", 8, 0, ERR, "packets dropped: partition or raw constraints", NULL),
	IB("local_link_integrity_errors", "events", 4, 0, ERR, "local physical errors above the threshold", "signal integrity"),
	IB("excessive_buffer_overrun_errors", "events", 4, 0, ERR, "consecutive receive buffer overruns", "flow control problems"),
	IB("VL15_dropped", "packets", 16, 0, DRP, "subnet management packets dropped", NULL),
	IB("port_xmit_data", "bytes", 64, 4, 0, "bytes transmitted (the kernel counts 4-byte words)", NULL),
	IB("port_rcv_data", "bytes", 64, 4, 0, "bytes received (the kernel counts 4-byte words)", NULL),
	IB("port_xmit_packets", "packets", 64, 0, 0, "packets transmitted", NULL),
	IB("port_rcv_packets", "packets", 64, 0, 0, "packets received", NULL),
	IB("port_xmit_wait", "count", 64, 0, 0, "ticks with data to send but no flow-control credits", NULL),
	IB("unicast_xmit_packets", "packets", 64, 0, 0, "unicast packets transmitted", NULL),
	IB("unicast_rcv_packets", "packets", 64, 0, 0, "unicast packets received", NULL),
	IB("multicast_xmit_packets", "packets", 64, 0, 0, "multicast packets transmitted", NULL),
	IB("multicast_rcv_packets", "packets", 64, 0, 0, "multicast packets received", NULL),

	/* ---- netdev statistics/ (struct rtnl_link_stats64) ---- */
	ND("rx_packets", "packets", 0, "packets received (kernel netdev statistics)", NULL),
	ND("tx_packets", "packets", 0, "packets transmitted (kernel netdev statistics)", NULL),
	ND("rx_bytes", "bytes", 0, "bytes received (kernel netdev statistics)", NULL),
	ND("tx_bytes", "bytes", 0, "bytes transmitted (kernel netdev statistics)", NULL),
	ND("rx_errors", "packets", ERR, "bad packets received", "see the driver's error counters for the cause"),
	ND("tx_errors", "packets", ERR, "packets that failed to transmit", "see the driver's error counters"),
	ND("rx_dropped", "packets", DRP, "packets dropped by the stack or driver (no buffer)", "on mlx5 mostly rx_out_of_buffer and steering misses"),
	ND("tx_dropped", "packets", DRP, "packets dropped on transmit", "queue full or link down"),
	ND("multicast", "packets", 0, "multicast packets received", NULL),
	ND("collisions", "events", ERR, "collisions (half duplex only)", NULL),
	ND("rx_length_errors", "packets", ERR, "packets with a bad length", NULL),
	ND("rx_over_errors", "packets", DRP, "receive ring overflows", "the host is not draining the receive ring"),
	ND("rx_crc_errors", "packets", ERR, "packets with a bad CRC", "a bad link"),
	ND("rx_frame_errors", "packets", ERR, "frame alignment errors", NULL),
	ND("rx_fifo_errors", "packets", DRP, "receive FIFO overruns", NULL),
	ND("rx_missed_errors", "packets", DRP, "packets missed by the host (no buffer)", "the host is too slow; mlx5 counts rx_out_of_buffer here"),
	ND("tx_aborted_errors", "packets", ERR, "transmits aborted", NULL),
	ND("tx_carrier_errors", "packets", ERR, "transmits failed for lack of carrier", NULL),
	ND("tx_fifo_errors", "packets", ERR, "transmit FIFO errors", NULL),
	ND("tx_heartbeat_errors", "packets", ERR, "heartbeat errors", NULL),
	ND("tx_window_errors", "packets", ERR, "late collisions", NULL),
	ND("rx_compressed", "packets", 0, "compressed packets received", NULL),
	ND("tx_compressed", "packets", 0, "compressed packets transmitted", NULL),
	ND("rx_nohandler", "packets", DRP, "packets dropped: no protocol handler", "traffic for a protocol nobody listens to (e.g. LLDP without lldpd)"),
	ND("rx_otherhost_dropped", "packets", DRP, "packets dropped: not for this host's MAC", NULL),
};

const struct mlx_cat *mlx_cat_table(size_t *n)
{
	*n = sizeof(catalog) / sizeof(catalog[0]);
	return catalog;
}

const char *const mlx_counter_groups[] = {
	"port", "vport", "prio", "queue", "channel", "pcie", "congestion", "rdma", "netdev",
	"driver", "module", "phy", "errors", "uncatalogued", NULL,
};

bool mlx_counter_group_valid(const char *g)
{
	for (size_t i = 0; mlx_counter_groups[i]; i++)
		if (!strcmp(g, mlx_counter_groups[i]))
			return true;
	return false;
}

unsigned mlx_counter_group_sources(const char *g)
{
	unsigned m = 0;

	if (!strcmp(g, "uncatalogued"))
		return MLX_CSRC_ALL;
	for (size_t i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++)
		if (!strcmp(catalog[i].group, g) ||
		    (!strcmp(g, "errors") && (catalog[i].flags & (ERR | DRP))) ||
		    (!strcmp(g, "congestion") && (catalog[i].flags & CC)))
			m |= catalog[i].srcs;
	/* the matchers' own families (match_queue, match_aer) */
	if (!strcmp(g, "queue") || !strcmp(g, "channel"))
		m |= S_ET;
	if (!strcmp(g, "pcie") || !strcmp(g, "errors"))
		m |= 1u << MLX_CSRC_AER;
	return m;
}

/* "rx_prio%d_bytes" against "rx_prio3_bytes": true with *idx = 3. */
static bool match_pattern(const char *pat, const char *name, int *idx)
{
	const char *pd = strstr(pat, "%d");
	size_t pre, suf;
	const char *p;
	long v = 0;

	if (!pd) {
		*idx = -1;
		return !strcmp(pat, name);
	}
	pre = (size_t)(pd - pat);
	if (strncmp(pat, name, pre))
		return false;
	p = name + pre;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p) && v < 100000)
		v = v * 10 + (*p++ - '0');
	suf = strlen(pd + 2);
	if (strlen(p) != suf || strcmp(p, pd + 2))
		return false;
	*idx = (int)v;
	return true;
}

static const struct mlx_cat *find(enum mlx_csrc src, const char *name, int *idx)
{
	for (size_t i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++)
		if ((catalog[i].srcs & (1u << src)) && match_pattern(catalog[i].pattern, name, idx))
			return &catalog[i];
	return NULL;
}

static void add_label(struct mlx_cat_match *m, const char *name, const char *fmt, long v,
		      const char *s)
{
	if (m->nlabels >= 3)
		return;
	m->labels[m->nlabels].name = name;
	if (s || !fmt)
		snprintf(m->labels[m->nlabels].value, sizeof(m->labels[0].value), "%s", s ? s : "");
	else
		snprintf(m->labels[m->nlabels].value, sizeof(m->labels[0].value), "%ld", v);
	m->nlabels++;
}

/* A Prometheus-safe metric stem: [a-z0-9_], no doubled underscores. */
static void metric_stem(char *out, size_t len, const char *group, const char *name)
{
	size_t o = 0;

	snprintf(out, len, "%s_%s", group, name);
	for (size_t i = 0; out[i]; i++) {
		char ch = (char)tolower((unsigned char)out[i]);

		if (!isalnum((unsigned char)ch))
			ch = '_';
		if (ch == '_' && o > 0 && out[o - 1] == '_')
			continue;
		out[o++] = ch;
	}
	while (o > 0 && out[o - 1] == '_')
		o--;
	out[o] = '\0';
}

/* Drop a token ("_phy" suffix, "vport_") from a name for its metric stem. */
static void strip_token(char *s, const char *tok)
{
	char *p = strstr(s, tok);

	if (p)
		memmove(p, p + strlen(tok), strlen(p + strlen(tok)) + 1);
}

static void fill(struct mlx_cat_match *m, const struct mlx_cat *e, const char *name, int idx)
{
	char base[80];

	m->e = e;
	m->index = idx;
	m->group = e->group;
	m->unit = e->unit;
	m->flags = e->flags;
	m->width = e->width ? e->width : 64;
	m->scale = e->scale ? e->scale : 1;
	if (e->label && idx >= 0)
		add_label(m, e->label, "%ld", idx, NULL);
	else if (e->label && e->lvalue)
		add_label(m, e->label, NULL, 0, e->lvalue);
	if (e->metric) {
		snprintf(m->metric, sizeof(m->metric), "%s", e->metric);
		return;
	}
	snprintf(base, sizeof(base), "%s", name);
	if (!strcmp(e->group, "port"))
		strip_token(base, "_phy");
	if (!strcmp(e->group, "vport"))
		strip_token(base, "vport_");
	metric_stem(m->metric, sizeof(m->metric), e->group, base);
}

/* Per-channel names whose total is spelt differently. */
static const struct {
	const char *queue, *total;
} aliases[] = {
	{ "tx_stopped", "tx_queue_stopped" },
	{ "tx_dropped", "tx_queue_dropped" },
	{ "tx_wake", "tx_queue_wake" },
	{ "rx_xdp_tx_cqes", "rx_xdp_tx_cqe" },
	{ "tx_xdp_cqe", "tx_xdp_cqes" },
};

/* rx3_packets, tx0_cqes, ch1_poll, rx0_xdp_tx_xmit: the per-queue split. */
static bool match_queue(const char *name, struct mlx_cat_match *m)
{
	static const char *const dirs[] = { "rx", "tx", "ch" };
	char total[96];
	int idx;

	for (size_t d = 0; d < 3; d++) {
		size_t n = strlen(dirs[d]);
		const char *p = name + n;
		const struct mlx_cat *e;
		long v = 0;

		if (strncmp(name, dirs[d], n) || !isdigit((unsigned char)*p))
			continue;
		while (isdigit((unsigned char)*p) && v < 100000)
			v = v * 10 + (*p++ - '0');
		if (*p != '_' || !p[1])
			return false;
		snprintf(total, sizeof(total), "%s%s", dirs[d], p);
		for (size_t a = 0; a < sizeof(aliases) / sizeof(aliases[0]); a++)
			if (!strcmp(total, aliases[a].queue))
				snprintf(total, sizeof(total), "%s", aliases[a].total);
		e = find(MLX_CSRC_ETHTOOL, total, &idx);
		if (!e || !strcmp(e->group, "port") || !strcmp(e->group, "prio"))
			return false;
		fill(m, e, total, -1);
		m->index = (int)v;
		m->nlabels = 0;
		if (d == 2) {
			m->group = "channel";
			add_label(m, "channel", "%ld", v, NULL);
			metric_stem(m->metric, sizeof(m->metric), "channel", p + 1);
		} else {
			m->group = "queue";
			m->dir = dirs[d];
			add_label(m, "queue", "%ld", v, NULL);
			add_label(m, "direction", NULL, 0, dirs[d]);
			metric_stem(m->metric, sizeof(m->metric), "queue", p + 1);
		}
		m->prefix = d == 2 ? "this channel: " : "this ring: ";
		return true;
	}
	return false;
}

/* rx_xsk_packets, tx_xsk_xmit: AF_XDP zero-copy copies of the totals. */
static bool match_xsk(const char *name, struct mlx_cat_match *m)
{
	char total[96];
	const struct mlx_cat *e;
	int idx;

	if (!strncmp(name, "rx_xsk_", 7))
		snprintf(total, sizeof(total), "rx_%s", name + 7);
	else if (!strncmp(name, "tx_xsk_", 7))
		snprintf(total, sizeof(total), "tx_xdp_%s", name + 7);
	else
		return false;
	e = find(MLX_CSRC_ETHTOOL, total, &idx);
	if (!e || idx >= 0)
		return false;
	fill(m, e, total, -1);
	metric_stem(m->metric, sizeof(m->metric), "driver_xsk", total);
	m->prefix = "AF_XDP zero-copy: ";
	return true;
}

/* aer_dev_*: "correctable_RxErr", "fatal_DLP", "TOTAL_ERR_COR". */
static bool match_aer(const char *name, struct mlx_cat_match *m)
{
	static const struct mlx_cat aer_type = {
		.pattern = "<severity>_<error>", .group = "pcie", .unit = "events", .flags = ERR,
		.desc = "PCIe AER errors of this type reported by the function",
		.meaning = "PCIe link or device faults; correctable ones are retried by hardware",
	};
	static const struct mlx_cat aer_total = {
		.pattern = "TOTAL_ERR_<severity>", .group = "pcie", .unit = "events", .flags = ERR,
		.desc = "PCIe AER errors of this severity reported by the function (all types)",
		.meaning = "PCIe link or device faults; see the per-type counters",
	};
	static const char *const sev[][2] = {
		{ "correctable_", "correctable" }, { "nonfatal_", "nonfatal" }, { "fatal_", "fatal" },
	};

	if (!strncmp(name, "TOTAL_ERR_", 10)) {
		const char *s = name + 10;

		fill(m, &aer_total, name, -1);
		add_label(m, "severity", NULL, 0, !strcmp(s, "COR") ? "correctable" :
			  !strcmp(s, "NONFATAL") ? "nonfatal" : !strcmp(s, "FATAL") ? "fatal" : s);
		snprintf(m->metric, sizeof(m->metric), "pcie_aer_errors_all_types");
		return true;
	}
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(sev[i][0]);

		if (strncmp(name, sev[i][0], n) || !name[n])
			continue;
		fill(m, &aer_type, name, -1);
		add_label(m, "severity", NULL, 0, sev[i][1]);
		add_label(m, "error", NULL, 0, name + n);
		snprintf(m->metric, sizeof(m->metric), "pcie_aer_errors");
		return true;
	}
	return false;
}

bool mlx_cat_lookup(enum mlx_csrc src, const char *name, struct mlx_cat_match *m)
{
	const struct mlx_cat *e;
	int idx;

	memset(m, 0, sizeof(*m));
	m->index = -1;
	m->prefix = "";
	if (src == MLX_CSRC_AER) {
		if (match_aer(name, m))
			return true;
	} else {
		e = find(src, name, &idx);
		if (e) {
			fill(m, e, name, idx);
			return true;
		}
		if (src == MLX_CSRC_ETHTOOL && (match_queue(name, m) || match_xsk(name, m)))
			return true;
		/* hw_counters of a switchdev representor: "vport_" + the name. */
		if (src == MLX_CSRC_HW && !strncmp(name, "vport_", 6) &&
		    (e = find(src, name + 6, &idx))) {
			fill(m, e, name + 6, idx);
			metric_stem(m->metric, sizeof(m->metric), "vport", m->metric);
			m->prefix = "representor vport: ";
			return true;
		}
	}
	memset(m, 0, sizeof(*m));
	m->index = -1;
	m->prefix = "";
	m->group = "uncatalogued";
	m->unit = "count";
	m->width = 0;      /* unknown: JSON null */
	m->scale = 1;
	add_label(m, "source", NULL, 0, mlx_csrc_name(src));
	add_label(m, "name", NULL, 0, name);
	snprintf(m->metric, sizeof(m->metric), "uncatalogued");
	return false;
}

const char *mlx_csrc_name(enum mlx_csrc s)
{
	static const char *const names[] = {
		[MLX_CSRC_ETHTOOL] = "ethtool", [MLX_CSRC_HW] = "hw_counters",
		[MLX_CSRC_IB] = "ib_counters", [MLX_CSRC_NETDEV] = "netdev", [MLX_CSRC_AER] = "aer",
	};

	return (unsigned)s < MLX_CSRC_N ? names[s] : "?";
}

/* ---- arithmetic ---------------------------------------------------------- */

uint64_t mlx_counter_delta(uint64_t prev, uint64_t cur, unsigned width, bool *reset)
{
	const uint64_t mask = 0xffffffffull;
	uint64_t wrapped;

	if (reset)
		*reset = false;
	if (cur >= prev)
		return cur - prev;
	/* Backwards.  Only a 32-bit counter wraps (64 bits take decades even
	 * in bytes at 400 Gb/s; the 4-, 8- and 16-bit IB PMA error counters
	 * saturate), and only when it holds 32-bit values and the wrap is
	 * the smaller story: an increase below half the range.  12 -> 5 is
	 * not 2^32 - 7 events in a second but a driver reload. */
	wrapped = (cur - prev) & mask;
	if (width == 32 && prev <= mask && wrapped <= mask / 2)
		return wrapped;
	if (reset)
		*reset = true;
	return 0;
}

double mlx_counter_rate(uint64_t delta, double seconds)
{
	return seconds > 0 ? (double)delta / seconds : 0.0;
}
