/* pattern.c - a thin layer over PCRE2 for action syntax. */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pattern.h"

/* A named group, read once from PCRE2's name table: looking names up there
 * for every action cost more than matching. */
typedef struct named_group {
	char *name;
	int number;
} named_group;

struct hg_pattern {
	pcre2_code *code;
	named_group *names;
	int nnames;
};

hg_pattern *hg_pattern_new(const char *re)
{
	int err;
	PCRE2_SIZE erroff;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
					 PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS |
					 PCRE2_ANCHORED | PCRE2_ENDANCHORED,
					 &err, &erroff, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof msg);
		fprintf(stderr, "herald: internal error: pattern /%s/ at %zu: %s\n",
			re, (size_t)erroff, (const char *)msg);
		abort();
	}
	/* JIT is an optimisation; without it matching is merely slower. */
	(void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	hg_pattern *p = hg_xcalloc(1, sizeof *p);
	p->code = code;
	uint32_t count = 0, entry = 0;
	PCRE2_SPTR table = NULL;
	pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &entry);
	pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &table);
	if (count && table) {
		p->names = hg_xcalloc(count, sizeof *p->names);
		for (uint32_t i = 0; i < count; i++) {
			PCRE2_SPTR e = table + (size_t)i * entry;
			/* each entry: the group number, two bytes big-endian, then
			 * the name, NUL-terminated */
			p->names[i].number = (e[0] << 8) | e[1];
			p->names[i].name = hg_xstrdup((const char *)e + 2);
		}
		p->nnames = (int)count;
	}
	return p;
}

void hg_pattern_free(hg_pattern *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nnames; i++)
		free(p->names[i].name);
	free(p->names);
	pcre2_code_free(p->code);
	free(p);
}

/* The match data of one call lives on the caller's stack: PCRE2 takes its
 * memory from an allocator we give it, and only what does not fit here
 * (the interpreter's frames, when there is no JIT) goes to the heap. */
typedef struct match_arena {
	_Alignas(max_align_t) unsigned char buf[2048];
	size_t used;
} match_arena;

static void *arena_malloc(PCRE2_SIZE size, void *data)
{
	match_arena *a = data;
	size_t need = (size + 15) & ~(size_t)15;
	if (need <= sizeof a->buf - a->used) {
		void *p = a->buf + a->used;
		a->used += need;
		return p;
	}
	return malloc(size);
}

static void arena_free(void *p, void *data)
{
	match_arena *a = data;
	unsigned char *c = p;
	if (c >= a->buf && c < a->buf + sizeof a->buf)
		return;
	free(p);
}

int hg_pattern_match(const hg_pattern *p, const char *subject, hg_match *m)
{
	size_t len = strlen(subject);
	/* Our own check of the UTF-8 (ASCII at a byte a step) lets PCRE2 skip
	 * its own; an invalid subject matches nothing, as before. */
	if (hg_utf8_invalid_at(subject, len) != (size_t)-1)
		return 0;
	match_arena arena;
	arena.used = 0;
	pcre2_general_context *gc = pcre2_general_context_create(arena_malloc, arena_free,
								  &arena);
	pcre2_match_data *md = gc ? pcre2_match_data_create(HG_MATCH_GROUPS, gc) : NULL;
	if (!md)
		hg_xmalloc((size_t)-1);	/* reports out of memory */
	int rc = pcre2_match(p->code, (PCRE2_SPTR)subject, len, 0, PCRE2_NO_UTF_CHECK,
			     md, NULL);
	int ok = rc > 0;
	if (ok) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		m->subject = subject;
		m->ngroups = rc;
		for (int g = 0; g < HG_MATCH_GROUPS; g++) {
			if (g < rc && ov[2 * g] != PCRE2_UNSET) {
				m->start[g] = ov[2 * g];
				m->end[g] = ov[2 * g + 1];
			} else {
				m->start[g] = m->end[g] = (size_t)-1;
			}
		}
	}
	pcre2_match_data_free(md);
	pcre2_general_context_free(gc);
	return ok;
}

int hg_pattern_group(const hg_pattern *p, const char *name)
{
	for (int i = 0; i < p->nnames; i++)
		if (strcmp(p->names[i].name, name) == 0)
			return p->names[i].number;
	return -1;
}

int hg_match_set(const hg_match *m, int g)
{
	return g >= 0 && g < HG_MATCH_GROUPS && m->start[g] != (size_t)-1;
}

char *hg_match_dup(const hg_match *m, int g)
{
	if (!hg_match_set(m, g))
		return NULL;
	return hg_xstrndup(m->subject + m->start[g], m->end[g] - m->start[g]);
}
