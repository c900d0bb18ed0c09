#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli link on both sample hosts (issue 18): the recorded LINKMODES, FEC,
# PAUSE and LINKSTATE replies decoded, and the verdict: an empty cage is
# "link down: no cable"; cx6dx PF1 trains at 50G under a 100G advertisement
# and counts FEC uncorrectables; a healthy port's verdict is empty.
. "$(dirname "$0")/lib.sh"
need jq

run c5 --sample -j link
[ "$rc" = 0 ] && ok "cx5 link exits 0" || bad "cx5 link: exit $rc $(cat "$tmp/c5.err")"
[ "$(jq -c '.port_links[0] | [.netdev, .link, .speed_mbps, .lanes, .duplex, .autoneg, (.supported_link_modes | length), .advertised_link_modes[-1]]' "$tmp/c5.out")" = \
	'["enp94s0f0np0",true,100000,4,"full",true,15,"100000baseLR4_ER4/Full"]' ] &&
	ok "cx5 PF0: speed, lanes, duplex, autoneg, modes" || bad "cx5 PF0: $(jq -c '.port_links[0]' "$tmp/c5.out")"
[ "$(jq -c '.port_links[0].fec | [.auto, .active, .corrected_blocks, .uncorrectable_blocks, (.per_lane | length), .per_lane[1].corrected_blocks]' "$tmp/c5.out")" = \
	'[true,"rs",1287,0,4,402]' ] && ok "cx5 PF0: FEC auto, RS, corrected per lane" || bad "cx5 FEC: $(jq -c '.port_links[0].fec' "$tmp/c5.out")"
[ "$(jq -c '.port_links[0].pause | [.autoneg, .rx, .tx, .rx_pause_frames, .tx_pause_frames]' "$tmp/c5.out")" = \
	'[false,false,false,1520,0]' ] && ok "cx5 PF0: pause (off: PFC is on) and frames" || bad "cx5 pause: $(jq -c '.port_links[0].pause' "$tmp/c5.out")"
[ "$(jq -c '.port_links[0] | [.verdict, .healthy]' "$tmp/c5.out")" = '[[],true]' ] && ok "cx5 PF0 healthy" || bad "cx5 PF0 verdict"
[ "$(jq -c '.port_links[1] | [.link, .ext_state, .speed_mbps, .duplex, .verdict, .healthy]' "$tmp/c5.out")" = \
	'[false,"no cable",null,null,["link down: no cable"],false]' ] && ok "cx5 PF1: down, no cable" ||
	bad "cx5 PF1: $(jq -c '.port_links[1]' "$tmp/c5.out")"

run c6 --sample=cx6dx-upstream -j link -d enp59s0f1np1
[ "$(jq -c '.port_links[0].verdict' "$tmp/c6.out")" = \
	'["degraded speed: 50000 Mb/s, 100000 Mb/s advertised","FEC uncorrectable blocks: 12"]' ] &&
	ok "cx6dx PF1: degraded speed and FEC uncorrectables" || bad "cx6dx verdict: $(jq -c '.port_links[0]' "$tmp/c6.out")"
run t6 --sample=cx6dx-upstream link -d enp59s0f1np1
grep -q '^  verdict: degraded speed: 50000 Mb/s, 100000 Mb/s advertised; FEC uncorrectable blocks: 12$' "$tmp/t6.out" &&
	ok "text verdict" || bad "text verdict: $(grep verdict "$tmp/t6.out")"
grep -q '^    lane 2: corrected 91230, uncorrectable 5$' "$tmp/t6.out" && ok "text FEC per lane" || bad "text FEC lanes"
# counters --format prometheus carries the physical layer as gauges: the same
# reading as `module -j` (millidegrees there, 35336), in base units
run p5 --sample counters --format prometheus
grep -q '^mlxcli_module_temperature_celsius{pci_address="0000:5e:00.0",netdev="enp94s0f0np0",port="1"} 35.336$' "$tmp/p5.out" &&
	ok "prometheus: module temperature in celsius" || bad "prometheus temperature: $(grep temperature "$tmp/p5.out")"
grep -q '^mlxcli_module_rx_power_watts{pci_address="0000:5e:00.0",netdev="enp94s0f0np0",port="1",lane_number="4"} 1.24e-05$' "$tmp/p5.out" &&
	ok "prometheus: rx power per lane in watts" || bad "prometheus rx power: $(grep rx_power "$tmp/p5.out")"
fams=0
for f in module_temperature_celsius module_supply_voltage_volts module_laser_bias_amperes module_tx_power_watts \
	module_rx_power_watts fec_corrected_blocks_total fec_uncorrectable_blocks_total; do
	fams=$((fams + $(grep -c "^# TYPE mlxcli_$f " "$tmp/p5.out")))
done
[ "$fams" = 7 ] && ok "prometheus: 7 physical families, TYPE once each" || bad "prometheus: $fams TYPE lines for 7 families"
run p6 --sample=cx6dx-upstream counters --format prometheus
grep -q '^mlxcli_fec_uncorrectable_blocks_total{pci_address="0000:3b:00.1",netdev="enp59s0f1np1",port="1"} 12$' "$tmp/p6.out" &&
	ok "prometheus: FEC uncorrectable counter" || bad "prometheus FEC: $(grep fec_ "$tmp/p6.out")"
# the FEC counters per lane, as `link` has them in .fec.per_lane (the JSON
# registry's words: per_lane, corrected_blocks, lane_number): a family of
# their own, so that a sum over lanes never adds the port's total again
j6=$("$MLXCLI" --sample=cx6dx-upstream -j link -d enp59s0f1np1)
want=$(printf '%s' "$j6" | jq -r '.port_links[0].fec.per_lane[] |
	"mlxcli_fec_per_lane_corrected_blocks_total{pci_address=\"0000:3b:00.1\",netdev=\"enp59s0f1np1\",port=\"1\",lane_number=\"\(.lane_number)\"} \(.corrected_blocks)"')
got=$(grep '^mlxcli_fec_per_lane_corrected_blocks_total{pci_address="0000:3b:00.1"' "$tmp/p6.out")
[ -n "$want" ] && [ "$got" = "$want" ] && ok "prometheus: FEC corrected blocks per lane, as link's per_lane" ||
	bad "prometheus FEC per lane: got '$got', link says '$want'"
grep -q '^mlxcli_fec_per_lane_uncorrectable_blocks_total{pci_address="0000:3b:00.1",netdev="enp59s0f1np1",port="1",lane_number="2"} 5$' "$tmp/p6.out" &&
	ok "prometheus: FEC uncorrectable blocks of lane 2" || bad "prometheus FEC lane 2: $(grep per_lane "$tmp/p6.out")"
[ "$(grep -c '^# TYPE mlxcli_fec_per_lane_' "$tmp/p6.out")" = 2 ] && ok "prometheus: per-lane FEC families, TYPE once each" ||
	bad "prometheus per-lane FEC TYPE lines: $(grep '^# TYPE mlxcli_fec' "$tmp/p6.out")"
if command -v promtool >/dev/null 2>&1; then
	for h in p5 p6; do
		promtool check metrics <"$tmp/$h.out" >"$tmp/promtool-$h" 2>&1 && ok "$h: promtool check metrics" ||
			bad "$h: promtool: $(head -5 "$tmp/promtool-$h")"
	done
else
	echo "  note: promtool not installed (Debian package prometheus): exposition not validated"
fi
# show selfhealing port: the ASIC sensor of the mlx5 hwmon (cx6dx only), the
# module's temperature, the health reporters' counts
run h6 --sample=cx6dx-upstream -j show selfhealing port -d enp59s0f1np1
[ "$(jq -c '.ports[0].sensors[] | [.sensor, .value, .critical_threshold, .highest, .level]' "$tmp/h6.out" | tr -d '\n')" = \
	'["asic",62000,105000,74000,"ok"]["module",49742,78000,null,"ok"]' ] && ok "selfhealing: asic and module sensors" ||
	bad "selfhealing sensors: $(cat "$tmp/h6.out" "$tmp/h6.err")"
run h5 --sample -j show selfhealing port -d enp94s0f0np0
[ "$(jq -c '[.ports[0].sensors[].sensor, (.ports[0].reporters[] | select(.name == "fw") | .error_count)]' "$tmp/h5.out")" = '["module",1]' ] &&
	ok "selfhealing on cx5-ofed: no hwmon, the module; fw reporter's error count" || bad "selfhealing cx5: $(cat "$tmp/h5.out")"
run n link -d nosuch
[ "$rc" = 3 ] && ok "unknown device: exit 3" || bad "unknown device: exit $rc"

echo "== --any-netdev -d: one rule for link, module and counters (cli_other_netdev)"
# A ConnectX port named with --any-netdev is that port, with its PCI address,
# as without the option; a name that is no netdev at all is exit 3 in the one
# wording of state, apply and params; the option stands anywhere (issue 25).
for c in link module counters; do
	key=$(case $c in link) echo port_links ;; module) echo modules ;; counters) echo ports ;; esac)
	run an --sample -j $c -d enp94s0f0np0
	want=$(jq -c ".$key[0].pci_address" "$tmp/an.out")
	for line in "$c --any-netdev -d enp94s0f0np0" "--any-netdev $c -d enp94s0f0np0" \
		    "-d enp94s0f0np0 --any-netdev $c"; do
		# shellcheck disable=SC2086
		run an --sample -j $line
		got=$(jq -c ".$key[0].pci_address" "$tmp/an.out" 2>/dev/null)
		[ "$rc" = 0 ] && [ "$want" = '"0000:5e:00.0"' ] && [ "$got" = "$want" ] &&
			ok "$line: the ConnectX port, pci_address $got" ||
			bad "$line: exit $rc, pci_address $got (want $want): $(cat "$tmp/an.err")"
	done
	run an --sample $c --any-netdev -d nosuch0
	[ "$rc" = 3 ] && grep -q "^mlxcli: error: no network interface 'nosuch0'$" "$tmp/an.err" &&
		ok "$c --any-netdev -d nosuch0: exit 3, 'no network interface'" ||
		bad "$c --any-netdev -d nosuch0: exit $rc: $(cat "$tmp/an.err")"
done
finish
