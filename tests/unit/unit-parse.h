/* unit-parse.h - records from text for unit tests: the first game of an
 * HGN text, and a growable list of the games a reader gives. */
#ifndef HERALD_UNIT_PARSE_H
#define HERALD_UNIT_PARSE_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "herald.h"

/* The first game of an HGN text, which must parse without error. */
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

/* The games a reader gave, in order; { NULL, 0 } is empty. */
typedef struct unit_games {
	hg_game_record **v;
	size_t n;
} unit_games;

/* Appends g.  Plain realloc: the test's own list takes none of the
 * allocations that test-alloc refuses in the library. */
static inline void unit_games_push(unit_games *gs, hg_game_record *g)
{
	gs->v = realloc(gs->v, (gs->n + 1) * sizeof *gs->v);
	ck_assert_ptr_nonnull(gs->v);
	gs->v[gs->n++] = g;
}

/* Frees the games and empties the list. */
static inline void unit_games_free(unit_games *gs)
{
	for (size_t i = 0; i < gs->n; i++)
		hg_record_free(gs->v[i]);
	free(gs->v);
	gs->v = NULL;
	gs->n = 0;
}

#endif
