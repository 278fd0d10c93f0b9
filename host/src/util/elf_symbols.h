/*
 * elf_symbols.h -- function symbols of an ELF file, for naming addresses.
 *
 * Loads the function symbols (STT_FUNC, STT_GNU_IFUNC) of an ELF file with
 * elfutils' libelf, once, into a sorted table, then answers "which function
 * covers this address".  On ARM (e_machine EM_ARM) bit 0 of both symbol
 * values and looked-up addresses is the Thumb bit, not part of the address,
 * and is ignored.  The file is closed after loading; the table owns copies of
 * the names.
 */
#ifndef ELFSYM_H
#define ELFSYM_H

#include <stddef.h>
#include <stdint.h>

struct elfsym;

/* Load the function symbols of path.  On failure returns NULL and writes a
 * message (no trailing newline) into err[errlen]. */
struct elfsym *elfsym_open(const char *path, char *err, size_t errlen);
void elfsym_close(struct elfsym *es);

/* The function whose [start, start + size) covers addr (a symbol of size 0
 * covers only its own address), or NULL.  *start (may be NULL) receives the
 * symbol's start address, Thumb bit cleared, so callers can tell two
 * functions of the same name apart. */
const char *elfsym_lookup(const struct elfsym *es, uint64_t addr, uint64_t *start);

/* Number of function symbols loaded. */
size_t elfsym_count(const struct elfsym *es);

#endif /* ELFSYM_H */
