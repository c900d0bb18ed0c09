#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The monitor's devlink health events from a real kernel driver: netdevsim
# in the kernel lab.  An error of its dummy reporter (debugfs
# health/break_health: devlink_health_report, which recovers at once) and
# a `devlink health recover` are DEVLINK_CMD_HEALTH_REPORTER_RECOVER
# notifications (net/devlink: devlink_recover_notify); mlxcli monitor -j
# shows them as events of source devlink with the reporter, its state and
# its counts, as devlink health show has them after.
# Runs in the kernel lab only (tests/vm); exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_lab
need jq devlink
make_nsim 1

"$MLXCLI" -j monitor >"$tmp/mon.out" 2>"$tmp/mon.err" &
pid=$!
on_exit="kill $pid 2>/dev/null; $on_exit"
# its own device's events only: the other lane's tests (nsim-lifecycle.sh)
# break and recover the dummy reporter of their own netdevsim meanwhile
mine() { jq -c --arg h "$nsim: " 'select(.record == "event" and .reporter == "dummy" and
	((.message // "") | startswith($h)))' "$tmp/mon.out" 2>/dev/null; }
# subscribed once its first (rtnetlink) socket joined a group, then a
# little for the devlink one opened right after it; an error is retried
# (bounded) until one shows, in case the monitor joined late
i=0
while [ $i -lt 100 ] && ! awk -v p="$pid" '$2 == 0 && $3 == p && $4 ~ /[13579bdf]$/ { f = 1 } END { exit !f }' \
	/proc/net/netlink; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1
n=0
while [ $n -lt 10 ] && [ -z "$(mine)" ]; do
	echo "lab monitor test" >"$nsim_dbg/health/break_health"
	n=$((n + 1))
	sleep 1
done
devlink health recover "$nsim" reporter dummy || bad "devlink health recover failed"
i=0
while [ $i -lt 50 ] && [ "$(mine | wc -l)" -lt 3 ]; do sleep 0.2; i=$((i + 1)); done
kill -TERM $pid
wait $pid
rc=$?
check "monitor: exit 0 on SIGTERM" "$rc" 0
ev=$(mine | jq -c '[.source, .kind]' 2>/dev/null | sort -u | tr '\n' ' ')
case $ev in
*'["devlink","health_reporter_error"]'*) ok "an error: a devlink event" ;;
*) bad "no error event of reporter dummy: $ev $(cat "$tmp/mon.err")" ;;
esac
case $ev in
*'["devlink","health_reporter_healthy"]'*) ok "a recovery: a devlink event" ;;
*) bad "no recovery event of reporter dummy: $ev" ;;
esac
# the last event's counts are devlink's own now
last=$(mine | tail -n 1)
want=$(devlink -j health show | jq -c --arg h "$nsim" '.health[$h][] | select(.reporter == "dummy") | [.error, .recover]')
got=$(echo "$last" | jq -c '[.error_count, .recover_count]' 2>/dev/null)
check "the last event's counts are devlink health show's" "$got" "$want"
echo "$last" | grep -q "$nsim" && ok "the event names $nsim" || bad "the event does not name $nsim: $last"
finish
