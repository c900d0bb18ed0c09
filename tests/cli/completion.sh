#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion through real bash: the script in completions/ asks
# `mlxcli __complete`, so this checks the script, the hidden command and the
# tables together; then zsh through a pseudo-terminal (tmux) when both are
# installed (tests/setup.sh installs them).
set -u
. "$(dirname "$0")/lib.sh"
need bash
export LC_ALL=C         # one sort order for the expected lists
STATE=$MLXCLI_STATE_DIR
# The scripts run "mlxcli" by name: put one on PATH that runs $MLXCLI (the
# binary, or the valgrind wrapper of `make check-valgrind`).
BIN=$STATE/bin
mkdir -p "$BIN"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$MLXCLI" >"$BIN/mlxcli"
chmod +x "$BIN/mlxcli"

# complete WORDS... : print COMPREPLY for the line "mlxcli WORDS..." (the last
# word is the one being completed; "" for a fresh word).
complete_line() {
	PATH="$BIN:$PATH" bash -c '
		. "$TOP_SRCDIR/completions/mlxcli"
		COMP_WORDS=(mlxcli "$@"); COMP_CWORD=$#
		_mlxcli
		printf "%s\n" "${COMPREPLY[@]}" | sort' bash "$@"
}

expect() {      # expect "WANTED LINES" words...
	want=$1
	shift
	got=$(complete_line "$@" | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$want" ]; then
		ok "mlxcli $* -> $got"
	else
		bad "mlxcli $* -> '$got', wanted '$want'"
	fi
}

expect "devices" dev
# A group's words: exactly what `mlxcli help GROUP` lists.
listed() { "$MLXCLI" help "$@" | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\).*/\1/p' | sort | tr '\n' ' ' | sed 's/ $//'; }
expect "$(listed show)" show ""
expect "--json" --js
expect "sample" sam
expect "list reset" sample ""
# A fresh word: exactly the commands `mlxcli help` lists, in any order.
expect "$("$MLXCLI" help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p' | sort | tr '\n' ' ' | sed 's/ $//')" ""
# After -d: the devices of the system named on the line.
expect "0000:5e:00.0 0000:5e:00.1 0000:5e:00.2 0000:5e:00.3 0000:5e:00.4 0000:5e:00.5" --sample devices -d 0000
expect "enp94s0f0np0" --sample -d enp94s0f0
expect "mlx5_0 mlx5_1" --sample=cx6dx-upstream -d mlx5
# issue 24: rdma's commands, its devices, the QP and CM ID states
expect "cm-id cq ctx gids mr pd qp show srq stats" rdma ""
expect "mlx5_0 mlx5_1" --sample=cx6dx-upstream rdma qp -d mlx5
expect "ERR INIT RESET RTR RTS SQD SQE" rdma qp --state ""
expect "LISTEN" rdma cm-id --state L
expect "connections" show nd ""
# Positional words from the tables (issue 8): DCQCN parameter names in
# both spellings, priorities, option values with choices, help's words.
expect "DcqcnRpgAiRate" qosconfig dcqcn set DcqcnRpgAi
expect "rpg_ai_rate" --sample qosconfig dcqcn set -d enp94s0f0np0 rpg_ai
expect "rp_ai_rate" qosconfig dcqcn set DcqcnCnpDscp 3 rp_ai
expect "" qosconfig dcqcn set DcqcnRpgAiRate ""
expect "-DcqcnRpgAiRate" qosconfig dcqcn set -DcqcnRpgAi
expect "DcqcnRpgAiRate" qosconfig dcqcn describe DcqcnRpgAi
expect "rpg_min_dec_fac rpg_min_rate" qosconfig dcqcn describe rpg_min
expect "" qosconfig dcqcn describe DcqcnRpgAiRate ""
expect "0 1 2 3 4 5 6 7 all" qosconfig dcqcn enable ""
expect "0 1 2 3 4 5 6 7" qosconfig default-untagged-priority set ""
expect "linux mlx5cmd" qosconfig dcqcn get --names ""
expect "linux" qosconfig dcqcn defaults --names l
expect "--names=linux" qosconfig dcqcn get --names=l
# bash's own word split at '=' (COMP_WORDBREAKS): "--names" "=" "l"
expect "linux" qosconfig dcqcn get --names = l
expect "linux mlx5cmd" qosconfig dcqcn get --names =
expect "$(listed qosconfig)" help qosconfig ""
expect "$(listed qosconfig dcqcn)" help qosconfig dcqcn ""
expect "shell" she
expect "--batch" --bat
# Unknown words complete to nothing rather than to something wrong.
expect "" nosuch ""

# Every value the tables know (issue 15): sub-verbs, views, modes, settings,
# option values from lib's tables, samples, incidents.
expect "cc errors prio show watch" counters ""
expect "cc" counters -g port c
expect "$(printf '%s\n' port vport prio queue channel pcie congestion rdma netdev driver module phy \
	errors uncatalogued | sort | tr '\n' ' ' | sed 's/ $//')" counters --group ""
expect "port,vport" counters --group port,vp
expect "errors" counters watch -g err
expect "dscp pcp" qosconfig trust ""
expect "firmware host" qosconfig dcbx ""
expect "del flush set" qosconfig dscp2prio ""
expect "bw prio-tc tsa" qosconfig ets prio-tc 0:0 ""
expect "legacy switchdev" --sample sriov eswitch -d 5e:00.0 ""
# params: knob names, and after NAME= the catalogue's values for it
expect "rx_ring" params set -d X rx_ri
expect "rx_cqe_compress=off rx_cqe_compress=on" params set -d X rx_cqe_compress=
expect "flow_steering_mode=dmfs flow_steering_mode=hmfs flow_steering_mode=smfs" params set -d X flow_steering_mode=
expect "legacy switchdev" sriov eswitch -d X ""
expect "numvfs" sriov set ""
expect "set" sriov vf 0 ""
expect "mac max-rate min-rate qos rate spoofchk state trust vlan" sriov vf 0 set ""
expect "mac max-rate min-rate" sriov vf 0 set vlan 5 m
expect "enp94s0f0np0 enp94s0f1np1 enp94s0f2 enp94s0f3 enp94s0f4 enp94s0f5" --sample dbg restart ""
expect "enp94s0f1np1" --sample modify tc-bw enp94s0f1
expect "activate flash query" fw ""
expect "show" pci ""
expect "list show verify" dump-me-now ""
# --sample=NAME as bash hands it over: "--sample" "=" NAME
expect "cx5-ofed cx6dx-upstream" --sample =
expect "cx6dx-upstream" --sample = cx6
expect "mlx5_0 mlx5_1" --sample = cx6dx-upstream -d mlx5
expect "cx5-ofed cx6dx-upstream" sample reset ""
# and as zsh and the shell hand it over: one word
got=$("$MLXCLI" __complete --sample= | tr '\n' ' ')
check "mlxcli __complete --sample=" "$got" "--sample=cx5-ofed --sample=cx6dx-upstream "
# The incidents of the dump root the line names.
inc=$("$MLXCLI" --sample dump-me-now --no-crdump -d 5e:00.0 --dir "$STATE/dmn" 2>/dev/null) ||
	bad "cannot make an incident"
expect "$(basename "$inc")" dump-me-now show --dir "$STATE/dmn" ""
# mlx5cmd's syntax (-Qosconfig, cmd/compat.c): its own words, netdevs after
# -Name, the parameter names in their "-Name VALUE" form after -Set.
expect "-Dcqcn -DefaultUntaggedPriority -Ets -Name -Pfc -Trust" -Qosconfig ""
expect "-Defaults -Disable -Enable -Get -Name -Restore -Set" -Qosconfig -Dcqcn ""
expect "-Get -Set" -Qosconfig -DefaultUntaggedPriority -Name x -
expect "-Get -Set" -Qosconfig -Trust -Name x -
expect "enp94s0f0np0 enp94s0f1np1 enp94s0f2 enp94s0f3 enp94s0f4 enp94s0f5" \
	--sample -Qosconfig -Dcqcn -Name ""
expect "enp59s0f0np0 enp59s0f1np1" --sample = cx6dx-upstream -Qosconfig -Name ""
expect "-DcqcnRpgAiRate" -Qosconfig -Dcqcn -Name x -Set -DcqcnRpgAi
expect "" -Qosconfig -Dcqcn -Name x -Set -DcqcnRpgAiRate ""
expect "-Qosconfig" -Q
expect "-DriverParams -DriverVersion" -Dr

# zsh: the completion function installed as zsh installs it (fpath +
# compinit), driven by real keystrokes in an interactive zsh in a
# pseudo-terminal (tmux), since zsh completes only on a terminal.
if command -v zsh >/dev/null && command -v tmux >/dev/null; then
	ZD=$STATE/zdot
	mkdir -p "$ZD" "$STATE/zfunc"
	cp "$TOP_SRCDIR/completions/_mlxcli" "$STATE/zfunc/"
	{
		echo "PATH=\"$BIN:\$PATH\""
		echo "fpath=(\"$STATE/zfunc\" \$fpath)"
		echo "autoload -U compinit"
		echo "compinit -u -d \"$STATE/zcompdump\""
		echo "PS1='zsh> '"
	} >"$ZD/.zshrc"
	SOCK=$STATE/tmux.sock
	on_exit='tmux -S "$SOCK" kill-server 2>/dev/null'
	tmux -S "$SOCK" new-session -d -x 150 -y 30 \
		"env HOME='$STATE' TERM=xterm ZDOTDIR='$ZD' MLXCLI_STATE_DIR='$STATE' zsh -i"
	zscreen() { tmux -S "$SOCK" capture-pane -p 2>/dev/null; }
	zwait() {       # zwait TEXT WHAT: the screen shows TEXT within 10 s
		i=0
		while [ $i -lt 100 ]; do
			if zscreen | grep -qF -- "$1"; then
				ok "zsh: $2"
				return 0
			fi
			sleep 0.1
			i=$((i + 1))
		done
		bad "zsh: $2: '$1' not on the screen"
		zscreen | grep -v '^$' | tail -8
	}
	zwait "zsh>" "an interactive zsh with compinit"
	tmux -S "$SOCK" send-keys "mlxcli qosc" Tab
	zwait "zsh> mlxcli qosconfig" "TAB completes a command word"
	tmux -S "$SOCK" send-keys "dcqcn describe DcqcnRpgAi" Tab
	zwait "describe DcqcnRpgAiRate" "TAB completes a DCQCN parameter name"
	tmux -S "$SOCK" send-keys C-u "mlxcli counters --gro" Tab
	zwait "counters --group" "TAB completes an option"
	tmux -S "$SOCK" send-keys C-u "mlxcli sriov vf 0 set spoof" Tab
	zwait "set spoofchk" "TAB completes a value from a command's arguments"
	tmux -S "$SOCK" send-keys C-u "mlxcli -Qosconfig -Dcq" Tab
	zwait "mlxcli -Qosconfig -Dcqcn" "TAB completes an mlx5cmd word"
	tmux -S "$SOCK" kill-server 2>/dev/null
else
	echo "note: zsh or tmux not installed: the zsh completion is not exercised"
fi
finish
