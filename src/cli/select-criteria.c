/* select-criteria.c - the criteria of `herald select` on a game's tags:
 * their parsing (options and criteria files) and their matching.
 *
 * Every regular expression is PCRE2's, compiled with UTF, UCP and
 * CASELESS and anchored at both ends, and matched against the subject
 * folded as names are (hg_name_fold), so that "lider" finds "Líder".  The
 * pattern is folded too, but only where it is not ASCII: ASCII case is
 * CASELESS's, and folding it would turn an escape such as \D into \d. */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

/* PCRE2's limits for one match: far above what a sane pattern needs on a
 * tag or an action, far below what takes a noticeable time. */
#define MATCH_LIMIT 100000
#define DEPTH_LIMIT 10000
#define FOLD_STACK 512		/* subjects folded without an allocation */
#define MAX_CRITERIA_LINE 4096

struct select_regex {
	pcre2_code *code;
};

struct select_scratch {
	pcre2_match_data *md;
	pcre2_match_context *mc;
};

select_scratch *select_scratch_new(void)
{
	select_scratch *s = cli_xcalloc(1, sizeof *s);
	s->md = pcre2_match_data_create(1, NULL);
	s->mc = pcre2_match_context_create(NULL);
	if (!s->md || !s->mc) {
		fputs("herald: out of memory\n", stderr);
		abort();
	}
	pcre2_set_match_limit(s->mc, MATCH_LIMIT);
	pcre2_set_depth_limit(s->mc, DEPTH_LIMIT);
	return s;
}

void select_scratch_free(select_scratch *s)
{
	if (!s)
		return;
	pcre2_match_data_free(s->md);
	pcre2_match_context_free(s->mc);
	free(s);
}

static const uint32_t RE_OPTIONS = PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS |
				   PCRE2_ANCHORED | PCRE2_ENDANCHORED;

/* The pattern with each run of bytes that are not ASCII folded. */
static char *fold_pattern(const char *pattern)
{
	hg_buf b;
	hg_buf_init(&b);
	const char *p = pattern;
	while (*p) {
		if ((unsigned char)*p < 0x80) {
			hg_buf_putc(&b, *p++);
			continue;
		}
		const char *q = p;
		while (*q && (unsigned char)*q >= 0x80)
			q++;
		char *run = cli_xstrndup(p, (size_t)(q - p));
		char *f = hg_name_fold(run);
		hg_buf_puts(&b, f);
		free(f);
		free(run);
		p = q;
	}
	if (!b.data)
		hg_buf_puts(&b, "");
	cli_buf_check(&b);
	return hg_buf_steal(&b);
}

select_regex *select_regex_new(const char *pattern, hg_buf *err)
{
	int code;
	PCRE2_SIZE off;
	/* Compiled as given first, so that an error's offset is the user's */
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, RE_OPTIONS,
				       &code, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof msg);
		hg_buf_printf(err, "invalid regular expression '%s': %s at offset %zu",
			      pattern, (const char *)msg, (size_t)off);
		return NULL;
	}
	char *folded = fold_pattern(pattern);
	if (strcmp(folded, pattern) != 0) {
		pcre2_code_free(re);
		re = pcre2_compile((PCRE2_SPTR)folded, PCRE2_ZERO_TERMINATED, RE_OPTIONS,
				   &code, &off, NULL);
		if (!re) {
			PCRE2_UCHAR msg[256];
			pcre2_get_error_message(code, msg, sizeof msg);
			hg_buf_printf(err, "invalid regular expression '%s' once folded ('%s'): %s at offset %zu",
				      pattern, folded, (const char *)msg, (size_t)off);
			free(folded);
			return NULL;
		}
	}
	free(folded);
	select_regex *r = cli_xcalloc(1, sizeof *r);
	r->code = re;
	return r;
}

void select_regex_free(select_regex *re)
{
	if (!re)
		return;
	pcre2_code_free(re->code);
	free(re);
}

int select_regex_match(const select_regex *re, const char *subject, select_scratch *s)
{
	char stack[FOLD_STACK];
	char *heap = NULL;
	const char *f = stack;
	size_t len = hg_name_fold_to(subject, stack, sizeof stack);
	if (len >= sizeof stack)
		f = heap = hg_name_fold(subject);
	/* a subject that is not UTF-8 is matched as it is: PCRE2 refuses it
	 * (no match), which is what a name that cannot be spelt deserves */
	int rc = pcre2_match(re->code, (PCRE2_SPTR)f, len, 0, 0, s->md, s->mc);
	free(heap);
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT)
		return -1;
	return 0;
}

/* ------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------ */

/* DATE as YYYY, YYYY.MM or YYYY.MM.DD (digits), widened to a whole date:
 * from its first day (`low`) or to its last.  0, or -1. */
static int parse_date(const char *arg, int low, char out[11])
{
	static const char shape[] = "dddd.dd.dd";
	size_t n = strlen(arg);
	if (n != 4 && n != 7 && n != 10)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (shape[i] == 'd' ? (arg[i] < '0' || arg[i] > '9') : arg[i] != '.')
			return -1;
	memcpy(out, low ? "0000.00.00" : "9999.99.99", 11);
	memcpy(out, arg, n);
	return 0;
}

static int parse_regex_into(select_tag_crit *c, const char *option, const char *re,
			    hg_buf *err)
{
	c->re = select_regex_new(re, err);
	if (!c->re) {
		hg_buf tmp;
		hg_buf_init(&tmp);
		hg_buf_printf(&tmp, "--%s: %s", option, err->data);
		hg_buf_clear(err);
		hg_buf_puts(err, tmp.data);
		hg_buf_free(&tmp);
		return -1;
	}
	return 0;
}

int select_criterion_parse(select_tag_crit *c, const char *option, const char *arg,
			   hg_buf *err)
{
	memset(c, 0, sizeof *c);
	if (strcmp(option, "tag") == 0) {
		const char *eq = strchr(arg, '=');
		if (!eq || eq == arg) {
			hg_buf_printf(err, "--tag needs NAME=REGEX, not '%s'", arg);
			return -1;
		}
		c->kind = SELECT_TAG;
		c->name = cli_xstrndup(arg, (size_t)(eq - arg));
		if (parse_regex_into(c, option, eq + 1, err) != 0) {
			free(c->name);
			c->name = NULL;
			return -1;
		}
		return 0;
	}
	if (strcmp(option, "variant") == 0 || strcmp(option, "result") == 0) {
		c->kind = SELECT_TAG;
		c->name = cli_xstrdup(option[0] == 'v' ? "Variant" : "Result");
		if (parse_regex_into(c, option, arg, err) != 0) {
			free(c->name);
			c->name = NULL;
			return -1;
		}
		return 0;
	}
	if (strcmp(option, "player") == 0) {
		c->kind = SELECT_PLAYER;
		return parse_regex_into(c, option, arg, err);
	}
	if (strcmp(option, "game") == 0) {
		c->kind = SELECT_GAME;
		c->game = hg_game_find(arg);
		if (!c->game) {
			hg_buf_printf(err, "--game: '%s' is not a game herald knows (see 'herald games')",
				      arg);
			return -1;
		}
		return 0;
	}
	if (strcmp(option, "date-from") == 0 || strcmp(option, "date-to") == 0) {
		int low = option[5] == 'f';
		c->kind = low ? SELECT_DATE_FROM : SELECT_DATE_TO;
		if (parse_date(arg, low, c->date) != 0) {
			hg_buf_printf(err, "--%s: invalid date '%s' (YYYY, YYYY.MM or YYYY.MM.DD)",
				      option, arg);
			return -1;
		}
		return 0;
	}
	hg_buf_printf(err, "unknown criterion '%s' (tag, player, game, variant, result, date-from or date-to)",
		      option);
	return -1;
}

void select_tag_list_push(select_tag_list *l, const select_tag_crit *c)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = cli_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = *c;
}

int select_criteria_file(select_spec *s, const char *path, hg_buf *err)
{
	FILE *fp = fopen(path, "r");
	if (!fp) {
		hg_buf_printf(err, "cannot open criteria file '%s': %s", path, strerror(errno));
		return -1;
	}
	s->has_any = 1;
	char line[MAX_CRITERIA_LINE];
	unsigned lineno = 0;
	int rc = 0;
	while (rc == 0 && fgets(line, sizeof line, fp)) {
		lineno++;
		size_t len = strlen(line);
		if (len + 1 == sizeof line && line[len - 1] != '\n') {
			hg_buf_printf(err, "%s:%u: line longer than %d bytes", path, lineno,
				      MAX_CRITERIA_LINE - 2);
			rc = -1;
			break;
		}
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		char *word = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0') {
			hg_buf_printf(err, "%s:%u: '%s' needs an argument (OPTION ARGUMENT)", path,
				      lineno, word);
			rc = -1;
			break;
		}
		select_tag_crit c;
		hg_buf why;
		hg_buf_init(&why);
		if (select_criterion_parse(&c, word, p, &why) != 0) {
			hg_buf_printf(err, "%s:%u: %s", path, lineno, why.data);
			rc = -1;
		} else {
			select_tag_list_push(&s->any, &c);
		}
		hg_buf_free(&why);
	}
	if (rc == 0 && ferror(fp)) {
		hg_buf_printf(err, "cannot read criteria file '%s': %s", path, strerror(errno));
		rc = -1;
	}
	fclose(fp);
	return rc;
}

static void tag_list_free(select_tag_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		select_regex_free(l->v[i].re);
	}
	free(l->v);
}

void select_spec_free(select_spec *s)
{
	tag_list_free(&s->all);
	tag_list_free(&s->any);
	for (size_t i = 0; i < s->nactions; i++)
		select_regex_free(s->actions[i]);
	free(s->actions);
	for (size_t i = 0; i < s->npositions; i++)
		select_position_free(&s->positions[i]);
	free(s->positions);
	free(s->codes);	/* the strings are argv's */
	memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------------------
 * Matching
 * ------------------------------------------------------------------------ */

/* A Date tag's value, with a month or day not wholly known (a '?' in
 * it) the lowest or the highest it may be (00, or 12 and 31): 0 when it
 * is no date at all, or its year is not known (which says nothing of when
 * the game was played). */
static int widen_date(const char *v, int low, char out[11])
{
	if (!v || strlen(v) != 10 || v[4] != '.' || v[7] != '.')
		return 0;
	for (int i = 0; i < 10; i++) {
		if (i == 4 || i == 7)
			out[i] = '.';
		else if (v[i] == '?' || (v[i] >= '0' && v[i] <= '9'))
			out[i] = v[i];
		else
			return 0;
	}
	out[10] = '\0';
	if (memchr(out, '?', 4))
		return 0;
	if (memchr(out + 5, '?', 2))
		memcpy(out + 5, low ? "00" : "12", 2);
	if (memchr(out + 8, '?', 2))
		memcpy(out + 8, low ? "00" : "31", 2);
	return 1;
}

static int tag_crit_match(const select_tag_crit *c, const hg_game_record *rec,
			  select_scratch *sc)
{
	switch (c->kind) {
	case SELECT_TAG: {
		int limit = 0;
		for (size_t i = 0; i < rec->ntags; i++) {
			if (!hg_name_eq(rec->tags[i].name, c->name))
				continue;
			int m = select_regex_match(c->re, rec->tags[i].value, sc);
			if (m > 0)
				return 1;
			if (m < 0)
				limit = 1;
		}
		return limit ? -1 : 0;
	}
	case SELECT_PLAYER: {
		char **names;
		size_t n = hg_record_players(rec, &names);
		int r = 0;
		for (size_t i = 0; i < n && r <= 0; i++) {
			int m = select_regex_match(c->re, names[i], sc);
			if (m != 0)
				r = m;
		}
		hg_strv_free(names, n);
		return r;
	}
	case SELECT_GAME: {
		const char *v = hg_record_tag_value(rec, "Game");
		return v && hg_game_find(v) == c->game;
	}
	case SELECT_DATE_FROM:
	case SELECT_DATE_TO: {
		/* every day the tag may stand for lies in the range */
		char d[11];
		int from = c->kind == SELECT_DATE_FROM;
		if (!widen_date(hg_record_tag_value(rec, "Date"), from, d))
			return 0;
		return from ? strcmp(d, c->date) >= 0 : strcmp(d, c->date) <= 0;
	}
	}
	return 0;
}

int select_tags_match(const select_spec *s, const hg_game_record *rec, select_scratch *sc)
{
	for (size_t i = 0; i < s->all.n; i++) {
		int m = tag_crit_match(&s->all.v[i], rec, sc);
		if (m <= 0)
			return m;
	}
	if (!s->has_any)
		return 1;
	int limit = 0;
	for (size_t i = 0; i < s->any.n; i++) {
		int m = tag_crit_match(&s->any.v[i], rec, sc);
		if (m > 0)
			return 1;
		if (m < 0)
			limit = 1;
	}
	return limit ? -1 : 0;
}
