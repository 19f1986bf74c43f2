/* internal.h - helpers shared inside libherald; not installed. */
#ifndef HERALD_INTERNAL_H
#define HERALD_INTERNAL_H

#include "herald.h"

#define HG_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Grows *v (of *cap elements of `size` bytes) so that it holds `need`. */
void hg_grow(void **v, size_t *cap, size_t need, size_t size);
/* The same, the test for room kept inline (it is made for every element
 * appended); `need` is evaluated twice. */
#define HG_GROW(v, cap, need)							\
	do {									\
		if ((need) > (cap))						\
			hg_grow((void **)&(v), &(cap), (need), sizeof(*(v)));	\
	} while (0)

/* A region allocator: many small blocks with one lifetime (a record's
 * actions), taken from large chunks and freed all at once.  Blocks are
 * aligned for any type. */
struct hg_arena;
struct hg_arena *hg_arena_new(void);
void *hg_arena_alloc(struct hg_arena *a, size_t size);
void hg_arena_free(struct hg_arena *a);

/* True when no byte of s[0..n) is above 0x7f. */
int hg_is_ascii(const char *s, size_t n);

/* True when `word` is `lower` (written in small letters) in any case of
 * its ASCII letters: the games' keywords, compared without folding. */
int hg_ascii_caseless_eq(const char *word, const char *lower);

/* Appends s in single quotes for a message: control characters escaped,
 * anything past 60 characters cut (at a character boundary) to "...". */
void hg_quote(hg_buf *b, const char *s);

/* Limits on hostile input (documented in herald-notation(5), LIMITS). */
#define HG_MAX_NESTING 64		/* variations inside variations */
#define HG_MAX_TOKEN (64 * 1024)	/* bytes in one token, comment or tag value */
#define HG_MAX_LINE (1024 * 1024)	/* bytes in one line */
#define HG_MAX_GAME (16 * 1024 * 1024)	/* bytes in one game */
#define HG_MAX_ACTIONS 100000		/* actions in one game, all lines */

#endif
