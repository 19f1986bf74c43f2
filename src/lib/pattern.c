/* pattern.c - a thin layer over PCRE2 for action syntax. */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdatomic.h>
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

/* JIT compiling a pattern costs far more than compiling it (a third of
 * Crusader Kingdoms' start-up), and the games' token readers leave most
 * patterns to the odd spelling, so a pattern is JIT-compiled only once it
 * has been matched this many times: a copy of it, made by the thread
 * that counts to it, and published whole for every thread to use. */
#define JIT_AFTER 32

typedef struct jit_slot {
	_Atomic(pcre2_code *) code;	/* the JIT-compiled copy, once made */
	atomic_uint matches;		/* counted up to JIT_AFTER */
} jit_slot;

struct hg_pattern {
	pcre2_code *code;	/* matched by the interpreter until jit->code */
	jit_slot *jit;
	named_group *names;
	int nnames;
};

/* PCRE2's own allocations while a pattern compiles go through
 * hg_try_malloc: inside a unit of work that reports allocation failure
 * (util.c) the compile is told there is no memory, and the unit records
 * it; elsewhere it aborts.  The code keeps this allocator for its life
 * (pcre2_code_copy and the JIT's data use it too): there, as before a
 * pattern compiled, plain malloc, where a failure merely leaves the
 * pattern without its JIT-compiled copy. */
static _Thread_local int compiling;

static void *compile_malloc(PCRE2_SIZE size, void *data)
{
	(void)data;
	return compiling ? hg_try_malloc(size) : malloc(size);
}

static void compile_free(void *p, void *data)
{
	(void)data;
	free(p);
}

static pcre2_code *compile(const char *re)
{
	compiling = 1;
	pcre2_general_context *gc = pcre2_general_context_create(compile_malloc, compile_free,
								  NULL);
	pcre2_compile_context *cc = gc ? pcre2_compile_context_create(gc) : NULL;
	int err = PCRE2_ERROR_HEAP_FAILED;
	PCRE2_SIZE erroff = 0;
	pcre2_code *code = NULL;
	if (cc)
		code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
				     PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS | PCRE2_ANCHORED |
				     PCRE2_ENDANCHORED, &err, &erroff, cc);
	compiling = 0;
	pcre2_compile_context_free(cc);
	pcre2_general_context_free(gc);
	/* (short of memory, hg_try_malloc has told the unit) */
	if (!code && err != PCRE2_ERROR_HEAP_FAILED && err != PCRE2_ERROR_NOMEMORY) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof msg);
		fprintf(stderr, "herald: internal error: pattern /%s/ at %zu: %s\n",
			re, (size_t)erroff, (const char *)msg);
		abort();
	}
	return code;
}

hg_pattern *hg_pattern_try_new(const char *re)
{
	pcre2_code *code = compile(re);
	if (!code)
		return NULL;
	hg_pattern *p = hg_try_calloc(1, sizeof *p);
	if (!p) {
		pcre2_code_free(code);
		return NULL;
	}
	p->code = code;
	p->jit = hg_try_malloc(sizeof *p->jit);
	if (!p->jit) {
		free(p);
		pcre2_code_free(code);
		return NULL;
	}
	atomic_init(&p->jit->code, NULL);
	atomic_init(&p->jit->matches, 0);
	uint32_t count = 0, entry = 0;
	PCRE2_SPTR table = NULL;
	pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &entry);
	pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &table);
	if (count && table) {
		p->names = hg_try_calloc(count, sizeof *p->names);
		for (uint32_t i = 0; p->names && i < count; i++) {
			PCRE2_SPTR e = table + (size_t)i * entry;
			/* each entry: the group number, two bytes big-endian, then
			 * the name, NUL-terminated */
			p->names[i].number = (e[0] << 8) | e[1];
			p->names[i].name = hg_try_strdup((const char *)e + 2);
			p->nnames = (int)i + 1;
			if (!p->names[i].name) {
				hg_pattern_free(p);
				return NULL;
			}
		}
		if (!p->names) {
			hg_pattern_free(p);
			return NULL;
		}
	}
	return p;
}

hg_pattern *hg_pattern_new(const char *re)
{
	hg_pattern *p;
	HG_PAUSED(p = hg_pattern_try_new(re));	/* (a failure aborts) */
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
	pcre2_code_free(atomic_load(&p->jit->code));
	free(p->jit);
	free(p);
}

/* The pattern's JIT-compiled copy, made by the match that counts to
 * JIT_AFTER; NULL before, or where JIT is not to be had.  JIT is an
 * optimisation: without it matching is merely slower.  The copy is made
 * whole before it is published (release), so a thread that sees it
 * (acquire) sees it compiled; the interpreter's code is never written. */
static pcre2_code *jit_code(const hg_pattern *p)
{
	pcre2_code *jc = atomic_load_explicit(&p->jit->code, memory_order_acquire);
	if (jc)
		return jc;
	if (atomic_load_explicit(&p->jit->matches, memory_order_relaxed) >= JIT_AFTER ||
	    atomic_fetch_add_explicit(&p->jit->matches, 1, memory_order_relaxed) + 1 != JIT_AFTER)
		return NULL;
	jc = pcre2_code_copy(p->code);	/* (the JIT data is not copied) */
	if (jc && pcre2_jit_compile(jc, PCRE2_JIT_COMPLETE) != 0) {
		pcre2_code_free(jc);
		jc = NULL;
	}
	if (jc)
		atomic_store_explicit(&p->jit->code, jc, memory_order_release);
	return jc;
}

/* Without JIT (or without a thread's matcher), the match data of one call
 * lives on the caller's stack: PCRE2 takes its memory from an allocator we
 * give it, and only what does not fit here (the interpreter's frames) goes
 * to the heap, through hg_try_malloc: inside a unit of work that reports
 * allocation failure (util.c) PCRE2 is told there is no memory, and the
 * match says so (hg_pattern_match); elsewhere it aborts. */
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
	return hg_try_malloc(size);
}

static void arena_free(void *p, void *data)
{
	match_arena *a = data;
	unsigned char *c = p;
	if (c >= a->buf && c < a->buf + sizeof a->buf)
		return;
	free(p);
}

/* What a match needs, made once per thread instead of once per match:
 * the match data, and a JIT stack with the match context that hands it
 * to PCRE2 (without one, every JIT match sets up 32 KB of machine stack).
 * Freed when the thread ends; the main thread's lives until exit. */
typedef struct matcher {
	pcre2_match_data *md;
	pcre2_jit_stack *stack;
	pcre2_match_context *mc;
} matcher;

static pthread_key_t matcher_key;
static pthread_once_t matcher_once = PTHREAD_ONCE_INIT;
static int matcher_key_made;

static void matcher_free(void *p)
{
	matcher *m = p;
	if (!m)
		return;
	pcre2_match_data_free(m->md);
	pcre2_match_context_free(m->mc);
	pcre2_jit_stack_free(m->stack);
	free(m);
}

static void matcher_key_make(void)
{
	matcher_key_made = pthread_key_create(&matcher_key, matcher_free) == 0;
}

/* This thread's matcher, or NULL when one cannot be had (the caller then
 * matches the slow way). */
static matcher *thread_matcher(void)
{
	if (pthread_once(&matcher_once, matcher_key_make) != 0 || !matcher_key_made)
		return NULL;
	matcher *m = pthread_getspecific(matcher_key);
	if (m)
		return m;
	m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->md = pcre2_match_data_create(HG_MATCH_GROUPS, NULL);
	m->stack = pcre2_jit_stack_create(32 * 1024, 32 * 1024, NULL);
	m->mc = pcre2_match_context_create(NULL);
	if (!m->md || !m->stack || !m->mc || pthread_setspecific(matcher_key, m) != 0) {
		matcher_free(m);
		return NULL;
	}
	pcre2_jit_stack_assign(m->mc, NULL, m->stack);
	return m;
}

_Static_assert(PCRE2_UNSET == (PCRE2_SIZE)-1 && sizeof(PCRE2_SIZE) == sizeof(size_t),
	       "an unset PCRE2 group is an unset hg_match group");

/* Copies the groups of a successful match (rc of them set) into *m. */
static void take_groups(hg_match *m, const char *subject, int rc, pcre2_match_data *md)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	m->subject = subject;
	m->ngroups = rc;
	if (rc > HG_MATCH_GROUPS)
		rc = HG_MATCH_GROUPS;
	for (int g = 0; g < rc; g++) {
		/* PCRE2_UNSET is (size_t)-1, as an unset group is here */
		m->start[g] = ov[2 * g];
		m->end[g] = ov[2 * g + 1];
	}
	/* every byte 0xff: (size_t)-1 */
	memset(m->start + rc, 0xff, (size_t)(HG_MATCH_GROUPS - rc) * sizeof *m->start);
	memset(m->end + rc, 0xff, (size_t)(HG_MATCH_GROUPS - rc) * sizeof *m->end);
}

int hg_pattern_match(const hg_pattern *p, const char *subject, hg_match *m)
{
	size_t len = strlen(subject);
	/* Our own check of the UTF-8 (ASCII at a byte a step) lets PCRE2 skip
	 * its own; an invalid subject matches nothing, as before. */
	if (hg_utf8_invalid_at(subject, len) != (size_t)-1)
		return 0;
	pcre2_code *jc = jit_code(p);
	matcher *tm = jc ? thread_matcher() : NULL;
	if (tm) {
		/* pcre2_jit_match() is pcre2_match() without the checks that
		 * cannot fail here (valid UTF-8, fixed options) */
		int rc = pcre2_jit_match(jc, (PCRE2_SPTR)subject, len, 0, 0, tm->md,
					 tm->mc);
		if (rc > 0)
			take_groups(m, subject, rc, tm->md);
		return rc > 0;
	}
	match_arena arena;
	arena.used = 0;
	pcre2_general_context *gc = pcre2_general_context_create(arena_malloc, arena_free,
								  &arena);
	pcre2_match_data *md = gc ? pcre2_match_data_create(HG_MATCH_GROUPS, gc) : NULL;
	int rc = md ? pcre2_match(p->code, (PCRE2_SPTR)subject, len, 0, PCRE2_NO_UTF_CHECK,
				  md, NULL) : PCRE2_ERROR_NOMEMORY;
	if (rc > 0)
		take_groups(m, subject, rc, md);
	pcre2_match_data_free(md);
	pcre2_general_context_free(gc);
	/* short of memory: no match, and the unit of work says why (a
	 * failure outside one aborted in arena_malloc) */
	if (rc == PCRE2_ERROR_NOMEMORY)
		hg_alloc_failure();
	return rc > 0;
}

int hg_pattern_jit_ready(const hg_pattern *p)
{
	return atomic_load_explicit(&p->jit->code, memory_order_acquire) != NULL;
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
