/* atok.h - the lists of action tokens (internal): the body tokens of a
 * game's actions as the parser gathers them, one action after another, in
 * the record's arena or in malloc'd room.  The parser's business, not the
 * lexer's: the tokens come from hg_lexer_next() one at a time or from the
 * fast scanner's batches (lexer.h). */
#ifndef HERALD_ATOK_H
#define HERALD_ATOK_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) && !defined(HG_NO_SIMD)
#define ATOK_SSE2 1
#include <emmintrin.h>
#endif

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
 * own copy of the source name).  A token there is no memory for is dropped
 * (the unit of work, util.c, ends in HG_ENOMEM). */
void hg_atok_list_push(hg_atok_list *l, const hg_token *tk, const char *file);
/* Room in the list for `toks` more tokens and `more` more bytes of text
 * (an arena list's action being gathered may move): 0, or -1 when there
 * is no memory for it (the list as it was). */
int hg_atok_list_room(hg_atok_list *l, size_t toks, size_t more);
/* Room for the NUL that hg_atok_list_keep() puts: 0, or -1. */
int hg_atok_list_keep_room(hg_atok_list *l);

/* Whether the scanned token s is a body token: WORD, NUMBER or PUNCT
 * (the scanner leaves '?' to the clear path). */
static inline int scanned_body(const hg_scan_token *s)
{
	return s->kind == HG_TK_WORD || s->kind == HG_TK_NUMBER || s->kind == HG_TK_PUNCT;
}

/* Appends the body tokens (WORD, NUMBER, PUNCT: plain ASCII) of b from
 * b->v[i] on, up to the first other token, to l, an arena list (the
 * parser's); returns its index (b->n when all were).  Each is put as
 * twin_put() (atok.c) puts a token, a short one in one 16-byte move.
 * Without memory for them none is put, and i is returned with the unit of
 * work failed (util.c): the caller stops. */
static inline size_t hg_atok_list_push_scanned(hg_atok_list *l, const hg_scan_batch *b,
					       size_t i, const char *file)
{
	_Static_assert(HG_TK_NUMBER == HG_TK_WORD + 1 && HG_TK_PUNCT == HG_TK_WORD + 2,
		       "the kinds' numbers below");
	/* WORD, NUMBER, PUNCT as the list's kinds */
	static const unsigned char atok_kind[3] = { HG_ATOK_WORD, HG_ATOK_NUMBER, HG_ATOK_PUNCT };
	const hg_scan_token *s = &b->v[i], *const stop = &b->v[b->n];
	if (s == stop || !scanned_body(s))
		return i;
	/* The texts need no more than the source span the tokens cover (in
	 * order, in one window), a separator each, and the last 16-byte
	 * move's rest.  There is room for the rest of the batch, whatever
	 * its tokens, nearly always; else for the run of body tokens, found
	 * first. */
	size_t toks = (size_t)(stop - s);
	size_t need = (size_t)(stop[-1].text - s->text) + stop[-1].len + toks + 18;
	if (l->cap - l->n < toks || l->text.cap - l->text.len < need) {
		const hg_scan_token *end = s;
		while (end < stop && scanned_body(end))
			end++;
		toks = (size_t)(end - s);
		need = (size_t)(end[-1].text - s->text) + end[-1].len + toks + 18;
		if ((l->cap - l->n < toks || l->text.cap - l->text.len < need) &&
		    hg_atok_list_room(l, toks, need) != 0)
			return i;
	}
	/* the action's twin texts, and where its next token goes in them */
	char *const joined = l->text.data + l->text0, *const split = l->split + l->text0;
	size_t off = l->text.len - l->text0;
	/* a separator before each token but an action's first */
	if (off) {
		joined[off] = ' ';
		split[off] = '\0';
		off++;
	}
#ifdef ATOK_SSE2
	const char *const window_end = b->end;
#endif
	hg_atok *a = &l->v[l->n];
	for (; s < stop && (unsigned)s->kind - HG_TK_WORD <= 2; s++, a++) {
#ifdef ATOK_SSE2
		if (s->len <= 16 && window_end - s->text >= 16) {
			const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s->text);
			_mm_storeu_si128((__m128i *)(void *)(joined + off), x);
			_mm_storeu_si128((__m128i *)(void *)(split + off), x);
		} else
#endif
		{
			/* (no call: the loop keeps its values in registers) */
			for (size_t k = 0; k < s->len; k++)
				joined[off + k] = split[off + k] = s->text[k];
		}
		a->kind = (hg_atok_kind)atok_kind[s->kind - HG_TK_WORD];
		a->len = s->len;
		a->text = split + off;
		a->pos.file = file;
		a->pos.line = s->line;
		a->pos.col = s->col;
		a->off = off;
		off += s->len;
		joined[off] = ' ';
		split[off] = '\0';
		off++;
	}
	off--;			/* the last token's NUL, not a separator */
	joined[off] = '\0';
	l->n = (size_t)(a - l->v);
	l->text.len = l->text0 + off;
	return (size_t)(s - b->v);
}

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
 * only the action being gathered moves when the list grows.  0, or -1 when
 * there was no memory for its NUL (nothing kept). */
static inline int hg_atok_list_keep(hg_atok_list *l, hg_atok **toks, char **text)
{
	/* an action without tokens has no NUL yet */
	if (l->text.len >= l->text.cap && hg_atok_list_keep_room(l) != 0)
		return -1;
	*toks = l->n > l->first ? l->v + l->first : NULL;
	*text = l->text.data + l->text0;
	l->text.data[l->text.len] = l->split[l->text.len] = '\0';
	l->text.len++;
	l->first = l->n;
	l->text0 = l->text.len;
	l->not_ascii = 0;
	return 0;
}
void hg_atok_list_free(hg_atok_list *l);
/* Makes the list empty, its room a block of arena `a` for `toks` tokens
 * and `bytes` bytes of text (it grows as it must, in new blocks of `a`).
 * hg_atok_list_free() then leaves the room to the arena.  0, or -1 when
 * the block could not be had (the list is empty). */
int hg_atok_list_attach(hg_atok_list *l, struct hg_arena *a, size_t toks, size_t bytes);
/* Makes *t from the seat and the action being gathered in one block
 * (its owner, hg_action_text_own_block) from malloc: the token array, the joined text, each token's
 * text and the seat.  t->pos is the first token's position (the seat's
 * when there is none).  0, or -1 when the block could not be had (*t
 * zeroed). */
int hg_action_text_make(hg_action_text *t, const char *seat, size_t seat_len,
			hg_pos seat_pos, const hg_atok_list *l);

#endif
