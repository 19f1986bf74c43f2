/* internal.h - helpers shared inside libherald; not installed. */
#ifndef HERALD_INTERNAL_H
#define HERALD_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "herald-engine.h"

/* A message of the library's own, translated (i18n.c); N_ marks one
 * translated later, where it is shown. */
#define _(msgid) hg_gettext(msgid)
#define N_(msgid) (msgid)

#define HG_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* For a small function on a hot path that the compiler would otherwise
 * call rather than inline. */
#if defined(__GNUC__)
#define HG_ALWAYS_INLINE __attribute__((always_inline))
#else
#define HG_ALWAYS_INLINE
#endif

/* Says that `n` bytes could not be allocated, and aborts. */
void hg_out_of_memory(size_t n) __attribute__((noreturn));

/* Allocation failure reported to the caller (doc/design-apply.md, section
 * 3).  A public entry point of the notation layer (hg_parser_next, the
 * readers and writers, hg_check_game's own part) is one unit of work:
 *
 *	hg_alloc_unit u;
 *	size_t n0 = d->n;
 *	hg_alloc_unit_begin(&u);
 *	... (on a failed allocation: skip, free what it built) ...
 *	if (hg_alloc_unit_end(&u, d, n0, pos) == HG_ENOMEM) ...
 *
 * Inside a unit the hg_try_* allocators return NULL, an hg_buf that cannot
 * grow keeps what it holds and is marked failed (hg_buf_failed), and a
 * diagnostic that cannot be made is dropped (hg_diag_add returns a
 * stand-in that takes notes and keeps none): each records the failure for
 * the unit, which its caller reads at the end.  Outside a unit, hg_buf and
 * diagnostics abort as the hg_x* allocators always do.  Units nest (an
 * inner failure is the outer's too); the state is the thread's. */
typedef struct hg_alloc_unit {
	int outer_failed;
} hg_alloc_unit;
void hg_alloc_unit_begin(hg_alloc_unit *u);
/* Has an allocation failed in the innermost unit? */
int hg_alloc_unit_failed(void);
/* hg_alloc_lost (herald-engine.h): has it, and is the unit reporting (not
 * paused)?  What the code builds now is dropped when the unit ends. */
/* Ends the unit: 0, or HG_ENOMEM when an allocation failed in it, after
 * the diagnostics of d from ndiags on are freed and hg.out-of-memory (at
 * pos) is added in their place (d NULL: nothing to report in). */
int hg_alloc_unit_end(hg_alloc_unit *u, hg_diags *d, size_t ndiags, hg_pos pos);
/* Adds hg.out-of-memory at pos to d (for what failed before its unit). */
void hg_alloc_report(hg_diags *d, hg_pos pos);
/* Is a unit under way on this thread (not paused)? */
int hg_alloc_reporting(void);
/* hg_alloc_failure (herald-engine.h) records a failure in the unit (one of
 * jansson's or libyaml's, which allocate on their own). */
/* Work that aborts on failure inside a unit (an engine's callbacks, the
 * games' data loading): hg_alloc_pause() before it returns what
 * hg_alloc_resume() after it takes. */
unsigned hg_alloc_pause(void);
void hg_alloc_resume(unsigned depth);
/* `call` paused: work that allocates as it always has (the caller's
 * hooks).  An engine's callbacks go through engine-call.h, which pauses
 * those the engine does not report from (hg_game_class.reports_enomem). */
#define HG_PAUSED(call)							\
	do {								\
		unsigned depth_ = hg_alloc_pause();			\
		call;							\
		hg_alloc_resume(depth_);				\
	} while (0)
/* `call` as a unit of work of its own, for a public function that reports
 * allocation failure wherever it is called (libherald(3), ALLOCATION
 * FAILURE): its hg_try_* return NULL, and inside a caller's unit (paused
 * or not) the failure is that unit's too. */
#define HG_OWN_UNIT(call)						\
	do {								\
		hg_alloc_unit own_;					\
		hg_alloc_unit_begin(&own_);				\
		call;							\
		hg_alloc_unit_end(&own_, NULL, 0, (hg_pos){ NULL, 0, 0 }); \
	} while (0)
/* hg_try_malloc, calloc, realloc, strndup and strdup (herald-engine.h)
 * return NULL on failure, which they record in the unit; outside a unit
 * (or paused) a failure aborts as hg_x* do, so that code written with them
 * keeps the abort for callers that check no status. */
/* The openers' (parser, lexer and reader openers return NULL short of
 * memory wherever they are called, libherald(3)): hg_try_* that report
 * NULL outside a unit too (inside one, the failure is that unit's). */
void *hg_open_malloc(size_t n);
void *hg_open_calloc(size_t n, size_t size);
char *hg_open_strdup(const char *s);
/* hg_grow's: 0, or -1 (*v and *cap untouched) on failure. */
int hg_try_grow(void **v, size_t *cap, size_t need, size_t size);
#define HG_TRY_GROW(v, cap, need)						\
	((need) <= (cap) ? 0 : hg_try_grow((void **)&(v), &(cap), (need), sizeof(*(v))))
/* Room in b for `more` bytes after its contents and their NUL: 0, or -1
 * when b has failed, now or before (as hg_buf_putn's growing). */
int hg_buf_reserve(hg_buf *b, size_t more);
/* hg_buf_vprintf's own path (buf-format.c): formats fmt into b as
 * vsnprintf would and returns 0 when fmt has only the conversions it
 * does (%s %c %d %i %u, with l, ll or z for %zu, and %%); else returns -1
 * without reading ap. */
int hg_buf_format_plain(hg_buf *b, const char *fmt, va_list ap);
/* Ends a writer's unit of work: 0, or HG_ENOMEM with `out` cut back to
 * the len0 bytes it held and marked failed. */
int hg_write_unit_end(hg_alloc_unit *u, hg_buf *out, size_t len0);
/* hg_datapath_init that returns -1 (p empty) rather than abort when
 * there is no memory for it (hg_try_*: outside a unit it aborts). */
int hg_datapath_try_init(hg_datapath *p, const char *data_dir);
/* hg_write_file_atomic in two steps, for a caller that writes more than
 * one file and must not run out of memory once it has written the first
 * (the game master): hg_atomic_names_make allocates the file's names (0,
 * or -1 with errno: ENOMEM short of memory, inside a unit of work), then
 * hg_atomic_write writes it as hg_write_file_atomic does, allocating
 * nothing (0, or -1 with errno; once only), and hg_atomic_names_free frees
 * the names. */
typedef struct hg_atomic_names {
	char *target;		/* the file replaced (hg_rewrite_target) */
	char *tmp;		/* the template of the temporary file beside it */
} hg_atomic_names;
int hg_atomic_names_make(hg_atomic_names *n, const char *path);
int hg_atomic_write(hg_atomic_names *n, const char *data, size_t len);
void hg_atomic_names_free(hg_atomic_names *n);
/* A pending action's secret (pending.c) written as the record is, in two
 * steps: hg_pending_secret_make allocates all it needs (0, or -1 with
 * errno: ENOMEM short of memory, inside a unit of work), then
 * hg_pending_secret_put writes it, allocating nothing (0, or -1 with
 * errno); hg_pending_secret_free frees it (after a 0 from make). */
typedef struct hg_pending_secret {
	const char *path;
	hg_buf text;
	hg_atomic_names names;
} hg_pending_secret;
int hg_pending_secret_make(hg_pending_secret *s, const char *path, const char *commit,
			   size_t nactions, const hg_pending *p);
int hg_pending_secret_put(hg_pending_secret *s);
void hg_pending_secret_free(hg_pending_secret *s);
/* Frees the diagnostics of d from n on. */
void hg_diags_truncate(hg_diags *d, size_t n);

/* The capacity `cap` doubled (from 8 at least) until it holds `need`
 * elements of `size` bytes. */
size_t hg_grown(size_t cap, size_t need, size_t size);
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
/* The same, the block aligned for `align` (a power of two) only: for small
 * blocks of a known type, or text (1). */
void *hg_arena_alloc_aligned(struct hg_arena *a, size_t size, size_t align);
/* The same that return NULL on failure (recorded in the unit of work). */
struct hg_arena *hg_arena_try_new(void);
void *hg_arena_try_alloc(struct hg_arena *a, size_t size, size_t align);
void hg_arena_free(struct hg_arena *a);

/* A record as the library keeps it (record.c): the model, then the memory
 * its parts come from, which its users do not see.  hg_record_new makes
 * every record one of these. */
typedef struct hg_record_impl {
	hg_game_record pub;		/* first: what callers see */
	struct hg_arena *arena;		/* the parser's blocks for the actions
					   (or NULL), freed with the record */
	int tags_in_arena;		/* the tags' names and values are the
					   arena's */
} hg_record_impl;

static inline hg_record_impl *hg_record_impl_of(hg_game_record *g)
{
	return (hg_record_impl *)g;
}

static inline const hg_record_impl *hg_record_impl_of_const(const hg_game_record *g)
{
	return (const hg_record_impl *)g;
}

/* Where an action's parts live (hg_action_text.owner, opaque in herald.h):
 * NULL, each piece is malloc'd and the action's own;
 * hg_action_owner_arena(), its record's arena has them (freed with the
 * record); otherwise one malloc'd block holds them all (the owner is the
 * block).  The lexer and the parser set it through these two. */
struct hg_action_owner *hg_action_owner_arena(void);
static inline void hg_action_text_own_block(hg_action_text *t, void *block)
{
	t->owner = block;
}
static inline void hg_action_text_in_arena(hg_action_text *t)
{
	t->owner = hg_action_owner_arena();
}

/* 1 when t is written exactly "seat: body" (its tokens joined by single
 * spaces, as the writer puts them), else 0. */
int hg_action_text_spells(const hg_action_text *t, const char *seat, size_t seat_len,
			  const char *body, size_t body_len);

/* A copy of the n bytes at s for a tag of g: in its arena where its tags
 * are (tags_in_arena), else malloc'd; hg_record_str_drop() lets a copy go
 * that did not become a tag. */
char *hg_record_strndup(hg_game_record *g, const char *s, size_t n);
/* hg_record_new, hg_record_set_tag, hg_line_new and hg_line_push that
 * fail (NULL, -1) rather than abort, for the units of work. */
hg_game_record *hg_record_try_new(const char *file);
int hg_record_try_set_tag(hg_game_record *g, const char *name, const char *value);
hg_line *hg_line_try_new(void);
hg_node *hg_line_try_push(hg_line *l, hg_node_kind kind, hg_pos pos);

/* Are the n bytes at name a tag name: an ASCII letter, then ASCII letters,
 * digits and '_' (grammar/hgn.ebnf, tag name)? */
int hg_tag_name_ok(const char *name, size_t n);
void hg_record_str_drop(const hg_game_record *g, char *s);

/* The PRNG's words and draws inline (prng.c), for the library's own hot
 * callers: a die of constant sides then costs a multiplication where the
 * call to hg_prng_die() costs a division and two calls.  hg_prng_below()
 * and hg_prng_die() are these; the stream is the one of
 * herald-notation(5), CHANCE. */
void hg_prng_next_block(hg_prng *r);

/* The keystream's next word, read little-endian at *used (which it
 * advances): the caller has refilled the stream if fewer than 4 bytes
 * were left. */
static inline HG_ALWAYS_INLINE uint32_t hg_prng_take_word(const unsigned char *stream,
							  unsigned *used)
{
	const unsigned char *p = stream + *used;
	*used += 4;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline HG_ALWAYS_INLINE uint32_t hg_prng_word(hg_prng *r)
{
	if (r->used + 4 > sizeof r->stream)
		hg_prng_next_block(r);
	return hg_prng_take_word(r->stream, &r->used);
}

/* The rule of below(n) for one word w (n > 1): 1 with *v = w mod n when w
 * is accepted, else 0 (the next word is drawn). */
static inline HG_ALWAYS_INLINE int hg_prng_accept(uint32_t w, uint32_t n, uint32_t *v)
{
	/* Accepted when w < 2^32 - (2^32 mod n).  As 2^32 mod n < n, every
	 * w below 2^32 - n is, and only the few above need the division:
	 * 2^32 mod n, computed in 32 bits, is (2^32 - n) mod n. */
	if (w < 0u - n || (uint64_t)w < ((uint64_t)1 << 32) - (0u - n) % n) {
		*v = w % n;
		return 1;
	}
	return 0;
}

static inline HG_ALWAYS_INLINE uint32_t hg_prng_below_inline(hg_prng *r, uint32_t n)
{
	uint32_t v;
	if (n <= 1)
		return 0;
	while (!hg_prng_accept(hg_prng_word(r), n, &v))
		;
	return v;
}

static inline HG_ALWAYS_INLINE unsigned hg_prng_die_inline(hg_prng *r, unsigned sides)
{
	return 1 + hg_prng_below_inline(r, sides);
}

/* The same stream, its blocks made HG_PRNG_WIDE_BLOCKS at a time: for a
 * stream drawn from all game long (Crusader Kingdoms' dice), where
 * libsodium makes eight blocks in one call for a third of what eight
 * calls for one block cost.  Every word, draw and die is the one the
 * hg_prng of the same seed gives (test-prng). */
#define HG_PRNG_WIDE_BLOCKS 8
typedef struct hg_prng_wide {
	unsigned char key[32];
	uint32_t block;		/* the first block after the stream's */
	unsigned used;
	unsigned char stream[64 * HG_PRNG_WIDE_BLOCKS];
} hg_prng_wide;

void hg_prng_wide_seed(hg_prng_wide *r, const char *seed);
void hg_prng_wide_next_blocks(hg_prng_wide *r);

static inline HG_ALWAYS_INLINE uint32_t hg_prng_wide_word(hg_prng_wide *r)
{
	if (r->used + 4 > sizeof r->stream)
		hg_prng_wide_next_blocks(r);
	return hg_prng_take_word(r->stream, &r->used);
}

static inline HG_ALWAYS_INLINE unsigned hg_prng_wide_die(hg_prng_wide *r, unsigned sides)
{
	uint32_t v;
	if (sides <= 1)
		return 1;
	while (!hg_prng_accept(hg_prng_wide_word(r), sides, &v))
		;
	return 1 + v;
}

/* True when no byte of s[0..n) is above 0x7f. */
int hg_is_ascii(const char *s, size_t n);

/* True when `word` is `lower` (written in small letters) in any case of
 * its ASCII letters: the games' keywords, compared without folding. */
int hg_ascii_caseless_eq(const char *word, const char *lower);

/* The same for n bytes whose length is known, without a call, for the
 * games' token readers: are the n bytes at a those at b, each byte of a
 * OR'ed with `fold` first?  With fold 0 this is memcmp(a, b, n) == 0.
 * With fold 0x20 and b in small letters it is hg_ascii_caseless_eq: c |
 * 0x20 is a small letter only when c is that letter, small or capital (a
 * token holds no control character).  Words of 2, 4 or 8 bytes are
 * compared, the last one overlapping the one before: no loop but for
 * more than 16 bytes. */
static inline int hg_ascii_same(const char *a, const char *b, size_t n, unsigned char fold)
{
	if (n >= 8) {
		const uint64_t low = fold * UINT64_C(0x0101010101010101);
		uint64_t x, y;
		for (size_t k = 0; k + 16 < n; k += 8) {	/* past 16 bytes */
			memcpy(&x, a + k, 8);
			memcpy(&y, b + k, 8);
			if ((x | low) != y)
				return 0;
		}
		size_t k = n > 16 ? n - 16 : 0;
		uint64_t a0, b0, a1, b1;
		memcpy(&a0, a + k, 8);
		memcpy(&b0, b + k, 8);
		memcpy(&a1, a + n - 8, 8);
		memcpy(&b1, b + n - 8, 8);
		return ((a0 | low) == b0) & ((a1 | low) == b1);
	}
	if (n >= 4) {
		const uint32_t low = fold * 0x01010101u;
		uint32_t a0, b0, a1, b1;
		memcpy(&a0, a, 4);
		memcpy(&b0, b, 4);
		memcpy(&a1, a + n - 4, 4);
		memcpy(&b1, b + n - 4, 4);
		return ((a0 | low) == b0) & ((a1 | low) == b1);
	}
	if (n >= 2) {
		const uint16_t low = (uint16_t)(fold * 0x0101u);
		uint16_t a0, b0, a1, b1;
		memcpy(&a0, a, 2);
		memcpy(&b0, b, 2);
		memcpy(&a1, a + n - 2, 2);
		memcpy(&b1, b + n - 2, 2);
		return ((uint16_t)(a0 | low) == b0) & ((uint16_t)(a1 | low) == b1);
	}
	return n == 0 || (unsigned char)(a[0] | fold) == (unsigned char)b[0];
}

/* A control character, which HGN allows nowhere in a record
 * (herald-notation(5)): C0 but tab, line feed and carriage return; DEL; C1
 * but U+0085, a blank. */
static inline int hg_is_control(uint32_t c)
{
	if (c < 0x20)
		return c != '\t' && c != '\n' && c != '\r';
	return c == 0x7F || (c >= 0x80 && c <= 0x9F && c != 0x85);
}
/* The first control character of the UTF-8 text s, or -1 when it has none
 * (bytes that are not UTF-8 are skipped: they are reported elsewhere). */
long hg_first_control(const char *s);

/* Appends the n items, sep between each two (nothing for none). */
void hg_buf_join(hg_buf *b, char *const *items, size_t n, const char *sep);

/* Appends s in single quotes for a message: control characters escaped,
 * anything past 60 characters cut (at a character boundary) to "...". */
void hg_quote(hg_buf *b, const char *s);
/* `provenance`, `source` or `reconstructed`: the keys any mapping of a data
 * document may hold (provenance.c, herald-data(5)). */
int hg_prov_is_key(const char *name);

/* Limits on hostile input (documented in herald-notation(5), LIMITS). */
#define HG_MAX_NESTING 64		/* variations inside variations */
#define HG_MAX_TOKEN (64 * 1024)	/* bytes in one token, comment or tag value */
#define HG_MAX_LINE (1024 * 1024)	/* bytes in one line */
#define HG_MAX_GAME (16 * 1024 * 1024)	/* bytes in one game */
#define HG_MAX_ACTIONS 100000		/* actions in one game, all lines */
#define HG_MAX_TAGS 1024		/* tag pairs in one game */
/* Move numbers, comments, NAGs and variations in one game, all lines. */
#define HG_MAX_ELEMENTS (4 * HG_MAX_ACTIONS)

#endif
