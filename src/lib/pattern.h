/* pattern.h - PCRE2 patterns for the games' action syntax (internal).
 *
 * Patterns are compiled once (at data load) with PCRE2_UTF | PCRE2_UCP |
 * PCRE2_CASELESS, anchored at both ends; a pattern matched often (a few
 * dozen times) is JIT-compiled then, where JIT is available, which start-up
 * does not wait for.  Each thread matches with match data of its own, and a
 * hg_match holds its own results, so one compiled pattern may be used by
 * several threads at once. */
#ifndef HERALD_PATTERN_H
#define HERALD_PATTERN_H

#include <stddef.h>

typedef struct hg_pattern hg_pattern;

#define HG_MATCH_GROUPS 24

typedef struct hg_match {
	const char *subject;
	int ngroups;			/* groups captured, including group 0 */
	size_t start[HG_MATCH_GROUPS];	/* (size_t)-1 for an unset group */
	size_t end[HG_MATCH_GROUPS];
} hg_match;

/* Compiles `re`; an invalid pattern is a programming error and aborts with
 * the PCRE2 message.  Short of memory the try form returns NULL inside a
 * unit of work that reports it (util.c), which records the failure;
 * hg_pattern_new, and the try form elsewhere, abort. */
hg_pattern *hg_pattern_try_new(const char *re);
hg_pattern *hg_pattern_new(const char *re);
void hg_pattern_free(hg_pattern *p);
/* 1 when the whole subject matches (m filled), 0 when not (or short of
 * memory inside a unit of work, which records the failure: util.c). */
int hg_pattern_match(const hg_pattern *p, const char *subject, hg_match *m);
/* For the tests: 1 once matches go through the JIT-compiled copy. */
int hg_pattern_jit_ready(const hg_pattern *p);
/* The number of a named group, or -1. */
int hg_pattern_group(const hg_pattern *p, const char *name);
/* A malloc'd copy of group g, or NULL when it did not take part. */
char *hg_match_dup(const hg_match *m, int g);
int hg_match_set(const hg_match *m, int g);

#endif
