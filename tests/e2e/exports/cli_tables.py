"""cli_tables.py -- read the tables `sonde stats` and `--format profile`
print (a title line, a header line, rows up to an empty line), for the
export checkers of tests/e2e/exports/."""


def text_table(lines, title):
    """The rows of the table under the line starting with title, as
    {first column: {column: text}}.  First columns (names) may hold spaces:
    the other columns are counted from the right; a last column "flags" may
    be empty (the profile prints it only for rows that have flags)."""
    idx = [k for k, l in enumerate(lines) if l.startswith(title)]
    if not idx:
        return {}
    head = lines[idx[0] + 1].split()
    out = {}
    for l in lines[idx[0] + 2:]:
        if not l.strip():
            break
        f = l.split()
        cols = head
        if head[-1] == "flags" and not (f[-1].isalpha() and f[-1].isupper()):
            cols = head[:-1]  # no flags on this row
        name = " ".join(f[:len(f) - len(cols) + 1])
        out[name] = dict(zip(cols, [name] + f[len(f) - len(cols) + 1:]))
    return out
