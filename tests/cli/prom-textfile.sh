#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 19: counters --format prometheus --output FILE, the node_exporter
# textfile at fleet scale.  The file passes promtool, has no timestamps,
# carries the state gauges with the sample hosts' values (link, PCIe, PFC
# and DCQCN per priority, lint findings by rule and severity, firmware reset
# pending; issue 25 item 18: the firmware as an info metric, labels the
# registry's keys, and the ASIC temperature the mlx5 hwmon reads), is replaced
# whole (no temporary file left, old content kept when the write fails);
# the example alert rules in contrib/ pass `promtool check rules` and name
# only metrics mlxcli writes.
set -u
. "$(dirname "$0")/lib.sh"
need promtool jq
g() { grep "^$1{$2} " "$3" | awk '{print $2}'; }   # the value of one sample

mkdir "$tmp/tf"
for s in cx5-ofed cx6dx-upstream; do
	f=$tmp/tf/$s.prom
	echo "old content" >"$f"
	out=$("$MLXCLI" --sample=$s counters --format prometheus --output "$f" 2>"$tmp/err"); rc=$?
	check "$s: --output exits 0" "$rc" 0
	check "$s: nothing on stdout" "$out" ""
	if promtool check metrics <"$f" >"$tmp/lint" 2>&1; then ok "$s: promtool check metrics"
	else bad "$s: promtool: $(head -5 "$tmp/lint")"; fi
	check "$s: no timestamps (name{labels} value, nothing after)" \
		"$(grep -v '^#' "$f" | awk 'NF != 2' | head -3)" ""
	check "$s: the same text as stdout" "$("$MLXCLI" --sample=$s counters --format prometheus 2>/dev/null | md5sum)" \
		"$(md5sum <"$f")"
	for m in mlxcli_link_up mlxcli_pcie_degraded mlxcli_pfc_enabled mlxcli_firmware_reset_pending; do
		check "$s: $m: HELP and TYPE gauge once" "$(grep -c "^# TYPE $m gauge$" "$f")" 1
	done
done
ls -A "$tmp/tf" >"$tmp/ls"
check "no temporary file left" "$(cat "$tmp/ls" | tr '\n' ' ')" "cx5-ofed.prom cx6dx-upstream.prom "

# the values, as the other commands give them
f=$tmp/tf/cx5-ofed.prom
p0='pci_address="0000:5e:00.0",netdev="enp94s0f0np0"'
p1='pci_address="0000:5e:00.1",netdev="enp94s0f1np1"'
check "cx5: link up/down as the sample's operstate" "$(g mlxcli_link_up "$p0" "$f") $(g mlxcli_link_up "$p1" "$f")" "1 0"
check "cx5: speed of the link that is up; none for the one down" \
	"$(g mlxcli_link_speed_mbps "$p0" "$f")/$(g mlxcli_link_speed_mbps "$p1" "$f")" "100000/"
check "cx5: PCIe not degraded" "$(g mlxcli_pcie_degraded 'pci_address="0000:5e:00.0"' "$f")" 0
check "cx5: PFC on 3 and 6 (show qos)" \
	"$(for p in 0 1 2 3 4 5 6 7; do g mlxcli_pfc_enabled "$p0,priority=\"$p\"" "$f"; done | tr -d '\n')" 00010010
check "cx5: DCQCN rp on 3 (dcqcn get)" \
	"$(for p in 0 1 2 3 4 5 6 7; do g mlxcli_dcqcn_enabled "$p0,side=\"rp\",priority=\"$p\"" "$f"; done | tr -d '\n')" 00010000
f6=$tmp/tf/cx6dx-upstream.prom
check "cx6dx: no DCQCN enable samples (upstream does not expose it: unknown, not 0)" \
	"$(grep -c '^mlxcli_dcqcn_enabled' "$f6")" 0
check "cx6dx: lint findings as show qos --check counts them" \
	"$(grep '^mlxcli_qos_lint_findings{pci_address="0000:3b:00.0"' "$f6" | awk '{s += $2} END {print s}')" \
	"$("$MLXCLI" --sample=cx6dx-upstream -j show qos --check -d 3b:00.0 2>/dev/null | jq '.ports[0].findings | length')"
check "cx6dx: the warning by rule" \
	"$(g mlxcli_qos_lint_findings 'pci_address="0000:3b:00.0",netdev="enp59s0f0np0",rule="cnp-prio-lossy",severity="warning"' "$f6")" \
	"$("$MLXCLI" --sample=cx6dx-upstream -j show qos --check -d 3b:00.0 2>/dev/null | jq '[.ports[0].findings[] | select(.id == "cnp-prio-lossy")] | length')"

# firmware reset pending: the flashed (stored) image is not the running one
check "cx5: firmware reset not pending (stored = running, as fw query says)" \
	"$(g mlxcli_firmware_reset_pending 'pci_address="0000:5e:00.0"' "$f")" \
	"$("$MLXCLI" --sample -j fw -d 5e:00.0 | jq '.firmware[0].reset_pending | if . then 1 else 0 end')"
check "cx6dx: firmware reset pending (22.41.1000 stored, 22.39.1002 running)" \
	"$(g mlxcli_firmware_reset_pending 'pci_address="0000:3b:00.0"' "$f6")" 1
check "cx6dx: one sample per PF" "$(grep -c '^mlxcli_firmware_reset_pending{' "$f6")" 2
cp -a "$MLXCLI_SAMPLES_DIR/cx6dx-upstream" "$tmp/nodl" && rm -rf "$tmp/nodl/netlink/devlink"
check "no devlink answer (stored image unknown): no sample, not a 0" \
	"$("$MLXCLI" --sysroot "$tmp/nodl" counters --format prometheus 2>/dev/null | grep -c '^mlxcli_firmware_reset_pending')" 0

# issue 25 item 18: the firmware of each PF as an info metric (value 1, the
# versions in labels named as fw -j names them: running_version,
# stored_version, psid), the ASIC temperature and its critical threshold
# as show selfhealing port reads them (mlx5 hwmon, Linux 6.1+)
for h in cx5-ofed cx6dx-upstream; do
	ff=$tmp/tf/$h.prom
	want=$("$MLXCLI" --sample=$h -j fw 2>/dev/null | jq -r '.firmware[] | select(.role == "pf") |
		"mlxcli_firmware_info{pci_address=\"\(.pci_address)\",running_version=\"\(.running_version)\",stored_version=\"\(.stored_version)\",psid=\"\(.psid)\"} 1"')
	check "$h: mlxcli_firmware_info per PF, as fw -j" "$(grep '^mlxcli_firmware_info{' "$ff")" "$want"
	check "$h: mlxcli_firmware_info: HELP and TYPE gauge once" "$(grep -c '^# TYPE mlxcli_firmware_info gauge$' "$ff")" 1
done
want=$("$MLXCLI" --sample=cx6dx-upstream -j show selfhealing port 2>/dev/null | jq -r '.ports[] | .pci_address as $p |
	.sensors[] | select(.sensor == "asic") |
	"mlxcli_asic_temperature_celsius{pci_address=\"\($p)\"} \(.value / 1000)"')
check "cx6dx: mlxcli_asic_temperature_celsius per PF, as show selfhealing port" \
	"$(grep '^mlxcli_asic_temperature_celsius{' "$f6")" "$want"
check "cx6dx: the ASIC's critical threshold" \
	"$(g mlxcli_asic_temperature_critical_celsius 'pci_address="0000:3b:00.1"' "$f6")" 105
check "cx6dx: ASIC temperature gauges: TYPE once each" \
	"$(grep -c '^# TYPE mlxcli_asic_temperature_\(critical_\)\{0,1\}celsius gauge$' "$f6")" 2
check "cx5 (MLNX_OFED, no mlx5 hwmon): no ASIC temperature sample, not a 0" \
	"$(grep -c '^mlxcli_asic_temperature' "$f")" 0

check "--filter picks counters: no gauges then" \
	"$("$MLXCLI" --sample counters --format prometheus --filter '^rx_prio3_bytes$' 2>/dev/null | grep -c '^mlxcli_link_up')" 0

# a failed write leaves the old file whole and no temporary file
mkdir "$tmp/ro" && echo "old" >"$tmp/ro/x.prom"
mkdir "$tmp/ro/dir.prom"
"$MLXCLI" --sample counters --format prometheus --output "$tmp/ro/dir.prom" >/dev/null 2>"$tmp/err"; rc=$?
check "rename onto a directory fails: exit 1" "$rc" 1
check "... no temporary file left" "$(ls -A "$tmp/ro" | tr '\n' ' ')" "dir.prom x.prom "
"$MLXCLI" --sample counters --format prometheus --output "$tmp/nodir/x.prom" >/dev/null 2>"$tmp/err"; rc=$?
check "a missing directory: exit 1" "$rc" 1
grep -q "cannot write $tmp/nodir/x.prom" "$tmp/err" && ok "... says which file" || bad "message: $(cat "$tmp/err")"
"$MLXCLI" --sample counters --output "$tmp/ro/x.prom" >/dev/null 2>&1; rc=$?
check "--output without --format prometheus: exit 2" "$rc" 2
check "... the file untouched" "$(cat "$tmp/ro/x.prom")" old

# the example alert rules: valid, and every mlxcli_ metric they use exists
rules=$TOP_SRCDIR/contrib/prometheus/mlxcli.rules.yml
if promtool check rules "$rules" >"$tmp/lint" 2>&1; then ok "promtool check rules contrib/prometheus"
else bad "rules: $(cat "$tmp/lint")"; fi
for m in $(grep -o 'mlxcli_[a-z_]*' "$rules" | sort -u); do
	cat "$tmp"/tf/*.prom | grep -q "^$m{" && ok "rules: $m is written" || bad "rules name $m, which mlxcli does not write"
done
finish
