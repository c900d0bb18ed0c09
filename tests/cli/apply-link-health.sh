#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 27: the link settings (pause, speed/duplex/autoneg, FEC) and each
# devlink health reporter's policy (grace period, auto_recover, auto_dump)
# are sections of the state document: `state` prints them, `apply` reads
# them back through the one engine, `diff` shows them.  On both sample
# hosts: state -> link set / health set -> apply the first state restores
# it; --dry-run and --check write nothing; a bad value anywhere in the file
# changes nothing (exit 2, naming its path); global pause over PFC (cx5:
# PFC on priorities 3 and 6, so pause off, as mlx5 reports it) needs --yes,
# and turns PFC off (one register, PFCC): apply puts both back.
set -u
. "$(dirname "$0")/lib.sh"
need jq

for s in cx5-ofed cx6dx-upstream; do
	# cx5-ofed has PFC on (global pause off), cx6dx-upstream PFC off (pause on)
	case $s in cx5*) gp=false now=no flip=on subs='["health","link","qos"]' ;;
		*) gp=true now=yes flip=off subs='["health","link"]' ;; esac
	fresh h "$s"
	M="$MLXCLI --sysroot $tmp/h"
	$M -j state >"$tmp/s0.json" || bad "$s: state"
	check "$s: state has the link section" \
		"$(jq -c '.ports[0].link | [.autoneg, .fec, .pause.autoneg, .pause.rx, .pause.tx]' "$tmp/s0.json")" \
		"[true,\"auto\",false,$gp,$gp]"
	check "$s: state has each reporter's policy" \
		"$(jq -c '[.ports[0].health[] | select(.reporter == "fw_fatal") | .grace_period_ms, .auto_recover, .auto_dump]' "$tmp/s0.json")" \
		'[60000,true,true]'
	$M state >"$tmp/s0.txt"
	grep -qx "  link.pause.rx = $now" "$tmp/s0.txt" && grep -qx '  health.fw_fatal.grace_period_ms = 60000' "$tmp/s0.txt" &&
		ok "$s: the text says link.pause.rx and health.fw_fatal.grace_period_ms" ||
		bad "$s: text: $(grep -E 'link|health' "$tmp/s0.txt" | head -5)"
	# a state applied to its own host changes nothing
	check "$s: state applied back changes nothing" "$($M -j apply "$tmp/s0.json" | jq -c .changed)" false

	pci=$(jq -r '.ports[0].pci_address' "$tmp/s0.json")
	nd0=$(jq -r '.ports[0].netdev' "$tmp/s0.json")
	nd1=$(jq -r '.ports[1].netdev' "$tmp/s0.json")
	$M link set -d "$nd0" pause rx $flip tx $flip --yes >/dev/null 2>&1 || bad "$s: link set pause"
	$M link set -d "$nd1" fec rs >/dev/null 2>&1 || bad "$s: link set fec"
	$M health set -d "$pci" fw_fatal grace_period 1000 auto_recover off >/dev/null 2>&1 ||
		bad "$s: health set"
	$M -j state >"$tmp/s1.json"
	"$MLXCLI" diff "$tmp/s0.json" "$tmp/s1.json" >"$tmp/diff" 2>&1
	for p in link.pause.rx link.pause.tx link.fec health.fw_fatal.grace_period_ms health.fw_fatal.auto_recover; do
		grep -q "$p" "$tmp/diff" || bad "$s: diff lacks $p: $(cat "$tmp/diff")"
	done
	check "$s: diff shows the five changed settings" "$(grep -cE '^\+(link|health)\.' "$tmp/diff")" 5

	# all or nothing: a bad value after good ones changes nothing
	for bad in '.ports[1].link.fec = "fast"' '.ports[0].health[1].grace_period_ms = -1' \
		'.ports[0].link.pause.rx = "on"' '.ports[0].link.pause.storm = true' \
		'.ports[0].health[0].reporter = "a/b"' '.ports[0].link.speed_mbps = 0'; do
		jq "$bad" "$tmp/s0.json" >"$tmp/bad.json"
		sum=$(tree_sum "$tmp/h")
		$M apply --yes "$tmp/bad.json" >/dev/null 2>"$tmp/e"; rc=$?
		check "$s: $bad: exit 2" "$rc" 2
		grep -q 'nothing was changed' "$tmp/e" && grep -qE 'ports\[[01]\]\.(link|health)' "$tmp/e" ||
			bad "$s: $bad: message: $(cat "$tmp/e")"
		check "$s: $bad: nothing written" "$(tree_sum "$tmp/h")" "$sum"
	done

	sum=$(tree_sum "$tmp/h")
	$M apply --yes --dry-run "$tmp/s0.json" >"$tmp/dry" 2>&1
	$M apply --yes --check "$tmp/s0.json" >/dev/null 2>&1
	check "$s: --dry-run and --check write nothing" "$(tree_sum "$tmp/h")" "$sum"
	grep -q "link pause.rx: $flip -> $([ $flip = on ] && echo off || echo on)" "$tmp/dry" && grep -q 'health fw_fatal.grace_period_ms: 1000 -> 60000' "$tmp/dry" &&
		ok "$s: the plan names the link and health changes" || bad "$s: plan: $(cat "$tmp/dry")"

	$M -j apply --yes "$tmp/s0.json" >"$tmp/a.json"
	check "$s: apply wrote the link and the health policy (cx5: PFC too, cleared by pause on)" \
		"$(jq -c '[.changes[] | .subsystem] | unique' "$tmp/a.json")" "$subs"
	$M -j state >"$tmp/s2.json"
	cmp -s "$tmp/s0.json" "$tmp/s2.json" && ok "$s: apply restored the state" ||
		bad "$s: the state differs: $(diff "$tmp/s0.json" "$tmp/s2.json" | head -5)"
	check "$s: a second apply changes nothing" "$($M -j apply "$tmp/s0.json" | jq -c .changed)" false
done

# cx5-ofed has PFC on priorities 3 and 6: turning global pause on is
# destructive on mlx5 (one register, PFCC): without --yes apply refuses,
# exit 2
fresh h cx5-ofed
M="$MLXCLI --sysroot $tmp/h"
$M -j state | jq '.ports[0].link.pause.rx = true' >"$tmp/on.json"
sum=$(tree_sum "$tmp/h")
$M apply "$tmp/on.json" >/dev/null 2>"$tmp/e"; rc=$?
check "cx5: pause on over PFC without --yes: exit 2" "$rc" 2
grep -q 'ports\[0\]\.link\.pause\.rx on enp94s0f0np0: global pause and PFC share one register' "$tmp/e" &&
	ok "cx5: ... says why" || bad "cx5: message: $(cat "$tmp/e")"
check "cx5: ... nothing written" "$(tree_sum "$tmp/h")" "$sum"
$M apply --yes "$tmp/on.json" >/dev/null 2>&1
check "cx5: with --yes: pause rx on, PFC off (as mlx5 does)" \
	"$($M -j state | jq -c '.ports[0] | [.link.pause.rx, .pfc.enabled_priorities]')" '[true,[]]'
finish
