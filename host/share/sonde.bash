# sonde.bash -- bash completion for sonde(1); installed as
# share/bash-completion/completions/sonde.
#
# Commands, operands, options, protocols and formats come from the program
# itself -- `sonde help --list` (its tables, tab-separated) and the lists
# of `sonde help COMMAND` -- so the completion follows the sonde being
# completed, whatever its version; tests/e2e/test_cli_help.sh checks it.

# The first word of each line of the block under HEADER in TEXT.
_sonde_block()
{
    awk -v h="$2" 'index($0, h) == 1 { on = 1; next }
        on && /^  [a-z]/ { print $1; next }
        on && !/^  / { on = 0 }' <<<"$1"
}

_sonde()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local prog=${COMP_WORDS[0]} list cmd arg kind i nargs=0
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        list=$("$prog" help --list 2>/dev/null)
        COMPREPLY=($(compgen -W "$(awk -F'\t' '$1 == "command" { print $2 }' <<<"$list") --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    list=$("$prog" help --list "$cmd" 2>/dev/null) || return
    # the value of the option before the cursor
    arg=$(awk -F'\t' -v o="$prev" '$1 == "option" && ($3 == o || $4 == o) { print $5; exit }' <<<"$list")
    case $arg in
        "" | -) ;;
        NAME)
            case $prev in
                -p | --proto) COMPREPLY=($(compgen -W "$(_sonde_block "$("$prog" help "$cmd" 2>/dev/null)" "protocols (--proto):")" -- "$cur")) ;;
                -f | --format) COMPREPLY=($(compgen -W "$(_sonde_block "$("$prog" help "$cmd" 2>/dev/null)" "formats (--format):")" -- "$cur")) ;;
            esac
            return ;;
        FILE | PATH | RAW)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        *) return ;; # a value sonde cannot guess (a number, a link, KEY=VALUE)
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(awk -F'\t' '$1 == "option" { if ($3 != "-") print $3; if ($4 != "-") print $4 }' <<<"$list")" -- "$cur"))
        return
    fi
    kind=$(awk -F'\t' '$1 == "operand" { print $3 }' <<<"$list")
    case $kind in
        COMMAND)
            # its first operand is one of its words; what follows is the
            # word's own arguments (addresses, lists): nothing to offer
            for ((i = 2; i < COMP_CWORD; i++)); do
                [[ ${COMP_WORDS[i]} == -* ]] && continue
                arg=$(awk -F'\t' -v o="${COMP_WORDS[i-1]}" '$1 == "option" && ($3 == o || $4 == o) { print $5; exit }' <<<"$list")
                [[ -n $arg && $arg != - && ${COMP_WORDS[i-1]} == -* ]] && continue
                nargs=$((nargs + 1))
            done
            ((nargs == 0)) && COMPREPLY=($(compgen -W "$(awk -F'\t' '$1 == "word" { print $3 }' <<<"$list")" -- "$cur"))
            ;;
        FILE | LINK)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            ;;
    esac
}
complete -F _sonde sonde
