/* unit-parse.h - the first game of an HGN text, for unit tests that build
 * their records from text.  The text must parse without error. */
#ifndef HERALD_UNIT_PARSE_H
#define HERALD_UNIT_PARSE_H

#include <check.h>
#include <string.h>

#include "herald.h"

static inline hg_game_record *unit_parse_first(const char *name, const char *text)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_mem(name, text, strlen(text));
	hg_game_record *g = NULL;
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
	ck_assert_uint_eq(d.nerrors, 0);
	hg_parser_close(p);
	hg_diags_free(&d);
	return g;
}

#endif
