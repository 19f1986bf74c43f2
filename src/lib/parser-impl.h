/* parser-impl.h - the parser's state, shared by its files (internal):
 * parser.c (the grammar), parser-tokens.c (its supply of tokens, and its
 * errors) and parser-open.c (opening a parser on memory, a stream or a
 * file, at its start or at a resume point, and closing it).  Nothing but
 * those files includes it. */
#ifndef HERALD_PARSER_IMPL_H
#define HERALD_PARSER_IMPL_H

#include "atok.h"
#include "tags.h"
#include "tagset.h"

struct hg_parser {
	hg_lexer *lx;
	const char *name;	/* the lexer's name of the source */
	const hg_limits *lim;	/* the lexer's (hg_parser_set_limits changes them) */
	const hg_token *t;	/* the current token */
	/* Tokens the fast scanner read: v[bi..n) are next.  One taken is
	 * made the current token in `tok` (its text in tok_text). */
	hg_scan_batch batch;
	size_t bi;
	hg_token tok;
	hg_buf tok_text;
	uint64_t off_after;	/* the offset just after the current token */
	hg_pos last_end;	/* the end of the token before it */
	hg_diags *d;		/* the current game's diagnostics */
	hg_diags held;		/* the next game's, found while looking ahead */
	hg_diags sink;		/* for a caller that passes no list */
	hg_line pending;	/* the next game's header comments, read early */
	uint64_t pending_off;	/* where the first of them begins */
	uint64_t game_off;	/* where the game last returned begins */
	uint64_t held_off;	/* where the bytes that `held` speaks of begin */
	int started;
	int glued;		/* the next game follows its predecessor without a blank line */
	int begun;		/* the next game's accounting has already started */

	/* the game being read */
	hg_game_record *g;
	int stop;		/* abandoned: skip to the next game */
	size_t actions;
	size_t elements;	/* move numbers, comments, NAGs, variations */
	int pending_over;	/* comments before the next game dropped at the limit */
	hg_bad_tags bad_tags;	/* malformed tag pairs (no missing-tag for them) */
	hg_tagset tagset;	/* the game's tag names, each with its index in g->tags */
	int tags_over;		/* past the limit on tag pairs: the rest were dropped */
	hg_pos *open;		/* positions of the open '(' */
	size_t nopen, capopen;
	int after_glyph;	/* the last element was an action ending in a glyph */
	const char *seat;	/* the last action's seat, kept once in the record's
				   arena for all its actions (and for a note) */
	size_t seat_len;
	/* The game's actions' tokens, gathered one action after another in
	 * its record's arena, where each action kept stays. */
	hg_atok_list toks;
	size_t moves_hint;	/* elements of the longest main line so far */
	size_t toks_used, text_used;	/* by this game's actions, and the last's */
};

/* Forgets the game being read (its room is kept). */
void hg_parser_clear_game(hg_parser *p);

/* parser-tokens.c: the tokens, and errors. */
/* Makes the next token the current one (p->t). */
void hg_parser_advance(hg_parser *p);
/* Reads the scanner's next batch: 1, or 0 when it read none (the clear
 * path of the lexer reads on). */
int hg_parser_scan(hg_parser *p);
/* Drops the tokens scanned but not taken: the lexer skips on from where
 * it stands, after them, to the next game. */
void hg_parser_skip_game(hg_parser *p);
/* Reports an error at pos (translated here; the game is abandoned past
 * the error limit). */
hg_diag *hg_parser_error(hg_parser *p, hg_pos pos, const char *code, const char *fmt, ...)
	HG_PRINTF(4, 5);
/* How a message names the token t. */
void hg_parser_describe(const hg_token *t, hg_buf *b);

#endif
