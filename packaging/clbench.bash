# bash completion for clbench(1): commands, flags and benchmark row names. Every word is asked of
# the clbench being completed (--help, run --list), so the completion never lags the tool.
_clbench()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd="" w help
    local bin=${COMP_WORDS[0]}
    for w in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
        case $w in -*) ;; *) cmd=$w; break ;; esac
    done
    case $prev in
    --json | --html | --csv | --markdown | --reference | --from)
        COMPREPLY=($(compgen -f -- "$cur")); return ;;
    -t | --type) COMPREPLY=($(compgen -W "cpu gpu accelerator all" -- "$cur")); return ;;
    --workload) COMPREPLY=($(compgen -W "stream gemm stencil transfer latency" -- "$cur")); return ;;
    --platforms) COMPREPLY=($(compgen -W "all" -- "$cur")); return ;;
    --data-on) COMPREPLY=($(compgen -W "host device" -- "$cur")); return ;;
    --inject-fault) COMPREPLY=($(compgen -W "wrong partial skip" -- "$cur")); return ;;
    -p | --platform | -d | --device | --reps | --time-budget | --warmup | --target-ms | --watchdog-ms | \
    --threshold | --bench-timeout | --max-spread | --variant | --size | --budget | --max-input)
        return ;;
    esac
    help=$("$bin" --help 2>/dev/null) || return
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u) -p -d -t -h" -- "$cur"))
        return
    fi
    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "$(sed -n '/^commands:/,/^[a-z]/s/^  \([a-z][a-z-]*\) .*/\1/p' <<<"$help")" -- "$cur"))
        return
    fi
    case $cmd in
    run) COMPREPLY=($(compgen -W "$("$bin" run --list 2>/dev/null | awk '$1 ~ /^[a-z_0-9]+\./ {print $1}')" -- "$cur")) ;;
    report | compare | fleet-check) COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur")) ;;
    tune) COMPREPLY=($(compgen -W "gemm euler" -- "$cur")) ;;
    db) COMPREPLY=($(compgen -W "list show match" -- "$cur")) ;;
    cache) COMPREPLY=($(compgen -W "list clear" -- "$cur")) ;;
    store)
        # the subcommands as --help lists them ("  store add|list|...  the results store")
        if [[ $prev == store ]]; then COMPREPLY=($(compgen -W "$(sed -n 's/^  store \([a-z|]*\) .*/\1/p' <<<"$help" | tr '|' ' ')" -- "$cur"))
        elif [[ $prev == site ]]; then COMPREPLY=($(compgen -d -- "$cur"))
        else COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur")); fi ;;
    esac
}
complete -F _clbench clbench
