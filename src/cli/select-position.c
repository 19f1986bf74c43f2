/* select-position.c - `herald select --position`: an expression on the
 * position facts each game offers (hg_game_class's facts and fact(); the
 * language and every game's facts are in herald-select(1), POSITION
 * FACTS):
 *
 *	FACT [ARG] OP VALUE	OP: = != < <= > >=
 *
 * with blanks between the parts.  = and != compare whole numbers as
 * numbers and words as names (folded); the other operators need a whole
 * number. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

#define MAX_PARTS 4

static const char *const op_words[] = { "=", "!=", "<", "<=", ">", ">=", NULL };

/* A whole decimal number (an optional '-', digits): 0 with *out, or -1. */
static int whole_number(const char *s, long *out)
{
	const char *p = s + (*s == '-');
	if (*p < '0' || *p > '9')
		return -1;
	for (const char *q = p; *q; q++)
		if (*q < '0' || *q > '9')
			return -1;
	errno = 0;
	long v = strtol(s, NULL, 10);
	if (errno == ERANGE)
		return -1;
	*out = v;
	return 0;
}

/* Is `name` one of some game's facts? */
static int known_fact(const char *name)
{
	size_t len = strlen(name);
	for (const hg_game_class *const *g = hg_games(); *g; g++)
		for (const char *const *f = (*g)->facts; f && *f; f++)
			if (strncmp(*f, name, len) == 0 && ((*f)[len] == ' ' || (*f)[len] == ':'))
				return 1;
	return 0;
}

/* Every game's facts, for the message about an unknown one. */
static void list_facts(hg_buf *err)
{
	const char *sep = "";
	for (const hg_game_class *const *g = hg_games(); *g; g++)
		for (const char *const *f = (*g)->facts; f && *f; f++) {
			size_t n = strcspn(*f, " :");
			hg_buf_printf(err, "%s%.*s (%s)", sep, (int)n, *f, (*g)->id);
			sep = ", ";
		}
}

int select_position_parse(select_position *p, const char *expr, hg_buf *err)
{
	memset(p, 0, sizeof *p);
	char *copy = cli_xstrdup(expr);
	char *part[MAX_PARTS + 1];
	size_t n = 0;
	for (char *tok = strtok(copy, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (n == MAX_PARTS + 1)
			break;
		part[n++] = tok;
	}
	if (n != 3 && n != 4) {
		hg_buf_printf(err, "--position '%s': expected FACT [ARG] OP VALUE, with blanks between them",
			      expr);
		free(copy);
		return -1;
	}
	int op = -1;
	for (int i = 0; op_words[i]; i++)
		if (strcmp(part[n - 2], op_words[i]) == 0)
			op = i;
	if (op < 0) {
		hg_buf_printf(err, "--position '%s': '%s' is not an operator (=, !=, <, <=, >, >=)",
			      expr, part[n - 2]);
		free(copy);
		return -1;
	}
	if (!known_fact(part[0])) {
		hg_buf_printf(err, "--position '%s': no game has a fact '%s' (facts: ", expr, part[0]);
		list_facts(err);
		hg_buf_puts(err, ")");
		free(copy);
		return -1;
	}
	p->fact = cli_xstrdup(part[0]);
	p->arg = cli_xstrdup(n == 4 ? part[1] : "");
	p->op = (select_op)op;
	p->value = cli_xstrdup(part[n - 1]);
	p->numeric = whole_number(p->value, &p->number) == 0;
	free(copy);
	if (p->op >= SELECT_LT && !p->numeric) {
		hg_buf_printf(err, "--position '%s': '%s' compares whole numbers, and '%s' is not one",
			      expr, op_words[op], p->value);
		select_position_free(p);
		return -1;
	}
	return 0;
}

void select_position_free(select_position *p)
{
	free(p->fact);
	free(p->arg);
	free(p->value);
	memset(p, 0, sizeof *p);
}

int select_position_holds(const select_position *p, const hg_game_class *cls,
			  const hg_state *st, hg_buf *scratch)
{
	if (!cls->fact)
		return 0;
	hg_buf_clear(scratch);
	if (cls->fact(st, p->fact, p->arg, scratch) != 0)
		return 0;
	const char *v = scratch->data ? scratch->data : "";
	long have;
	int numeric = whole_number(v, &have) == 0;
	if (p->numeric && numeric) {
		switch (p->op) {
		case SELECT_EQ: return have == p->number;
		case SELECT_NE: return have != p->number;
		case SELECT_LT: return have < p->number;
		case SELECT_LE: return have <= p->number;
		case SELECT_GT: return have > p->number;
		case SELECT_GE: return have >= p->number;
		}
	}
	if (p->op == SELECT_EQ)
		return hg_name_eq(v, p->value);
	if (p->op == SELECT_NE)
		return !hg_name_eq(v, p->value);
	return 0;
}
