/*
 * elf_symbols.c -- function symbols of an ELF file (see elf_symbols.h).
 *
 * Reads .symtab (or .dynsym when the file is stripped) with libelf/gelf,
 * which handles 32/64-bit and either byte order.  Several symbols can share
 * an address (aliases, and on Cortex-M every unused IRQ handler is a weak
 * alias of one default handler); one name per address is kept: global before
 * weak before local, then the alphabetically first, so the result never
 * depends on symbol table order.
 */
#include "elf_symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct elfsym_ent {
	uint64_t start;
	uint64_t size;
	size_t name;   /* offset into names */
	int rank;      /* lower is preferred: 0 global, 1 weak, 2 local */
};

struct elfsym {
	struct elfsym_ent *ents;
	size_t n;
	char *names;
	uint64_t addr_mask; /* ~1 on ARM (Thumb bit), else all ones */
};

static int elfsym_rank(unsigned bind)
{
	switch (bind) {
	case STB_GLOBAL: return 0;
	case STB_WEAK: return 1;
	default: return 2;
	}
}

static int elfsym_cmp(const void *a, const void *b, void *names)
{
	const struct elfsym_ent *x = a, *y = b;
	const char *nm = names;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(nm + x->name, nm + y->name);
}

/* The symbol table to use: .symtab, else .dynsym. */
static Elf_Scn *elfsym_find_table(Elf *elf, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr dynhdr;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr h;

		if (!gelf_getshdr(scn, &h))
			continue;
		if (h.sh_type == SHT_SYMTAB) {
			*shdr = h;
			return scn;
		}
		if (h.sh_type == SHT_DYNSYM && !dyn) {
			dyn = scn;
			dynhdr = h;
		}
	}
	if (dyn)
		*shdr = dynhdr;
	return dyn;
}

static int elfsym_load(struct elfsym *es, Elf *elf, char *err, size_t errlen)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *data;
	size_t nsyms, cap_names = 0, used_names = 0;

	if (!gelf_getehdr(elf, &ehdr)) {
		snprintf(err, errlen, "not an ELF file (%s)", elf_errmsg(-1));
		return -1;
	}
	es->addr_mask = ehdr.e_machine == EM_ARM ? ~(uint64_t)1 : ~(uint64_t)0;
	scn = elfsym_find_table(elf, &shdr);
	if (!scn) {
		snprintf(err, errlen, "no symbol table (stripped?)");
		return -1;
	}
	data = elf_getdata(scn, NULL);
	if (!data || shdr.sh_entsize == 0) {
		snprintf(err, errlen, "unreadable symbol table (%s)", elf_errmsg(-1));
		return -1;
	}
	nsyms = shdr.sh_size / shdr.sh_entsize;
	es->ents = calloc(nsyms ? nsyms : 1, sizeof(*es->ents));
	if (!es->ents)
		goto nomem;
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;
		size_t len;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		    GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC)
			continue;
		if (sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		len = strlen(name) + 1;
		if (used_names + len > cap_names) {
			size_t nc = cap_names ? cap_names * 2 : 4096;
			char *p;

			while (nc < used_names + len)
				nc *= 2;
			p = realloc(es->names, nc);
			if (!p)
				goto nomem;
			es->names = p;
			cap_names = nc;
		}
		memcpy(es->names + used_names, name, len);
		es->ents[es->n].start = sym.st_value & es->addr_mask;
		es->ents[es->n].size = sym.st_size;
		es->ents[es->n].name = used_names;
		es->ents[es->n].rank = elfsym_rank(GELF_ST_BIND(sym.st_info));
		es->n++;
		used_names += len;
	}
	if (es->n) {
		size_t out = 0;

		qsort_r(es->ents, es->n, sizeof(*es->ents), elfsym_cmp, es->names);
		/* keep the preferred (first after sorting) of each address, with
		 * the largest size any alias declares */
		for (size_t i = 0; i < es->n; i++) {
			if (out && es->ents[out - 1].start == es->ents[i].start) {
				if (es->ents[i].size > es->ents[out - 1].size)
					es->ents[out - 1].size = es->ents[i].size;
				continue;
			}
			es->ents[out++] = es->ents[i];
		}
		es->n = out;
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

struct elfsym *elfsym_open(const char *path, char *err, size_t errlen)
{
	struct elfsym *es;
	Elf *elf;
	int fd, rc;
	char detail[200];

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "%s: libelf too old", path);
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "%s: not an ELF file", path);
		if (elf)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	es = calloc(1, sizeof(*es));
	if (!es) {
		snprintf(err, errlen, "%s: out of memory", path);
		elf_end(elf);
		close(fd);
		return NULL;
	}
	rc = elfsym_load(es, elf, detail, sizeof(detail));
	elf_end(elf);
	close(fd);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", path, detail);
		elfsym_close(es);
		return NULL;
	}
	return es;
}

void elfsym_close(struct elfsym *es)
{
	if (!es)
		return;
	free(es->ents);
	free(es->names);
	free(es);
}

const char *elfsym_lookup(const struct elfsym *es, uint64_t addr, uint64_t *start)
{
	size_t lo = 0, hi;
	const struct elfsym_ent *e;

	if (!es || !es->n)
		return NULL;
	addr &= es->addr_mask;
	/* last entry with start <= addr */
	hi = es->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (es->ents[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	e = &es->ents[lo - 1];
	if (addr != e->start && addr - e->start >= e->size)
		return NULL;
	if (start)
		*start = e->start;
	return es->names + e->name;
}

size_t elfsym_count(const struct elfsym *es)
{
	return es ? es->n : 0;
}
