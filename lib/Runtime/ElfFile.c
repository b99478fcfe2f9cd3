/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * The ELF questions the runtime asks, answered with libelf: the bytes of a
 * section of a BPF object (the `.bpfprobe` metadata, from a file or from a
 * skeleton's embedded copy), the NT_GNU_BUILD_ID of a binary, the kernel's
 * raw notes, and a symbol's address, size and file offset for uprobes.
 */
#include "Internal.h"
#include "Support/FileRules.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if __SIZEOF_POINTER__ == 8
#define HOST_ELF(type) Elf64_##type
#else
#define HOST_ELF(type) Elf32_##type
#endif

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* A function symbol, in the index bpfprobe_elf_find_symbol() builds. */
struct sym_entry {
	const char *name;
	size_t seq;    /* order in the file: tables, then symbols */
	int table;     /* 0: SHT_SYMTAB, 1: SHT_DYNSYM */
	GElf_Sym sym;
};

struct bpfprobe_elf {
	Elf *elf;
	int fd; /* closed with the file; -1 for a buffer or a caller's fd */
	size_t shstrndx;
	/* Function symbols sorted by name, built on the first look-up: one
	 * scan of the tables, not one per site (10,000 sites of one binary
	 * were 10^8 string compares). */
	struct sym_entry *syms;
	size_t sym_cnt;
	bool indexed;
};

static bool elf_ready(void)
{
	static bool ok;

	if (!ok)
		ok = elf_version(EV_CURRENT) != EV_NONE;
	return ok;
}

static struct bpfprobe_elf *wrap(Elf *elf, int fd)
{
	struct bpfprobe_elf *e;

	if (!elf) {
		errno = EBADMSG;
		return NULL;
	}
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		errno = ENOEXEC;
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		elf_end(elf);
		errno = ENOMEM;
		return NULL;
	}
	e->elf = elf;
	e->fd = fd;
	if (elf_getshdrstrndx(elf, &e->shstrndx))
		e->shstrndx = (size_t)-1;
	return e;
}

int bpfprobe_open_file(const char *path, struct stat *st)
{
	/* O_NONBLOCK: opening a FIFO would otherwise wait for a writer. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

struct bpfprobe_elf *bpfprobe_elf_open_fd(int fd)
{
	if (!elf_ready() || fd < 0) {
		errno = EINVAL;
		return NULL;
	}
	return wrap(elf_begin(fd, ELF_C_READ_MMAP, NULL), -1);
}

struct bpfprobe_elf *bpfprobe_elf_open(const char *path)
{
	struct bpfprobe_elf *e;
	struct stat st;
	int fd;

	if (!elf_ready()) {
		errno = EINVAL;
		return NULL;
	}
	fd = bpfprobe_open_file(path, &st);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	/* A FIFO or a device is no ELF file (and /dev/zero never ends). */
	if (bpfprobe_file_type(st.st_mode)) {
		close(fd);
		errno = ENOEXEC;
		return NULL;
	}
	e = wrap(elf_begin(fd, ELF_C_READ_MMAP, NULL), fd);
	if (!e) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return e;
}

struct bpfprobe_elf *bpfprobe_elf_open_mem(const void *buf, size_t size)
{
	if (!elf_ready() || !buf) {
		errno = EINVAL;
		return NULL;
	}
	/* elf_memory() only reads the image, as libbpf relies on too. */
	return wrap(elf_memory((char *)buf, size), -1);
}

void bpfprobe_elf_close(struct bpfprobe_elf *e)
{
	if (!e)
		return;
	elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->syms);
	free(e);
}

int bpfprobe_elf_machine(struct bpfprobe_elf *e)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(e->elf, &eh))
		return -EBADMSG;
	return eh.e_machine;
}

int bpfprobe_elf_section(struct bpfprobe_elf *e, const char *name,
			 const void **data, size_t *size)
{
	Elf_Scn *scn = NULL;

	if (e->shstrndx == (size_t)-1)
		return -EBADMSG;
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *n;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			return -EBADMSG;
		n = elf_strptr(e->elf, e->shstrndx, sh.sh_name);
		if (!n || strcmp(n, name))
			continue;
		if (sh.sh_type == SHT_NOBITS)
			return -ENODATA;
		d = elf_rawdata(scn, NULL);
		if (!d)
			return -EBADMSG;
		*data = d->d_buf;
		*size = d->d_size;
		return 0;
	}
	return -ENODATA;
}

static int hex(const unsigned char *id, size_t n, char *buf, size_t buf_sz)
{
	if (buf_sz < 2 * n + 1)
		return -ENOSPC;
	for (size_t i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", id[i]);
	buf[2 * n] = 0;
	return (int)(2 * n);
}

/*
 * The NT_GNU_BUILD_ID note of a note section or segment, walked with
 * libelf's gelf_getnote(), which checks every note against the data's size.
 */
static int data_build_id(Elf_Data *d, char *buf, size_t buf_sz)
{
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off;

	while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)d->d_buf + name_off;

		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(name, "GNU", 4) && nh.n_descsz)
			return hex((const unsigned char *)d->d_buf + desc_off,
				   nh.n_descsz, buf, buf_sz);
	}
	return -ENODATA;
}

/*
 * Raw notes (/sys/kernel/notes) are not an ELF file: they get an ELF header
 * and one PT_NOTE program header in front, in the host's class and byte
 * order, so that libelf reads them like a stripped binary's note segment.
 */
int bpfprobe_notes_build_id(const void *notes, size_t size, char *buf,
			    size_t buf_sz)
{
	struct {
		HOST_ELF(Ehdr) eh;
		HOST_ELF(Phdr) ph;
	} hdr;
	struct bpfprobe_elf *e;
	unsigned char *image;
	int ret;

	if (!elf_ready())
		return -EINVAL;
	image = malloc(sizeof(hdr) + size);
	if (!image)
		return -ENOMEM;
	memset(&hdr, 0, sizeof(hdr));
	memcpy(hdr.eh.e_ident, ELFMAG, SELFMAG);
	hdr.eh.e_ident[EI_CLASS] = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
	hdr.eh.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
					  ? ELFDATA2LSB
					  : ELFDATA2MSB;
	hdr.eh.e_ident[EI_VERSION] = EV_CURRENT;
	hdr.eh.e_type = ET_CORE;
	hdr.eh.e_version = EV_CURRENT;
	hdr.eh.e_ehsize = sizeof(hdr.eh);
	hdr.eh.e_phoff = offsetof(__typeof__(hdr), ph);
	hdr.eh.e_phentsize = sizeof(hdr.ph);
	hdr.eh.e_phnum = 1;
	hdr.ph.p_type = PT_NOTE;
	hdr.ph.p_offset = sizeof(hdr);
	hdr.ph.p_filesz = size;
	hdr.ph.p_align = 4;
	memcpy(image, &hdr, sizeof(hdr));
	memcpy(image + sizeof(hdr), notes, size);
	e = wrap(elf_memory((char *)image, sizeof(hdr) + size), -1);
	if (!e) {
		free(image);
		return -EBADMSG;
	}
	ret = bpfprobe_elf_get_build_id(e, buf, buf_sz);
	bpfprobe_elf_close(e);
	free(image);
	return ret;
}

int bpfprobe_elf_get_build_id(struct bpfprobe_elf *e, char *buf, size_t buf_sz)
{
	Elf_Scn *scn = NULL;
	size_t phnum;

	/* Sections first (a binary may lack program headers only if relocatable). */
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		int ret;

		if (!gelf_getshdr(scn, &sh))
			return -EBADMSG;
		if (sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		ret = data_build_id(d, buf, buf_sz);
		if (ret != -ENODATA)
			return ret;
	}
	/* Stripped of section headers: the PT_NOTE segments. */
	if (!elf_getphdrnum(e->elf, &phnum)) {
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr ph;
			Elf_Data *d;
			int ret;

			if (!gelf_getphdr(e->elf, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			d = elf_getdata_rawchunk(e->elf, ph.p_offset, ph.p_filesz,
						 ELF_T_NHDR);
			if (!d)
				continue;
			ret = data_build_id(d, buf, buf_sz);
			if (ret != -ENODATA)
				return ret;
		}
	}
	return -ENODATA;
}

int bpfprobe_elf_build_id(const char *path, char *buf, size_t buf_sz)
{
	struct bpfprobe_elf *e = bpfprobe_elf_open(path);
	int ret;

	if (!e)
		return -errno;
	ret = bpfprobe_elf_get_build_id(e, buf, buf_sz);
	bpfprobe_elf_close(e);
	return ret;
}

/* The file offset of address \p addr: through the loadable segment. */
static int addr_to_offset(struct bpfprobe_elf *e, __u64 addr, __u64 *off)
{
	size_t phnum;

	if (elf_getphdrnum(e->elf, &phnum))
		return -EBADMSG;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_memsz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

static int by_name(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Every defined function (or untyped) symbol of SYMTAB and DYNSYM. */
static int index_symbols(struct bpfprobe_elf *e)
{
	static const Elf64_Word tables[] = { SHT_SYMTAB, SHT_DYNSYM };
	size_t cap = 0, seq = 0;

	for (int t = 0; t < 2; t++) {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(e->elf, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;
			size_t n;

			if (!gelf_getshdr(scn, &sh))
				return -EBADMSG;
			if (sh.sh_type != tables[t] || !sh.sh_entsize)
				continue;
			d = elf_getdata(scn, NULL);
			if (!d)
				return -EBADMSG;
			n = sh.sh_size / sh.sh_entsize;
			for (size_t i = 0; i < n; i++, seq++) {
				GElf_Sym sym;
				const char *sn;
				int type;

				if (!gelf_getsym(d, (int)i, &sym))
					return -EBADMSG;
				type = GELF_ST_TYPE(sym.st_info);
				if (sym.st_shndx == SHN_UNDEF ||
				    (type != STT_FUNC && type != STT_GNU_IFUNC &&
				     type != STT_NOTYPE))
					continue;
				sn = elf_strptr(e->elf, sh.sh_link, sym.st_name);
				if (!sn)
					continue;
				if (e->sym_cnt == cap) {
					size_t nc = cap ? cap * 2 : 256;
					struct sym_entry *ns = realloc(e->syms, nc * sizeof(*ns));

					if (!ns)
						return -ENOMEM;
					e->syms = ns;
					cap = nc;
				}
				e->syms[e->sym_cnt++] = (struct sym_entry){
					.name = sn, .seq = seq, .table = t, .sym = sym,
				};
			}
		}
	}
	if (e->sym_cnt > 1) /* qsort(NULL, 0) is undefined */
		qsort(e->syms, e->sym_cnt, sizeof(*e->syms), by_name);
	return 0;
}

int bpfprobe_elf_find_symbol(struct bpfprobe_elf *e, const char *name,
			     struct bpfprobe_elf_sym *syms, int max)
{
	size_t lo = 0, hi;
	int found = 0, err;

	if (!e->indexed) {
		if ((err = index_symbols(e))) {
			free(e->syms);
			e->syms = NULL;
			e->sym_cnt = 0;
			return err;
		}
		e->indexed = true;
	}
	/* The first entry named \p name. */
	hi = e->sym_cnt;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(e->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* SYMTAB's matches, or DYNSYM's when it has none; in file order. */
	for (int t = 0; t < 2 && !found; t++) {
		for (size_t k = lo; k < e->sym_cnt && !strcmp(e->syms[k].name, name); k++) {
			const GElf_Sym *s = &e->syms[k].sym;
			bool dup = false;
			__u64 off;

			if (e->syms[k].table != t)
				continue;
			for (int j = 0; j < found && j < max; j++)
				if (syms[j].value == s->st_value)
					dup = true;
			if (dup)
				continue;
			if (addr_to_offset(e, s->st_value, &off))
				continue;
			if (found < max)
				syms[found] = (struct bpfprobe_elf_sym){
					.value = s->st_value,
					.size = s->st_size,
					.file_offset = off,
					.type = GELF_ST_TYPE(s->st_info),
				};
			found++;
		}
	}
	return found;
}

/* ---- Metadata of a BPF object ---- */

static struct bpfprobe_meta *meta_from_elf(struct bpfprobe_elf *e,
					   const char *what)
{
	struct bpfprobe_meta *meta;
	const void *data;
	size_t size;
	int err;

	if (!e) {
		err = errno;
		if (err == ENOEXEC || err == EBADMSG)
			pr_warn("%s is not an ELF object\n", what);
		else
			pr_warn("cannot open %s: %s\n", what, strerror(err));
		errno = err;
		return NULL;
	}
	err = bpfprobe_elf_section(e, BPFPROBE_METADATA_SECTION, &data, &size);
	if (err) {
		if (err == -ENODATA)
			pr_warn("%s has no %s section: it was not built with the bpfprobe plugin (clang -fplugin=libbpfprobe.so), or the section was stripped\n",
				what, BPFPROBE_METADATA_SECTION);
		else
			pr_warn("%s: malformed ELF section table\n", what);
		bpfprobe_elf_close(e);
		errno = -err;
		return NULL;
	}
	meta = bpfprobe_meta__parse(data, size);
	err = errno;
	bpfprobe_elf_close(e);
	errno = err;
	return meta;
}

struct bpfprobe_meta *bpfprobe_meta__open_file(const char *path)
{
	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	return meta_from_elf(bpfprobe_elf_open(path), path);
}

struct bpfprobe_meta *bpfprobe_meta__open_mem(const void *obj_buf,
					      size_t obj_buf_sz)
{
	if (!obj_buf || !obj_buf_sz) {
		errno = EINVAL;
		return NULL;
	}
	return meta_from_elf(bpfprobe_elf_open_mem(obj_buf, obj_buf_sz),
			     "the in-memory BPF object");
}
