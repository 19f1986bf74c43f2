/* atok.c - the lists of action tokens: the body tokens of a game's
 * actions as they are gathered, one action after another, in the record's
 * arena or in malloc'd room (atok.h), from the tokens of hg_lexer_next()
 * or of the fast scanner's batches. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "atok.h"

/* Bytes a short token is copied by, in one fixed-size move (most tokens are
 * shorter). */
#define SHORT_COPY 16

/* Writes the n bytes at s (`end` the end of the readable bytes after
 * them) at offset `at` of a list's twin texts, after a blank or a NUL
 * unless they begin the action (at offset text0): *off is their offset in
 * the action's text; returns the offset of the NUL after them. */
static inline HG_ALWAYS_INLINE size_t twin_put(char *joined, char *split, size_t at, size_t text0,
					       const unsigned char *s, size_t n,
					       const unsigned char *end, size_t *off)
{
	/* the separator is written always, and overwritten where there is
	 * none */
	joined[at] = ' ';
	split[at] = '\0';
	at += at != text0;
	*off = at - text0;
	if (n <= SHORT_COPY && (size_t)(end - s) >= SHORT_COPY) {
		memcpy(joined + at, s, SHORT_COPY);	/* the rest is overwritten */
		memcpy(split + at, s, SHORT_COPY);
	} else {
		memcpy(joined + at, s, n);
		memcpy(split + at, s, n);
	}
	at += n;
	joined[at] = split[at] = '\0';
	return at;
}

/* Is there no room for one more token of tn bytes in a list of n tokens
 * (room for cap) and len bytes of text (room for tcap)?  A token takes a
 * separator, a SHORT_COPY move or its bytes, and a NUL. */
static inline int atok_full(size_t n, size_t cap, size_t len, size_t tcap, size_t tn)
{
	return n == cap || tcap - len < tn + SHORT_COPY + 2;
}

/* Makes the arena list's room a new block of the arena, for cap tokens
 * and tcap bytes of each text, and moves the action being gathered there
 * (at least that much room is asked for): the actions kept stay where
 * they are, in the old block, which is written no more (an arena frees
 * nothing before its record).  The action's tokens already gathered keep
 * their texts in the old block's split; their offsets are the action's
 * own, so they do not change. */
static int atok_arena_block(hg_atok_list *l, size_t cap, size_t tcap)
{
	if (cap > ((size_t)-1 - 2 * (size_t)tcap) / sizeof *l->v) {
		hg_alloc_failure();
		return -1;
	}
	hg_atok *v = hg_arena_try_alloc(l->arena, cap * sizeof *v + 2 * tcap, _Alignof(hg_atok));
	if (!v)
		return -1;	/* the list as it was */
	char *joined = (char *)(v + cap), *split = joined + tcap;
	size_t n = l->n - l->first, len = l->text.len - l->text0;
	if (n)
		memcpy(v, l->v + l->first, n * sizeof *v);
	if (len) {
		memcpy(joined, l->text.data + l->text0, len);
		memcpy(split, l->split + l->text0, len);
	}
	/* the NUL after its last token, which a seat prefix ending the
	 * action finds there: room made ahead of a run of tokens that then
	 * took none moves the action without putting a token after it */
	if (len < tcap)
		joined[len] = split[len] = '\0';
	l->v = v;
	l->cap = cap;
	l->n = n;
	l->first = 0;
	l->text.data = joined;
	l->split = split;
	l->text.cap = tcap;
	l->text.len = len;
	l->text0 = 0;
	return 0;
}

/* Room in an arena list for `toks` more tokens and `more` more bytes of
 * text: where it lacks either, it goes on in a block as large as the
 * last, or larger if the action being gathered needs it (only that action
 * moves). */
static int atok_arena_room(hg_atok_list *l, size_t toks, size_t more)
{
	if (l->n + toks <= l->cap && more <= l->text.cap - l->text.len)
		return 0;
	return atok_arena_block(l, hg_grown(l->cap, l->n - l->first + toks, sizeof *l->v),
			 hg_grown(l->text.cap, l->text.len - l->text0 + more, 2));
}

/* Room for `more` bytes after the list's twin texts: 0, or -1 (the list
 * as it was). */
static int atok_text_room(hg_atok_list *l, size_t more)
{
	if (l->arena)
		return atok_arena_room(l, 0, more);
	if (more <= l->text.cap - l->text.len)
		return 0;
	/* the twins grow to one size, the split first: the joined text's
	 * capacity is both's */
	size_t cap = hg_grown(l->text.cap, l->text.len + more, 1);
	char *split = hg_try_realloc(l->split, cap);
	if (!split)
		return -1;
	l->split = split;
	char *joined = hg_try_realloc(l->text.data, cap);
	if (!joined)
		return -1;
	l->text.data = joined;
	l->text.cap = cap;
	return 0;
}

int hg_atok_list_attach(hg_atok_list *l, struct hg_arena *a, size_t toks, size_t bytes)
{
	hg_atok_list_free(l);
	l->arena = a;
	return atok_arena_block(l, toks, bytes);
}

int hg_atok_list_room(hg_atok_list *l, size_t toks, size_t more)
{
	if (l->arena)
		return atok_arena_room(l, toks, more);
	if (HG_TRY_GROW(l->v, l->cap, l->n + toks) != 0)
		return -1;
	return atok_text_room(l, more);
}

/* Room in the list for one more token of tn bytes: 0, or -1. */
static int atok_room(hg_atok_list *l, size_t tn)
{
	return hg_atok_list_room(l, 1, tn + SHORT_COPY + 2);
}

/* Appends one token of `n` bytes at `s` (already classified) to the list;
 * `end` is the end of the readable bytes after s. */
static inline void atok_put(hg_atok_list *l, hg_atok_kind kind, hg_pos pos,
			    const unsigned char *s, size_t n, const unsigned char *end)
{
	if (atok_full(l->n, l->cap, l->text.len, l->text.cap, n) && atok_room(l, n) != 0)
		return;	/* dropped: the unit of work ends in HG_ENOMEM */
	hg_atok *a = &l->v[l->n++];
	a->kind = kind;
	a->len = (unsigned)n;
	a->pos = pos;
	l->text.len = twin_put(l->text.data, l->split, l->text.len, l->text0, s, n, end, &a->off);
	a->text = l->arena ? l->split + l->text0 + a->off : NULL;
}

int hg_atok_list_keep_room(hg_atok_list *l)
{
	return atok_text_room(l, 1);
}

void hg_atok_list_push(hg_atok_list *l, const hg_token *tk, const char *file)
{
	static const hg_atok_kind kinds[] = {
		[HG_TK_WORD] = HG_ATOK_WORD, [HG_TK_NUMBER] = HG_ATOK_NUMBER,
		[HG_TK_PUNCT] = HG_ATOK_PUNCT, [HG_TK_HIDDEN] = HG_ATOK_UNKNOWN,
	};
	if (!hg_is_ascii(tk->text, tk->len))
		l->not_ascii = 1;
	hg_pos pos = tk->pos;
	pos.file = file;
	const unsigned char *s = (const unsigned char *)tk->text;
	atok_put(l, kinds[tk->kind], pos, s, tk->len, s + tk->len);
}

void hg_atok_list_free(hg_atok_list *l)
{
	if (!l->arena) {	/* (an arena's room is the arena's) */
		free(l->v);
		hg_buf_free(&l->text);
		free(l->split);
	}
	memset(l, 0, sizeof *l);
}
