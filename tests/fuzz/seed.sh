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

case $h in
vpd) copy $(find "$samples" -name vpd -type f | sort) ;;
dcb) copy $(nl 'ieee-get.nl') $(nl 'gdcbx.nl') ;;
rtnl-vf) copy $(nl 'getlink-vf.nl') ;;
devlink-info) copy $(nl 'info-get.nl') $(nl 'eswitch-get.nl') ;;
params) copy $(nl '*-dump.nl') ;;
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
pcicfg) : ;;      # the config files, copied by the fuzz rule itself
*) echo "seed.sh: no seeds for '$h'" >&2 ;;
esac
