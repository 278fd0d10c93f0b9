#!/usr/bin/env python3
"""cli_docs.py SONDE DOC [--check] -- the generated tables of docs/cli.md.

The command table and the option tables of every command are written from
the program's own tables (`sonde help --list`) between the markers
<!-- cli_docs: NAME --> and <!-- /cli_docs -->, so that the manual cannot
drift from the program: run it after changing a command or an option; with
--check it changes nothing and fails, showing the difference, when the
document is not what the program says (ctest: e2e.test_cli_help).
"""
import difflib
import re
import subprocess
import sys


def tables(sonde):
    out = subprocess.run([sonde, "help", "--list"], check=True, capture_output=True, text=True).stdout
    cmds, opts, operand = [], {}, {}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "command":
            cmds.append((f[1], f[2]))
            opts[f[1]] = []
        elif f[0] == "operand":
            operand[f[1]] = f[2]
        elif f[0] == "option":
            opts[f[1]].append(f[2:])
    return cmds, opts, operand


def cell(text):
    return text.replace("|", "\\|")


def block_commands(cmds, opts, operand):
    rows = ["| command | what it does |", "|---|---|"]
    rows += ["| `%s` | %s |" % (n, cell(s)) for n, s in cmds]
    return rows


def block_options(cmds, opts, operand):
    rows = []
    for n, _ in cmds:
        rows += ["", "### `sonde %s%s`" % (n, " " + operand[n] if n in operand else ""), ""]
        rows += ["| option | value | meaning |", "|---|---|---|"]
        for short, long, arg, text in opts[n]:
            names = ", ".join("`%s`" % x for x in (short, long) if x not in ("-", "--"))
            rows.append("| %s | %s | %s |" % (names, "`%s`" % arg if arg != "-" else "", cell(text)))
    return rows[1:]


BLOCKS = {"commands": block_commands, "options": block_options}


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--check"):
        sys.exit("usage: cli_docs.py SONDE DOC [--check]")
    sonde, doc = sys.argv[1], sys.argv[2]
    t = tables(sonde)
    old = open(doc, encoding="utf-8").read()
    seen = set()

    def fill(m):
        name = m.group(1)
        if name not in BLOCKS:
            sys.exit("%s: unknown block '%s'" % (doc, name))
        seen.add(name)
        return "%s\n%s\n%s" % (m.group(0).split("\n", 1)[0], "\n".join(BLOCKS[name](*t)), "<!-- /cli_docs -->")

    new = re.sub(r"<!-- cli_docs: (\w+) -->\n.*?<!-- /cli_docs -->", fill, old, flags=re.S)
    if seen != set(BLOCKS):
        sys.exit("%s: missing blocks: %s" % (doc, ", ".join(sorted(set(BLOCKS) - seen))))
    if new == old:
        return
    if len(sys.argv) == 4:
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), doc, doc + " (from sonde help --list)"))
        sys.exit("%s: the tables differ from the program's: run scripts/cli_docs.py %s %s" % (doc, sonde, doc))
    open(doc, "w", encoding="utf-8").write(new)


main()
