/* pattern.c - a thin layer over PCRE2 for action syntax. */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pattern.h"

struct hg_pattern {
	pcre2_code *code;
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
	hg_pattern *p = hg_xmalloc(sizeof *p);
	p->code = code;
	return p;
}

void hg_pattern_free(hg_pattern *p)
{
	if (!p)
		return;
	pcre2_code_free(p->code);
	free(p);
}

int hg_pattern_match(const hg_pattern *p, const char *subject, hg_match *m)
{
	pcre2_match_data *md = pcre2_match_data_create(HG_MATCH_GROUPS, NULL);
	if (!md)
		hg_xmalloc((size_t)-1);	/* reports out of memory */
	int rc = pcre2_match(p->code, (PCRE2_SPTR)subject, strlen(subject), 0, 0,
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
	return ok;
}

int hg_pattern_group(const hg_pattern *p, const char *name)
{
	int n = pcre2_substring_number_from_name(p->code, (PCRE2_SPTR)name);
	return n < 0 ? -1 : n;
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
