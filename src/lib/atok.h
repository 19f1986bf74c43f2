/* atok.h - the lists of action tokens (internal): the body tokens of a
 * game's actions as the parser gathers them, one action after another, in
 * the record's arena or in malloc'd room.  The parser's business, not the
 * lexer's: the tokens come from hg_lexer_next() one at a time or from the
 * fast scanner's batches (lexer.h). */
#ifndef HERALD_ATOK_H
#define HERALD_ATOK_H

#include <string.h>

#include "lexer.h"

/* The body tokens of actions as they are gathered, one action after
 * another: their kinds, positions and offsets in v, and their texts in two
 * twin buffers of the same length.  In `text` an action's tokens are joined
 * by single spaces; in `split`, at the same offsets, each token ends in a
 * NUL.  Both end each action with a NUL.  v[first..n) and the bytes from
 * text0 are the action being gathered; what comes before, the actions
 * kept.  In an arena list each token's text pointer is set when it is
 * put; a malloc'd list leaves it NULL (hg_action_text_make sets it). */
typedef struct hg_atok_list {
	hg_atok *v;
	size_t n, cap;
	hg_buf text;
	char *split;		/* text's twin: text.cap bytes */
	size_t first;		/* the action being gathered: v[first..n), */
	size_t text0;		/* and its texts from this offset on */
	int not_ascii;		/* one of its tokens has a byte above 0x7f */
	/* When set, the room is blocks of this arena (a record's): the
	 * tokens and texts are where the record keeps them, and each token's
	 * text points into split from when it is put.  Else malloc's, the
	 * list's own, and the texts' pointers are left NULL. */
	struct hg_arena *arena;
} hg_atok_list;

/* Appends a body token; its position is re-pointed at `file` (the record's
 * own copy of the source name). */
void hg_atok_list_push(hg_atok_list *l, const hg_token *tk, const char *file);
/* Appends the body tokens (WORD, NUMBER, PUNCT: plain ASCII) of b from
 * b->v[i] on, up to the first other token; returns its index (b->n when
 * all were). */
size_t hg_atok_list_push_scanned(hg_atok_list *l, const hg_scan_batch *b, size_t i,
				 const char *file);
/* Empties the list, kept actions and all (its room is kept). */
static inline void hg_atok_list_clear(hg_atok_list *l)
{
	l->n = l->first = 0;
	l->text.len = l->text0 = 0;
	l->not_ascii = 0;
}
/* Starts the next action, dropping what was gathered since the last
 * hg_atok_list_keep(). */
static inline void hg_atok_list_restart(hg_atok_list *l)
{
	l->n = l->first;
	l->text.len = l->text0;
	l->not_ascii = 0;
}
/* Keeps the action gathered: it ends (its NUL) at text.len, and the next
 * begins after it.  *toks and *text are set to where its tokens (NULL if
 * none) and its joined text are: in an arena list they stay there, as
 * only the action being gathered moves when the list grows. */
void hg_atok_list_keep(hg_atok_list *l, hg_atok **toks, char **text);
void hg_atok_list_free(hg_atok_list *l);
/* Makes the list empty, its room a block of arena `a` for `toks` tokens
 * and `bytes` bytes of text (it grows as it must, in new blocks of `a`).
 * hg_atok_list_free() then leaves the room to the arena. */
void hg_atok_list_attach(hg_atok_list *l, struct hg_arena *a, size_t toks, size_t bytes);
/* Makes *t from the seat and the action being gathered in one block
 * (its owner, hg_action_text_own_block) from malloc: the token array, the joined text, each token's
 * text and the seat.  t->pos is the first token's position (the seat's
 * when there is none). */
void hg_action_text_make(hg_action_text *t, const char *seat, size_t seat_len,
			 hg_pos seat_pos, const hg_atok_list *l);

#endif
