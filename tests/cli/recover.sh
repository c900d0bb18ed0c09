#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An interrupted write's journal (issue 26): an apply killed in the middle
# (strace delivers SIGKILL at its third file replacement) leaves a capture
# half changed and its journal; then
#   - a read command warns, and still answers (exit 0);
#   - `recover --dry-run` says one is pending and changes nothing;
#   - `recover` puts the old state back byte for byte, no temporary file
#     and no journal left; a second `recover` has nothing to do and the
#     read commands no longer warn;
#   - `recover --forget` drops a journal and leaves the settings as they
#     are;
#   - a writer that still runs (stopped by SIGSTOP at the same point) is
#     no interrupted write: no warning, `recover` leaves its journal, and
#     it finishes when it goes on.
# Exit 0 pass, 1 fail, 77 skip.
set -u
. "$(dirname "$0")/lib.sh"
need jq strace
# LeakSanitizer cannot run under ptrace (strace): it stops the process
# with a fatal error at exit.  Leaks are the rest of the suite's to find.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"; export ASAN_OPTIONS
[ "$MLXCLI" = "${MLXCLI_REAL:-$MLXCLI}" ] || { echo "SKIP: under a wrapper"; exit 77; }
XDG_RUNTIME_DIR=$tmp/run; export XDG_RUNTIME_DIR
mkdir -m 700 "$XDG_RUNTIME_DIR"
m() { "$MLXCLI" --sysroot "$tmp/c" "$@"; }
st() { m -j state; }
leftovers() { find "$tmp/c" \( -name '.*.tmp' -o -name '*.removed.*' \) | wc -l; }
journals() { find "$XDG_RUNTIME_DIR" -name '*journal*' | wc -l; }

fresh c cx5-ofed
st >"$tmp/old.json"
jq '.ports[0].pfc.enabled_priorities = [3,4]
	| (.ports[0].dcqcn.rp.parameters[] | select(.name == "rpg_ai_rate") | .value) = 7
	| .ports[0].sriov.vfs[1].vlan = 7 | .ports[0].roce.default_roce_tos = 96
	| .ports[1].sriov.num_vfs = 2' "$tmp/old.json" >"$tmp/new.json"

kill_at() {   # K: an apply of new.json killed at its K-th file replacement
	strace -f -o /dev/null -e inject=renameat:signal=KILL:when="$1" \
		"$MLXCLI" --sysroot "$tmp/c" apply "$tmp/new.json" >/dev/null 2>&1
}

kill_at 3
check "an apply killed mid-way leaves its journal" "$(journals)" 1
st >"$tmp/mixed.json"
[ "$(cmp -s "$tmp/mixed.json" "$tmp/old.json" && echo same)" != same ] &&
	ok "... and the capture half changed" || bad "the kill changed nothing: no test"

m devices >/dev/null 2>"$tmp/e"; rc=$?
check "a read command while it is pending: exit 0" "$rc" 0
grep -q "interrupted.*'mlxcli recover'" "$tmp/e" && ok "... warns" || bad "no warning: $(cat "$tmp/e")"

m -j recover --dry-run >"$tmp/o" 2>"$tmp/e"; rc=$?
check "recover --dry-run: exit 0, one pending, none recovered" \
	"$rc $(jq -c '[.dry_run, .pending, .recovered]' "$tmp/o")" "0 [true,1,0]"
check "... nothing changed" "$(st | cmp -s - "$tmp/mixed.json" && echo same) $(journals)" "same 1"

m -j recover >"$tmp/o" 2>"$tmp/e"; rc=$?
check "recover: exit 0, one recovered" "$rc $(jq -c '[.pending, .recovered, .failed]' "$tmp/o")" \
	"0 [1,1,0]"
jq -r .story "$tmp/o" | grep -q "finished the rollback" && ok "... says so" ||
	bad "story: $(jq -r .story "$tmp/o")"
check "... the old state, byte for byte" "$(st | cmp -s - "$tmp/old.json" && echo same)" same
check "... no leftovers, no journal" "$(leftovers) $(journals)" "0 0"
m recover >"$tmp/o" 2>"$tmp/e"; rc=$?
check "a second recover: nothing to do" "$rc $(cat "$tmp/o")" \
	"0 nothing to recover: no write was interrupted"
m devices >/dev/null 2>"$tmp/e"
check "a read command after: no warning" "$(cat "$tmp/e")" ""

# --forget: the journal goes, the settings stay as the kill left them
kill_at 3
st >"$tmp/mixed.json"
m -j recover --forget >"$tmp/o" 2>"$tmp/e"; rc=$?
check "recover --forget: exit 0, one" "$rc $(jq -c .recovered "$tmp/o")" "0 1"
jq -r .story "$tmp/o" | grep -q "forgot" && ok "... says it forgot" || bad "story: $(jq -r .story "$tmp/o")"
check "... the settings as the kill left them, no journal" \
	"$(st | cmp -s - "$tmp/mixed.json" && echo same) $(journals)" "same 0"
# (a capture whose rollback was forgotten keeps what the kill left, VF
# directories made for numvfs included: a new copy for the last part)
fresh c cx5-ofed

# a writer that still runs: stopped at the same point, then let go on
strace -f -o /dev/null -e inject=renameat:signal=STOP:when=3 \
	"$MLXCLI" --sysroot "$tmp/c" apply "$tmp/new.json" >/dev/null 2>"$tmp/w.err" &
tracer=$!
i=0
while [ "$(journals)" -eq 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
writer=$(pgrep -P $tracer | head -1)
if [ -z "$writer" ] || [ "$(journals)" -ne 1 ]; then
	bad "the stopped writer: pid '$writer', $(journals) journals"
	[ -n "$writer" ] && kill -KILL "$writer"
	wait $tracer
else
	m devices >/dev/null 2>"$tmp/e"
	check "a writer that runs: no warning" "$(cat "$tmp/e")" ""
	m -j recover >"$tmp/o" 2>"$tmp/e"; rc=$?
	check "... recover leaves its journal" "$rc $(jq -c .recovered "$tmp/o") $(journals)" "0 0 1"
	kill -CONT "$writer"
	wait $tracer; rc=$?
	check "... and it finishes when it goes on" "$rc $(cat "$tmp/w.err")" "0 "
	check "... the new state, no journal" \
		"$(st | jq -c '[.ports[0].pfc.enabled_priorities, .ports[1].sriov.num_vfs]') $(journals)" \
		"[[3,4],2] 0"
fi
finish
