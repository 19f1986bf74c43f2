/* notation.c - Crusader Kingdoms: the action syntax (grammar/crusader-
 * kingdoms.ebnf), read from the action's tokens as the lexer cut them:
 * one function for each production of the grammar, from left to right
 * with one token of look-ahead, the keywords from the one table of the
 * syntax's words (notation-words.h), the names resolved against the
 * set-up (seats, map, decks; spellings.c first) and never the position.
 * This is the only reader of an action: it builds the action, or says
 * what is wrong with a diagnostic (doc/design-grammar.md, Crusader Kingdoms;
 * tests/unit/test-ck-grammar.c checks it against every production).
 *
 *   draw [N [?] | ITEM...]                   rule 3, step 1
 *   attack AREA [from AREA] [with CARD...] {& SEAT CARD SIDE}
 *          [turn AREA...] / ROLL vs ROLL / (won [bonus | castle AREA] | lost)
 *   incursion SEAT with ITEM [/ DIE] [discards ITEM...]
 *   play CARD [on SEAT] [at AREA] [draws ITEM...] [takes ITEM...]
 *        [discards ITEM...] [castle AREA...] [attack ...]
 *   discard ITEM
 *   pass [end]
 *   reveal CARD [on SEAT] [at AREA] [takes ITEM...] [discards ITEM...]
 *          [castle AREA...] [army | response | discarded]
 *          [/ (DIE | ?) [attack ...]]             rule 8.3 (a scripted side)
 * where ROLL is DIE... or '?', then [mod DIE>DIE...] and [= HITS].
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ck.h"
#include "notation-words.h"

typedef struct reader {
	const hg_state *s;
	/* the spellings every name is looked up in, found once for the
	 * action: a lookup starts from its table, not from the state two
	 * or three loads away */
	const ck_spellings *cards, *areas, *seats;
	const hg_action_text *t;
	const hg_atok *tok;
	size_t n;		/* tokens */
	size_t i;		/* the next one */
	int ascii;		/* every token is ASCII: keywords are compared
				   byte for byte, without folding */
	int seat;		/* whose cards plain names mean */
	hg_diags *d;
	hg_pos attack_pos;	/* where the attack being read begins */
	hg_action *a;		/* what is read; its lists go in its block,
				   after it (ck_parse_alloc) */
	size_t used, cap;	/* of that room */
} reader;

/* Each element of a list takes a token (a response four, a modification
 * three), and each size is a multiple of 8, which keeps the alignment:
 * 24 bytes a token is room enough. */
#define ROOM_PER_TOKEN 24
_Static_assert(sizeof(ck_item) <= ROOM_PER_TOKEN && sizeof(ck_num) <= ROOM_PER_TOKEN &&
	       sizeof(ck_mod) <= 3 * ROOM_PER_TOKEN &&
	       sizeof(ck_response) <= 4 * ROOM_PER_TOKEN,
	       "a list element takes more room than its tokens allow");
/* The room begins right after the action, in the same block. */
_Static_assert(sizeof(hg_action) % sizeof(uint64_t) == 0,
	       "the lists' room after an action is not aligned");

/* The room for the action's lists: its block, after it. */
static char *room(const reader *r)
{
	return (char *)(r->a + 1);
}

/* Room for n elements of `size` bytes (NULL: none left, which the bound
 * above rules out). */
static void *take_room(reader *r, size_t n, size_t size)
{
	size_t at = (r->used + sizeof(uint64_t) - 1) & ~(sizeof(uint64_t) - 1);
	if (at + n * size > r->cap)
		return NULL;
	r->used = at + n * size;
	return room(r) + at;
}

/* ------------------------------------------------------------- diagnostics */
/* Each returns -1, what the reading functions return for a fault. */

static const char *area_id(const hg_state *s, int seat, int a)
{
	(void)seat;
	return s->map->areas[a].id;
}

static const char *card_id_own(const hg_state *s, int seat, int c)
{
	return s->data->decks[s->sc->factions[seat].religion].cards[c].id;
}

static void suggest(const reader *r, hg_diag *dg, const hg_names *t, const char *name,
		    const char *(*id)(const hg_state *, int, int), int seat)
{
	int v[3];
	size_t n = hg_names_suggest(t, name, v, 3);
	if (n == 0)
		return;
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < n; i++)
		hg_buf_printf(&b, "%s'%s'", i ? (i + 1 == n ? " or " : ", ") : "",
			      id(r->s, seat, v[i]));
	hg_diag_note(dg, "did you mean %s?", b.data);
	hg_buf_free(&b);
}

static __attribute__((cold, noinline)) int unknown_area(const reader *r, const hg_atok *t)
{
	hg_diag *dg = hg_diag_add(r->d, HG_ERROR, t->pos, "ck.unknown-area",
				  "'%s' is not an area of the map '%s'", t->text, r->s->map->id);
	suggest(r, dg, r->s->map->names, t->text, area_id, 0);
	return -1;
}

static __attribute__((cold, noinline)) int unknown_seat(const reader *r, const char *name,
							 hg_pos pos)
{
	hg_diag *dg = hg_diag_add(r->d, HG_ERROR, pos, "ck.unknown-seat",
				  "'%s' is not a faction of the scenario '%s'", name, r->s->sc->id);
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < r->s->nsides; i++)
		hg_buf_printf(&b, "%s%s", i ? ", " : "", r->s->sc->factions[i].id);
	hg_diag_note(dg, "the factions are %s", b.data);
	hg_buf_free(&b);
	return -1;
}

/* A card of neither deck, named for `seat`, whose deck the suggestions
 * come from. */
static __attribute__((cold, noinline)) int unknown_card(const reader *r, const hg_atok *t,
							 int seat)
{
	hg_diag *dg = hg_diag_add(r->d, HG_ERROR, t->pos, "ck.unknown-card",
				  "'%s' is not a card of either deck", t->text);
	int own = r->s->sc->factions[seat].religion;
	suggest(r, dg, r->s->data->decks[own].names, t->text, card_id_own, seat);
	return -1;
}

/* The attack read does not follow the grammar. */
static __attribute__((cold, noinline)) int attack_syntax(const reader *r)
{
	hg_diag *dg = hg_diag_add(r->d, HG_ERROR, r->attack_pos, "ck.syntax",
				  "this attack does not follow the syntax (grammar/crusader-kingdoms.ebnf)");
	hg_diag_note(dg, "e.g. 'attack homs from latakia with tropa-2 tropa-3 & damasco lider defence / 1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus'");
	return -1;
}

/* The action is none of the grammar's: said when no other diagnostic
 * was. */
static __attribute__((cold, noinline)) void syntax_error(const reader *r)
{
	hg_diag *dg = hg_diag_add(r->d, HG_ERROR, r->t->pos, "ck.syntax",
				  "'%s' is not a Crusader Kingdoms action",
				  r->t->text ? r->t->text : "");
	hg_diag_note(dg, "the actions are draw, attack, incursion, play, discard and pass, and a scripted side's reveal (grammar/crusader-kingdoms.ebnf)");
}

/* ----------------------------------------------------------------- tokens */
/* Is the word w of len bytes the keyword kw (small letters) in any case
 * (ck_same_letters)?  No call for a short compare made at every clause. */
static inline int word_is(const char *w, size_t len, const char *kw, size_t kwlen)
{
	return len == kwlen && ck_same_letters(w, kw, len);
}

/* A token of a text with other bytes than ASCII is compared as names
 * are, without regard to case and accents. */
static __attribute__((noinline)) int folded_is(const hg_atok *t, ck_word w)
{
	if (t->kind != HG_ATOK_WORD)
		return 0;
	for (int k = 0; k < CK_WORD_SPELLINGS; k++)
		if (*ck_words[w].spelling[k] && hg_name_eq(t->text, ck_words[w].spelling[k]))
			return 1;
	return 0;
}

/* Is the token t the spelling s (a string literal; "" is none)? */
#define SPELT(t, s) (sizeof s > 1 && word_is((t)->text, (t)->len, s, sizeof s - 1))

/* Is the token the word w, in any of its spellings?  Asked with a
 * constant w, the spellings' lengths and bytes are constants: a compare
 * of the token's length with each, nearly always enough to say no, and
 * of its bytes.  A token of another kind never matches (a number, a '?'
 * or a punctuation character is no keyword); a token read as a name is
 * never asked: the data keeps the words that end a list out of names
 * (data.c, check_word), so a token that names something is no keyword. */
static inline HG_ALWAYS_INLINE int token_is(const reader *r, const hg_atok *t, ck_word w)
{
	if (!r->ascii)
		return folded_is(t, w);
	switch (w) {
#define CK_WORD_IS(name, ends, a, b, c) \
	case CK_W_##name: return SPELT(t, a) || SPELT(t, b) || SPELT(t, c);
	CK_WORD_LIST(CK_WORD_IS)
#undef CK_WORD_IS
	default:
		return 0;
	}
}

/* Reads the word w if it comes next. */
static inline HG_ALWAYS_INLINE int accept(reader *r, ck_word w)
{
	if (r->i < r->n && token_is(r, &r->tok[r->i], w)) {
		r->i++;
		return 1;
	}
	return 0;
}

int ck_word_ends_list(const char *name)
{
	for (int w = 0; w < CK_NWORDS; w++)
		for (int k = 0; ck_words[w].ends_list && k < CK_WORD_SPELLINGS; k++)
			if (*ck_words[w].spelling[k] && hg_name_eq(name, ck_words[w].spelling[k]))
				return 1;
	return 0;
}

static const hg_atok *peek(const reader *r)
{
	return r->i < r->n ? &r->tok[r->i] : NULL;
}

static int is_name(const hg_atok *t)
{
	return t->kind == HG_ATOK_WORD || t->kind == HG_ATOK_NUMBER;
}

/* Is the token the punctuation character c? */
static inline int is_punct(const hg_atok *t, char c)
{
	return t->kind == HG_ATOK_PUNCT && t->len == 1 && t->text[0] == c;
}

static inline int accept_punct(reader *r, char c)
{
	const hg_atok *t = peek(r);
	if (t && is_punct(t, c)) {
		r->i++;
		return 1;
	}
	return 0;
}

/* The next token as a name, or NULL. */
static const hg_atok *take_name(reader *r)
{
	const hg_atok *t = peek(r);
	if (!t || !is_name(t))
		return NULL;
	r->i++;
	return t;
}

/* A name that resolves to nothing ends a list when it is a word that
 * ends lists (a list keyword); any other is a name misspelt. */
static __attribute__((noinline)) int ends_list(const reader *r, const hg_atok *t)
{
	if (t->kind != HG_ATOK_WORD)
		return 0;
	if (!r->ascii)
		return ck_word_ends_list(t->text);
#define CK_WORD_ENDS(name, ends, a, b, c) \
	if (ends && (SPELT(t, a) || SPELT(t, b) || SPELT(t, c))) \
		return 1;
	CK_WORD_LIST(CK_WORD_ENDS)
#undef CK_WORD_ENDS
	return 0;
}

/* -------------------------------------------------------------- numbers */
/* A number token's value, saturating past `cap`. */
static long number_value(const char *s, long cap)
{
	long v = 0;
	for (; *s; s++)
		if (v <= cap)
			v = v * 10 + (*s - '0');
	return v;
}

/* The largest die (or modification's face) and hits a roll is read with;
 * the engine says what is wrong with a smaller number. */
#define DIE_MAX 99
#define HITS_MAX 999

/* A number above its field's largest is an error that quotes the record's
 * digits: clamped to the field's largest value, it would be quoted later
 * as if the record had written that value. */
static __attribute__((cold, noinline)) int number_too_large(const reader *r,
							     const hg_atok *t,
							     const char *code,
							     const char *what,
							     const char *rule)
{
	hg_diag_add(r->d, HG_ERROR, t->pos, code, "%s, not %s (%s)", _(what), t->text, _(rule));
	return -1;
}

/* die_number of more than two digits (leading zeros, or too large). */
static __attribute__((noinline)) int die_number_long(const reader *r, const hg_atok *t,
						     const char *rule)
{
	long v = number_value(t->text, DIE_MAX);
	if (v > DIE_MAX)
		return number_too_large(r, t, "ck.die-range", N_("a die shows 1 to 6"), rule);
	return (int)v;
}

/* A die as written, of a number token: its value, or -1 with a
 * diagnostic past DIE_MAX.  The common case, one or two digits, inline
 * and without a loop. */
static inline int die_number(const reader *r, const hg_atok *t, const char *rule)
{
	const char *x = t->text;
	if (t->len == 1)
		return x[0] - '0';
	if (t->len == 2)
		return (x[0] - '0') * 10 + (x[1] - '0');
	return die_number_long(r, t, rule);
}

/* A modification's face, as die_number. */
static int face_number(const reader *r, const hg_atok *t)
{
	long v = number_value(t->text, DIE_MAX);
	if (v > DIE_MAX)
		return number_too_large(r, t, "ck.mod-die",
					N_("a modification changes a die of 1 to 6 into one of 1 to 6"),
					N_("rule 4.2; ruling 10"));
	return (int)v;
}

/* DIE | '?' after a '/': CK_DIE_HIDDEN for '?'; -1 for a fault. */
static int read_die(reader *r, hg_pos *pos, const char *rule)
{
	const hg_atok *t = peek(r);
	if (!t || (t->kind != HG_ATOK_NUMBER && t->kind != HG_ATOK_UNKNOWN))
		return -1;
	r->i++;
	*pos = t->pos;
	return t->kind == HG_ATOK_UNKNOWN ? CK_DIE_HIDDEN : die_number(r, t, rule);
}

/* ------------------------------------------------------------------ names */
/* Each lookup below is written so that its common case, an id of 4 to 16
 * bytes (ck_spelling_find_n inline), makes no call that returns to it:
 * its other cases end in a tail call (a word of another length looked up
 * whole out of line, a spelling that is no id by the names tables).
 * With a call to come back from, each lookup saved and restored four to
 * six registers at every name. */
static int find_area_any(const reader *r, const hg_atok *t)
{
	const ck_spelling *e = ck_spelling_find_any(r->areas, t->text, t->len);
	return e ? e->value[0] : hg_names_find(r->s->map->names, t->text);
}

static int find_area(const reader *r, const hg_atok *t)
{
	if (!ck_spelling_inline_len(t->len))
		return find_area_any(r, t);
	const ck_spelling *e = ck_spelling_find_n(r->areas, t->text, t->len);
	return e ? e->value[0] : hg_names_find(r->s->map->names, t->text);
}

static int find_seat_any(const reader *r, const char *w, size_t len)
{
	const ck_spelling *e = ck_spelling_find_any(r->seats, w, len);
	return e ? e->value[0] : hg_names_find(r->s->sc->seats, w);
}

static int find_seat(const reader *r, const char *w, size_t len)
{
	if (!ck_spelling_inline_len(len))
		return find_seat_any(r, w, len);
	const ck_spelling *e = ck_spelling_find_n(r->seats, w, len);
	return e ? e->value[0] : hg_names_find(r->s->sc->seats, w);
}

/* A card spelled otherwise than its id (an alias, capitals, accents), by
 * the decks' names tables.  Out of line (and cold: records written by
 * herald spell ids). */
static __attribute__((cold, noinline)) int find_item_by_names(const reader *r, const char *w,
							       ck_item *it)
{
	for (int x = 0; x < CK_NRELIGIONS; x++)
		it->card[x] = (short)hg_names_find(r->s->data->decks[x].names, w);
	return it->card[0] >= 0 || it->card[1] >= 0 ? 0 : -1;
}

static int item_from(const ck_spelling *e, ck_item *it)
{
	it->card[0] = (short)e->value[0];
	it->card[1] = (short)e->value[1];
	return 0;
}

static __attribute__((noinline)) int find_item_any(const reader *r, const hg_atok *t,
						   ck_item *it)
{
	const ck_spelling *e = ck_spelling_find_any(r->cards, t->text, t->len);
	return e ? item_from(e, it) : find_item_by_names(r, t->text, it);
}

/* A card of either deck, or '?' (whose card it is matters only to the
 * diagnostics): 0, or -1 for a name of no card. */
static int find_item(const reader *r, const hg_atok *t, ck_item *it)
{
	it->pos = t->pos;
	it->card[0] = it->card[1] = -1;
	if (t->kind == HG_ATOK_UNKNOWN)
		return 0;
	if (!ck_spelling_inline_len(t->len))
		return find_item_any(r, t, it);
	const ck_spelling *e = ck_spelling_find_n(r->cards, t->text, t->len);
	/* a spelling names a card of some deck */
	return e ? item_from(e, it) : find_item_by_names(r, t->text, it);
}

/* No name comes next (name_area; no diagnostic said). */
#define NO_NAME (-2)

/* area: a name of an area of the map: 0, -1 with a diagnostic, or
 * NO_NAME. */
static int name_area(reader *r, int *area, hg_pos *pos)
{
	const hg_atok *t = take_name(r);
	if (!t)
		return NO_NAME;
	*pos = t->pos;
	*area = find_area(r, t);
	return *area < 0 ? unknown_area(r, t) : 0;
}

/* faction: a seat of the scenario. */
static int name_seat(reader *r, int *seat, hg_pos *pos)
{
	const hg_atok *t = take_name(r);
	if (!t)
		return -1;
	*pos = t->pos;
	*seat = find_seat(r, t->text, t->len);
	return *seat < 0 ? unknown_seat(r, t->text, t->pos) : 0;
}

/* item: a card of `seat`'s (or the other) deck, or '?'. */
static int name_item(reader *r, int seat, ck_item *it)
{
	const hg_atok *t = peek(r);
	if (!t || (t->kind != HG_ATOK_UNKNOWN && !is_name(t)))
		return -1;
	r->i++;
	return find_item(r, t, it) == 0 ? 0 : unknown_card(r, t, seat);
}

/* Room for a list from the next token on, as many elements as tokens
 * remain but at most CK_MAX_LIST (*max), and one more past the limit,
 * where the element that is one too many is read; list_end gives back
 * what the list did not use. */
static void *list_room(reader *r, size_t size, size_t *max)
{
	size_t left = r->n - r->i;
	*max = left < CK_MAX_LIST ? left : CK_MAX_LIST;
	return left ? take_room(r, left < CK_MAX_LIST + 1 ? left : CK_MAX_LIST + 1, size) : NULL;
}

/* The list v of n elements ends: 0, or -1 when empty. */
static int list_end(reader *r, const void *v, int n, size_t size)
{
	r->used = (size_t)((const char *)v - room(r)) + (size_t)n * size;
	return n == 0 ? -1 : 0;
}

/* Is the next token an element of a list of items: '?', or a name that
 * is no list keyword?  1 (with *it), 0 at the list's end, -1 for a name
 * of no card. */
static int next_item(reader *r, int seat, ck_item *it)
{
	const hg_atok *t = peek(r);
	if (!t || (t->kind != HG_ATOK_UNKNOWN && !is_name(t)))
		return 0;
	if (find_item(r, t, it) == 0)
		return 1;
	return ends_list(r, t) ? 0 : unknown_card(r, t, seat);
}

/* items: one or more items, cards of `seat`'s deck. */
static int read_items(reader *r, int seat, ck_items *out)
{
	size_t max;
	out->v = list_room(r, sizeof *out->v, &max);
	if (!out->v)
		return -1;
	out->given = 1;
	out->pos = r->tok[r->i].pos;
	for (int rc; (rc = next_item(r, seat, &out->v[out->n])) != 0; out->n++) {
		if (rc < 0)
			return -1;
		if ((size_t)out->n == max) {
			hg_diag_add(r->d, HG_ERROR, r->tok[r->i].pos, "ck.too-many",
				    "more than %d cards in one list", CK_MAX_LIST);
			return -1;
		}
		r->i++;
	}
	return list_end(r, out->v, out->n, sizeof *out->v);
}

/* ------------------------------------------------------------ the attack */
/* roll: '?' or dice, then [mod FROM > TO ...], then [= HITS]. */
static int read_roll(reader *r, ck_roll *roll)
{
	const hg_atok *t = peek(r);
	if (!t || (t->kind != HG_ATOK_UNKNOWN && t->kind != HG_ATOK_NUMBER))
		return attack_syntax(r);
	roll->pos = t->pos;
	roll->hits = -1;
	roll->given = t->kind != HG_ATOK_UNKNOWN;
	if (!roll->given) {
		r->i++;
	} else {
		/* the dice: the run of numbers, read in one pass into room
		 * for as many as may follow (list_room) */
		const hg_atok *run = &r->tok[r->i];
		size_t max, k = 0, left = r->n - r->i;
		ck_num *dice = list_room(r, sizeof *roll->dice, &max);
		for (; k < left && run[k].kind == HG_ATOK_NUMBER; k++) {
			if (k == max) {
				hg_diag_add(r->d, HG_ERROR, run[k].pos, "ck.too-many",
					    "more than %d dice in one roll", CK_MAX_LIST);
				return -1;
			}
			/* the token read once, before the stores (which
			 * might alias it, for all the compiler knows) */
			hg_pos pos = run[k].pos;
			int v = die_number(r, &run[k], N_("rule 4.2"));
			if (v < 0)
				return -1;
			dice[k].pos = pos;
			dice[k].v = v;
		}
		list_end(r, dice, (int)k, sizeof *dice);
		roll->dice = dice;
		roll->ndice = (int)k;
		r->i += k;
	}
	if (accept(r, CK_W_MOD)) {
		size_t k = r->i;
		while (k + 2 < r->n && r->tok[k].kind == HG_ATOK_NUMBER &&
		       is_punct(&r->tok[k + 1], '>') && r->tok[k + 2].kind == HG_ATOK_NUMBER)
			k += 3;
		k = (k - r->i) / 3;
		if (k == 0)
			return attack_syntax(r);
		if (k > CK_MAX_LIST)
			return -1;
		roll->mods = take_room(r, k, sizeof *roll->mods);
		for (; k > 0; k--, r->i += 3) {
			ck_mod *md = &roll->mods[roll->nmods++];
			md->pos = r->tok[r->i].pos;
			if ((md->from = face_number(r, &r->tok[r->i])) < 0 ||
			    (md->to = face_number(r, &r->tok[r->i + 2])) < 0)
				return -1;
		}
	}
	if (accept_punct(r, '=')) {
		t = peek(r);
		if (!t || t->kind != HG_ATOK_NUMBER)
			return attack_syntax(r);
		r->i++;
		long h = number_value(t->text, HITS_MAX);
		if (h > HITS_MAX)
			return number_too_large(r, t, "ck.hits-wrong",
						N_("a roll makes at most one hit per die"), N_("rule 4.2"));
		roll->hits_pos = t->pos;
		roll->hits = (int)h;
	}
	return 0;
}

/* { & faction card side }: the responses. */
static int read_responses(reader *r, ck_attack *a)
{
	size_t k = r->i, nresp = 0;
	while (k < r->n && is_punct(&r->tok[k], '&')) {
		if (k + 3 >= r->n || !is_name(&r->tok[k + 1]) || !is_name(&r->tok[k + 2]) ||
		    !is_name(&r->tok[k + 3]))
			return attack_syntax(r);
		k += 4;
		nresp++;
	}
	if (nresp == 0)
		return 0;
	a->resp = take_room(r, nresp < CK_MAX_LIST ? nresp : CK_MAX_LIST, sizeof *a->resp);
	for (; nresp > 0; nresp--, r->i += 4) {
		const hg_atok *t = &r->tok[r->i];
		if (a->nresp == CK_MAX_LIST) {
			hg_diag_add(r->d, HG_ERROR, t->pos, "ck.too-many",
				    "more than %d responses in one attack", CK_MAX_LIST);
			return -1;
		}
		ck_response *rp = &a->resp[a->nresp];
		rp->pos = t[0].pos;
		rp->seat = find_seat(r, t[1].text, t[1].len);
		if (rp->seat < 0)
			return unknown_seat(r, t[1].text, t[1].pos);
		if (find_item(r, &t[2], &rp->card) != 0)
			return unknown_card(r, &t[2], rp->seat);
		if (token_is(r, &t[3], CK_W_SIDE_ATTACK)) {
			rp->side = CK_SIDE_ATTACK;
		} else if (token_is(r, &t[3], CK_W_SIDE_DEFENCE)) {
			rp->side = CK_SIDE_DEFENCE;
		} else {
			hg_diag_add(r->d, HG_ERROR, t[3].pos, "ck.syntax",
				    "a response supports the 'attack' or the 'defence', not '%s'",
				    t[3].text);
			return -1;
		}
		a->nresp++;
	}
	return 0;
}

/* turn AREA...: each castle once. */
static int read_turned(reader *r, ck_attack *a)
{
	size_t max;
	a->turned = list_room(r, sizeof *a->turned, &max);
	for (const hg_atok *t; (t = peek(r)) && is_name(t); a->nturned++) {
		int v = find_area(r, t);
		if (v < 0) {
			if (ends_list(r, t))
				break;
			return unknown_area(r, t);
		}
		if ((size_t)a->nturned == max)
			return -1;
		for (int i = 0; i < a->nturned; i++)
			if (a->turned[i].v == v) {
				hg_diag_add(r->d, HG_ERROR, t->pos, "ck.syntax",
					    "castle '%s' is turned twice", r->s->map->areas[v].id);
				return -1;
			}
		a->turned[a->nturned].pos = t->pos;
		a->turned[a->nturned].v = v;
		r->i++;
	}
	if (a->nturned == 0)
		return attack_syntax(r);
	return list_end(r, a->turned, a->nturned, sizeof *a->turned);
}

/* with CARD...: the attacker's troops and responses, named. */
static int read_with(reader *r, ck_attack *a)
{
	size_t max;
	a->with = list_room(r, sizeof *a->with, &max);
	if (!a->with)
		return attack_syntax(r);
	a->with_pos = r->tok[r->i].pos;
	for (int rc; (rc = next_item(r, r->seat, &a->with[a->nwith])) != 0; a->nwith++) {
		if (rc < 0)
			return -1;
		const hg_atok *t = &r->tok[r->i];
		if ((size_t)a->nwith == max) {
			hg_diag_add(r->d, HG_ERROR, t->pos, "ck.too-many",
				    "more than %d cards in one attack", CK_MAX_LIST);
			return -1;
		}
		if (t->kind == HG_ATOK_UNKNOWN) {
			hg_diag_add(r->d, HG_ERROR, t->pos, "ck.syntax",
				    "the attacker's cards are revealed before the combat: name each card (rule 4.1, step 5)");
			return -1;
		}
		r->i++;
	}
	if (list_end(r, a->with, a->nwith, sizeof *a->with) != 0)
		return attack_syntax(r);
	return 0;
}

/* outcome: won [bonus | castle AREA] | lost, the end of the action. */
static int read_outcome(reader *r, ck_attack *a)
{
	const hg_atok *t = peek(r);
	a->won = accept(r, CK_W_WON);
	if (!a->won && !accept(r, CK_W_LOST))
		return attack_syntax(r);
	a->outcome_pos = t->pos;
	a->castle_pos = a->outcome_pos;
	t = peek(r);
	int castle = accept(r, CK_W_CASTLE);
	if (castle || accept(r, CK_W_BONUS)) {
		a->castle_pos = t->pos;
		a->choice = castle ? CK_CHOICE_CASTLE : CK_CHOICE_BONUS;
		const hg_atok *area = peek(r);
		if (castle && !area) {
			hg_diag_add(r->d, HG_ERROR, t->pos, "ck.syntax",
				    "'castle' needs the area whose castle turns to +1");
			return -1;
		}
		if (!castle && area && is_name(area)) {
			hg_diag_add(r->d, HG_ERROR, t->pos, "ck.syntax", "'bonus' takes no area");
			return -1;
		}
		if (castle && (!is_name(area) || name_area(r, &a->castle, &a->castle_pos) != 0))
			return is_name(area) ? -1 : attack_syntax(r);
	}
	return r->i == r->n ? 0 : attack_syntax(r);
}

/* Rules 4.1, 4.2: attack AREA [from AREA] [with CARD...] {& SEAT CARD
 * SIDE} [turn AREA...] / ROLL vs ROLL / outcome, to the end of the
 * action. */
static int read_attack(reader *r, ck_attack *a)
{
	r->attack_pos = r->tok[r->i].pos;
	if (!accept(r, CK_W_ATTACK))
		return -1;
	a->castle = -1;
	a->from = -1;
	int rc = name_area(r, &a->target, &a->target_pos);
	if (rc == 0 && accept(r, CK_W_FROM))
		rc = name_area(r, &a->from, &a->from_pos);
	if (rc != 0)
		return rc == NO_NAME ? attack_syntax(r) : -1;
	if (accept(r, CK_W_WITH) && read_with(r, a) != 0)
		return -1;
	if (read_responses(r, a) != 0)
		return -1;
	if (accept(r, CK_W_TURN) && read_turned(r, a) != 0)
		return -1;
	if (!accept_punct(r, '/'))
		return attack_syntax(r);
	if (read_roll(r, &a->roll[0]) != 0)
		return -1;
	if (!accept(r, CK_W_VS))
		return attack_syntax(r);
	if (read_roll(r, &a->roll[1]) != 0)
		return -1;
	if (!accept_punct(r, '/'))
		return attack_syntax(r);
	return read_outcome(r, a);
}

/* -------------------------------------------------------------- the rest */
/* Rule 3, step 1: draw [N [?] | ITEM...]. */
static int read_draw(reader *r, hg_action *a)
{
	const hg_atok *count = peek(r);
	if (count && count->kind == HG_ATOK_NUMBER)
		r->i++;
	else
		count = NULL;
	if (r->i < r->n && read_items(r, a->seat, &a->draw) != 0)
		return -1;
	if (count) {
		long n = number_value(count->text, CK_MAX_DECK);
		if (count->len > 3 || n > CK_MAX_DECK) {
			hg_diag_add(r->d, HG_ERROR, count->pos, "ck.too-many",
				    "no one draws %s cards", count->text);
			return -1;
		}
		a->draw.given = 1;
		a->draw.count = (int)n;
		a->draw.pos = count->pos;
		/* "draw 7 ?" or "draw 7": seven hidden cards */
		if (a->draw.n > 1 || (a->draw.n == 1 && (a->draw.v[0].card[0] >= 0 ||
							a->draw.v[0].card[1] >= 0))) {
			hg_diag_add(r->d, HG_ERROR, count->pos, "ck.syntax",
				    "a count goes with '?' only: write 'draw %ld ?' or list the cards", n);
			return -1;
		}
	}
	return 0;
}

/* Rule 4.3: incursion SEAT with ITEM [/ DIE] [discards ITEM...]. */
static int read_incursion(reader *r, hg_action *a)
{
	ck_incursion *in = &a->inc;
	in->discards.count = -1;
	if (name_seat(r, &in->target, &in->target_pos) != 0 || !accept(r, CK_W_WITH) ||
	    name_item(r, a->seat, &in->card) != 0)
		return -1;
	if (accept_punct(r, '/') && (in->die = read_die(r, &in->die_pos, N_("rule 4.3"))) == -1)
		return -1;
	if (accept(r, CK_W_DISCARDS) && read_items(r, in->target, &in->discards) != 0)
		return -1;
	return 0;
}

/* castle AREA...: the first castle, then those of the further steps of
 * a gain past +2 (ruling 17), up to the next keyword. */
static int read_castles(reader *r, ck_play *p)
{
	if (name_area(r, &p->castle, &p->castle_pos) != 0)
		return -1;
	for (const hg_atok *t; (t = peek(r)) && is_name(t); r->i++) {
		int x = find_area(r, t);
		if (x < 0 && ends_list(r, t))
			break;
		if (p->nmore == CK_MAX_GAIN - 1) {
			hg_diag_add(r->d, HG_ERROR, t->pos, "ck.too-many",
				    "a bonus step turns at most %d castles", CK_MAX_GAIN);
			return -1;
		}
		if (x < 0)
			return unknown_area(r, t);
		p->more_castles[p->nmore] = x;
		p->more_pos[p->nmore++] = t->pos;
	}
	return 0;
}

/* The arguments of an event (rule 4.4), as play and reveal write them:
 * [on SEAT] [at AREA] [draws ITEM...] (play only) [takes ITEM...]
 * [discards ITEM...] [castle AREA...]. */
static int read_effect_args(reader *r, int seat, int draws, ck_play *p)
{
	p->on = p->at = p->castle = -1;
	p->draws.count = p->takes.count = p->discards.count = -1;
	if (accept(r, CK_W_ON) && name_seat(r, &p->on, &p->on_pos) != 0)
		return -1;
	if (accept(r, CK_W_AT) && name_area(r, &p->at, &p->at_pos) != 0)
		return -1;
	int victim = p->on >= 0 ? p->on : seat;
	if ((draws && accept(r, CK_W_DRAWS) && read_items(r, seat, &p->draws) != 0) ||
	    (accept(r, CK_W_TAKES) && read_items(r, victim, &p->takes) != 0) ||
	    (accept(r, CK_W_DISCARDS) && read_items(r, victim, &p->discards) != 0) ||
	    (accept(r, CK_W_CASTLE) && read_castles(r, p) != 0))
		return -1;
	return 0;
}

/* Rule 4.4: play CARD, its arguments, [attack ...]. */
static int read_play(reader *r, hg_action *a)
{
	ck_play *pl = &a->play;
	const hg_atok *t = take_name(r);
	if (!t)
		return -1;
	if (find_item(r, t, &pl->card) != 0)
		return unknown_card(r, t, a->seat);
	if (read_effect_args(r, a->seat, 1, pl) != 0)
		return -1;
	if (r->i < r->n) {
		pl->has_attack = 1;
		return read_attack(r, &pl->attack);
	}
	return 0;
}

/* Rule 8.3: reveal CARD, its arguments, [army | response | discarded],
 * [/ DIE [attack ...]]. */
static int read_reveal(reader *r, hg_action *a)
{
	ck_reveal *rv = &a->rev;
	const hg_atok *t = peek(r);
	if (t && t->kind == HG_ATOK_UNKNOWN) {
		hg_diag_add(r->d, HG_ERROR, t->pos, "ck.syntax",
			    "the card revealed is shown face up: name it (rule 8.3)");
		return -1;
	}
	if (name_item(r, a->seat, &rv->card) != 0 ||
	    read_effect_args(r, a->seat, 0, &rv->args) != 0)
		return -1;
	t = peek(r);
	int place = accept(r, CK_W_ARMY) ? CK_PLACE_ARMY :
		    accept(r, CK_W_RESPONSE) ? CK_PLACE_RESPONSE :
		    accept(r, CK_W_DISCARDED) ? CK_PLACE_DISCARDED : CK_PLACE_NONE;
	if (place != CK_PLACE_NONE) {
		rv->place_pos = t->pos;
		rv->place = place;
	}
	if (accept_punct(r, '/')) {
		if ((rv->die = read_die(r, &rv->die_pos, N_("rule 8.3"))) == -1)
			return -1;
		if (r->i < r->n) {
			rv->has_attack = 1;
			return read_attack(r, &rv->attack);
		}
	}
	return 0;
}

/* The kind of action the first word names (-1: none), and the token its
 * reading starts from in *from (an attack's reading takes the word too). */
static int kind_of(reader *r, const hg_atok *first, int *from)
{
	static const struct {
		ck_word word;
		ck_kind kind;
	} kinds[] = {
		{ CK_W_ATTACK, CK_ACT_ATTACK },
		{ CK_W_DRAW, CK_ACT_DRAW },
		{ CK_W_PASS, CK_ACT_PASS },
		{ CK_W_PLAY, CK_ACT_PLAY },
		{ CK_W_DISCARD, CK_ACT_DISCARD },
		{ CK_W_INCURSION, CK_ACT_INCURSION },
		{ CK_W_REVEAL, CK_ACT_REVEAL },
	};
	/* unrolled, each token_is() is asked of a constant word (its
	 * spellings' lengths and bytes constants), not through a jump */
#pragma GCC unroll 8
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		if (token_is(r, first, kinds[k].word)) {
			*from = kinds[k].kind == CK_ACT_ATTACK ? 0 : 1;
			return (int)kinds[k].kind;
		}
	return -1;
}

/* The action the first word names, read into a block of the state's
 * (ck_parse_alloc). */
static int read_action(reader *r, int seat, hg_action **out)
{
	int from;
	int kind = kind_of(r, &r->tok[0], &from);
	if (kind < 0)
		return -1;
	/* NULL short of memory: the unit of work reports it */
	*out = r->a = ck_parse_alloc(r->s, (ck_kind)kind, seat, r->cap);
	if (!r->a)
		return -1;
	r->i = (size_t)from;
	switch ((ck_kind)kind) {
	case CK_ACT_ATTACK:
		return read_attack(r, &r->a->attack);
	case CK_ACT_DRAW:
		return read_draw(r, r->a);
	case CK_ACT_PASS:
		r->a->end = accept(r, CK_W_END);
		return 0;
	case CK_ACT_PLAY:
		return read_play(r, r->a);
	case CK_ACT_DISCARD:
		return name_item(r, seat, &r->a->discard);
	case CK_ACT_INCURSION:
		return read_incursion(r, r->a);
	case CK_ACT_REVEAL:
		return read_reveal(r, r->a);
	}
	return -1;
}

static hg_action *read_or_say(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	reader r;
	r.s = s;
	r.cards = &s->data->card_spell;
	r.areas = &s->map->spell;
	r.seats = &s->sc->spell;
	r.t = t;
	r.d = d;
	size_t errors = d->nerrors;
	/* the seat's length comes with it (herald.h: seat_len, its strlen) */
	const char *seat_name = t->seat ? t->seat : "";
	int seat = find_seat(&r, seat_name, t->seat ? t->seat_len : 0);
	hg_pos seat_pos = t->seat_pos.line ? t->seat_pos : t->pos;
	if (seat < 0) {
		unknown_seat(&r, seat_name, seat_pos);
		return NULL;
	}
	r.seat = seat;
	r.tok = t->toks;
	r.n = t->ntoks;
	r.ascii = hg_action_text_is_ascii(t);
	r.used = 0;
	r.cap = r.n * ROOM_PER_TOKEN;
	hg_action *a = NULL;
	if (r.n == 0 || read_action(&r, seat, &a) != 0 || r.i != r.n) {
		if (d->nerrors == errors && !hg_alloc_lost())
			syntax_error(&r);
		ck_free_action(a);
		return NULL;
	}
	a->pos = t->pos;
	a->seat_pos = seat_pos;
	return a;
}

hg_action *ck_parse(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	if (d)
		return read_or_say(s, t, d);
	hg_diags quiet;
	hg_diags_init(&quiet);
	hg_action *a = read_or_say(s, t, &quiet);
	hg_diags_free(&quiet);
	return a;
}
