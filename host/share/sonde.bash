# sonde.bash -- bash completion for sonde(1); installed as
# share/bash-completion/completions/sonde.
#
# Commands, options, protocols and formats are read from the program's own
# help (`sonde --help`, `sonde help COMMAND`), so the completion follows
# the sonde being completed, whatever its version.

# The first word of each line of the block under HEADER in TEXT.
_sonde_block()
{
    awk -v h="$2" 'index($0, h) == 1 { on = 1; next }
        on && /^  [a-z]/ { print $1; next }
        on && !/^  / { on = 0 }' <<<"$1"
}

# "OPTION ARG" for each option of a help TEXT (ARG "-" when it takes none).
_sonde_options()
{
    awk '/^  +-/ {
        n = 0; arg = "-"
        for (i = 1; i <= NF; i++) {
            w = $i; sub(/,$/, "", w)
            if (w ~ /^-/) { opt[++n] = w; continue }
            if (w ~ /^[A-Z][A-Z0-9_=.:\[\]|-]*$/) arg = w
            break
        }
        for (k = 1; k <= n; k++) print opt[k], arg
    }' <<<"$1"
}

_sonde()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local prog=${COMP_WORDS[0]} help opts arg
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$(_sonde_block "$("$prog" --help 2>/dev/null)" "commands:") --help --version" -- "$cur"))
        return
    fi
    help=$("$prog" help "${COMP_WORDS[1]}" 2>/dev/null) || return
    opts=$(_sonde_options "$help")
    arg=$(awk -v o="$prev" '$1 == o { print $2; exit }' <<<"$opts")
    case $arg in
        "" | -) ;;
        NAME)
            case $prev in
                -p | --proto) COMPREPLY=($(compgen -W "$(_sonde_block "$help" "protocols (--proto):")" -- "$cur")) ;;
                -f | --format) COMPREPLY=($(compgen -W "$(_sonde_block "$help" "formats (--format):")" -- "$cur")) ;;
            esac
            return ;;
        FILE | PATH | RAW)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        *) return ;; # a value sonde cannot guess (a number, a link, KEY=VALUE)
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(awk '{ print $1 }' <<<"$opts")" -- "$cur"))
        return
    fi
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _sonde sonde
