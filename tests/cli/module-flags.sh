#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 25 item 9: a module's lane flags (Rx/Tx loss of signal, Tx fault,
# Rx/Tx CDR loss of lock) and its dark lanes, on a copy of the cx5-ofed
# sample (a real QSFP28 ER4's pages) whose recorded EEPROM reads are
# changed the way the module would change them (module-eeprom-set.py):
#   - SFF-8636 lower bytes 3 and 5 at 0x0f (the real dump's: Rx LOS and Rx
#     LOL on every lane): module -j has rx_los, rx_lol true per lane,
#     tx_los and tx_lol false, tx_fault null (the module's option byte 195
#     says it does not implement it); the level is alarm; the text names
#     the flags in ethtool's words; link's verdict names them with their
#     lanes; counters --group phy and --format prometheus carry them (0/1
#     per lane; an unimplemented flag null there, no sample here; promtool
#     check metrics when installed);
#   - Tx LOS on lane 1 and Tx LOL on lane 2 (bytes 3, 5 = 0x10, 0x20);
#   - a lane with bias and Tx power 0 and one with Rx power 0 the module
#     does not flag: "laser off", "no light", level "off", no dBm (the
#     value is 0 mW), never "ok";
#   - what ethtool -m shows besides: encoding, power class, CDRs, OM1
#     length, the wavelength tolerance (the dump's: NRZ, class 4 3.5 W,
#     Tx and Rx CDR, 7.830 nm);
#   - monitor --poll 1: the first read is the baseline (flags raised then
#     are no event); Rx LOS of lane 1 clearing is one
#     module_lane_flag_cleared event, Rx LOS and Tx LOS of lane 1 raised
#     are two module_lane_flag events (error), with name, lane_number,
#     netdev and PCI address.
. "$(dirname "$0")/lib.sh"
need jq python3

cap=$tmp/cap
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed/." "$cap/" || { bad "cannot copy the sample"; finish; }
eth=$cap/netlink/ethtool/enp94s0f0np0
lower=$eth/module-eeprom-i2c50-page00-bank0-off0.nl
set_bytes() { python3 "$TOP_SRCDIR/tests/cli/module-eeprom-set.py" "$lower" "$@" || bad "cannot set byte $1"; }
m() { "$MLXCLI" --sysroot "$cap" "$@"; }

# the sample itself: a healthy up port, every known flag clear
m -j module -d enp94s0f0np0 >"$tmp/m0.json" 2>"$tmp/m0.err"
[ "$(jq -c '.modules[0] | [.level, ([.channels[] | [.rx_los, .tx_los, .tx_fault, .rx_lol, .tx_lol]] | unique)]' "$tmp/m0.json")" = \
	'["ok",[[false,false,null,false,false]]]' ] && ok "the sample: every known flag clear, tx_fault null" ||
	bad "sample flags: $(jq -c '.modules[0].channels[0]' "$tmp/m0.json") $(cat "$tmp/m0.err")"

# the real dump's flags: Rx LOS and Rx LOL on every lane
set_bytes 3 0f 00 0f
m -j module -d enp94s0f0np0 >"$tmp/m1.json"
[ "$(jq -c '.modules[0] | [.level, [.channels[] | [.lane_number, .rx_los, .tx_los, .tx_fault, .rx_lol, .tx_lol]]]' "$tmp/m1.json")" = \
	'["alarm",[[1,true,false,null,true,false],[2,true,false,null,true,false],[3,true,false,null,true,false],[4,true,false,null,true,false]]]' ] &&
	ok "bytes 3, 5 = 0x0f: rx_los and rx_lol on lanes 1-4, level alarm" ||
	bad "LOS/LOL: $(jq -c '.modules[0] | [.level, .channels[0]]' "$tmp/m1.json")"
m module -d enp94s0f0np0 >"$tmp/m1.txt"
grep -q '^  channel 3 flags: Rx loss of signal, Rx loss of lock  alarm$' "$tmp/m1.txt" &&
	grep -q '^  overall: alarm$' "$tmp/m1.txt" && ok "text: the flags in ethtool's words, overall alarm" ||
	bad "text flags: $(grep -E 'flags|overall' "$tmp/m1.txt")"
m -j link -d enp94s0f0np0 >"$tmp/l1.json"
[ "$(jq -c '.port_links[0] | [.verdict, .healthy]' "$tmp/l1.json")" = \
	'[["Rx loss of signal on lanes 1, 2, 3, 4","Rx loss of lock on lanes 1, 2, 3, 4"],false]' ] &&
	ok "link verdict: the flags and their lanes" || bad "verdict: $(jq -c '.port_links[0].verdict' "$tmp/l1.json")"
m -j counters --describe -d enp94s0f0np0 --group phy >"$tmp/c1.json"
[ "$(jq -c '[.. | objects | select(.group? == "phy" and .name? == "rx_los") | [.labels.lane_number, .value, .unit]]' "$tmp/c1.json")" = \
	'[[1,1,"bool"],[2,1,"bool"],[3,1,"bool"],[4,1,"bool"]]' ] && ok "counters --group phy: rx_los per lane" ||
	bad "counters phy: $(jq -c '[.. | objects | select(.group? == "phy") | .name] | unique' "$tmp/c1.json")"
[ "$(jq -c '[.. | objects | select(.group? == "phy" and .name? == "tx_fault") | .value] | unique' "$tmp/c1.json")" = '[null]' ] &&
	ok "counters: tx_fault null where the module does not implement it" ||
	bad "counters tx_fault: $(jq -c '[.. | objects | select(.group? == "phy" and .name? == "tx_fault")]' "$tmp/c1.json")"
m counters --format prometheus >"$tmp/p1.prom"
grep -q '^mlxcli_module_rx_los{pci_address="0000:5e:00.0",netdev="enp94s0f0np0",port="1",lane_number="2"} 1$' "$tmp/p1.prom" &&
	grep -q '^mlxcli_module_tx_lol{pci_address="0000:5e:00.0",netdev="enp94s0f0np0",port="1",lane_number="2"} 0$' "$tmp/p1.prom" &&
	[ "$(grep -c '^# TYPE mlxcli_module_rx_lol gauge$' "$tmp/p1.prom")" = 1 ] &&
	! grep -q '^mlxcli_module_tx_fault{' "$tmp/p1.prom" &&
	ok "prometheus: the flags per lane, 0/1 gauges; none for an unimplemented flag" ||
	bad "prometheus flags: $(grep 'module_.x_lo\|tx_fault' "$tmp/p1.prom")"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$tmp/p1.prom" >"$tmp/promtool.out" 2>&1 && ok "promtool check metrics" ||
		bad "promtool: $(cat "$tmp/promtool.out")"
fi

# Tx LOS on lane 1, Tx LOL on lane 2
set_bytes 3 10 00 20
m -j module -d enp94s0f0np0 >"$tmp/m2.json"
[ "$(jq -c '[.modules[0].channels[] | [.rx_los, .tx_los, .rx_lol, .tx_lol]]' "$tmp/m2.json")" = \
	'[[false,true,false,false],[false,false,false,true],[false,false,false,false],[false,false,false,false]]' ] &&
	ok "byte 3 bit 4: tx_los lane 1; byte 5 bit 5: tx_lol lane 2" ||
	bad "tx flags: $(jq -c '[.modules[0].channels[] | [.rx_los, .tx_los, .rx_lol, .tx_lol]]' "$tmp/m2.json")"
m -j link -d enp94s0f0np0 >"$tmp/l2.json"
[ "$(jq -c '.port_links[0].verdict' "$tmp/l2.json")" = '["Tx loss of signal on lane 1","Tx loss of lock on lane 2"]' ] &&
	ok "link verdict: one lane each" || bad "verdict: $(jq -c '.port_links[0].verdict' "$tmp/l2.json")"

# dark lanes the module does not flag: lane 1's laser off (bias 42-43,
# Tx power 50-51 at 0), no light on lane 2 (Rx power 36-37 at 0)
set_bytes 3 00 00 00
set_bytes 42 00 00
set_bytes 50 00 00
set_bytes 36 00 00
m -j module -d enp94s0f0np0 >"$tmp/m3.json"
[ "$(jq -c '.modules[0] | [.channels[0].bias.level, .channels[0].tx_power.level, .channels[0].rx_power.level, .channels[1].rx_power.level, .channels[1].rx_power.value, .level]' "$tmp/m3.json")" = \
	'["off","off","ok","off",0,"ok"]' ] && ok "0 mA / 0 mW unflagged: level off, not ok" ||
	bad "dark levels: $(jq -c '.modules[0].channels[0:2]' "$tmp/m3.json")"
m module -d enp94s0f0np0 >"$tmp/m3.txt"
grep -q '^  channel 1 bias: 0.000 mA  laser off (warning below' "$tmp/m3.txt" &&
	grep -q '^  channel 1 tx power: 0.0000 mW  laser off (warning below' "$tmp/m3.txt" &&
	grep -q '^  channel 2 rx power: 0.0000 mW  no light (warning below' "$tmp/m3.txt" &&
	ok "text: laser off, no light, no dBm of 0 mW" || bad "dark text: $(grep -E 'channel [12] ' "$tmp/m3.txt")"
grep -q '^  channel 1 flags: none$' "$tmp/m3.txt" && ok "text: clear flags say none" || bad "no flags line"

# what ethtool -m shows besides
[ "$(jq -c '.modules[0] | [.encoding, .encoding_code, .power_class, .max_power_mw, .tx_cdr_present, .rx_cdr_present, .length_om1_m, .length_om4_m, .wavelength_tolerance_pm]' "$tmp/m3.json")" = \
	'["NRZ",3,4,3500,true,true,0,null,7830]' ] && ok "encoding, power class, CDRs, OM1, wavelength tolerance" ||
	bad "identity extras: $(jq -c '.modules[0] | [.encoding, .encoding_code, .power_class, .max_power_mw, .tx_cdr_present, .rx_cdr_present, .length_om1_m, .length_om4_m, .wavelength_tolerance_pm]' "$tmp/m3.json")"

# monitor --poll: a FIFO as the kernel log keeps it running
set_bytes 3 0f 00 0f
mkdir -p "$cap/dev"
rm -f "$cap/dev/kmsg"
mkfifo "$cap/dev/kmsg"
waitfor() {     # N FILE PATTERN: up to N/10 s for PATTERN in FILE, while the monitor runs
	i=0
	while [ $i -lt "$1" ] && kill -0 $pid 2>/dev/null && ! grep -q "$3" "$2" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
}
exec 3<>"$cap/dev/kmsg"
"$MLXCLI" --sysroot "$cap" -j monitor --poll 1 >"$tmp/poll.out" 2>"$tmp/poll.err" 3>&- &
pid=$!
(sleep 180; kill $pid 2>/dev/null) 3>&- &     # a hung monitor fails the test, never hangs it
guard=$!
# the baseline is read when a counter's growth is an event (the second
# poll at the earliest; the module's flags are read in the first): a
# condition, not a time, so a slow run (valgrind) waits as long as it needs
python3 "$TOP_SRCDIR/tests/cli/ethtool-stat-set.py" "$eth" module_bus_stuck 1 || bad "cannot set module_bus_stuck"
waitfor 1200 "$tmp/poll.out" '"module_bus_stuck"'
set_bytes 3 0e          # lane 1's Rx LOS clears
waitfor 1200 "$tmp/poll.out" module_lane_flag_cleared
set_bytes 3 1f          # lane 1: Rx LOS again, and Tx LOS (one poll: both)
waitfor 1200 "$tmp/poll.out" '"tx_los"'
exec 3>&-
wait $pid
rc=$?
kill $guard 2>/dev/null
ev=$(jq -c 'select(.record == "event" and (.kind | startswith("module_lane_flag"))) |
	[.kind, .severity, .netdev, .pci_address, .name, .lane_number]' "$tmp/poll.out" | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$ev" = '["module_lane_flag_cleared","info","enp94s0f0np0","0000:5e:00.0","rx_los",1] ["module_lane_flag","error","enp94s0f0np0","0000:5e:00.0","rx_los",1] ["module_lane_flag","error","enp94s0f0np0","0000:5e:00.0","tx_los",1] ' ] &&
	ok "monitor --poll: the baseline's flags no event; a clear and two raised flags of lane 1" ||
	bad "monitor --poll: exit $rc, events $ev: $(cat "$tmp/poll.err")"
finish
