#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Seed corpus for one libFuzzer harness, built at `make fuzz` time from the
# sample hosts (tests/data/samples) and, when present, the captured real
# data ($FIXTURES, read in place): nothing here is committed as bytes.
# Usage: seed.sh HARNESS CORPUS_DIR SAMPLES_DIR [FIXTURES_DIR]
set -e
h=$1 corpus=$2 samples=$3 fixtures=${4:-}
mkdir -p "$corpus"
n=0

# copy FILE...: each file as one seed, named after its path.
copy() {
	for f in "$@"; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		cp "$f" "$corpus/seed-$n-$(basename "$f")"
	done
}
# text LINE...: one seed per line given (NUL and newline split argv for cli).
text() {
	for t in "$@"; do
		n=$((n + 1))
		printf '%b' "$t" >"$corpus/seed-text-$n"
	done
}
nl() {   # the netlink captures whose path matches $1
	find "$samples" -path "*/netlink/*" -name "$1" -type f | sort
}

# hexrows FILE [FROM [TO]]: the bytes of the hex rows of a module EEPROM
# fixture (ethtool `hex on`, xxd, Junos page tables) from the first line
# containing FROM up to one containing TO, written as a binary seed.
hexrows() {
	[ -f "$1" ] || return 0
	n=$((n + 1))
	printf '%b' "$(awk -v from="${2:-}" -v to="${3:-}" '
	function hv(c) { return index("0123456789abcdef", tolower(c)) - 1 }
	BEGIN { on = (from == "") }
	!on { if (index($0, from)) on = 1; else next }
	to != "" && seen && index($0, to) { exit }
	{
		line = $0; sub(/^[ \t]*(Address )?/, "", line); d = ""
		if (line ~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]: /) {
			d = substr(line, 11, 39); gsub(/ /, "", d)
		} else if (line ~ /^0x[0-9a-fA-F]+:?[ \t]/) {
			sub(/^0x[0-9a-fA-F]+:?/, "", line); k = split(line, t, /[ \t]+/)
			for (i = 1; i <= k; i++) {
				if (t[i] ~ /^[0-9a-fA-F][0-9a-fA-F]$/) d = d t[i]
				else if (t[i] != "") break
			}
		} else next
		seen = 1
		for (i = 1; i < length(d); i += 2)
			printf "\\0%03o", hv(substr(d, i, 1)) * 16 + hv(substr(d, i + 1, 1))
	}' "$1")" >"$corpus/seed-$n-eeprom"
}

case $h in
sff8472)
	m=$fixtures/module
	hexrows "$m/sfp-plus-aoc-mikrotik-S+AO0005-ethtool-m-decoded-and-hex-512B-amd-xgbe.txt" 'hex on'
	hexrows "$m/sfp28-finisar-FTLF8536P4BCL-ethtool-m-raw-on-512B-bin-dentos-prestera.xxd.txt" '' 'hexdump'
	hexrows "$m/sfp-plus-10g-sr-intel-E10GSFPSRX-FTLX8574D3BNL-hex-ice-correct-vs-bnxt-corrupted.txt" 'E810' ;;
sff8636)
	m=$fixtures/module
	hexrows "$m/sff8636-qsfp28-er4-qsfptek-QT-QSFP28-ER4-junos-show-qsfp-info-lower-upper00-page03.txt" 'IDEEPROM' ;;
cmis)
	m=$fixtures/module
	hexrows "$m/cmis5-qsfp-dd-400g-eoptolink-EOLD-168HG-10-1-junos-eeprom-pages-00-01-02-03-10-11.txt" '' 'Page 03h'
	hexrows "$m/cmis4-qsfp-dd-400g-cig-TRD5H20ENF-LF000-junos-eeprom-pages-00-01-02-10-11.txt" '' 'Page 10h' ;;
phy-nl) copy $(nl 'linkmodes-get.nl') $(nl 'fec-get.nl') $(nl 'pause-get.nl') $(nl 'module-eeprom-*.nl' | head -6) ;;
sensors)
	# each hwmon of the samples as the harness's fields: entry, name, then
	# per channel input, crit, highest, label (NUL between, empty = absent)
	for d in $(find "$samples" -path '*/hwmon/hwmon*' -type d | sort); do
		n=$((n + 1))
		{
			printf '%s\0%s\0' "$(basename "$d")" "$(cat "$d/name" 2>/dev/null)"
			i=1
			while [ -f "$d/temp${i}_input" ]; do
				for w in input crit highest label; do
					printf '%s\0' "$(cat "$d/temp${i}_$w" 2>/dev/null)"
				done
				i=$((i + 1))
			done
		} >"$corpus/seed-$n-hwmon"
	done
	text 'hwmon1\0mlx5\0' 'hwmon3\0nvme\0' ;;
vpd) copy $(find "$samples" -name vpd -type f | sort) ;;
dcb) copy $(nl 'ieee-get.nl') $(nl 'gdcbx.nl') ;;
rtnl-vf) copy $(nl 'getlink-vf.nl') ;;
rdma) copy $(find "$samples" -path "*/netlink/rdma/*" -name "*.nl" -type f | sort | awk 'NR % 4 == 1') ;;
netview)
	# a leading byte: below 0x80 netlink, else the text parser (byte % 6)
	for f in $(nl 'tunnel-info-get.nl' | head -2) $(nl 'fdb-dump.nl' | head -2) $(nl 'getlink-dump.nl'); do
		n=$((n + 1))
		{ printf '\000'; cat "$f"; } >"$corpus/seed-$n-nl"
	done
	text '\200 1    lo              1     0     01005e000001\n' '\2010-3,8,20-39' '\2020000,00000000,00100000' \
		'\203mlx5_comp3@pci:0000:5e:00.0' '\2040xffff' \
		'\205GID: fe80:0:0:0:ec0d:9a03:44:3701\n  complete:    yes\n  DLID:     0x0012\n\n' ;;
gid)
	copy $(nl 'getlink-linkinfo.nl')
	text 'fe80:0000:0000:0000:0ac0:ebff:fe3b:3490' '0000:0000:0000:0000:0000:ffff:0a10:f239' \
		'RoCE v2' 'IB/RoCE v1' ;;
devlink-info) copy $(nl 'info-get.nl') $(nl 'eswitch-get.nl') ;;
params) copy $(nl '*-dump.nl') ;;
tunable)
	copy $(find "$samples" -path "*/netlink/ethtool/*" -name 'ioctl-gtunable-*.bin' -type f | sort | head -3)
	copy $(find "$samples" -name threaded -type f | sort | head -1)
	text 'auto' 'off' '8000' '65535' '65536' '2\n' ;;
ethtool-stats) copy $(nl 'strset-stats.nl' | head -4) $(nl 'stats-values.nl' | head -4) ;;
nl-attr) copy $(nl '*.nl' | awk 'NR % 3 == 1') ;;
sysfs)
	copy $(find "$samples" -path '*/qos/*' -type f | sort | head -8)
	copy $(find "$samples" -path '*/ecn/roce_rp/*' -type f | sort | head -8)
	copy $(find "$samples" -name cc_params -type d -exec find {} -type f \; | sort | head -8)
	text '0x1f' '18446744073709551615' '18446744073709551616' ;;
cr-ranges)
	[ -n "$fixtures" ] && [ -d "$fixtures/mstdump" ] && copy "$fixtures"/mstdump/*.csv
	text '#Addr, Size, Enable addr\n0x000000,300,\n0x001000,5,\n' ;;
dmn-conf)
	text '# mlxcli.conf\ndmn_dir = /var/lib/mlxcli/dmn\ndmn_total_count=10\ndmn_preserved_count=2\n' \
		'dmn_include_crdump=0\n\n  # c\nbad=1\n' ;;
kmsg)
	# the real mlx5 lines as /dev/kmsg records
	if [ -n "$fixtures" ] && [ -d "$fixtures/dmesg" ]; then
		grep -h 'mlx5_core' "$fixtures"/dmesg/*.txt | sed 's/^.*\(mlx5_core\)/\1/' | head -60 |
		while IFS= read -r l; do
			n=$((n + 1))
			printf '6,%d,1000,-;%s\n SUBSYSTEM=pci\n DEVICE=+pci:0000:41:00.0\n' "$n" "$l" \
				>"$corpus/seed-kmsg-$n"
		done
	fi
	text '14,1,2,-;mlx5_core 0000:01:00.0 eth0: Link down\n' \
		'4,2,3,-;infiniband mlx5_0: destroy_qp_common:2367:(pid 73): mlx5_ib: modify QP 0x000724 to RESET failed\n SUBSYSTEM=infiniband\n DEVICE=+infiniband:mlx5_0\n' \
		'3,3,4,-;rocep2s0/1: QP 137 error: unrecognized status (0x41 0x0 0x0)\n' \
		'4,4,5,-;__ib_cache_gid_add: unable to add gid fe80:0000:0000:0000:0202:c9ff:fe00:0001 error=-28\n' ;;
kmsg-split)
	# a recorded kernel log: records of the real mlx5 lines with their
	# dictionary lines, several to a seed (the first byte picks the size
	# of the pieces they arrive in); recorded netlink messages
	if [ -n "$fixtures" ] && [ -d "$fixtures/dmesg" ]; then
		for f in "$fixtures"/dmesg/*.txt; do
			n=$((n + 1))
			{ printf "\\00$((n % 8))";
			  grep -h 'mlx5_core' "$f" | sed 's/^.*\(mlx5_core\)/\1/' | head -20 |
			  awk '{ printf "3,%d,%d,-;%s\n SUBSYSTEM=pci\n DEVICE=+pci:0000:41:00.0\n", NR, NR * 1000, $0 }'
			} >"$corpus/seed-kmsg-split-$n"
		done
	fi
	copy $(nl 'getlink*.nl' | head -4) $(nl 'health-get*.nl' | head -2)
	text '\0013,1,2,-;a\n b=c\n d\n3,2,3,-;e\n' ;;
monitor-nl) copy $(nl 'getlink*.nl' | head -4) $(nl 'health-get*.nl' | head -4) ;;
dmn-name)
	text 'dmn-mlx5_0-manual-cli-user--2024.01.31-12.00.00.000-4242.0' \
		'dmn-0000_5e_00.0-health-fw_fatal-NA--2023.12.01-00.00.59.999-1.17' \
		'mlx5_0\0manual\0cli\0a reason' ;;
cli)
	text 'devices' 'ports\n-j' 'show\nqos' 'qosconfig\ndcqcn\nget\n-d\nenp94s0f0np0' \
		'qosconfig\ndcqcn\nset\n-d\nenp94s0f0np0\nDcqcnRpgAiRate\n20' \
		'qosconfig\npfc\nset\n-d\nenp94s0f0np0\n3' 'qosconfig\nets\nshow' \
		'qosconfig\ntc-bw\nset\n-d\nenp94s0f0np0\n10,20,30,40,0,0,0,0' \
		'counters\n-d\nmlx5_0' 'counters\ncc' 'sriov\nshow' 'fw\nshow' 'fw\nvpd' 'pci' \
		'sample\nlist' 'help\nqosconfig' '--sample=cx6dx-upstream\nqosconfig\ndcqcn\nget' \
		'-Qosconfig\n-Dcqcn\n-Get' 'dbg\nget-state' 'modify\ntc-bw\nenp94s0f0np0\n50' \
		'__complete\nqosconfig dc' ;;
fmsg) copy $(nl 'diagnose-*.nl') $(nl 'dump-*.nl') ;;
dmn-manifest)
	# the manifest dump-me-now writes (cmd/dmn.c write_manifest), and one
	# of an earlier version ("status" for "result")
	text '{\n  "format": "mlxcli-dmn",\n  "name": "dmn-0000_5e_00.0-GENERAL-USER-NA--2026.11.27-23.04.35.011-21376.0",\n  "path": "/var/lib/mlxcli/dmn/x",\n  "pci_address": "0000:5e:00.0",\n  "product": "ConnectX-5",\n  "type": "GENERAL",\n  "source": "USER",\n  "reason": null,\n  "created_at": "2026-11-27T23:04:35Z",\n  "mlxcli_version": "0.1.0",\n  "system": "live",\n  "items": [\n    {"name": "pci.json", "result": "ok", "reason": null, "size": 1234, "sha256": "77aea9a5a713962647b26d9cb7751c224c1619b3e1bc18a913f90490fc0215db"},\n    {"name": "crspace.txt", "result": "unavailable", "reason": "permission: x", "size": null, "sha256": null}\n  ]\n}\n' \
		'{"format": "mlxcli-dmn", "name": "n", "items": [{"name": "snapshot", "status": "ok", "size": -1}]}' ;;
snapshot-meta)
	copy $(find "$samples" -maxdepth 2 -name mlxcli-snapshot.json | sort)
	text '{"hostname": "a\\u0041\\n", "kernel": "6.1"}' '{"hostname":"\\u00' ;;
state-doc)
	# the example desired state, and each sample's own state (what
	# `state -j` prints and diff reads) where a test left one
	copy "$samples/../../../contrib/state/"*.json
	text '{"ports":[{"netdev":"enp94s0f0np0","pfc":{"enabled_priorities":[3,4]},"trust":"dscp"}]}' \
		'{"schema_version":2,"ports":[{"pci_address":"0000:5e:00.0","sriov":{"num_vfs":2,"vfs":[{"vf":0,"mac":"02:00:00:00:00:01","vlan":10}]}}]}' \
		'{"ports":[{"match":{"product":"ConnectX-5"},"dcqcn":{"rp":{"rpg_ai_rate":5,"enabled_priorities":[3]}},"roce":{"mode":"RoCE v2","tos":106}}]}' \
		'{"ports":[{"netdev":"a","ets":{"prio_tc":[0,1,2,3,4,5,6,7]},"tcs":[{"tc":3,"tsa":"ets","bandwidth_pct":50,"max_rate_mbps":1000}],"params":{"rx_ring":1024}}]}' ;;
val-codec)
	text 'n' 'u0' 'u18446744073709551615' 'i-5' 'b1' 's526f434520763200' '80001020304050607' \
		'4e8030000' 'l7374726963740000657473000000000000' ;;
pcicfg) : ;;      # the config files, copied by the fuzz rule itself
*) echo "seed.sh: no seeds for '$h'" >&2 ;;
esac
